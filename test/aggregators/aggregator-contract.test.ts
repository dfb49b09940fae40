import { streamingContract } from './contract.js'
import { SUBJECTS } from './harness.js'

for (const subject of SUBJECTS) streamingContract(subject)
