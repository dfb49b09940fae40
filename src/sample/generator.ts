import { fromZonedTime } from 'date-fns-tz'
import { INV_2_32, mixSeed, nextUint32 } from './prng.js'
import type { ResolvedSample } from './options.js'

/**
 * The sample generator as a resumable state machine, so the batch function, the streaming batches and
 * the object form all produce the very same trades whatever the batch size.
 *
 * Per session (pre-market, main, post-market, in time order) two seeded streams run:
 * - stream A (re-seeded per session from seed, day and session) drives inter-trade gaps and bursts; it is
 *   run once ahead to total the gaps, so the session's trades fill its hours exactly;
 * - stream B (continuous over the whole sample) drives the price walk on integer ticks, the aggressor
 *   side and the volume.
 */

/** Session codes in columns: 0 main, 1 pre, 2 post (interface A codes). */
const SESSION_CODE = [1, 0, 2] as const
/** Local session hours as [hour, minute] boundaries: 04:00, 09:30, 16:00, 20:00. */
const BOUNDS: readonly string[] = ['04:00:00', '09:30:00', '16:00:00', '20:00:00']
/** Share of a day's trades per session (pre, main, post); main gets the rest. */
const PRE_SHARE = 0.08
const POST_SHARE = 0.07
/** Typical size of a session's move, in ticks (standard deviation scale of the walk). */
const TARGET = [25, 60, 20] as const
/** Gap multiplier m(f) = a0 + a1 f + a2 f^2 over the session fraction f: main is U-shaped (busy open and close), pre-market speeds up toward the open, post-market slows down. */
const SHAPE: readonly (readonly [number, number, number])[] = [
  [2, -1, 0],
  [1, 4, -4],
  [1, 1, 0],
]
/** Burst chain, on the low 10 bits of stream A's word: enter with probability 2/1024 per trade, leave with 31/1024; gaps shrink by BURST_GAP inside. */
const BURST_ENTER = 2
const BURST_EXIT = 31
const BURST_GAP = 0.08

/** -ln(k / 4096) for k = 0..4096: exponential gaps by table look-up and linear interpolation (cell 0 uses Math.log). */
const NEG_LN: Float64Array = (() => {
  const t = new Float64Array(4097)
  for (let k = 1; k <= 4096; k++) t[k] = -Math.log(k / 4096)
  t[0] = Infinity
  return t
})()

/** The gap multiplier at session fraction f (constant over runs of 256 trades, the same in both passes). */
function shapeAt(f: number, a0: number, a1: number, a2: number): number {
  return a0 + f * (a1 + f * a2)
}

/** An exponential(1) variate from the top 22 bits of a random word. */
function expGap(x: number, negLn: Float64Array): number {
  const i = x >>> 20
  const fr = ((x >>> 10) & 0x3ff) * (1 / 1024)
  if (i === 0) return -Math.log((fr + 1 / 2048) * (1 / 4096))
  const lo = negLn[i]!
  return lo + (negLn[i + 1]! - lo) * fr
}

/** Lot sizes by the top 12 bits of a random word: a heavy-tailed (Pareto-like) distribution, mostly 1-5 lots, rare blocks above 100. */
const LOTS: Uint16Array = (() => {
  const t = new Uint16Array(4096)
  for (let k = 0; k < 4096; k++) {
    const u = (k + 0.5) / 4096
    // biome-ignore lint/style/useExponentiationOperator: kept as written so that seeded sample data cannot change
    t[k] = Math.max(1, Math.floor(1 / Math.pow(1 - u, 0.55)))
  }
  return t
})()

/** Mutable column targets of `fill`. */
export interface ColumnsOut {
  time: Float64Array
  price: Float64Array
  volume: Float64Array
  side: Uint8Array
  session: Uint8Array
}

/** UTC day numbers of 1000-01-01 and 10000-01-01: date-fns-tz parses (and the output is pinned to) 4-digit years only. */
const FIRST_4DIGIT_DAY = -354_285
const FIRST_5DIGIT_DAY = 2_932_897
const BOUND_SECONDS = BOUNDS.map((b) => {
  const [h, m, sec] = b.split(':').map(Number) as [number, number, number]
  return h * 3600 + m * 60 + sec
})

