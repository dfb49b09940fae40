// Error messages of src/candles, in one place. Each names the field and the rule.
import { MAX_TIME } from '../_lib/max-time.js'
import { describeValue } from '../_lib/describe.js'
import { dataDecimalProblem } from '../decimal/parse.js'

/** ` (why)` when `x` is not a data decimal, from the one decimal message table; '' otherwise. */
const because = (x: unknown): string => {
  const w = dataDecimalProblem(x)
  return w === undefined ? '' : ` (${w})`
}

/** An instant as ISO 8601 (its number when a Date cannot hold it). */
const iso = (t: number): string => (t >= -MAX_TIME && t <= MAX_TIME ? new Date(t).toISOString() : String(t))

export const CANDLE_MSG = {
  outOfOrder: (t: number, last: number) =>
    `time: ${describeValue(t)} is before the previous record's time ${describeValue(last)}; records must come in non-decreasing time order (equal times are allowed)`,
  late: (t: number, floor: number) =>
    `time: ${describeValue(t)} is before ${describeValue(floor)}, the time the stream was declared to have reached (advance)`,
  notCandle: (x: unknown) =>
    `candle: ${describeValue(x)} is not a candle object {time, open, high, low, close, volume, value?, trades?, session?}`,
  time: (x: unknown) =>
    `time: ${describeValue(x)} is not a valid time: expected an integer number of UTC epoch milliseconds within ±8.64e15`,
  price: (f: string, x: unknown) => `${f}: ${describeValue(x)} is not a finite decimal${because(x)}`,
  volume: (f: string, x: unknown) =>
    `${f}: ${describeValue(x)} is not valid: expected a finite decimal >= 0${because(x)}`,
  value: (x: unknown) => `value: ${describeValue(x)} is not a finite decimal${because(x)}`,
  trades: (x: unknown) => `trades: ${describeValue(x)} is not a trade count: expected an integer >= 0`,
  session: (x: unknown) =>
    `session: ${describeValue(x)} is not a session: expected 'MAINSESSION', 'PRE_MARKET' or 'POST_MARKET' (columns: 0, 1, 2)`,
  ohlc: (f: 'high' | 'low') =>
    f === 'high'
      ? 'high: is below open, close or low; a candle needs low <= open, close <= high'
      : 'low: is above open or close; a candle needs low <= open, close <= high',
  notColumns: (field: string, want: string) => `${field}: expected a ${want} of the same length as time`,
  notTradeColumns: (x: unknown, batch: number) =>
    batch < 0
      ? `trades: ${describeValue(x)} is neither TradeColumns nor an iterable of TradeColumns batches (candlesFromTrades takes trade objects)`
      : `trades: batch ${batch} (${describeValue(x)}) is not TradeColumns; candleColumnsFromTrades takes columns (candlesFromTrades takes trade objects)`,
  notCandles: (x: unknown) => `candles: ${describeValue(x)} is neither CandleColumns nor an iterable of candles`,
  tickSource: (id: string) =>
    `sourceTimeframe: ${id} is a tick frame; the nesting rule needs a time frame (MINUTE..YEAR), or leave sourceTimeframe out`,
  tickResample: (id: string) =>
    `timeframe: ${id} is a tick frame; candles can be resampled into time frames only (MINUTE..YEAR)`,
  reentrant: () =>
    'onCandle: the aggregator was fed (add, advance or finish) from inside its own onCandle; feed it after the callback returns',
  mixed: () => 'add: this aggregator already holds candles (or trades); one aggregator takes either trades or candles',
  valueText: (x: unknown) =>
    `valueText: ${describeValue(x)} is not a boolean; true returns each candle's value as exact decimal text`,
  columnTickSize: (strings: string) =>
    `tickSize: column prices are numbers; tickSize only shapes decimal strings (${strings})`,
  inexact: (field: string, text: string, time: number, strings: string) =>
    `${field}: the exact sum ${text} of the candle at ${iso(time)} has more significant digits than a double carries; ${strings} returns it as a decimal string`,
  tradesCount: (time: number) =>
    `trades: the trade count of the candle at ${iso(time)} passes 2^53 - 1, the largest count a number holds exactly`,
  tickSize: (x: unknown) => `tickSize: ${describeValue(x)} is not a decimal > 0`,
  mergeOrder: (a: number, b: number) =>
    `b: its first candle (time ${describeValue(b)}) is before a's last candle (time ${describeValue(a)}); mergeCandles joins partials split by time (a before b)`,
  mergeUnsorted: (which: string, i: number) =>
    `${which}: candle ${i} is before the previous one; candles must be in non-decreasing time order`,
  properties: (x: unknown) =>
    `properties: ${describeValue(x)} must be a list of OPEN, HIGH, LOW, CLOSE, VALUE, VOLUME, SESSION_TYPE`,
  sessionTypes: (x: unknown) =>
    `session_types: ${describeValue(x)} must be a list of MAINSESSION, PRE_MARKET, POST_MARKET`,
} as const
