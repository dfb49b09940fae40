// The command line over candles: an OHLCV file resampled (`candles`) or made into TPO profiles (`tpo`, through
// tpoFromCandles), and trades without a side made into TPO profiles the same way (from candles of the block
// size, which mark the same rows a block's trades do; rows then carry no volumes).
import { createCandleAggregator, resampleCandles, type Candle, type CandleInput } from '../candles/index.js'
import { MarketDataError } from '../errors.js'
import type { TradeRecord } from '../io/index.js'
import { tpoFromCandles, type TpoCandleProfile } from '../tpo/index.js'
import type { Trade } from '../trades/index.js'
import { badInput } from './cli-error.js'
import type { Batch, InputKind } from './input.js'
import type { RunConfig } from './options.js'
import { inferTickSize } from './tick-size.js'
import { tpoOptions } from './profile-options.js'

/** The default TPO block, as the library's. */
const DEFAULT_BLOCK = '30m'

/** Candles do not depend on a trade's side: a file without one is fed with a side the output never shows. */
export function withAnySide(records: readonly TradeRecord[]): Trade[] {
  return records.map((t) => (t.side === undefined ? ({ ...t, side: 'buy' } as Trade) : (t as Trade)))
}

/**
 * The results of a run whose input is candles (`kind` candles) or trades without sides (TPO): all records
 * are read, then resampled or profiled at once (candle files are small beside trade files).
 */
export async function resultsFromCandles(
  c: RunConfig,
  kind: InputKind,
  batches: AsyncIterable<Batch<unknown>>,
  note: (m: string) => void,
): Promise<(Candle | TpoCandleProfile)[]> {
  let candles: CandleInput[] = []
  const block = c.blockSize ?? DEFAULT_BLOCK
  if (kind === 'candles') for await (const b of batches) candles.push(...(b.records as CandleInput[]))
  else {
    // trades without sides: candles of the block size hold each block's high and low exactly
    const agg = createCandleAggregator({
      timeframe: block,
      timeZone: c.timeZone,
      ...(c.sessions !== undefined ? { sessions: c.sessions } : {}),
    })
    for await (const b of batches) {
      try {
        agg.addTrades(withAnySide(b.records as TradeRecord[]))
      } catch (e) {
        if (!(e instanceof MarketDataError)) throw e
        const line = b.lines[e.applied ?? e.index ?? -1]
        throw badInput(line !== undefined ? `line ${line}: ${e.message.replace(/^record \d+: /, '')}` : e.message)
      }
    }
    candles = agg.finish()
    note(
      `no side column: TPO profiles from ${block} candles of the trades, without row volumes (give --side-column, or --side-rule tick for estimated sides)`,
    )
  }
  try {
    if (c.command === 'candles') {
      return resampleCandles(candles, {
        timeframe: c.timeframe,
        timeZone: c.timeZone,
        ...(c.sessions !== undefined ? { sessions: c.sessions } : {}),
      })
    }
    let tick = c.tickSize
    if (tick === undefined) {
      const prices = candles.flatMap((k) => [k.open, k.high, k.low, k.close].map((price) => ({ price })))
      tick = inferTickSize(prices as Trade[])
      note(
        `tick size not given: using ${tick}, the largest step dividing the ${candles.length} candles' prices (set it with --tick-size)`,
      )
    }
    return tpoFromCandles(candles, {
      ...tpoOptions(c, tick),
      ...(kind === 'trades' ? { sourceTimeframe: block } : {}),
    })
  } catch (e) {
    if (e instanceof MarketDataError) throw badInput(cliMessage(e))
    throw e
  }
}

function cliMessage(e: MarketDataError): string {
  return e.message.replace(/\bblockSize\b/g, '--block-size').replace(/\btimeframe\b/g, '--timeframe')
}