/** UTC epoch ms of the four session boundaries (local 04:00, 09:30, 16:00, 20:00 in `timeZone`) of UTC calendar day `day`. */
export function sessionBounds(day: number, timeZone: string): number[] {
  if (day >= FIRST_4DIGIT_DAY && day < FIRST_5DIGIT_DAY) {
    const date = new Date(day * 86_400_000).toISOString().slice(0, 10)
    return BOUNDS.map((b) => fromZonedTime(`${date}T${b}`, timeZone).getTime())
  }
  // beyond 4-digit years (the whole ±8.64e15 range): the zone's offset from Intl, proleptic Gregorian
  const fmt = zoneFormat(timeZone)
  return BOUND_SECONDS.map((s) => zonedToUtc(day * 86_400_000 + s * 1000, fmt))
}

const FORMATS = new Map<string, Intl.DateTimeFormat>()
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let f = FORMATS.get(timeZone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
    FORMATS.set(timeZone, f)
  }
  return f
}

/** Days from 1970-01-01 of proleptic Gregorian date y-m-d (astronomical year: 0 is 1 BC). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

/** The zone's offset (local wall clock minus UTC, ms) at UTC time `utc` (whole seconds). */
function zoneOffset(utc: number, fmt: Intl.DateTimeFormat): number {
  let y = 0,
    mo = 0,
    d = 0,
    h = 0,
    mi = 0,
    s = 0,
    bc = false
  for (const p of fmt.formatToParts(new Date(utc))) {
    if (p.type === 'year') y = Number(p.value)
    else if (p.type === 'month') mo = Number(p.value)
    else if (p.type === 'day') d = Number(p.value)
    else if (p.type === 'hour') h = Number(p.value)
    else if (p.type === 'minute') mi = Number(p.value)
    else if (p.type === 'second') s = Number(p.value)
    else if (p.type === 'era') bc = p.value === 'BC' || p.value === 'B'
  }
  if (bc) y = 1 - y
  return daysFromCivil(y, mo, d) * 86_400_000 + ((h * 60 + mi) * 60 + s) * 1000 - utc
}

/** UTC time of local wall-clock time `wall` (ms, as if UTC): the usual two-step offset fix-up. */
function zonedToUtc(wall: number, fmt: Intl.DateTimeFormat): number {
  const o1 = zoneOffset(wall, fmt)
  const g = wall - o1
  const o2 = zoneOffset(g, fmt)
  return o1 === o2 ? g : wall - o2
}

export class SampleGenerator {
  readonly total: number
  private readonly r: ResolvedSample
  private readonly rng = new Int32Array(2)
  private day = 0
  private sess = 3 // 3 = no session open: the next fill opens the first
  private pos = 0
  private n = 0
  // session state
  private t0 = 0
  private dur = 0
  private k = 0 // ms per unit of raw gap
  private cum = 0
  private burst = 0
  private burstUp = 0
  private p = 0
  private pBurst = 0
  private trend = false
  private drift = 0 // signed expected step for trend days
  private anchor = 0
  private c = 0
  private a0 = 0
  private a1 = 0
  private a2 = 0
  private code = 0
  private ticks: number
  private dayStarts: number[] = []
  private readonly buyThr = new Int32Array(3)

  constructor(r: ResolvedSample) {
    this.r = r
    this.total = r.days * r.tradesPerDay
    this.rng[1] = mixSeed(r.seed, 0x5eed)
    this.ticks = r.startTicks
    this.day = -1
  }

  /** Fills `count` trades at `offset` of the columns; returns how many were written (fewer only at the end). */
  fill(out: ColumnsOut, offset: number, count: number): number {
    let filled = 0
    while (filled < count) {
      if (this.pos >= this.n && !this.openNextSession()) break
      const m = Math.min(this.n - this.pos, count - filled)
      this.run(out, offset + filled, m)
      filled += m
    }
    return filled
  }

