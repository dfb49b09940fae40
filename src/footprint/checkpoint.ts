// The footprint aggregator's state as checkpoint data, and its validation on restore (every field checked).
import type { AggregatorCheckpoint } from '../aggregator.js'
import { Fields, MAX_STATE_SCALE, jsonNumber, openCheckpoint, sealCheckpoint } from '../_lib/checkpoint.js'
import type { BucketState } from './bucket-state.js'
import { type ExactDecimal, UNITS_LIMIT, floorDivBig } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import type { FootprintEngine } from './engine.js'

/** The engine's open buckets, scales and watermark as a checkpoint (read from its running state on demand). */
export function footprintCheckpoint(engine: FootprintEngine<unknown>): AggregatorCheckpoint {
  const buckets = engine.openBuckets().map((st) => {
    const set = st.rowSet(engine.vScale)
    return {
      start: st.start,
      // the row sums at the bucket's own scale: finer than the engine's when a high-scale volume is in it
      volumeScale: set.vScale,
      rows: set.rows.map((row, i) => [row, String(set.buy[i]), String(set.sell[i]), set.nb[i], set.ns[i]]),
      minP: jsonNumber(st.minP),
      maxP: jsonNumber(st.maxP),
      minBig: st.minBig === null ? null : String(st.minBig),
      maxBig: st.maxBig === null ? null : String(st.maxBig),
      minD: jsonNumber(st.minD),
      maxD: jsonNumber(st.maxD),
    }
  })
  return sealCheckpoint('footprint', engine.optionsKey, engine.watermark, {
    pScale: engine.pScale,
    vScale: engine.vScale,
    buckets,
  })
}

/** A bigint field that may be null. */
function bigOrNull(f: Fields, key: string): bigint | null {
  return f.raw(key) === null ? null : f.big(key)
}

