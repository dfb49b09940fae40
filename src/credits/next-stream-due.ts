import { isArray } from '../_lib/describe.js'
import type { StreamLedgerState, StreamRecord } from './ledger-types.js'

/**
 * The earliest renewal due time of a state (epoch ms), or undefined without open streams: when a server
 * should call renew next. A value that is not a stream ledger state (`null`, a string, an object whose
 * `streams` is not an array or cannot be read) holds no open stream: the answer is `undefined`, never a throw;
 * a stream record that is not an open one with a finite `dueAt` is passed over. Check a state read back from
 * storage with `createStreamLedger({ state })`, which refuses an invalid one naming the field.
 *
 * @param state - the stored state, or `undefined` for an account or connection never seen
 * @returns the earliest `dueAt` of an open stream, or `undefined` when there is none
 * @throws never: bad input is answered, not thrown
 * @example
 * nextStreamDue(streamConfirm(streamHandshake(undefined, 0, 'candles').state, 7, 's1').state) // 300007
 * nextStreamDue(null as never) // undefined
 */
export function nextStreamDue(state: StreamLedgerState | undefined): number | undefined {
  try {
    if (typeof state !== 'object' || state === null) return undefined
    const streams: unknown = state.streams
    if (!isArray(streams)) return undefined
    let due: number | undefined
    for (let i = 0; i < streams.length; i++) {
      const r = streams[i] as Partial<StreamRecord> | null | undefined
      if (typeof r !== 'object' || r === null || r.status !== 'open') continue
      const at = r.dueAt
      if (typeof at === 'number' && Number.isFinite(at) && (due === undefined || at < due)) due = at
    }
    return due
  } catch {
    // a getter or Proxy trap of a hand-made value threw: no state a ledger wrote, so no open stream
    return undefined
  }
}
