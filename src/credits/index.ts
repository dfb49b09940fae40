export type {
  LedgerTransition,
  RateLimitHeaders,
  RestLedgerState,
  StreamKind,
  StreamLedgerState,
  StreamRecord,
} from './ledger-types.js'
export type {
  RestCheckOutcome,
  RestChargeOutcome,
  RestLedger,
} from './rest-ledger.js'
export { REST_CREDIT_LIMIT, REST_WINDOW_MS, restCheck, restCharge, createRestLedger } from './rest-ledger.js'
export type {
  StreamErrorFrame,
  StreamNotice,
  HandshakeOutcome,
  ConfirmOutcome,
  EndOutcome,
  RenewOutcome,
  StreamLedger,
} from './stream-ledger.js'
export {
  STREAM_CREDIT_LIMIT,
  STREAM_WINDOW_MS,
  STREAM_PRICES,
  STREAM_CAPS,
  streamHandshake,
  streamConfirm,
  streamRenew,
  streamClose,
  streamUpstreamError,
  createStreamLedger,
} from './stream-ledger.js'
export { nextStreamDue } from './next-stream-due.js'
export type { RangeTruncatedFrame } from './range-truncated.js'
export { rangeTruncatedFrame } from './range-truncated.js'
