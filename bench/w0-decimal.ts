// W0b: decimal parsing of price and volume strings ("60000.25", "0.01524287") into exact values.
import Big from 'big.js'
import type { ExactDecimal } from '../src/decimal/index.js'
import { CRYPTO, human, objects } from './data.js'
import { runGroup, type BenchOptions, type Impl, type Row } from './harness.js'
import { libFn } from './lib.js'

type StringToUnits = (s: string, scale: number) => number
type ParseDecimal = (x: unknown) => { ok: true; value: ExactDecimal } | { ok: false; error: string }

const PRICE_SCALE = 2
const VOLUME_SCALE = 8
const GROUP = 1000

/** Canonical lines: integer units at the fixed scales, 1,000 values a line. `units(k)` gives value k. */
function unitLines(n: number, units: (k: number) => string): string[] {
  const out: string[] = []
  for (let k = 0; k < n; k += GROUP) {
    const parts: string[] = []
    for (let j = k; j < Math.min(n, k + GROUP); j++) parts.push(units(j))
    out.push(parts.join(','))
  }
  return out
}

const scaleOf = (k: number) => (k % 2 === 0 ? PRICE_SCALE : VOLUME_SCALE)

export async function runW0Decimal(bench: BenchOptions): Promise<Row[]> {
  const trades = bench.quick ? 500_000 : 5_000_000
  const objs = objects(CRYPTO, trades)
  // strings interleaved: price, volume, price, volume, ...
  const strs: string[] = new Array(2 * trades)
  for (let i = 0; i < trades; i++) {
    strs[2 * i] = objs[i]!.price as string
    strs[2 * i + 1] = objs[i]!.volume as string
  }
  const N = strs.length
  const nBig = bench.quick ? 50_000 : 1_000_000
  const su = libFn<StringToUnits>('decimal', 'stringToUnits')
  const pd = libFn<ParseDecimal>('decimal', 'parseDecimal')
  const unitsBuf = new Float64Array(N)
  const impls: Impl[] = [
    {
      impl: 'library stringToUnits (scaled integer)',
      library: true,
      exact: true,
      n: N,
      target: 20,
      ...(su.missing !== undefined ? { unavailable: su.missing } : {}),
      run: (n) => {
        const f = su.fn as StringToUnits
        const o = unitsBuf.subarray(0, n)
        for (let k = 0; k < n; k += 2) {
          o[k] = f(strs[k] as string, PRICE_SCALE)
          o[k + 1] = f(strs[k + 1] as string, VOLUME_SCALE)
        }
        return o
      },
      canon: (r) => {
        const o = r as Float64Array
        return unitLines(o.length, (k) => String(o[k]))
      },
    },
    {
      impl: 'library parseDecimal (bigint units)',
      exact: true,
      n: N,
      ...(pd.missing !== undefined ? { unavailable: pd.missing } : {}),
      run: (n) => {
        const f = pd.fn as ParseDecimal
        const o: ExactDecimal[] = new Array(n)
        for (let k = 0; k < n; k++) {
          const r = f(strs[k])
          if (!r.ok) throw new Error(r.error)
          o[k] = r.value
        }
        return o
      },
      canon: (r) => {
        const o = r as ExactDecimal[]
        return unitLines(o.length, (k) => String(o[k]!.units * 10n ** BigInt(scaleOf(k) - o[k]!.scale)))
      },
    },
    {
      impl: 'big.js new Big(s)',
      exact: true,
      n: nBig,
      run: (n) => {
        const o: Big[] = new Array(n)
        for (let k = 0; k < n; k++) o[k] = new Big(strs[k] as string)
        return o
      },
      canon: (r) => {
        const o = r as Big[]
        return unitLines(o.length, (k) => o[k]!.times(new Big(10).pow(scaleOf(k))).toFixed(0))
      },
    },
    {
      impl: 'Number(s) (float, not exact)',
      exact: false,
      n: N,
      run: (n) => {
        const o = new Float64Array(n)
        for (let k = 0; k < n; k++) o[k] = Number(strs[k])
        return o
      },
      canon: (r) => {
        const o = r as Float64Array
        return unitLines(o.length, (k) => String(Math.round((o[k] as number) * 10 ** scaleOf(k))))
      },
    },
  ]
  return runGroup(`W0 decimal strings -> exact units (${human(N)} price/volume strings)`, 'strings', impls, bench)
}