  /** Moves to the next session that has trades; false when the sample is exhausted. */
  private openNextSession(): boolean {
    const r = this.r
    for (;;) {
      this.sess++
      if (this.sess > 2) {
        this.day++
        this.sess = 0
        if (this.day >= r.days) return false
        this.openDay()
      }
      const N = r.tradesPerDay
      const pre = Math.floor(N * PRE_SHARE)
      const post = Math.floor(N * POST_SHARE)
      const n = this.sess === 0 ? pre : this.sess === 2 ? post : N - pre - post
      if (n === 0) continue
      this.openSession(n)
      return true
    }
  }

  private openDay(): void {
    const r = this.r
    this.dayStarts = sessionBounds(r.startDay + this.day, r.timeZone)
    if (this.day > 0) {
      // overnight gap: up to +-20 ticks
      const u = nextUint32(this.rng, 1) * INV_2_32
      this.ticks = this.clampTicks(this.ticks + Math.round((u - 0.5) * 40))
    }
  }

  private clampTicks(t: number): number {
    return t < 1 ? 1 : t > this.r.maxTicks ? this.r.maxTicks : t
  }

  private openSession(n: number): void {
    const r = this.r
    const s = this.sess
    this.n = n
    this.pos = 0
    this.code = SESSION_CODE[s]!
    this.t0 = this.dayStarts[s]!
    this.dur = this.dayStarts[s + 1]! - this.t0
    const shape = SHAPE[s]!
    this.a0 = shape[0]
    this.a1 = shape[1]
    this.a2 = shape[2]
    const target = TARGET[s]!
    this.p = Math.min(0.5, (target * target) / n)
    this.pBurst = Math.min(0.95, 4 * this.p)
    this.trend = s === 1 && r.trendDays[this.day % r.trendDays.length]!
    const dirWord = nextUint32(this.rng, 1)
    const steps = this.p * n
    this.drift = this.trend ? Math.min(0.35, (4 * target) / steps) * ((dirWord & 1) === 1 ? 1 : -1) : 0
    this.anchor = this.ticks
    this.c = 1 / (target * target)
    // pass 1 over stream A: total of the n + 1 gaps, so trade times fill [t0, t0 + dur) exactly
    const seedA = mixSeed(r.seed, this.day, s, 0xa11)
    let a = seedA
    let total = 0
    let burst = 0
    const a0 = this.a0
    const a1 = this.a1
    const a2 = this.a2
    const invN = 1 / n
    const burstGap = BURST_GAP
    const negLn = NEG_LN
    const burstExit = BURST_EXIT
    const burstEnter = BURST_ENTER
    let mult = 0
    for (let i = 0; i <= n; i++) {
      if ((i & 255) === 0) mult = shapeAt(i * invN, a0, a1, a2)
      a = (a + 0x6d2b79f5) | 0
      let t = Math.imul(a ^ (a >>> 15), 1 | a)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      const x = (t ^ (t >>> 14)) >>> 0
      const g = expGap(x, negLn) * mult
      total += burst === 1 ? g * burstGap : g
      const low = x & 0x3ff
      if (burst === 1) {
        if (low < burstExit) burst = 0
      } else if (low < burstEnter) burst = 1
    }
    this.rng[0] = seedA
    this.k = this.dur / total
    this.cum = 0
    this.burst = 0
    this.burstUp = 0
  }

