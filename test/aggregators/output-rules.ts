// The rules every output of an aggregator keeps, checked from the outside (exact decimals, no library
// code): what a restored aggregator hands out must keep them whatever state it was given.
import { expect } from 'vitest'
import type { Candle } from '../../src/candles/index.js'
import type { FootprintProfile, FootprintRow } from '../../src/footprint/index.js'
import type { TpoProfile } from '../../src/tpo/index.js'
import type { StreamSubject } from './hostile-streams.js'

/** An exact decimal text as a bigint at 10^-scale. */
function at(x: string, scale: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(x)
  expect(m, `a plain decimal: ${x}`).not.toBeNull()
  const [, sign, int, frac = ''] = m as RegExpExecArray
  expect(frac.length).toBeLessThanOrEqual(scale)
  const u = BigInt(int + frac.padEnd(scale, '0'))
  return sign === '-' ? -u : u
}
const SCALE = 2000
const le = (a: string, b: string) => at(a, SCALE) <= at(b, SCALE)

function candleRules(c: Candle, fromTrades: boolean): void {
  expect(le(c.low, c.high), 'low <= high').toBe(true)
  for (const p of [c.open, c.close]) expect(le(c.low, p) && le(p, c.high), 'open, close within low..high').toBe(true)
  expect(at(c.volume, SCALE) >= 0n).toBe(true)
  if (!fromTrades) return
  expect(c.trades).toBeGreaterThanOrEqual(1)
  const v = at(c.volume, SCALE)
  const x = at(c.value as string, 2 * SCALE)
  expect(at(c.low, SCALE) * v <= x && x <= at(c.high, SCALE) * v, 'low x volume <= value <= high x volume').toBe(true)
}

function footprintRules(p: FootprintProfile): void {
  expect(le(p.low, p.high)).toBe(true)
  expect(p.rows.length).toBeGreaterThan(0)
  let prev: string | undefined
  let trades = 0
  for (const [price, buy, sell, nb, ns] of p.rows) {
    if (prev !== undefined) expect(le(prev, price) && prev !== price, 'rows ascending').toBe(true)
    prev = price
    expect(nb + ns).toBeGreaterThan(0)
    if (at(buy, SCALE) > 0n) expect(nb).toBeGreaterThan(0)
    if (at(sell, SCALE) > 0n) expect(ns).toBeGreaterThan(0)
    trades += nb + ns
  }
  // the first row holds the low, the last the high (a row is [price, price + rowSizeValue))
  const step = at(p.rowSizeValue, SCALE)
  const first = at((p.rows[0] as FootprintRow)[0], SCALE)
  const last = at((p.rows[p.rows.length - 1] as FootprintRow)[0], SCALE)
  expect(first <= at(p.low, SCALE) && at(p.low, SCALE) < first + step, 'low in the first row').toBe(true)
  expect(last <= at(p.high, SCALE) && at(p.high, SCALE) < last + step, 'high in the last row').toBe(true)
  expect(p.trades).toBe(trades)
}

function tpoRules(p: TpoProfile): void {
  expect(le(p.low, p.high)).toBe(true)
  expect(p.rows.length).toBeGreaterThan(0)
  const prices = p.rows.map((r) => r[0])
  for (let i = 1; i < prices.length; i++) expect(le(prices[i - 1] as string, prices[i] as string)).toBe(true)
  expect(prices).toContain(p.poc)
  for (const r of p.rows) for (const b of r[1]) expect(b).toBeLessThan(p.blocks.length)
}

/** Checks every output of `subject` keeps the rules of its kind. */
export function checkOutputs(subject: StreamSubject, outputs: unknown[]): void {
  for (const o of outputs) {
    if (subject.kind === 'candles') candleRules(o as Candle, subject.input === 'trades')
    else if (subject.kind === 'footprint') footprintRules(o as FootprintProfile)
    else tpoRules(o as TpoProfile)
  }
}
