import { inputKind } from '../_lib/input-kind.js'
import { MarketDataError } from '../errors.js'
import { TRADE_MSG } from './messages.js'
import type { AsyncTradeInput, Trade, TradeArraySink, TradeColumns, TradeInput } from './types.js'
import { isTradeColumns } from './validate.js'

/**
 * What a trade input is, read without throwing: one `TradeColumns`, an array, another iterable, or
 * undefined (anything else, or an object whose shape cannot be read: a revoked Proxy, a throwing getter).
 */
export function tradeInputKind(x: unknown): 'columns' | 'array' | 'iterable' | undefined {
  return inputKind(x, isTradeColumns)
}

function feedArray(arr: ArrayLike<Trade | TradeColumns>, sink: TradeArraySink): void {
  const n = arr.length
  let i = 0
  while (i < n) {
    const x = arr[i]
    if (isTradeColumns(x)) {
      sink.addColumns(x)
      i++
      continue
    }
    if (sink.addTradeRun !== undefined) {
      const j = sink.addTradeRun(arr, i, n)
      if (j > i && j <= n) {
        i = j
        continue
      }
    }
    let j = i + 1
    for (; j < n; j++) {
      const y = arr[j] as { time?: unknown } | null
      // a trade's time is a number: only look further at anything else
      if (typeof y === 'object' && y !== null && typeof y.time !== 'number' && isTradeColumns(y)) break
    }
    if (sink.addTrades !== undefined) sink.addTrades(arr as ArrayLike<Trade>, i, j)
    else for (let k = i; k < j; k++) sink.add(arr[k] as Trade)
    i = j
  }
}

/**
 * Pushes every record of a synchronous trade input into a sink, in order: `TradeColumns` go to
 * `addColumns`, trade objects to `add` (or, from arrays, in runs to `addTradeRun` / `addTrades` when the
 * sink has it).
 *
 * @example
 * const agg = createCandleAggregator({ timeframe: '1m' })
 * feedTrades(tradesOrColumns, agg)
 */
export function feedTrades(input: TradeInput, sink: TradeArraySink): void {
  const kind = tradeInputKind(input)
  if (kind === 'columns') {
    sink.addColumns(input as TradeColumns)
    return
  }
  if (kind === 'array') {
    feedArray(input as unknown as ArrayLike<Trade | TradeColumns>, sink)
    return
  }
  if (kind === undefined) throw new MarketDataError('invalid_option', TRADE_MSG.notIterable(input), { field: 'trades' })
  for (const x of input as Iterable<Trade | TradeColumns>) {
    if (isTradeColumns(x)) sink.addColumns(x)
    else sink.add(x)
  }
}

/**
 * Like {@link feedTrades} for an async iterable too (e.g. a database cursor yielding batches of columns).
 *
 * @example
 * const agg = createCandleAggregator({ timeframe: '1m' })
 * await feedTradesAsync(cursor, agg)
 * const candles = agg.finish()
 */
export async function feedTradesAsync(input: AsyncTradeInput, sink: TradeArraySink): Promise<void> {
  if (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  ) {
    for await (const x of input as AsyncIterable<Trade | TradeColumns>) {
      if (isTradeColumns(x)) sink.addColumns(x)
      else sink.add(x)
    }
    return
  }
  feedTrades(input as TradeInput, sink)
}
