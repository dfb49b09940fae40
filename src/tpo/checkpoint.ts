// The TPO aggregator's state as checkpoint data, and its validation on restore (every field checked).
import { UNITS_LIMIT } from '../decimal/index.js'
import type { AggregatorCheckpoint } from '../aggregator.js'
import { type Fields, MAX_STATE_SCALE, openCheckpoint, sealCheckpoint } from '../_lib/checkpoint.js'
import type { Bucketer } from '../time/index.js'
import { compareDecimal, MAX_ROWS, rowOfDecimal } from './parts.js'
import { exactDouble, formatUnits, type ExactDecimal } from '../decimal/index.js'
import { parseDataDecimal } from '../decimal/parse.js'
import type { TpoConfig } from './options.js'
import { PeriodAcc } from './period-acc.js'
import { MAX_FAST_VOLUME_SCALE } from '../decimal/exact-sums.js'

/** Per block: start, high, low, open time, open price, close time, close price, main-session flag. */
const BLOCK_FIELDS = ['start', 'high', 'low', 'openTime', 'open', 'closeTime', 'close', 'main'] as const

/** The running state a TPO checkpoint holds (besides the watermark). */
export interface TpoStreamState {
  addCount: number
  periods: Map<number, (PeriodAcc | undefined)[]>
}

/** The options that shape a TPO aggregator's output, as its checkpoint holds them. */
export function tpoOptionsKey(cfg: TpoConfig): Record<string, unknown> {
  return {
    timeframe: `${cfg.period.count} ${cfg.period.unit}`,
    blockSize: `${cfg.block.count} ${cfg.block.unit}`,
    timeZone: cfg.timeZone ?? 'UTC',
    tickSize: cfg.grid.tickSize,
    rowSize: cfg.grid.rowSize,
    grouped: cfg.grouped,
    valueAreaPercent: cfg.valueAreaPercent,
    initialBalanceMs: cfg.initialBalanceMs,
    sessions: cfg.sessionMask,
  }
}

/** The open periods (their blocks that hold trades and their non-zero row sums), scales and counters. */
export function tpoCheckpoint(cfg: TpoConfig, watermark: number, s: TpoStreamState): AggregatorCheckpoint {
  const periods: unknown[] = []
  for (const list of s.periods.values()) {
    for (const acc of list) {
      if (acc === undefined) continue
      const blocks: (number | string)[][] = []
      // a block only a refused record opened holds no trade (its high is -Infinity): it does not exist
      for (let j = 0; j < acc.n; j++) {
        if ((acc.bHi[j] as number) === -Infinity) continue
        blocks.push([
          acc.bStart[j],
          priceJson(acc.blockHigh(j)),
          priceJson(acc.blockLow(j)),
          acc.bOpenT[j],
          priceJson(acc.blockOpen(j)),
          acc.bCloseT[j],
          priceJson(acc.blockClose(j)),
          acc.bMain[j],
        ] as (number | string)[])
      }
      if (blocks.length === 0) continue
      // in time order: the order blocks were opened in (a refused record may open one first) is not state
      blocks.sort((a, b) => (a[0] as number) - (b[0] as number))
      // each period sums volumes at its own scale (a finer record's part apart): written as one exact sum a row
      const volScale = acc.outScale()
      const rows: (number | string)[][] = []
      for (let i = 0; i < acc.rowCap; i++) {
        const buy = acc.sumAt(2 * i, volScale)
        const sell = acc.sumAt(2 * i + 1, volScale)
        if (buy !== 0n || sell !== 0n) rows.push([acc.rowBase + i, String(buy), String(sell)])
      }
      periods.push({ start: acc.start, session: acc.session, volScale, blocks, rows })
    }
  }
  periods.sort((a, b) => (a as { start: number }).start - (b as { start: number }).start)
  return sealCheckpoint('tpo', tpoOptionsKey(cfg), watermark, { addCount: s.addCount, periods })
}

/** Reads and validates a TPO checkpoint against this aggregator's options and frames; returns the watermark and state. */
export function restoreTpo(
  x: unknown,
  cfg: TpoConfig,
  periodB: Bucketer,
  blockB: Bucketer,
): { watermark: number; state: TpoStreamState } {
  const { watermark, state } = openCheckpoint(x, 'tpo', tpoOptionsKey(cfg))
  const addCount = state.int('addCount', 0, Number.MAX_SAFE_INTEGER)
  const periods = new Map<number, (PeriodAcc | undefined)[]>()
  const list = state.arr('periods')
  list.forEach((_, i) => {
    const p = state.item('periods', list, i)
    const start = p.time('start')
    if (periodB.locate(start) !== start || periodB.end <= watermark)
      p.fail('start', 'the start of an open period after the watermark', start)
    const end = periodB.end
    const session = cfg.grouped ? p.int('session', 0, 2) : p.int('session', -1, -1)
    const slots = periods.get(start) ?? [undefined, undefined, undefined]
    const slot = cfg.grouped ? session : 0
    if (slots[slot] !== undefined) p.fail('start', 'each period (and session) once', start)
    const acc = new PeriodAcc(start, end, session)
    const volScale = p.int('volScale', 0, MAX_STATE_SCALE)
    const spans = readBlocks(p, acc, blockB, cfg, session)
    readRows(p, acc, spans, volScale)
    slots[slot] = acc
    periods.set(start, slots)
  })
  return { watermark, state: { addCount, periods } }
}

/** A block price as JSON: a number when a double holds it, else its decimal string. */
function priceJson(d: ExactDecimal): number | string {
  const text = formatUnits(d.units, d.scale)
  const x = exactDouble(text)
  return x === x ? x : text
}

