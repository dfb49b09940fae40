import { formatUnits, parseDecimal } from '../decimal/index.js'
import type { Trade } from '../trades/index.js'

/** The largest decimal step dividing every price (exact, gcd of the scaled units); '1' when all are zero; the last decimal place when there is one distinct price. */
export function inferTickSize(trades: Trade[]): string {
  let scale = 0
  const ds = trades.map((t) => {
    const r = parseDecimal(t.price)
    return r.ok ? r.value : { units: 0n, scale: 0 }
  })
  for (const d of ds) scale = Math.max(scale, d.scale)
  // one distinct price says nothing about the grid: its last decimal place is the guess (5000.25 -> 0.01)
  const distinct = new Set(ds.map((d) => `${d.units * 10n ** BigInt(scale - d.scale)}`))
  if (distinct.size === 1 && !distinct.has('0')) return formatUnits(1n, scale)
  let g = 0n
  for (const d of ds) {
    let u = d.units * 10n ** BigInt(scale - d.scale)
    if (u < 0n) u = -u
    let a = g
    let b = u
    while (b !== 0n) [a, b] = [b, a % b]
    g = a
  }
  return g === 0n ? '1' : formatUnits(g, scale)
}

/** Whether `tick` divides `step` exactly (both positive decimals): a grid of `tick` holds every price of `step`. */
export function divides(tick: string, step: string): boolean {
  const a = parseDecimal(tick)
  const b = parseDecimal(step)
  if (!a.ok || !b.ok || a.value.units <= 0n) return true
  const s = Math.max(a.value.scale, b.value.scale)
  const t = a.value.units * 10n ** BigInt(s - a.value.scale)
  const u = b.value.units * 10n ** BigInt(s - b.value.scale)
  return u % t === 0n
}
