export type { SampleOptions, SampleDayKind } from './options.js'
export { sampleTrades, sampleTradeBatches, sampleTradeObjects } from './sample-trades.js'
