// Trade generators for the footprint tests: ticks 0.25 / 0.01 / 0.00001 / 5, negative prices, 0..8-decimal volumes.
import fc from 'fast-check'
import type { FootprintProfile } from '../../src/footprint/index.js'
import { mergeFootprintProfiles } from '../../src/footprint/index.js'
import type { SessionType, Trade, TradeColumns } from '../../src/trades/index.js'

export const TICKS = ['0.25', '0.01', '0.00001', '5'] as const
export const START = Date.UTC(2026, 4, 29, 9, 0)

function unitsString(units: bigint, scale: number): string {
  const neg = units < 0n
  let d = (neg ? -units : units).toString()
  if (scale > 0) {
    if (d.length <= scale) d = '0'.repeat(scale - d.length + 1) + d
    d = `${d.slice(0, d.length - scale)}.${d.slice(d.length - scale)}`
  }
  return neg ? `-${d}` : d
}

const tickParts = (tick: string): { units: bigint; scale: number } => {
  const i = tick.indexOf('.')
  return i < 0
    ? { units: BigInt(tick), scale: 0 }
    : { units: BigInt(tick.replace('.', '')), scale: tick.length - i - 1 }
}

/** A number that holds the decimal string exactly (shortest round-trip form equals it), else undefined. */
export function exactNumber(s: string): number | undefined {
  const n = Number(s)
  const norm = (x: string) =>
    x.replace(/^(-?)(\d+)\.?(\d*?)0*$/, (_, sg, i, f) => `${sg}${i}${f ? `.${f}` : ''}`).replace(/^-0$/, '0')
  return norm(String(n)) === norm(s) && !String(n).includes('e') ? n : undefined
}

export interface FpArbOptions {
  tick: string
  maxLength?: number
  /** Largest gap between trades, ms (default 20 minutes). */
  maxGap?: number
  /** Some prices off the tick grid (more decimals). */
  offGrid?: boolean
  /** Numbers instead of strings where exact. */
  numbers?: boolean
}

/** Time-ordered trades on a tick grid (negative prices included), volumes with 0..8 decimals. */
export function fpTrades(o: FpArbOptions): fc.Arbitrary<Trade[]> {
  const t = tickParts(o.tick)
  const one = fc.record({
    gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: o.maxGap ?? 20 * 60_000 })),
    ticks: fc.oneof(fc.integer({ min: -400, max: 400 }), fc.integer({ min: 19000, max: 21000 })),
    off: o.offGrid ? fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 9 })) : fc.constant(-1),
    vol: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 10n ** 12n })),
    volScale: fc.integer({ min: 0, max: 8 }),
    side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
    session: fc.constantFrom<SessionType | undefined>(undefined, 'MAINSESSION', 'PRE_MARKET', 'POST_MARKET'),
    asNumber: o.numbers === false ? fc.constant(false) : fc.boolean(),
  })
  return fc.array(one, { maxLength: o.maxLength ?? 40 }).map((rows) => {
    let time = START
    return rows.map((r) => {
      time += r.gap
      const price =
        r.off < 0
          ? unitsString(BigInt(r.ticks) * t.units, t.scale)
          : unitsString(BigInt(r.ticks) * t.units * 10n + BigInt(r.off), t.scale + 1)
      const volume = unitsString(r.vol, r.volScale)
      const pn = r.asNumber ? exactNumber(price) : undefined
      const vn = r.asNumber ? exactNumber(volume) : undefined
      const tr: Trade = { time, price: pn ?? price, volume: vn ?? volume, side: r.side }
      if (r.session !== undefined) tr.session = r.session
      return tr
    })
  })
}

/** Trades as columns (numbers; only trades whose decimals a double holds exactly). */
export function toColumns(trades: Trade[]): TradeColumns {
  const ok = trades.filter(
    (t) => exactNumber(String(t.price)) !== undefined && exactNumber(String(t.volume)) !== undefined,
  )
  const n = ok.length
  const c = {
    time: new Float64Array(n),
    price: new Float64Array(n),
    volume: new Float64Array(n),
    side: new Uint8Array(n),
    session: new Uint8Array(n),
  }
  ok.forEach((t, i) => {
    c.time[i] = t.time
    c.price[i] = Number(t.price)
    c.volume[i] = Number(t.volume)
    c.side[i] = t.side === 'buy' ? 1 : 2
    c.session[i] = t.session === 'PRE_MARKET' ? 1 : t.session === 'POST_MARKET' ? 2 : 0
  })
  return c
}

/** Merges two profile lists bucket by bucket (the merge of an aggregate split). */
export function mergeLists(a: FootprintProfile[], b: FootprintProfile[]): FootprintProfile[] {
  const by = new Map<number, FootprintProfile>()
  for (const p of [...a, ...b]) {
    const q = by.get(p.time)
    by.set(p.time, q === undefined ? p : mergeFootprintProfiles(q, p))
  }
  return [...by.values()].sort((x, y) => x.time - y.time)
}

/** Fisher-Yates shuffle driven by fast-check's random source. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const a = [...xs]
  let s = seed >>> 0 || 1
  for (let i = a.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    const j = s % (i + 1)
    ;[a[i], a[j]] = [a[j] as T, a[i] as T]
  }
  return a
}
