// A slow, obviously-correct reference for TPO profiles: big.js arithmetic, bucketStart per trade,
// blocks and rows kept in plain maps. Compared against the fast engine by the property tests.
import Big from 'big.js'
import { bucketStart, resolveTimeframe, type TimeframeId, type TimeframeInput } from '../../src/time/index.js'
import type { TpoCandleInput, TpoProfile } from '../../src/tpo/index.js'
import { SESSION_CODES, type SessionType, type Trade, type TradeColumns } from '../../src/trades/index.js'

export interface RefOptions {
  timeframe: TimeframeId
  tickSize: string
  rowSize?: number
  blockSize?: TimeframeInput
  mergeSessions?: 'MERGE_ALL' | 'GROUP_BY_TYPE'
  initialBalance?: string
  timeZone?: string
  sessions?: SessionType[]
}

export interface RefProfile {
  time: number
  sessionType?: SessionType
  blocks: number[]
  rows: [string, number[], string, string][]
  high: string
  low: string
  open: string
  close: string
  blockHighs: string[]
  blockLows: string[]
  initialBalance: { high: string; low: string } | null
  volumeBuy: string
  volumeSell: string
}

const decimals = (s: string) => (s.includes('.') ? s.split('.')[1]!.replace(/0+$/, '').length : 0)
/** Big to a plain string with at least `d` decimals (exact). */
function fixed(x: Big, d: number): string {
  const s = x.toFixed(Math.max(d, dp(x)))
  return s
}
function dp(x: Big): number {
  const s = x.toFixed()
  return s.includes('.') ? s.split('.')[1]!.length : 0
}
function minimal(x: Big): string {
  return x.toFixed()
}

export function referenceProfiles(trades: readonly Trade[], o: RefOptions): RefProfile[] {
  Big.DP = 40
  const period = resolveTimeframe(o.timeframe)
  const block = resolveTimeframe(o.blockSize ?? '30m')
  const zone = o.timeZone === undefined ? {} : { timeZone: o.timeZone }
  const tick = new Big(o.tickSize)
  const rs = tick.times(o.rowSize ?? 1)
  const gd = decimals(o.tickSize)
  const ibMs = (() => {
    const s = o.initialBalance ?? '1h'
    return Number(s.slice(0, -1)) * (s.endsWith('h') ? 3600000 : 60000)
  })()
  const grouped = o.mergeSessions === 'GROUP_BY_TYPE'
  const rowOf = (p: Big) => {
    const q = p.div(rs)
    const f = q.round(0, Big.roundDown)
    return Number((q.lt(0) && !q.eq(f) ? f.minus(1) : f).toFixed())
  }
  type Acc = {
    time: number
    session?: SessionType
    blocks: Map<number, { hi: Big; lo: Big; main: boolean }>
    buy: Map<number, Big>
    sell: Map<number, Big>
    open?: { t: number; p: Big }
    close?: { t: number; p: Big }
  }
  const accs = new Map<string, Acc>()
  for (const tr of trades) {
    const session = tr.session ?? 'MAINSESSION'
    if (o.sessions !== undefined && !o.sessions.includes(session)) continue
    const ps = bucketStart(tr.time, period, zone)
    const bs = bucketStart(tr.time, block, zone)
    const key = `${ps}|${grouped ? session : ''}`
    let acc = accs.get(key)
    if (acc === undefined) {
      acc = { time: ps, blocks: new Map(), buy: new Map(), sell: new Map() }
      if (grouped) acc.session = session
      accs.set(key, acc)
    }
    const p = new Big(String(tr.price))
    const v = new Big(String(tr.volume))
    const row = rowOf(p)
    let b = acc.blocks.get(bs)
    if (b === undefined) {
      b = { hi: p, lo: p, main: false }
      acc.blocks.set(bs, b)
    }
    if (p.gt(b.hi)) b.hi = p
    if (p.lt(b.lo)) b.lo = p
    if (session === 'MAINSESSION') b.main = true
    const m = tr.side === 'buy' ? acc.buy : acc.sell
    m.set(row, (m.get(row) ?? new Big(0)).plus(v))
    if (acc.open === undefined || tr.time < acc.open.t) acc.open = { t: tr.time, p }
    if (acc.close === undefined || tr.time >= acc.close.t) acc.close = { t: tr.time, p }
  }
  const rank = (s?: SessionType) => (s === 'PRE_MARKET' ? 0 : s === 'POST_MARKET' ? 2 : 1)
  const list = [...accs.values()].sort((a, b) => a.time - b.time || rank(a.session) - rank(b.session))
  return list.map((acc) => {
    const starts = [...acc.blocks.keys()].sort((a, b) => a - b)
    const bl = starts.map((s) => acc.blocks.get(s)!)
    let lowRow = Infinity
    let highRow = -Infinity
    for (const b of bl) {
      lowRow = Math.min(lowRow, rowOf(b.lo))
      highRow = Math.max(highRow, rowOf(b.hi))
    }
    const rows: RefProfile['rows'] = []
    let tb = new Big(0)
    let ts = new Big(0)
    for (let r = lowRow; r <= highRow; r++) {
      const idx: number[] = []
      bl.forEach((b, i) => {
        if (rowOf(b.lo) <= r && r <= rowOf(b.hi)) idx.push(i)
      })
      const vb = acc.buy.get(r) ?? new Big(0)
      const vs = acc.sell.get(r) ?? new Big(0)
      tb = tb.plus(vb)
      ts = ts.plus(vs)
      rows.push([rs.times(r).toFixed(gd), idx, minimal(vb), minimal(vs)])
    }
    let hi = bl[0]!.hi
    let lo = bl[0]!.lo
    for (const b of bl) {
      if (b.hi.gt(hi)) hi = b.hi
      if (b.lo.lt(lo)) lo = b.lo
    }
    const firstMain = starts.find((s) => acc.blocks.get(s)!.main)
    let initialBalance: RefProfile['initialBalance'] = null
    if (firstMain !== undefined) {
      let ih: Big | undefined
      let il: Big | undefined
      for (const s of starts) {
        if (s < firstMain || s >= firstMain + ibMs) continue
        const b = acc.blocks.get(s)!
        if (ih === undefined || b.hi.gt(ih)) ih = b.hi
        if (il === undefined || b.lo.lt(il)) il = b.lo
      }
      initialBalance = { high: fixed(ih!, gd), low: fixed(il!, gd) }
    }
    const out: RefProfile = {
      time: acc.time,
      blocks: starts,
      rows,
      high: fixed(hi, gd),
      low: fixed(lo, gd),
      open: fixed(acc.open!.p, gd),
      close: fixed(acc.close!.p, gd),
      blockHighs: bl.map((b) => fixed(b.hi, gd)),
      blockLows: bl.map((b) => fixed(b.lo, gd)),
      initialBalance,
      volumeBuy: minimal(tb),
      volumeSell: minimal(ts),
    }
    if (acc.session !== undefined) out.sessionType = acc.session
    return out
  })
}

