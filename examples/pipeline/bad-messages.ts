// Bad records to mix into a feed (for the dead-letter tests): each message, where it goes, and the reason the
// pipeline must keep with it.
import type { OutgoingMessage, ReplaySecurity } from './replay.js'
import { clockSubject, encodeTrade, tradeSubject } from './subjects.js'

/** A bad message and the rule its refusal must name. */
export interface BadMessage {
  payload: string
  reason: RegExp
}

const utf8 = new TextEncoder()

/**
 * `good` with bad messages inserted at 10%, 20%, ... of the feed: malformed JSON, an envelope without a
 * sequence, a price that is not a decimal, a negative volume, an unknown side, a late trade, one stamped in
 * 2200 (past any `maxTime`), a price off the tick grid, an unregistered security and a malformed clock.
 */
export function badMessages(
  good: readonly OutgoingMessage[],
  securities: readonly ReplaySecurity[],
  partitions: number,
): { messages: OutgoingMessage[]; reasons: BadMessage[] } {
  const s = securities[0]!
  const first = s.trades.time[0]!
  const at = (seq: number, fields: Record<string, unknown>) => ({
    exchange: s.exchange,
    symbol: s.symbol,
    seq,
    time: first,
    price: String(s.trades.price[0]),
    volume: '1',
    side: 'buy',
    ...fields,
  })
  const subject = tradeSubject(s.exchange, s.symbol, partitions)
  const bad: { subject: string; payload: string; reason: RegExp }[] = [
    { subject, payload: '{"exchange":"SIM",', reason: /not JSON/ },
    { subject, payload: JSON.stringify({ exchange: s.exchange, symbol: s.symbol }), reason: /^seq/ },
    { subject, payload: JSON.stringify(at(900_001, { price: 'abc' })), reason: /price/ },
    { subject, payload: JSON.stringify(at(900_002, { volume: '-1' })), reason: /volume/ },
    { subject, payload: JSON.stringify(at(900_003, { side: 'short' })), reason: /side/ },
    { subject, payload: JSON.stringify(at(900_004, {})), reason: /late_record/ },
    { subject, payload: JSON.stringify(at(900_005, { time: Date.UTC(2200, 0, 1) })), reason: /out_of_range/ },
    { subject, payload: JSON.stringify(at(900_006, { price: `${String(s.trades.price[0])}1` })), reason: /tick grid/ },
    {
      subject: tradeSubject('SIM', 'NOPE', partitions),
      payload: new TextDecoder().decode(encodeTrade({ ...at(1, {}), symbol: 'NOPE' } as never)),
      reason: /not registered/,
    },
    { subject: clockSubject(0), payload: '{"clock":"soon"}', reason: /clock/ },
  ]
  const messages = [...good]
  // from the back, so earlier positions stay where they were; every bad one lands before the closing clocks
  const body = good.length - partitions
  for (let i = bad.length - 1; i >= 0; i--) {
    const b = bad[i]!
    const pos = Math.floor((body * (i + 1)) / (bad.length + 1))
    messages.splice(pos, 0, { subject: b.subject, id: `bad:${i}`, data: utf8.encode(b.payload), time: 0 })
  }
  return { messages, reasons: bad.map((b) => ({ payload: b.payload, reason: b.reason })) }
}
