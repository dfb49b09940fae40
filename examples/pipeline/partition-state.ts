// What a worker holds for one partition it owns: the lease, the position reached, every security's state,
// and what is applied but not committed yet (closed minutes, changed checkpoints, dead letters). Messages are
// applied in stream order; each is a trade, a partition clock, or refused with its reason. A refused message
// changes nothing but the position and the dead letters, so it never stalls the partition.
import { floorToGrid, MarketDataError, parseDecimal, type Trade, validateTrade } from '../../src/index.js'
import type { Lease } from './leases.js'
import { createSecurityState, type MinuteBar, type SecurityCheckpoint, type SecurityState } from './security-state.js'
import { decodeClock, decodeTrade, type ParsedSubject, parseSubject } from './subjects.js'

/** One message of the stream as a source hands it out. */
export interface StreamMessage {
  /** Stream sequence: increasing within a partition's messages. */
  seq: number
  subject: string
  data: Uint8Array
}

/** A refused message, kept with its reason. */
export interface DeadLetter {
  partition: number
  seq: number
  subject: string
  payload: string
  reason: string
}

/** What one commit writes. */
export interface PendingCommit {
  lease: Lease
  /** The new position: the last stream sequence applied. */
  position: number
  bars: MinuteBar[]
  checkpoints: { exchange: string; symbol: string; state: string }[]
  deadLetters: DeadLetter[]
}

/** The tick size of a security (reference data), `undefined` for one the pipeline does not know. */
export type TickSizes = (exchange: string, symbol: string) => string | undefined

/** A partition's state in its owner. */
export interface PartitionState {
  readonly lease: Lease
  /** Last stream sequence applied (committed or not). */
  readonly applied: number
  /** Whether anything was applied since the last commit. */
  dirty(): boolean
  apply(m: StreamMessage): void
  /** What to write, and marks it taken (call `committed` once it is in the database). */
  pending(): PendingCommit
  committed(c: PendingCommit): void
}

const text = new TextDecoder()
/** Subjects a partition state remembers parsed at most. */
const MAX_KNOWN_SUBJECTS = 100_000
const key = (exchange: string, symbol: string): string => `${exchange}\u0000${symbol}`

/** Whether a valid price lies on the tick grid (the store keeps one-tick rows; see docs/decisions/0801). */
function onGrid(price: string | number, tickSize: string): boolean {
  const f = floorToGrid(price, tickSize)
  if (!f.ok) return false
  const a = parseDecimal(String(price))
  const b = parseDecimal(f.value)
  if (!a.ok || !b.ok) return false
  const scale = Math.max(a.value.scale, b.value.scale)
  return a.value.units * 10n ** BigInt(scale - a.value.scale) === b.value.units * 10n ** BigInt(scale - b.value.scale)
}

/** A partition state from its lease and the checkpoints stored for its securities. */
export function createPartitionState(opts: {
  lease: Lease
  checkpoints: readonly { exchange: string; symbol: string; state: string }[]
  tickSizes: TickSizes
  /** The latest trade time the aggregators take now (UTC ms); see `SecurityOptions.maxTime`. */
  maxTime?: () => number
}): PartitionState {
  const { lease } = opts
  const securities = new Map<string, SecurityState>()
  const changed = new Set<SecurityState>()
  let applied = lease.position
  let committedAt = lease.position
  let dead: DeadLetter[] = []
  const maxTime = opts.maxTime === undefined ? {} : { maxTime: opts.maxTime }

  for (const c of opts.checkpoints) {
    const tickSize = opts.tickSizes(c.exchange, c.symbol)
    if (tickSize === undefined) throw new Error(`checkpoint of ${c.exchange}:${c.symbol}, a security not registered`)
    const restore = JSON.parse(c.state) as SecurityCheckpoint
    securities.set(
      key(c.exchange, c.symbol),
      createSecurityState({ exchange: c.exchange, symbol: c.symbol, tickSize, ...maxTime }, restore),
    )
  }

  // a partition's subjects are its securities' and its clock: each is parsed once (anything else every time,
  // so junk subjects cannot grow the map)
  const subjects = new Map<string, ParsedSubject>()
  const subjectOf = (subject: string): ParsedSubject => {
    const known = subjects.get(subject)
    if (known !== undefined) return known
    const parsed = parseSubject(subject)
    if (parsed.kind !== 'other' && parsed.partition === lease.partition && subjects.size < MAX_KNOWN_SUBJECTS)
      subjects.set(subject, parsed)
    return parsed
  }

  const refuse = (m: StreamMessage, reason: string): void => {
    dead.push({ partition: lease.partition, seq: m.seq, subject: m.subject, payload: text.decode(m.data), reason })
  }

  /** Applies a trade message; returns why not when it is refused (then nothing changed). */
  const applyTrade = (m: StreamMessage, exchange: string, symbol: string): string | undefined => {
    const d = decodeTrade(m.data)
    if (!d.ok) return d.reason
    const t = d.message
    if (t.exchange !== exchange || t.symbol !== symbol)
      return `exchange, symbol: ${t.exchange}:${t.symbol} on the subject of ${exchange}:${symbol}`
    const tickSize = opts.tickSizes(exchange, symbol)
    if (tickSize === undefined) return `security: ${exchange}:${symbol} is not registered`
    const trade: Record<string, unknown> = { time: t.time, price: t.price, volume: t.volume, side: t.side }
    if (t.session !== undefined) trade.session = t.session
    const v = validateTrade(trade)
    if (!v.ok) return v.error.message
    if (!onGrid(v.value.price, tickSize))
      return `price: ${String(v.value.price)} is not on the tick grid ${tickSize} (the store keeps one-tick rows)`
    let s = securities.get(key(exchange, symbol))
    if (s === undefined) {
      s = createSecurityState({ exchange, symbol, tickSize, ...maxTime })
      securities.set(key(exchange, symbol), s)
    }
    try {
      s.add(v.value as Trade)
    } catch (e) {
      if (e instanceof MarketDataError) return `${e.code}: ${e.message}`
      throw e
    }
    changed.add(s)
    return undefined
  }

  return {
    lease,
    get applied() {
      return applied
    },
    dirty: () => applied !== committedAt,
    apply(m) {
      if (m.seq <= applied) return // redelivered: its effects are in the state already
      const subject = subjectOf(m.subject)
      if (subject.kind === 'trade' && subject.partition === lease.partition) {
        const why = applyTrade(m, subject.exchange, subject.symbol)
        if (why !== undefined) refuse(m, why)
      } else if (subject.kind === 'clock' && subject.partition === lease.partition) {
        const c = decodeClock(m.data)
        if (!c.ok) refuse(m, c.reason)
        else
          for (const s of securities.values()) {
            s.advance(c.time)
            changed.add(s)
          }
      } else refuse(m, `subject: ${m.subject} is not a trade or clock subject of partition ${lease.partition}`)
      applied = m.seq
    },
    pending() {
      const bars: MinuteBar[] = []
      const checkpoints: PendingCommit['checkpoints'] = []
      for (const s of changed) {
        for (const b of s.takeClosed()) bars.push(b)
        checkpoints.push({ exchange: s.exchange, symbol: s.symbol, state: JSON.stringify(s.checkpoint()) })
      }
      changed.clear()
      const deadLetters = dead
      dead = []
      return { lease, position: applied, bars, checkpoints, deadLetters }
    },
    committed(c) {
      committedAt = c.position
    },
  }
}
