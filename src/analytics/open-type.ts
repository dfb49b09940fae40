import type { ExactDecimal } from '../decimal/index.js'
import { checkDaySession, readDaySession } from './day-session.js'
import { priceField, readTpoHistogram } from './histogram.js'
import { decimalOption, readOptions, unreadableAsError } from './options.js'
import type { OpenType, OpenTypeOptions } from './read-types.js'
import type { AnyTpoProfile } from './types.js'

const FN = 'openType'

/**
 * How the day session opened (Dalton, Mind over Markets, "Open types"), read from the blocks of the
 * initial balance: A is the first block, "later" the IB's other blocks, O the open, IB = [IL, IH] and
 * "at" an IB extreme means within `tolerance` (0.1) x (IH - IL) of it. A profile keeps each block's
 * extremes, not the order of prices inside a block, so the reading has block resolution:
 *
 * 1. open-drive up: O at the IB low (not at the high) and no later block trades at or below O — the
 *    market drove from the open and never came back. Down mirrored.
 * 2. open-test-drive up: the IB low lies in A, below O by more than the tolerance (a test), a later block
 *    trades above A's high (the drive), no later block trades back at or below O, and the drive above O
 *    is longer than the test below it.
 * 3. open-rejection-reverse up: the IB low lies in A below O by more than the tolerance, and a later block
 *    reverses through the open above A's high by more than the tolerance, without the conviction of a drive
 *    (it trades back to the open, or goes less far than the test).
 * 4. open-auction otherwise: the market rotated around the open; `auction` says whether the open lay
 *    inside the `previous` day's range (`in-range`) or not (`out-of-range`), null without `previous`.
 *
 * An IB of one block (a one-block day, a 30-minute IB) can only be a drive or an auction; an IB of one
 * price is an auction. Mirroring prices swaps up and down (a law the tests check).
 *
 * @param profile - the day session's TPO profile (trades or candles; see {@link rotationFactor})
 * @param options - `{ previous?, tolerance? }`
 * @returns `{ type, direction, auction, open, reason }`
 * @throws MarketDataError `invalid_option` for a footprint, a profile (or `previous`) that is not a day
 *   session, a malformed profile, a bad option
 * @example
 * openType(day, { previous: yesterday }) // { type: 'open-drive', direction: 'up', auction: null, open: '100', reason: '...' }
 */
export function openType(profile: AnyTpoProfile, options?: OpenTypeOptions): OpenType {
  return unreadableAsError(FN, () => {
    const o = readOptions(FN, options, ['previous', 'tolerance'])
    const tol = decimalOption(FN, 'tolerance', o.tolerance, '0.1', '0', '0.5')
    const d = readDaySession(profile, FN)
    const A = d.blocks[0]!
    const later = d.blocks.slice(1, Math.max(1, d.ibBlocks))
    const O = d.open
    const I = d.ibHigh - d.ibLow
    const within = (x: bigint) => x * 10n ** BigInt(tol.scale) <= tol.units * I
    const result = (type: OpenType['type'], direction: 'up' | 'down' | null, reason: string): OpenType => ({
      type,
      direction,
      auction: null,
      open: d.openText,
      reason,
    })
    if (I > 0n) {
      // one side's reading; the other is its mirror (dir -1 reads prices negated)
      for (const dir of [1n, -1n] as const) {
        const name = dir === 1n ? 'up' : 'down'
        const o_ = O * dir
        const [lo, hi] = dir === 1n ? [d.ibLow, d.ibHigh] : [-d.ibHigh, -d.ibLow]
        const aLow = dir === 1n ? A.low : -A.high
        const aHigh = dir === 1n ? A.high : -A.low
        const laterLows = later.map((b) => (dir === 1n ? b.low : -b.high))
        const neverBack = laterLows.every((l) => l > o_)
        const atLow = within(o_ - lo)
        const atHigh = within(hi - o_)
        if (atLow && !atHigh && neverBack)
          return result(
            'open-drive',
            name,
            `opened at the IB ${dir === 1n ? 'low' : 'high'} and never traded back to the open in the IB`,
          )
        const tested = lo === aLow && !within(o_ - lo)
        const drove = hi > aHigh
        if (tested && drove && neverBack && hi - o_ > o_ - lo)
          return result(
            'open-test-drive',
            name,
            `tested ${dir === 1n ? 'below' : 'above'} the open in the first period, then drove beyond it without coming back`,
          )
        if (tested && drove && !within(hi - o_))
          return result(
            'open-rejection-reverse',
            name,
            `traded ${dir === 1n ? 'down' : 'up'} from the open in the first period, then reversed through it`,
          )
      }
    }
    const out = result('open-auction', null, I > 0n ? 'rotated around the open in the IB' : 'one price in the IB')
    if (o.previous !== undefined) {
      readTpoHistogram(o.previous, FN, 'options.previous')
      checkDaySession(o.previous as object, FN, 'options.previous')
      const pHigh = priceField(FN, 'options.previous', o.previous as object, 'high')
      const pLow = priceField(FN, 'options.previous', o.previous as object, 'low')
      const s = Math.max(d.scale, pHigh.scale, pLow.scale)
      const u = (x: ExactDecimal) => x.units * 10n ** BigInt(s - x.scale)
      const open = O * 10n ** BigInt(s - d.scale)
      out.auction = open >= u(pLow) && open <= u(pHigh) ? 'in-range' : 'out-of-range'
      out.reason +=
        out.auction === 'in-range' ? ", inside the previous day's range" : ", outside the previous day's range"
    }
    return out
  })
}