  /** The hot loop: m trades of the open session into the columns at `at`. Both mulberry32 streams are inlined. */
  private run(out: ColumnsOut, at: number, m: number): void {
    const r = this.r
    const { time, price, volume, side, session } = out
    const n = this.n
    const a0 = this.a0
    const a1 = this.a1
    const a2 = this.a2
    const t0 = this.t0
    const last = this.dur - 1
    const k = this.k
    const p = this.p
    const pBurst = this.pBurst
    const trend = this.trend
    const drift = this.drift
    const anchor = this.anchor
    const c = this.c
    const code = this.code
    const tickUnits = r.tickUnits
    const pow = r.pow
    const maxTicks = r.maxTicks
    const decimalVolumes = r.volumeDecimals === 8
    const sideBias = trend ? (drift > 0 ? 0.03 : -0.03) : 0
    // buy probability after a downtick, no move, an uptick, as thresholds on 20 random bits
    const buyThr = this.buyThr
    buyThr[0] = Math.round(0.22 * 1048576)
    buyThr[1] = Math.round((0.5 + sideBias) * 1048576)
    buyThr[2] = Math.round(0.78 * 1048576)
    const inv = INV_2_32
    const lotsTable = LOTS
    let a = this.rng[0]!
    let b = this.rng[1]!
    let pos = this.pos
    let cum = this.cum
    let burst = this.burst
    let burstUp = this.burstUp
    let ticks = this.ticks
    let px = (ticks * tickUnits) / pow
    const invN = 1 / n
    const burstGap = BURST_GAP
    const negLn = NEG_LN
    const burstExit = BURST_EXIT
    const burstEnter = BURST_ENTER
    let mult = 0
    session.fill(code, at, at + m)
    for (let j = at, end = at + m; j < end; j++, pos++) {
      // stream A: gap and burst state (mirrors pass 1 exactly)
      if ((pos & 255) === 0 || j === at) mult = shapeAt((pos & ~255) * invN, a0, a1, a2)
      a = (a + 0x6d2b79f5) | 0
      let t = Math.imul(a ^ (a >>> 15), 1 | a)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      const x = (t ^ (t >>> 14)) >>> 0
      const g = expGap(x, negLn) * mult
      const inBurst = burst
      cum += inBurst === 1 ? g * burstGap : g
      const dt = (cum * k) | 0 // < 2^31: a session lasts hours
      time[j] = t0 + (dt < last ? dt : last)
      const low = x & 0x3ff
      if (inBurst === 1) {
        if (low < burstExit) burst = 0
      } else if (low < burstEnter) {
        burst = 1
        burstUp = (x >>> 10) & 1
      }
      // stream B, word 1: price step on the tick grid (low 20 bits: volume decimals)
      b = (b + 0x6d2b79f5) | 0
      t = Math.imul(b ^ (b >>> 15), 1 | b)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      const w1 = (t ^ (t >>> 14)) >>> 0
      const u1 = w1 * inv
      const pe = inBurst === 1 ? pBurst : p
      let step = 1 // 0: down, 1: none, 2: up (index into the buy thresholds)
      if (u1 < pe) {
        let q: number
        if (trend) q = 0.5 + 0.5 * drift
        else {
          const pull = c * (ticks - anchor)
          q = 0.5 - (pull > 0.4 ? 0.4 : pull < -0.4 ? -0.4 : pull)
        }
        if (inBurst === 1) q = 0.5 * q + (burstUp === 1 ? 0.35 : 0.15)
        if (u1 < pe * q) {
          step = 2
          if (ticks < maxTicks) ticks++
        } else {
          step = 0
          if (ticks > 1) ticks--
        }
        px = (ticks * tickUnits) / pow
      }
      price[j] = px
      // stream B, word 2: lots (top 12 bits) and aggressor (low 20 bits) — upticks are mostly lifted offers
      b = (b + 0x6d2b79f5) | 0
      t = Math.imul(b ^ (b >>> 15), 1 | b)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      const w2 = (t ^ (t >>> 14)) >>> 0
      // 1 (buy) when the low 20 bits fall under the threshold, else 2 (sell), without a branch
      side[j] = 1 + ((buyThr[step]! - (w2 & 0xfffff) - 1) >>> 31)
      let lots = lotsTable[w2 >>> 20]!
      if (inBurst === 1) lots *= 2
      volume[j] = decimalVolumes ? (lots * 1_000_000 + ((w1 & 0xfffff) % 1_000_000)) / 1e8 : lots
    }
    this.rng[0] = a
    this.rng[1] = b
    this.pos = pos
    this.cum = cum
    this.burst = burst
    this.burstUp = burstUp
    this.ticks = ticks
  }
}
