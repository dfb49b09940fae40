// The reference server's market store answered from what the pipeline stored. The server's handlers compute
// every history answer from a security's trades in a window, so this store gives them, for each security of
// the catalog, one representative trade sequence rebuilt from the stored minutes: per minute and session, the
// one-tick footprint's rows (each row's buy and sell volume on one trade, and zero-volume trades making up its
// trade counts), the first trade at the candle's open and at the minute's first trade time, the last at its
// close and last trade time. Every answer of a frame of one minute or longer (candles of any such frame,
// footprint of any frame and row size, TPO of any block size, sessions filter and grouping) is then the one
// the original trades give, exactly (docs/decisions/0801). Tick frames (N trades a candle) need the trades
// themselves: this store refuses them (`tickFrames: false`).
import {
  type Candle,
  type FootprintProfile,
  SESSION_CODES,
  type SessionType,
  type TradeColumns,
} from '../../src/index.js'
import type { Catalog } from '../server/catalog.js'
import { createStore, type MarketStore } from '../server/store.js'
import { num, type Sql } from './sql.js'

interface Bar {
  session: SessionType
  minute: number
  candle: Candle
  footprint: FootprintProfile
  openTime: number
  closeTime: number
}

/** A decimal string as the double a trade column holds, refused when the double would not be it exactly. */
function exactDouble(text: string, what: string): number {
  const x = Number(text)
  const minimal = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
  if (String(x) !== (minimal === '-0' ? '0' : minimal))
    throw new Error(`${what}: ${text} has no exact double; this store cannot rebuild it as trade columns`)
  return x
}

/** The representative trades of one stored minute, in time order. */
function minuteTrades(b: Bar, where: string): { time: number; price: number; volume: number; side: number }[] {
  const all: { price: string; volume: string; side: number }[] = []
  for (const [price, vb, vs, cb, cs] of b.footprint.rows) {
    for (let i = 0; i < cb; i++) all.push({ price, volume: i === 0 ? vb : '0', side: 1 })
    for (let i = 0; i < cs; i++) all.push({ price, volume: i === 0 ? vs : '0', side: 2 })
  }
  const same = (p: string, q: string) => exactDouble(p, where) === exactDouble(q, where)
  const first = all.findIndex((t) => same(t.price, b.candle.open))
  if (first < 0) throw new Error(`${where}: no row at the open ${b.candle.open}`)
  const [open] = all.splice(first, 1)
  let close: (typeof all)[number] | undefined
  if (all.length > 0) {
    // the last trade at the close price goes last
    let at = -1
    for (let i = all.length - 1; i >= 0 && at < 0; i--) if (same(all[i]!.price, b.candle.close)) at = i
    if (at < 0) throw new Error(`${where}: no row at the close ${b.candle.close}`)
    ;[close] = all.splice(at, 1)
  }
  const out = [open!, ...all, ...(close === undefined ? [] : [close])].map((t, i, list) => ({
    time: i === list.length - 1 ? b.closeTime : b.openTime,
    price: exactDouble(t.price, where),
    volume: exactDouble(t.volume, where),
    side: t.side,
  }))
  return out
}

/** Trade columns of one security from its stored minutes (any order in, time order out). */
function securityColumns(bars: Bar[], where: string): TradeColumns {
  bars.sort((a, b) => a.minute - b.minute || a.openTime - b.openTime || a.closeTime - b.closeTime)
  const rows: { time: number; price: number; volume: number; side: number; session: number }[] = []
  for (const b of bars) {
    const session = SESSION_CODES[b.session]
    for (const t of minuteTrades(b, `${where} ${b.session} ${new Date(b.minute).toISOString()}`))
      rows.push({ ...t, session })
  }
  for (let i = 1; i < rows.length; i++)
    if (rows[i]!.time < rows[i - 1]!.time)
      throw new Error(`${where}: sessions overlap within the minute of ${new Date(rows[i]!.time).toISOString()}`)
  const n = rows.length
  const cols: TradeColumns = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
    session: new Uint8Array(n),
  }
  rows.forEach((r, i) => {
    cols.time[i] = r.time
    cols.price[i] = r.price
    cols.volume[i] = r.volume
    cols.side[i] = r.side
    cols.session![i] = r.session
  })
  return cols
}

/** Loads every stored minute of the catalog's securities and serves them as the server's market store. */
export async function loadHistoryStore(sql: Sql, catalog: Catalog): Promise<MarketStore> {
  const rows = await sql.query<{
    exchange: string
    symbol: string
    session: SessionType
    minute: unknown
    candle: string
    footprint: string
    open_time: unknown
    close_time: unknown
  }>(
    `select exchange, symbol, session, minute, candle::text as candle, footprint::text as footprint, open_time, close_time
     from minute_bars`,
  )
  const by = new Map<string, Bar[]>()
  for (const r of rows) {
    const k = `${r.exchange}\u0000${r.symbol}`
    let list = by.get(k)
    if (list === undefined) by.set(k, (list = []))
    list.push({
      session: r.session,
      minute: num(r.minute),
      candle: JSON.parse(r.candle) as Candle,
      footprint: JSON.parse(r.footprint) as FootprintProfile,
      openTime: num(r.open_time),
      closeTime: num(r.close_time),
    })
  }
  const trades = new Map<string, TradeColumns>()
  for (const s of catalog.securities) {
    const bars = by.get(`${s.exchange}\u0000${s.symbol}`)
    if (bars !== undefined) trades.set(s.guid, securityColumns(bars, `${s.exchange}:${s.symbol}`))
  }
  return { ...createStore(catalog, trades), tickFrames: false }
}
