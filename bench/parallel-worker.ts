// Worker of bench/parallel.ts: computes the footprint profiles of its shard of the shared trade columns.
import { parentPort, workerData } from 'node:worker_threads'
import { footprintProfiles } from '../src/footprint/index.js'
import type { TradeColumns } from '../src/trades/index.js'
import type { TimeframeId } from '../src/time/index.js'

interface Shard {
  time: SharedArrayBuffer
  price: SharedArrayBuffer
  volume: SharedArrayBuffer
  side: SharedArrayBuffer
  from: number
  to: number
  opts: { timeframe: TimeframeId; tickSize: string; rowSize: number }
}

const d = workerData as Shard
const cols: TradeColumns = {
  time: new Float64Array(d.time, d.from * 8, d.to - d.from),
  price: new Float64Array(d.price, d.from * 8, d.to - d.from),
  volume: new Float64Array(d.volume, d.from * 8, d.to - d.from),
  side: new Uint8Array(d.side, d.from, d.to - d.from),
}
parentPort?.on('message', () => {
  parentPort?.postMessage(footprintProfiles(cols, d.opts))
})
parentPort?.postMessage('ready')
