import type { BucketState } from './bucket-state.js'
import type { FootprintEngine } from './engine.js'
import { buildProfile } from './rowset.js'
import type { FootprintProfile } from './types.js'

/**
 * Where a footprint engine's closed (or snapshot) buckets go: passed to the engine at construction, it turns
 * one bucket's state into one output. The bucket is read only; the engine releases it afterwards.
 */
export interface BucketSink<Out> {
  /** The output of one bucket that holds trades, read at the engine's current scales. */
  build(bucket: BucketState, engine: FootprintEngine<Out>): Out
}

/** The sink of `footprintProfiles` and the aggregator: one `FootprintProfile` object a bucket. */
export const profileSink: BucketSink<FootprintProfile> = {
  build(st, engine) {
    const { high, low } = st.extremes(engine.pScale)
    const o = engine.options
    return buildProfile(
      { time: st.start, end: st.end, profileStart: o.from > st.start ? o.from : undefined, sessionType: o.sessionType },
      o.grid,
      st.rowSet(engine.vScale),
      high,
      low,
      o.analytics,
    )
  },
}
