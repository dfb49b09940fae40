import { MarketDataError } from '../errors.js'
import { resolveTimeframe, type TimeframeInput } from '../time/index.js'
import { zoneOffset } from '../time/zone.js'
import { describeValue } from '../_lib/describe.js'
import { blockLetter } from './text.js'

/**
 * How TPO blocks get their letters: `'traded'` (default) gives A, B, C, ... to the blocks that traded, in
 * order; `'fixed'` gives each clock period of the day its own letter whatever traded (with 30m blocks
 * 00:00-00:30 local is always A, 09:30-10:00 always T), as traders who read letters as times are used to.
 */
export type TpoLetters = 'traded' | 'fixed'

const MINUTE = 60_000
const DAY = 86_400_000

/**
 * The letter of each block index of a profile: by its place among the traded blocks, or (`'fixed'`) by the
 * clock period of the day it starts in, in `timeZone` (its local minute of the day / the block length).
 * Throws `invalid_option` naming `letters` for another value, or `blockSize` when it is not a minute or hour
 * frame under `'fixed'`.
 */
export function blockLetters(
  p: { blocks: readonly number[]; blockSize: string },
  letters: unknown,
  timeZone: string,
): (k: number) => string {
  if (letters === undefined || letters === 'traded') return blockLetter
  if (letters !== 'fixed')
    throw new MarketDataError(
      'invalid_option',
      `render: \`letters\` must be 'traded' or 'fixed', got ${describeValue(letters)}`,
      { field: 'letters' },
    )
  const tf = resolveTimeframe(p.blockSize as TimeframeInput, 'blockSize')
  const length = tf.unit === 'MINUTE' ? tf.count : tf.unit === 'HOUR' ? tf.count * 60 : undefined
  if (length === undefined)
    throw new MarketDataError(
      'invalid_option',
      `render: \`blockSize\` must be a minute or hour frame for fixed letters, got ${describeValue(p.blockSize)}`,
      { field: 'blockSize' },
    )
  return (k: number) => {
    const t = p.blocks[k] as number
    const local = t + zoneOffset(timeZone, t)
    const minuteOfDay = Math.floor((((local % DAY) + DAY) % DAY) / MINUTE)
    return blockLetter(Math.floor(minuteOfDay / length))
  }
}
