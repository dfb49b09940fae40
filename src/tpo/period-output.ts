// From a period's running state to its profile: the blocks that traded, their exact prices, the row sums.
import { MarketDataError } from '../errors.js'
import { SESSION_NAMES } from '../trades/index.js'
import { TPO_MSG } from './messages.js'
import type { TpoConfig } from './options.js'
import { buildProfile, MAX_TOTAL_ROWS, rowCount, rowOfDecimal, type BlockPart, type TpoParts } from './parts.js'
import type { PeriodAcc } from './period-acc.js'
import type { TpoProfile } from './types.js'

/** Output order of session codes within a period: PRE_MARKET, MAINSESSION, POST_MARKET. */
const SESSION_RANK = [1, 0, 2]

/** True when a block of the period holds a trade (a block only a refused record opened has a high of -Infinity). */
export function hasTrades(acc: PeriodAcc): boolean {
  for (let j = 0; j < acc.n; j++) if ((acc.bHi[j] as number) !== -Infinity) return true
  return false
}

/**
 * The profiles of closed (or, for a snapshot, open) periods: those that hold trades, by start and session
 * rank; refuses a call whose profiles would hold more than {@link MAX_TOTAL_ROWS} rows in all.
 */
export function finishProfiles(all: PeriodAcc[], cfg: TpoConfig): TpoProfile[] {
  const accs = all.filter(hasTrades)
  accs.sort((a, b) => a.start - b.start || (SESSION_RANK[a.session] ?? 0) - (SESSION_RANK[b.session] ?? 0))
  const parts = accs.map((a) => partsOf(a, cfg))
  let total = 0
  for (const p of parts) total += rowCount(p)
  if (total > MAX_TOTAL_ROWS)
    throw new MarketDataError('invalid_option', TPO_MSG.tooManyRowsInAll(total), { field: 'rowSize' })
  return parts.map(buildProfile)
}

/** Reduces a period's running state to {@link TpoParts}. */
function partsOf(acc: PeriodAcc, cfg: TpoConfig): TpoParts {
  const grid = cfg.grid
  // a block a rejected record opened holds no trade (its high is still -Infinity): it does not exist
  const order = Array.from({ length: acc.n }, (_, j) => j)
    .filter((j) => (acc.bHi[j] as number) !== -Infinity)
    .sort((a, b) => (acc.bStart[a] as number) - (acc.bStart[b] as number))
  const blocks: BlockPart[] = []
  let ibStart: number | null = null
  let openJ = -1
  let closeJ = -1
  for (const j of order) {
    const high = acc.blockHigh(j)
    const low = acc.blockLow(j)
    blocks.push({
      start: acc.bStart[j] as number,
      high,
      low,
      lowRow: rowOfDecimal(low, grid),
      highRow: rowOfDecimal(high, grid),
    })
    if (acc.bMain[j] === 1 && ibStart === null) ibStart = acc.bStart[j] as number
    if (openJ < 0 || (acc.bOpenT[j] as number) < (acc.bOpenT[openJ] as number)) openJ = j
    if (closeJ < 0 || (acc.bCloseT[j] as number) > (acc.bCloseT[closeJ] as number)) closeJ = j
  }
  const n = acc.rowCap
  const buy: bigint[] = new Array(n)
  const sell: bigint[] = new Array(n)
  const vs = acc.outScale()
  for (let i = 0; i < n; i++) {
    buy[i] = acc.sumAt(2 * i, vs)
    sell[i] = acc.sumAt(2 * i + 1, vs)
  }
  return {
    time: acc.start,
    end: acc.end,
    sessionType: acc.session >= 0 ? SESSION_NAMES[acc.session] : undefined,
    blockSize: cfg.block.id,
    grid,
    valueAreaPercent: cfg.valueAreaPercent,
    valueArea: cfg.valueArea,
    initialBalanceMs: cfg.initialBalanceMs,
    initialBalancePeriod: cfg.initialBalancePeriod,
    blocks,
    initialBalanceStart: ibStart,
    open: acc.blockOpen(openJ),
    openTime: acc.bOpenT[openJ] as number,
    close: acc.blockClose(closeJ),
    closeTime: acc.bCloseT[closeJ] as number,
    volumeScale: vs,
    rowLow: acc.rowBase,
    buy,
    sell,
  }
}
