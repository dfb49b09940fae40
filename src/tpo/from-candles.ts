import type { ExactDecimal } from '../decimal/index.js'
import { MAX_TIME } from '../_lib/max-time.js'
import { parseDataDecimal } from '../decimal/parse.js'
import { MarketDataError } from '../errors.js'
import { createBucketer, resolveTimeframe, type Timeframe, type TimeframeInput } from '../time/index.js'
import { NestingGuard } from '../time/nesting.js'
import { SESSION_NAMES } from '../trades/index.js'
import { TPO_MSG } from './messages.js'
import { resolveTpoOptions } from './options.js'
import { buildCandleProfile, compareDecimal, rowOfDecimal, type BlockPart, type TpoParts } from './parts.js'
import type { TpoCandleInput, TpoCandleOptions, TpoCandleProfile } from './types.js'
import { sessionCodeOf } from '../trades/validate.js'
import { checkOptions } from '../_lib/closed-options.js'
import { TPO_OPTION_KEYS } from './types.js'

const SESSION_RANK = [1, 0, 2]

interface CandleAcc {
  start: number
  end: number
  session: number
  blocks: Map<number, BlockPart>
  ibStart: number | null
  open: ExactDecimal
  openTime: number
  close: ExactDecimal
  closeTime: number
  volume: ExactDecimal | null
}

function price(c: TpoCandleInput, field: 'open' | 'high' | 'low' | 'close', index: number): ExactDecimal {
  const r = parseDataDecimal(c[field])
  if (!r.ok)
    throw new MarketDataError(
      'invalid_decimal',
      TPO_MSG.candle(field, c[field], `is not a finite decimal (${r.error})`),
      { index, field },
    )
  return r.value
}

/**
 * The nesting rule of resampling, with TPO blocks as the target: each candle (in time order; the input may
 * come in any order) must lie whole in one block, its frame `source` or inferred from the smallest gap
 * between candle starts. The refusal names the candle's input index and says which block size would work.
 */
function checkBlocksNest(times: number[], block: Timeframe, timeZone: string, source: Timeframe | undefined): void {
  const order = times.map((_, i) => i).sort((a, b) => (times[a] as number) - (times[b] as number) || a - b)
  const sorted = Float64Array.from(order, (i) => times[i] as number)
  const guard = new NestingGuard({
    target: block,
    timeZone,
    source,
    targetName: 'blockSize',
    indexes: order,
    advice: blockAdvice,
  })
  if (guard.scan(sorted, 0, sorted.length, 0) < sorted.length) throw guard.error as MarketDataError
  guard.finish()
}

/** Which block size holds whole candles of `minutes` (a minute or hour frame), for the refusal. */
function blockAdvice(minutes: number | undefined): string {
  if (minutes === undefined) return '; TPO blocks are minute or hour frames: give candles no longer than the block size'
  const id =
    minutes % 60 === 0 && minutes < 1440
      ? `'${minutes / 60}h'`
      : minutes < 60
        ? `'${minutes}m'`
        : `{ unit: 'MINUTE', count: ${minutes} }`
  return `; blockSize ${id} (or a multiple of it) holds whole candles`
}

/** The exact sum of two decimals. */
export function addDec(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const s = Math.max(a.scale, b.scale)
  return { units: a.units * 10n ** BigInt(s - a.scale) + b.units * 10n ** BigInt(s - b.scale), scale: s }
}

/**
 * TPO profiles from candles — the classic construction: each candle marks every row from its low to its
 * high in the block holding its `time` (candles of the block size, or shorter ones, which then combine
 * into their block). Per-row and per-side volumes are unknown from candles, so the result type has no
 * row volumes, no volume POC and no volume value area (`rowVolumes: 'unknown'`); `volume` is the
 * candles' exact total. Same periods, grid, value area, initial balance and session rules as
 * {@link tpoProfiles}; candles may come in any order. Throws `MarketDataError` naming the index and field
 * of a bad candle. Candles must lie whole in a block (the nesting rule of resampling, blocks as the target):
 * `sourceTimeframe` gives their frame, else it is inferred from the smallest gap between candle starts; a
 * candle longer than the block size (1h candles, 30m blocks) is refused (`incompatible`) with the block
 * size that would work.
 *
 * @param candles - the input candles, in any order
 * @param opts - options, see {@link TpoCandleOptions}
 * @returns the `TpoCandleProfile[]`
 * @throws `MarketDataError` with a `code` naming the rule (and the record `index` and `field`) for a malformed record or option
 * @example
 * const [day] = tpoFromCandles(candles30m, { timeframe: '1d', tickSize: '0.25' })
 * day.rows[0] // ["4998.50", [0, 1]]
 */
