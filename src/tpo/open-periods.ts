// The open periods of a TPO engine, its watermark, and the slot (period, block, session) the per-trade
// loops write into: moved only by `enter`, which validates time and session and refuses late records.
import { MAX_TIME } from '../_lib/max-time.js'
import { MarketDataError } from '../errors.js'
import type { Bucketer } from '../time/index.js'
import { TPO_MSG } from './messages.js'
import type { TpoConfig } from './options.js'
import { PeriodAcc } from './period-acc.js'
import { hasTrades } from './period-output.js'

/** The open periods (per start, one profile per session slot), the watermark and the current slot. */
export class OpenPeriods {
  periods = new Map<number, (PeriodAcc | undefined)[]>()
  watermark = Number.NEGATIVE_INFINITY
  /** The current slot: its profile (null for a filtered-out session), block, session code and block bounds. */
  cur: PeriodAcc | null = null
  curBlock = -1
  curSk = -1
  bStart = Number.NaN
  bEnd = Number.NaN
  /** True when the current slot's session is filtered out (its records are only checked). */
  skip = false

  constructor(
    private readonly cfg: TpoConfig,
    private readonly periodB: Bucketer,
    private readonly blockB: Bucketer,
  ) {}

  /** Moves the watermark to `time` (when later) and removes the periods ending at or before it. */
  closeUntil(time: number): PeriodAcc[] {
    if (time > this.watermark) this.watermark = time
    return this.take((acc) => acc.end <= time)
  }

  /** Removes every period; the watermark moves to the end of the last one holding trades. */
  closeAll(): PeriodAcc[] {
    // (a period only a refused record opened holds no trade: it moves nothing)
    for (const list of this.periods.values())
      for (const acc of list)
        if (acc !== undefined && acc.end > this.watermark && hasTrades(acc)) this.watermark = acc.end
    return this.take(() => true)
  }

  /** Every open profile that a record entered (for a snapshot; they stay open). */
  all(): PeriodAcc[] {
    const out: PeriodAcc[] = []
    for (const list of this.periods.values()) for (const acc of list) if (acc !== undefined && acc.n > 0) out.push(acc)
    return out
  }

  /** Removes and returns the periods `pred` closes (by their first profile), leaving the slot when it was in one. */
  private take(pred: (acc: PeriodAcc) => boolean): PeriodAcc[] {
    const out: PeriodAcc[] = []
    for (const [key, list] of this.periods) {
      const first = list.find((a) => a !== undefined)
      if (first === undefined || !pred(first)) continue
      for (const acc of list) if (acc !== undefined && acc.n > 0) out.push(acc)
      this.periods.delete(key)
      if (this.cur !== null && list.includes(this.cur)) this.leave()
    }
    return out
  }

  private leave(): void {
    this.cur = null
    this.curBlock = -1
    this.curSk = -1
    this.bStart = Number.NaN
    this.bEnd = Number.NaN
  }

  /** Moves the current slot to the block holding `t` for session code `s`; validates both and changes nothing when it throws. */
  enter(t: number, s: number, index: number): void {
    if (!(Math.floor(t) === t && t >= -MAX_TIME && t <= MAX_TIME))
      throw new MarketDataError('invalid_time', TPO_MSG.time(t), { index, field: 'time' })
    if (s > 2) throw new MarketDataError('invalid_session', TPO_MSG.sessionCode(s), { index, field: 'session' })
    const bs = this.blockB.locate(t)
    const be = this.blockB.end
    if ((this.cfg.sessionMask & (1 << s)) === 0) {
      this.setSlot(null, -1, bs, be, s, true)
      return
    }
    const ps = this.periodB.locate(t)
    const pe = this.periodB.end
    if (pe <= this.watermark) throw new MarketDataError('late_record', TPO_MSG.late(t, pe), { index, field: 'time' })
    let list = this.periods.get(ps)
    if (list === undefined) {
      list = [undefined, undefined, undefined]
      this.periods.set(ps, list)
    }
    const slot = this.cfg.grouped ? s : 0
    let acc = list[slot]
    if (acc === undefined) {
      acc = new PeriodAcc(ps, pe, this.cfg.grouped ? s : -1)
      list[slot] = acc
    }
    const j = acc.block(bs)
    this.setSlot(acc, j, bs, be, s, false)
  }

  private setSlot(acc: PeriodAcc | null, j: number, bs: number, be: number, s: number, skip: boolean): void {
    this.cur = acc
    this.curBlock = j
    this.bStart = bs
    this.bEnd = be
    this.curSk = s
    this.skip = skip
  }
}
