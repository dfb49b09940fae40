// Restore checks what a state means, not only its check: the check is an unkeyed hash that anyone can
// recompute, so a state edited and resealed must be refused (a MarketDataError naming the field) unless it
// is a state some stream of records could have produced. Law: states from random streams, one field edited
// at random and resealed, are refused naming a field, or restore to an aggregator whose outputs keep every
// rule of their kind and whose further records merge as on a fresh replay.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AggregatorCheckpoint, AggregatorKind } from '../../src/aggregator.js'
import { sealCheckpoint } from '../../src/_lib/checkpoint.js'
import type { Candle } from '../../src/candles/index.js'
import { MarketDataError } from '../../src/errors.js'
import { type FootprintProfile, footprintProfiles, mergeFootprintProfiles } from '../../src/footprint/index.js'
import { type TpoProfile, mergeTpoProfiles, tpoProfiles } from '../../src/tpo/index.js'
import { T0, json, thrown } from './harness.js'
import { type Agg, STREAM_SUBJECTS, type StreamSubject, outcome, streamArb } from './hostile-streams.js'
import { checkOutputs } from './output-rules.js'

type Path = (string | number)[]

function leaves(x: unknown, path: Path = []): Path[] {
  if (typeof x !== 'object' || x === null) return [path]
  const out: Path[] = []
  for (const [k, v] of Object.entries(x)) out.push(...leaves(v, [...path, Array.isArray(x) ? Number(k) : k]))
  return out
}
const getAt = (x: unknown, p: Path): unknown => p.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], x)
function setAt(x: unknown, p: Path, v: unknown): void {
  const parent = getAt(x, p.slice(0, -1)) as Record<string | number, unknown>
  parent[p[p.length - 1] as string] = v
}

/** One edit of a leaf: a near or far number, a sign, another leaf's value. */
const editArb = fc.oneof(
  fc.constantFrom<(v: unknown) => unknown>(
    (v) => (typeof v === 'number' ? v + 1 : v),
    (v) => (typeof v === 'number' ? v - 1 : v),
    (v) => (typeof v === 'number' ? -v : typeof v === 'string' ? `-${v}` : v),
    (v) => (typeof v === 'number' ? v * 10 : typeof v === 'string' ? `${v}0` : v),
    () => 0,
    () => 1e15,
    () => '-7',
    () => '5000.25',
    (v) => (typeof v === 'boolean' ? !v : v),
    (v) => (typeof v === 'number' ? v + 300_000 : v),
  ),
)

const reseal = (cp: AggregatorCheckpoint, edit: (x: { watermark: unknown; state: unknown }) => void) => {
  const body = json({ watermark: cp.watermark, state: cp.state }) as { watermark: unknown; state: unknown }
  edit(body)
  return sealCheckpoint(
    cp.kind as AggregatorKind,
    cp.options as Record<string, unknown>,
    Number(body.watermark),
    body.state as Record<string, unknown>,
  )
}

const refusedNaming = (e: unknown): void => {
  expect(e).toBeInstanceOf(MarketDataError)
  expect((e as MarketDataError).code).toBe('invalid_option')
  expect((e as MarketDataError).field).toMatch(/^restore\.(state|watermark)/)
}

/** Further trades, into the open buckets: a restored aggregator must take them as a fresh one merges them. */
function mergesAsReplay(subject: StreamSubject, restore: unknown): void {
  if (subject.input !== 'trades' || subject.kind === 'candles') return
  const alone = subject.make({ restore }).flush() as (FootprintProfile | TpoProfile)[]
  const open = alone[0]
  if (open === undefined) return
  const extra = [{ time: open.time, price: '5000', volume: '1', side: 'buy' as const }]
  const r = subject.make({ restore })
  r.addTrades(extra)
  const fresh =
    subject.kind === 'footprint'
      ? footprintProfiles(extra, { timeframe: '5m', tickSize: '0.25' })
      : tpoProfiles(extra, { timeframe: '1d', tickSize: '0.25', blockSize: '30m' })
  if (fresh.length !== 1 || fresh[0]?.time !== open.time) return
  const merged = alone.map((p, i) =>
    i > 0
      ? p
      : subject.kind === 'footprint'
        ? mergeFootprintProfiles(p as FootprintProfile, fresh[0] as FootprintProfile)
        : mergeTpoProfiles(p as TpoProfile, fresh[0] as TpoProfile),
  )
  expect(json(r.flush())).toEqual(json(merged))
}

