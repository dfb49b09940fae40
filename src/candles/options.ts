// Options of the streaming candle aggregator (the engine reads them; the aggregator checks their keys).
import type { AggregatorCheckpoint } from '../aggregator.js'
import type { TimeframeInput } from '../time/index.js'
import { RESAMPLE_OPTION_KEYS, type Candle, type CandleOptions } from './types.js'

/** Keys of {@link CandleAggregatorOptions}; `restore` and `maxTime` belong to the streaming contract (checkpoint/restore, a bound on time). */
export const AGGREGATOR_OPTION_KEYS = [...RESAMPLE_OPTION_KEYS, 'onCandle', 'restore', 'maxTime'] as const

/** Options of {@link createCandleAggregator}. */
export interface CandleAggregatorOptions extends CandleOptions {
  /**
   * Called with each candle as it closes; without it closed candles wait for {@link CandleAggregator.take}.
   * While it runs no candle is open (`current()` is undefined); it may read (`current`, `take`) but not
   * feed the aggregator that calls it (`add*`, `advance`, `finish` throw `invalid_option`, field `onCandle`).
   */
  onCandle?: (candle: Candle) => void
  /**
   * The frame of input candles (resampling; same forms as `timeframe`). Each target bucket must hold whole
   * source buckets, checked per candle in `timeZone`, else `incompatible`; without it the frame is inferred
   * from the smallest gap between candle starts seen so far (see docs/resampling.md).
   */
  sourceTimeframe?: TimeframeInput
  /**
   * Latest record time accepted (UTC epoch ms, inclusive). A record stamped after it is refused with
   * `out_of_range` and changes nothing, so one trade stamped in 2200 cannot move the stream's time and
   * make every later record late. Default: no bound.
   */
  maxTime?: number
  /**
   * A state from {@link CandleAggregator.checkpoint} (after `JSON.stringify` / `JSON.parse` as you like):
   * the aggregator continues exactly where that one stood. The options must shape the output as the
   * checkpointed aggregator's did (timeframe, timeZone, sessions, tickSize decimals), else `invalid_option`
   * naming `restore.options.<name>`; every field of the state is validated.
   */
  restore?: AggregatorCheckpoint
}
