// A slow, obviously correct big.js reference for candles (tests only).
import Big from 'big.js'
import { bucketStart, resolveTimeframe, type TimeframeInput } from '../../src/time/index.js'
import type { Candle, CandleInput } from '../../src/candles/index.js'
import type { SessionType, Trade } from '../../src/trades/index.js'

const plain = (b: Big): string => {
  const s = b.toFixed()
  return s === '-0' ? '0' : s
}
const spellOf = (x: string | number, grid?: number): string => {
  if (grid === undefined) return typeof x === 'string' ? x : plain(new Big(String(x)))
  const b = new Big(typeof x === 'string' ? x : String(x))
  const own = (b.toFixed().split('.')[1] ?? '').length
  return b.toFixed(Math.max(own, grid))
}
const gridOf = (tickSize: string | number | undefined): number | undefined =>
  tickSize === undefined ? undefined : (plain(new Big(String(tickSize))).split('.')[1] ?? '').length

interface Opts {
  timeframe: TimeframeInput
  timeZone?: string
  sessions?: readonly SessionType[]
  tickSize?: string | number
}

function build(
  groups: {
    time: number
    items: {
      o: string | number
      h: string | number
      l: string | number
      c: string | number
      v: string | number
      x?: string | number
      n?: number
      s: SessionType
    }[]
  }[],
  grid: number | undefined,
): Candle[] {
  return groups.map((g) => {
    let hi = g.items[0]!
    let lo = g.items[0]!
    let vol = new Big(0)
    let val: Big | undefined = new Big(0)
    let n: number | undefined = 0
    for (const it of g.items) {
      if (new Big(String(it.h)).gt(new Big(String(hi.h)))) hi = it
      if (new Big(String(it.l)).lt(new Big(String(lo.l)))) lo = it
      vol = vol.plus(new Big(String(it.v)))
      val = it.x === undefined || val === undefined ? undefined : val.plus(new Big(String(it.x)))
      n = it.n === undefined || n === undefined ? undefined : n + it.n
    }
    const c: Candle = {
      time: g.time,
      open: spellOf(g.items[0]!.o, grid),
      high: spellOf(hi.h, grid),
      low: spellOf(lo.l, grid),
      close: spellOf(g.items[g.items.length - 1]!.c, grid),
      volume: plain(vol),
    }
    if (val !== undefined) c.value = plain(val)
    if (n !== undefined) c.trades = n
    c.session = g.items[0]!.s
    return c
  })
}

export function referenceCandlesFromTrades(trades: readonly Trade[], opts: Opts): Candle[] {
  const tf = resolveTimeframe(opts.timeframe)
  const keep = trades.filter((t) => opts.sessions === undefined || opts.sessions.includes(t.session ?? 'MAINSESSION'))
  const items = keep.map((t) => ({
    t: t.time,
    o: t.price,
    h: t.price,
    l: t.price,
    c: t.price,
    v: t.volume,
    x: plain(new Big(String(t.price)).times(new Big(String(t.volume)))),
    n: 1,
    s: t.session ?? ('MAINSESSION' as SessionType),
  }))
  const groups: { time: number; items: typeof items }[] = []
  if (tf.unit === 'TICK') {
    for (let i = 0; i < items.length; i += tf.count)
      groups.push({ time: items[i]!.t, items: items.slice(i, i + tf.count) })
  } else {
    for (const it of items) {
      const b = bucketStart(it.t, tf, opts.timeZone === undefined ? {} : { timeZone: opts.timeZone })
      const g = groups[groups.length - 1]
      if (g !== undefined && g.time === b) g.items.push(it)
      else groups.push({ time: b, items: [it] })
    }
  }
  return build(groups, gridOf(opts.tickSize))
}

export function referenceResample(candles: readonly CandleInput[], opts: Opts): Candle[] {
  const tf = resolveTimeframe(opts.timeframe)
  const groups: {
    time: number
    items: {
      o: string | number
      h: string | number
      l: string | number
      c: string | number
      v: string | number
      x?: string | number
      n?: number
      s: SessionType
    }[]
  }[] = []
  for (const c of candles) {
    if (opts.sessions !== undefined && !opts.sessions.includes(c.session ?? 'MAINSESSION')) continue
    const b = bucketStart(c.time, tf, opts.timeZone === undefined ? {} : { timeZone: opts.timeZone })
    const it = {
      o: c.open,
      h: c.high,
      l: c.low,
      c: c.close,
      v: c.volume,
      s: c.session ?? ('MAINSESSION' as SessionType),
      ...(c.value !== undefined ? { x: c.value } : {}),
      ...(c.trades !== undefined ? { n: c.trades } : {}),
    }
    const g = groups[groups.length - 1]
    if (g !== undefined && g.time === b) g.items.push(it)
    else groups.push({ time: b, items: [it] })
  }
  return build(groups, gridOf(opts.tickSize))
}