/** A block price (a number, or a decimal string a double cannot hold), else refuses the field. */
function priceOf(f: Fields, key: string): ExactDecimal {
  const x = f.decimal(key)
  const d = parseDataDecimal(x)
  return d.ok ? d.value : f.fail(key, 'a finite decimal', x)
}

/** The row of a block price (on this grid, within its row range), else refuses the field. */
function rowOfPrice(f: Fields, key: string, p: ExactDecimal, cfg: TpoConfig): number {
  try {
    return rowOfDecimal(p, cfg.grid)
  } catch {
    return f.fail(key, 'a price whose row fits the grid', formatUnits(p.units, p.scale))
  }
}

/** Reads the blocks into `acc`; returns the rows each spans ([low, high] rows, block by block). */
function readBlocks(p: Fields, acc: PeriodAcc, blockB: Bucketer, cfg: TpoConfig, session: number): [number, number][] {
  let rowLo = Infinity
  let rowHi = -Infinity
  const spans: [number, number][] = []
  const blocks = p.arr('blocks', 100_000)
  if (blocks.length === 0) p.fail('blocks', 'at least one block (periods without trades are not saved)', blocks)
  blocks.forEach((raw, k) => {
    const key = `blocks[${k}]`
    if (!Array.isArray(raw) || raw.length !== BLOCK_FIELDS.length) p.fail(key, `[${BLOCK_FIELDS.join(', ')}]`, raw)
    const f = new (p.constructor as typeof Fields)(
      Object.fromEntries(BLOCK_FIELDS.map((n, q) => [n, (raw as unknown[])[q]])),
      `${p.path}.${key}`,
    )
    const bs = f.time('start')
    const fresh = acc.n
    if (blockB.locate(bs) !== bs || bs < acc.start || bs >= acc.end || acc.block(bs) !== fresh)
      f.fail('start', 'the start of a block of the period, each block once', bs)
    const j = fresh
    const hi = priceOf(f, 'high')
    const lo = priceOf(f, 'low')
    const oT = f.time('openTime')
    const cT = f.time('closeTime')
    if (compareDecimal(lo, hi) > 0) f.fail('low', 'a price at or below high', f.raw('low'))
    const span: [number, number] = [rowOfPrice(f, 'low', lo, cfg), rowOfPrice(f, 'high', hi, cfg)]
    spans.push(span)
    rowLo = Math.min(rowLo, span[0])
    rowHi = Math.max(rowHi, span[1])
    if (rowHi - rowLo + 1 > MAX_ROWS) f.fail('high', `a price within ${MAX_ROWS} rows of the period's other prices`, hi)
    if (oT > cT || oT < bs || cT >= blockB.end)
      f.fail('openTime', 'open and close times inside the block, open first', oT)
    acc.bOpenT[j] = oT
    acc.bCloseT[j] = cT
    const open = priceOf(f, 'open')
    const close = priceOf(f, 'close')
    const within = (x: ExactDecimal) => compareDecimal(x, lo) >= 0 && compareDecimal(x, hi) <= 0
    if (!within(open)) f.fail('open', 'a price between low and high', f.raw('open'))
    if (!within(close)) f.fail('close', 'a price between low and high', f.raw('close'))
    acc.restorePrices(j, hi, lo, open, close)
    // a profile of one session type holds main-session trades in every block, or in none
    const main = f.int('main', 0, 1)
    if (cfg.grouped && main !== (session === 0 ? 1 : 0))
      f.fail(
        'main',
        `${session === 0 ? 1 : 0} (the period's session is ${session === 0 ? '' : 'not '}MAINSESSION)`,
        main,
      )
    acc.bMain[j] = main
  })
  return spans
}

/**
 * Reads the row sums (units at `volScale` decimals) into `acc`: its fast sums, or its fine part past their
 * scale. A row's volume comes from trades of some block, whose low and high rows hold it: each row lies in
 * the rows of at least one block.
 */
function readRows(p: Fields, acc: PeriodAcc, spans: [number, number][], volScale: number): void {
  const rows = p.arr('rows', MAX_ROWS)
  let prev = -Infinity
  const read = rows.map((raw, k) => {
    const key = `rows[${k}]`
    if (!Array.isArray(raw) || raw.length !== 3) p.fail(key, '[row, buy units, sell units]', raw)
    const f = new (p.constructor as typeof Fields)({ row: raw[0], buy: raw[1], sell: raw[2] }, `${p.path}.${key}`)
    const row = f.int('row', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
    if (row <= prev) f.fail('row', 'rows in ascending order, each once', row)
    if (!spans.some(([lo, hi]) => row >= lo && row <= hi))
      f.fail('row', "a row within some block's low and high rows (its volume came from that block's trades)", row)
    prev = row
    return { row, buy: f.big('buy', true), sell: f.big('sell', true) }
  })
  if (read.length === 0) return
  acc.ensureRow((read[0] as { row: number }).row)
  acc.ensureRow((read[read.length - 1] as { row: number }).row)
  const lim = BigInt(UNITS_LIMIT)
  const fast = volScale <= MAX_FAST_VOLUME_SCALE
  if (fast) acc.volScale = volScale
  for (const r of read) {
    const i = 2 * (r.row - acc.rowBase)
    for (const [ix, v] of [
      [i, r.buy],
      [i + 1, r.sell],
    ] as const) {
      if (v === 0n) continue
      if (!fast) acc.addFine(ix, v, volScale)
      else if (v <= lim) acc.vol.lo[ix] = Number(v)
      else acc.vol.addBig(ix, v)
    }
  }
}