export function tpoFromCandles(
  candles: Iterable<TpoCandleInput>,
  opts: TpoCandleOptions & { sourceTimeframe?: TimeframeInput },
): TpoCandleProfile[] {
  checkOptions(opts, [...TPO_OPTION_KEYS, 'sourceTimeframe'], 'tpoFromCandles')
  const cfg = resolveTpoOptions(opts)
  if (
    typeof candles !== 'object' ||
    candles === null ||
    typeof (candles as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function'
  ) {
    throw new MarketDataError(
      'invalid_option',
      TPO_MSG.candle('candles', candles, 'is not an array or iterable of candles'),
      { field: 'candles' },
    )
  }
  const zone = cfg.timeZone === undefined ? {} : { timeZone: cfg.timeZone }
  const periodB = createBucketer(cfg.period, zone)
  const blockB = createBucketer(cfg.block, zone)
  const accs = new Map<string, CandleAcc>()
  const source =
    opts.sourceTimeframe === undefined ? undefined : resolveTimeframe(opts.sourceTimeframe, 'sourceTimeframe')
  if (source?.unit === 'TICK')
    throw new MarketDataError('invalid_option', TPO_MSG.tickSource(source.id), { field: 'sourceTimeframe' })
  const times: number[] = []
  let index = 0
  for (const c of candles) {
    if (typeof c !== 'object' || c === null)
      throw new MarketDataError(
        'invalid_option',
        TPO_MSG.candle('candle', c, 'is not a candle {time, open, high, low, close, volume?, session?}'),
        { index, field: 'candle' },
      )
    const t = c.time
    if (!(typeof t === 'number' && Math.floor(t) === t && t >= -MAX_TIME && t <= MAX_TIME))
      throw new MarketDataError('invalid_time', TPO_MSG.time(t), { index, field: 'time' })
    // by equality, not a property look-up: 'toString' or '__proto__' is no session
    const s = sessionCodeOf(c.session)
    if (s < 0)
      throw new MarketDataError(
        'invalid_session',
        TPO_MSG.candle('session', c.session, "is not 'MAINSESSION', 'PRE_MARKET' or 'POST_MARKET'"),
        { index, field: 'session' },
      )
    const open = price(c, 'open', index)
    const high = price(c, 'high', index)
    const low = price(c, 'low', index)
    const close = price(c, 'close', index)
    if (
      compareDecimal(low, high) > 0 ||
      compareDecimal(open, low) < 0 ||
      compareDecimal(open, high) > 0 ||
      compareDecimal(close, low) < 0 ||
      compareDecimal(close, high) > 0
    ) {
      throw new MarketDataError('invalid_decimal', TPO_MSG.candleOrder(), { index, field: 'low' })
    }
    let volume: ExactDecimal | null = null
    if (c.volume !== undefined) {
      const v = parseDataDecimal(c.volume)
      if (!v.ok || v.value.units < 0n)
        throw new MarketDataError('invalid_volume', TPO_MSG.volume(c.volume), { index, field: 'volume' })
      volume = v.value
    }
    index++
    times.push(t)
    if ((cfg.sessionMask & (1 << s)) === 0) continue
    const ps = periodB.locate(t)
    const pe = periodB.end
    const bs = blockB.locate(t)
    const session = cfg.grouped ? s : -1
    const key = `${ps}:${session}`
    const lowRow = rowOfDecimal(low, cfg.grid)
    const highRow = rowOfDecimal(high, cfg.grid)
    let acc = accs.get(key)
    if (acc === undefined) {
      acc = {
        start: ps,
        end: pe,
        session,
        blocks: new Map(),
        ibStart: null,
        open,
        openTime: t,
        close,
        closeTime: t,
        volume,
      }
      accs.set(key, acc)
    } else {
      if (t < acc.openTime) {
        acc.open = open
        acc.openTime = t
      }
      if (t >= acc.closeTime) {
        acc.close = close
        acc.closeTime = t
      }
      acc.volume = acc.volume === null || volume === null ? null : addDec(acc.volume, volume)
    }
    if (s === 0 && (acc.ibStart === null || bs < acc.ibStart)) acc.ibStart = bs
    const bl = acc.blocks.get(bs)
    if (bl === undefined) acc.blocks.set(bs, { start: bs, lowRow, highRow, high, low })
    else {
      if (lowRow < bl.lowRow) bl.lowRow = lowRow
      if (highRow > bl.highRow) bl.highRow = highRow
      if (compareDecimal(high, bl.high) > 0) bl.high = high
      if (compareDecimal(low, bl.low) < 0) bl.low = low
    }
  }
  checkBlocksNest(times, cfg.block, blockB.timeZone, source)
  const list = [...accs.values()].sort(
    (a, b) => a.start - b.start || (SESSION_RANK[a.session] ?? 0) - (SESSION_RANK[b.session] ?? 0),
  )
  return list.map((a) => {
    const parts: TpoParts = {
      time: a.start,
      end: a.end,
      sessionType: a.session >= 0 ? SESSION_NAMES[a.session] : undefined,
      blockSize: cfg.block.id,
      grid: cfg.grid,
      valueAreaPercent: cfg.valueAreaPercent,
      valueArea: cfg.valueArea,
      initialBalanceMs: cfg.initialBalanceMs,
      initialBalancePeriod: cfg.initialBalancePeriod,
      blocks: [...a.blocks.values()].sort((x, y) => x.start - y.start),
      initialBalanceStart: a.ibStart,
      open: a.open,
      openTime: a.openTime,
      close: a.close,
      closeTime: a.closeTime,
      volumeScale: 0,
      rowLow: 0,
      buy: null,
      sell: null,
    }
    return buildCandleProfile(parts, a.volume)
  })
}