describe.each(STREAM_SUBJECTS)('$name', (subject) => {
  it('a state edited at random and resealed is refused naming a field, or restores to consistent outputs', () => {
    fc.assert(
      fc.property(streamArb(subject), fc.nat(), editArb, fc.nat(), (stream, pick, edit, other) => {
        stream.reset()
        const a = subject.make()
        for (const op of stream.ops) outcome(a, op)
        const cp = json(a.checkpoint()) as AggregatorCheckpoint
        const paths = leaves({ watermark: cp.watermark, state: cp.state })
        const path = paths[pick % paths.length] as Path
        let value: unknown
        const edited = reseal(cp, (body) => {
          const v = getAt(body, path)
          const swap = getAt(body, paths[other % paths.length] as Path)
          value = other % 5 === 0 ? swap : edit(v)
          setAt(body, path, value)
        })
        // TPO rows cover a profile's whole range (up to 1,000,000 rows): a block price moved far from the
        // others is checked for its refusal or restore, its outputs only when near (seconds a run otherwise)
        const far = subject.kind === 'tpo' && path.includes('blocks') && !(Math.abs(Number(value) - 5000) <= 1000)
        let b: Agg
        try {
          b = subject.make({ restore: edited })
        } catch (e) {
          refusedNaming(e)
          return
        }
        if (far) return
        checkOutputs(subject, b.snapshot())
        checkOutputs(subject, subject.make({ restore: edited }).flush())
        mergesAsReplay(subject, edited)
      }),
      { numRuns: subject.kind === 'tpo' ? 150 : 400 },
    )
  })
})

describe('the resealed states restore once took', () => {
  const trade = (time: number, price: unknown, volume: unknown) => ({ time, price, volume, side: 'buy' as const })
  const candles = STREAM_SUBJECTS[0] as StreamSubject
  const footprint = STREAM_SUBJECTS[2] as StreamSubject
  const tpo = STREAM_SUBJECTS[3] as StreamSubject
  const base = (s: StreamSubject, trades: unknown[], advance?: number) => {
    const a = s.make()
    a.addTrades(trades)
    if (advance !== undefined) a.advance(advance)
    return json(a.checkpoint()) as AggregatorCheckpoint
  }
  const refusedAt = (s: StreamSubject, cp: AggregatorCheckpoint, field: RegExp) => {
    const e = thrown(() => s.make({ restore: cp }))
    refusedNaming(e)
    expect((e as MarketDataError).field).toMatch(field)
  }
  type State = Record<string, Record<string, unknown>>

  it('a candle with open -7, high 1, low 5000.25', () => {
    const cp = base(candles, [trade(T0, '5000.25', 1), trade(T0 + 1, '5001', 1)])
    const edited = reseal(cp, ({ state }) => {
      Object.assign((state as State).open as object, { openRaw: '-7', hiRaw: '1', loRaw: '5000.25' })
    })
    refusedAt(candles, edited, /^restore\.state\.open\.(openRaw|hiRaw|loRaw)$/)
  })

  it('a candle trade count of 1e15 after 2 records', () => {
    const cp = base(candles, [trade(T0, '5000.25', 1), trade(T0 + 1, '5001', 1)])
    refusedAt(
      candles,
      reseal(cp, ({ state }) => {
        ;((state as State).open as Record<string, unknown>).count = 1e15
      }),
      /^restore\.state\.open\.count$/,
    )
  })

  it('closed candle times unaligned or not before the open candle are refused; a time before 1970 is a time', () => {
    const cp = base(candles, [trade(T0, 5000, 1), trade(T0 + 300_000, 5001, 1)])
    const closed = (cp.state as unknown as { closed: Candle[] }).closed
    expect(closed).toHaveLength(1)
    const at = (time: number) =>
      reseal(cp, ({ state }) => {
        ;((state as State).closed as unknown as Candle[])[0] = { ...closed[0], time } as Candle
      })
    for (const time of [T0 + 1, T0 + 300_000, T0 + 600_000])
      refusedAt(candles, at(time), /^restore\.state\.closed\[0\]\.time$/)
    // records may be stamped before 1970 (times within ±8.64e15): such a state is the replay of such a stream
    const replay = candles.make()
    replay.addTrades([trade(-300_000, 5000, 1), trade(T0 + 300_000, 5001, 1)])
    expect(json(candles.make({ restore: at(-300_000) }).flush())).toEqual(json(replay.flush()))
  })

  it('a footprint high far outside its rows', () => {
    const cp = base(footprint, [trade(T0, 5000, 1), trade(T0 + 1, 5001, 1)])
    refusedAt(
      footprint,
      reseal(cp, ({ state }) => {
        ;((state as { buckets: Record<string, unknown>[] }).buckets[0] as Record<string, unknown>).maxP = 9_000_000
      }),
      /^restore\.state\.buckets\[0\]\.rows$/,
    )
  })

  it('a TPO block low of 0 is a state a stream reaches (a zero-volume trade at 0): it restores as that stream', () => {
    const trades = [trade(T0, 5000, 1), trade(T0 + 1, 5001, 2)]
    const cp = base(tpo, trades)
    const edited = reseal(cp, ({ state }) => {
      const blocks = (
        (state as unknown as { periods: { blocks: unknown[][] }[] }).periods[0] as { blocks: unknown[][] }
      ).blocks
      ;(blocks[0] as unknown[])[2] = 0
    })
    const replay = tpo.make()
    replay.addTrades([...trades, trade(T0 + 2, 0, 0)])
    // the block's close was the last trade: the replayed zero-volume trade goes between the others
    const between = tpo.make()
    between.addTrades([trades[0], trade(T0, 0, 0), trades[1]])
    expect(json(tpo.make({ restore: edited }).flush())).toEqual(json(between.flush()))
  })
})
