// One contract suite for the streaming aggregators: every law of docs/streaming.md, as a function run
// against each aggregator (aggregator-contract.test.ts).
import { describe } from 'vitest'
import type { Subject } from './harness.js'
import { appliedLaws } from './laws/applied.js'
import { checkpointRefusedLaws } from './laws/checkpoint-refused.js'
import { checkpointLaws } from './laws/checkpoint.js'
import { maxTimeLaws } from './laws/max-time.js'
import { refusedRecordLaws } from './laws/refused-record.js'
import { streamEqualsBatchLaws } from './laws/stream-equals-batch.js'

/** Registers the whole contract for one aggregator. */
export function streamingContract(subject: Subject): void {
  describe(`${subject.name} aggregator`, () => {
    streamEqualsBatchLaws(subject)
    refusedRecordLaws(subject)
    appliedLaws(subject)
    maxTimeLaws(subject)
    checkpointLaws(subject)
    checkpointRefusedLaws(subject)
  })
}
