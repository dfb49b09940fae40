import type { BucketState } from './bucket-state.js'

/** Closed entries at the front of the ordered lane that are dropped at once (amortized, no shift a bucket). */
const COMPACT_AT = 64

/**
 * An engine's open buckets by start. Time-ordered input opens each bucket after every open one: those go
 * into an ordered lane (an array in start order, closed from the front), which costs no hash-table growth,
 * shrinking or iterator a bucket (on thin data, tens of thousands of one-minute buckets a batch); a bucket
 * opened before a later one goes into a Map. Buckets tile time, so in the lane a later start also ends
 * later: the buckets that end by a time are a prefix of it.
 */
export class OpenBuckets {
  /** Buckets in start order, open from `head` (the entries before it are closed). */
  private readonly lane: (BucketState | undefined)[] = []
  private head = 0
  /** Buckets opened before a later one. */
  private readonly others = new Map<number, BucketState>()

  /** How many buckets are open. */
  get size(): number {
    return this.lane.length - this.head + this.others.size
  }

  /** The open bucket that starts at `start`, or undefined. */
  get(start: number): BucketState | undefined {
    const lane = this.lane
    const n = lane.length
    if (n > this.head) {
      const last = lane[n - 1] as BucketState
      if (start === last.start) return last
      if (start > last.start) return undefined
    }
    if (this.others.size > 0) {
      const st = this.others.get(start)
      if (st !== undefined) return st
    }
    // binary search of the lane's open part
    let lo = this.head
    let hi = n - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const st = lane[mid] as BucketState
      if (st.start === start) return st
      if (st.start < start) lo = mid + 1
      else hi = mid - 1
    }
    return undefined
  }

  /** Adds a bucket whose start no open bucket has. */
  add(st: BucketState): void {
    const lane = this.lane
    if (lane.length === this.head || st.start > (lane[lane.length - 1] as BucketState).start) lane.push(st)
    else this.others.set(st.start, st)
  }

  /** Removes `st`, an open bucket added last to the lane or kept in the Map (one a refused record opened). */
  remove(st: BucketState): void {
    if (this.others.get(st.start) === st) {
      this.others.delete(st.start)
      return
    }
    const lane = this.lane
    if (lane.length > this.head && lane[lane.length - 1] === st) lane.pop()
    if (lane.length === this.head) {
      lane.length = 0
      this.head = 0
    }
  }

  /** Every open bucket, in no particular order. */
  values(): BucketState[] {
    const out = this.lane.slice(this.head) as BucketState[]
    for (const st of this.others.values()) out.push(st)
    return out
  }

  /**
   * Removes the buckets that end at or before `upTo` and appends them to `done`: those of the Map first,
   * then the lane's in start order (the caller sorts `done` when it needs one order).
   */
  takeEnded(upTo: number, done: BucketState[]): void {
    if (this.others.size > 0) {
      for (const st of this.others.values()) if (st.end <= upTo) done.push(st)
      for (const st of done) this.others.delete(st.start)
    }
    const lane = this.lane
    let h = this.head
    while (h < lane.length && (lane[h] as BucketState).end <= upTo) {
      done.push(lane[h] as BucketState)
      lane[h] = undefined
      h++
    }
    if (h === lane.length) {
      lane.length = 0
      h = 0
    } else if (h >= COMPACT_AT && 2 * h >= lane.length) {
      lane.copyWithin(0, h)
      lane.length -= h
      h = 0
    }
    this.head = h
  }
}