/** Restores a new engine from a checkpoint (validated whole before the engine changes). */
export function restoreFootprint(engine: FootprintEngine<unknown>, x: unknown): void {
  const { watermark, state } = openCheckpoint(x, 'footprint', engine.optionsKey)
  const pScale = state.int('pScale', engine.grid.decimals, MAX_STATE_SCALE)
  const vScale = state.int('vScale', 0, MAX_STATE_SCALE)
  const list = state.arr('buckets')
  const read = list.map((_, i) => {
    const b = state.item('buckets', list, i)
    const volumeScale = b.int('volumeScale', vScale, MAX_STATE_SCALE)
    const rowsRaw = b.arr('rows')
    const rows = rowsRaw.map((r, j) => {
      const key = `rows[${j}]`
      if (!Array.isArray(r) || r.length !== 5) b.fail(key, '[row, buy units, sell units, buy trades, sell trades]', r)
      const c = r as unknown[]
      const cell = new Fields({ row: c[0], buy: c[1], sell: c[2], nb: c[3], ns: c[4] }, `${b.path}.${key}`)
      const row = cell.int('row', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
      const nb = cell.int('nb', 0, Number.MAX_SAFE_INTEGER)
      const ns = cell.int('ns', 0, Number.MAX_SAFE_INTEGER)
      if (nb + ns === 0) cell.fail('nb', 'a trade count: a row exists only for prices that traded', nb)
      if (j > 0 && row <= (rowsRaw[j - 1] as number[])[0]!) cell.fail('row', 'rows in ascending order, each once', row)
      const buy = cell.big('buy', true)
      const sell = cell.big('sell', true)
      // a volume comes with the trade that brought it
      if (buy > 0n && nb === 0) cell.fail('nb', 'at least 1 (the row has buy volume)', nb)
      if (sell > 0n && ns === 0) cell.fail('ns', 'at least 1 (the row has sell volume)', ns)
      return { row, buy, sell, nb, ns }
    })
    if (rows.length === 0) b.fail('rows', 'at least one row (empty buckets are not saved)', rowsRaw)
    if (rows.reduce((n, r) => n + r.nb + r.ns, 0) > Number.MAX_SAFE_INTEGER)
      b.fail('rows', 'trade counts whose total is a safe integer', rowsRaw.length)
    const minP = b.num('minP', 'pos')
    const maxP = b.num('maxP', 'neg')
    for (const [k, v] of [
      ['minP', minP],
      ['maxP', maxP],
    ] as const)
      if (Number.isFinite(v) && !(Number.isInteger(v) && Math.abs(v) < UNITS_LIMIT))
        b.fail(k, 'integer price units below 2^52', v)
    const ext = {
      minP,
      maxP,
      minBig: bigOrNull(b, 'minBig'),
      maxBig: bigOrNull(b, 'maxBig'),
      minD: b.num('minD', 'pos'),
      maxD: b.num('maxD', 'neg'),
    }
    if (
      (minP === Infinity) !== (maxP === -Infinity) ||
      (ext.minBig === null) !== (ext.maxBig === null) ||
      (ext.minD === Infinity) !== (ext.maxD === -Infinity)
    )
      b.fail('minP', 'low and high set together', minP)
    if (
      (minP !== Infinity && minP > maxP) ||
      (ext.minBig !== null && ext.maxBig !== null && ext.minBig > ext.maxBig) ||
      (ext.minD !== Infinity && ext.minD > ext.maxD)
    )
      b.fail('minP', 'a low at or below the high', minP)
    if (minP === Infinity && ext.minBig === null && ext.minD === Infinity)
      b.fail('minD', 'the prices of a bucket that traded', ext.minD)
    return { start: b.time('start'), rows, ext, volumeScale }
  })
  const buckets = engine.restore(
    pScale,
    vScale,
    watermark,
    read.map((b) => b.start),
    (i) => `restore.state.buckets[${i}].start`,
  )
  read.forEach((b, i) => {
    const st = buckets[i] as BucketState
    fill(st, b.rows, b.ext, b.volumeScale > vScale ? b.volumeScale : undefined)
    // the low and the high are traded prices, and every traded price has its row: the first and the last
    const { high, low } = st.extremes(pScale)
    const first = (b.rows[0] as { row: number }).row
    const last = (b.rows[b.rows.length - 1] as { row: number }).row
    if (first !== rowOf(low, engine) || last !== rowOf(high, engine)) {
      throw new MarketDataError(
        'invalid_option',
        `restore.state.buckets[${i}].rows: rows ${first}..${last} are not the rows ${rowOf(low, engine)}..${rowOf(high, engine)} of the bucket's low and high prices (a checkpoint is read as untrusted input)`,
        { field: `restore.state.buckets[${i}].rows` },
      )
    }
  })
}

/** Row of an exact price on the engine's grid (floor, anchored at 0). */
function rowOf(d: ExactDecimal, engine: FootprintEngine<unknown>): number {
  const g = engine.grid
  const s = Math.max(d.scale, g.decimals)
  return Number(floorDivBig(d.units * 10n ** BigInt(s - d.scale), BigInt(g.rowUnits) * 10n ** BigInt(s - g.decimals)))
}

/** Fills a restored bucket; sums at a `fineScale` finer than the engine's go to the bucket's fine part. */
function fill(
  st: BucketState,
  rows: { row: number; buy: bigint; sell: bigint; nb: number; ns: number }[],
  ext: Pick<BucketState, 'minP' | 'maxP' | 'minBig' | 'maxBig' | 'minD' | 'maxD'>,
  fineScale: number | undefined,
): void {
  // carry bigint parts whenever slots move
  st.spilled = true
  if (fineScale !== undefined) {
    st.fine = new Map()
    st.fineScale = fineScale
  }
  for (const r of rows) {
    const k = st.slotOf(r.row)
    if (st.fine !== undefined && fineScale !== undefined) st.fine.set(r.row, [r.buy, r.sell])
    else {
      st.sums.addBig(2 * k, r.buy)
      st.sums.addBig(2 * k + 1, r.sell)
    }
    st.counts[2 * k] = r.nb
    st.counts[2 * k + 1] = r.ns
  }
  Object.assign(st, ext)
}
