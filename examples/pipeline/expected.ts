// What the store must hold, computed by the batch functions from the trades themselves: per security, session
// and minute, the 1m candle, the one-tick 1m footprint and the times of the first and last trade, as the JSON
// text a minute_bars row holds. Tests compare the store with this, row for row and byte for byte.
import { candlesFromTrades, columnsToTrades, footprintProfiles, type SessionType } from '../../src/index.js'
import type { ReplaySecurity } from './replay.js'
import { MINUTE_MS } from './security-state.js'
import type { Sql } from './sql.js'

/** A stored minute as text: `exchange:symbol:session:minute` -> candle, footprint, open and close times. */
export type BarTexts = Map<string, string>

const barKey = (exchange: string, symbol: string, session: string, minute: number): string =>
  `${exchange}:${symbol}:${session}:${minute}`

/** The minutes the batch functions give for these securities' trades. */
export function expectedBars(securities: readonly ReplaySecurity[]): BarTexts {
  const out: BarTexts = new Map()
  for (const s of securities) {
    const trades = columnsToTrades(s.trades)
    const present = new Set<SessionType>(trades.map((t) => t.session ?? 'MAINSESSION'))
    for (const session of present) {
      const opts = { timeframe: '1m' as const, tickSize: s.tickSize, sessions: [session] }
      const candles = candlesFromTrades(s.trades, opts)
      const profiles = footprintProfiles(s.trades, { ...opts, rowSize: 1 })
      const times = new Map<number, [number, number]>()
      for (const t of trades) {
        if ((t.session ?? 'MAINSESSION') !== session) continue
        const m = Math.floor(t.time / MINUTE_MS) * MINUTE_MS
        const x = times.get(m)
        if (x === undefined) times.set(m, [t.time, t.time])
        else times.set(m, [Math.min(x[0], t.time), Math.max(x[1], t.time)])
      }
      candles.forEach((c, i) => {
        const tt = times.get(c.time)!
        out.set(
          barKey(s.exchange, s.symbol, session, c.time),
          `${JSON.stringify(c)}|${JSON.stringify(profiles[i])}|${tt[0]}|${tt[1]}`,
        )
      })
    }
  }
  return out
}

/** The minutes the store holds, in the same text form (the json columns as stored). */
export async function storedBars(sql: Sql): Promise<BarTexts> {
  const rows = await sql.query<{
    exchange: string
    symbol: string
    session: string
    minute: unknown
    c: string
    f: string
    o: unknown
    cl: unknown
  }>(
    `select exchange, symbol, session, minute, candle::text as c, footprint::text as f,
            open_time as o, close_time as cl from minute_bars`,
  )
  const out: BarTexts = new Map()
  for (const r of rows)
    out.set(barKey(r.exchange, r.symbol, r.session, Number(r.minute)), `${r.c}|${r.f}|${r.o}|${r.cl}`)
  return out
}

/** Keys whose texts differ (or exist on one side only), at most `limit` of them: empty when the two agree. */
export function diffBars(want: BarTexts, got: BarTexts, limit = 5): string[] {
  const out: string[] = []
  for (const [k, v] of want)
    if (got.get(k) !== v && out.length < limit) out.push(`${k}: ${got.has(k) ? 'differs' : 'missing'}`)
  for (const k of got.keys()) if (!want.has(k) && out.length < limit) out.push(`${k}: not expected`)
  return out
}