/** Trades as columns with a session column always present (numbers by Number(); the tests' decimals are exact doubles). */
export function toColumns(trades: readonly Trade[]): TradeColumns {
  return {
    time: Float64Array.from(trades, (t) => t.time),
    price: Float64Array.from(trades, (t) => Number(t.price)),
    volume: Float64Array.from(trades, (t) => Number(t.volume)),
    side: Uint8Array.from(trades, (t) => (t.side === 'buy' ? 1 : 2)),
    session: Uint8Array.from(trades, (t) => SESSION_CODES[t.session ?? 'MAINSESSION']),
  }
}

/** The fields of a library profile that {@link referenceProfiles} computes, for comparing the two. */
export function pick(p: TpoProfile) {
  const o: Record<string, unknown> = {
    time: p.time,
    blocks: p.blocks,
    rows: p.rows,
    high: p.high,
    low: p.low,
    open: p.open,
    close: p.close,
    blockHighs: p.blockHighs,
    blockLows: p.blockLows,
    initialBalance: p.initialBalance,
    volumeBuy: p.volumeBuy,
    volumeSell: p.volumeSell,
  }
  if (p.sessionType !== undefined) o.sessionType = p.sessionType
  return o
}

/** One candle per block from trades (test-side, with big.js): open/close by time, high/low, volume. */
export function candlesOf(trades: readonly Trade[], block: TimeframeInput): TpoCandleInput[] {
  const tf = resolveTimeframe(block)
  const by = new Map<number, Trade[]>()
  for (const t of trades) {
    const s = bucketStart(t.time, tf)
    by.set(s, [...(by.get(s) ?? []), t])
  }
  return [...by.entries()].map(([s, ts]) => {
    const sorted = [...ts].sort((a, b) => a.time - b.time)
    const ps = ts.map((t) => new Big(String(t.price)))
    const hi = ps.reduce((a, b) => (b.gt(a) ? b : a))
    const lo = ps.reduce((a, b) => (b.lt(a) ? b : a))
    return {
      time: s,
      open: String(sorted[0]!.price),
      high: hi.toFixed(),
      low: lo.toFixed(),
      close: String(sorted.at(-1)!.price),
      volume: ts.reduce((a, t) => a.plus(String(t.volume)), new Big(0)).toFixed(),
    }
  })
}
