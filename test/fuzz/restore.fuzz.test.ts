// Fuzz: restore of every aggregator (candles, footprint, TPO) on checkpoints of random streams, edited at a
// random place after a JSON round trip (a value replaced by any JSON value or a near miss, a number nudged, a
// field removed or added, an array item dropped or doubled), and on values that are no checkpoint at all.
// Contract: the factory refuses with a MarketDataError or restores; never another exception.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createCandleAggregator, createFootprintAggregator, createTpoAggregator, type Trade } from '../../src/index.js'
import { HOSTILE_LARGE } from '../fixtures/hostile-values.js'
import { edited, FUZZ_TIMEOUT, fuzzParams, jsonPaths, onlyMarketDataError } from './fuzz-params.js'

const T0 = Date.UTC(2026, 5, 1, 13, 30)
const AGGREGATORS = {
  candles: (restore?: unknown) =>
    createCandleAggregator({ timeframe: '1m', ...(restore === undefined ? {} : { restore }) } as never),
  footprint: (restore?: unknown) =>
    createFootprintAggregator({
      timeframe: '5m',
      tickSize: '0.25',
      ...(restore === undefined ? {} : { restore }),
    } as never),
  tpo: (restore?: unknown) =>
    createTpoAggregator({ timeframe: '1d', tickSize: '0.25', ...(restore === undefined ? {} : { restore }) } as never),
}

const trades = fc
  .array(
    fc.record({
      dt: fc.integer({ min: 0, max: 120_000 }),
      ticks: fc.integer({ min: -40, max: 40 }),
      volume: fc.constantFrom('1', '2.5', '0', '0.001', '1000000'),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      session: fc.constantFrom('MAINSESSION' as const, 'PRE_MARKET' as const, 'POST_MARKET' as const),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((rows) => {
    let t = T0
    return rows.map((r): Trade => {
      t += r.dt
      return { time: t, price: (5000 + r.ticks / 4).toFixed(2), volume: r.volume, side: r.side, session: r.session }
    })
  })

const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, -1, 1, 0.5, 1e15, -1e15, 2 ** 53, 8.64e15 + 1, NaN, Infinity, -0, '', 'x', '5000.25', '-1', null),
)
type Edit = { at: number; how: 'set' | 'nudge' | 'remove' | 'add' | 'double'; v: unknown }
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  how: fc.constantFrom('set', 'nudge', 'remove', 'add', 'double'),
  v: replacement,
})

function apply(cp: unknown, e: Edit): unknown {
  const ps = jsonPaths(cp)
  const path = ps[e.at % ps.length] as (string | number)[]
  switch (e.how) {
    case 'set':
      return edited(cp, path, () => e.v)
    case 'nudge':
      return edited(cp, path, (old) => (typeof old === 'number' ? old + (typeof e.v === 'number' ? e.v : 1) : old))
    case 'remove':
      return path.length === 0 ? undefined : edited(cp, path, () => undefined, true)
    case 'add':
      return edited(cp, path, (old) =>
        typeof old === 'object' && old !== null && !Array.isArray(old) ? { ...old, extraField: e.v } : old,
      )
    case 'double':
      return edited(cp, path, (old) => (Array.isArray(old) && old.length > 0 ? [...old, old[old.length - 1]] : old))
  }
}

describe('fuzz: restore of every aggregator', () => {
  for (const [name, make] of Object.entries(AGGREGATORS)) {
    it(
      `${name}: an edited checkpoint is refused with a MarketDataError or restored`,
      () => {
        let refused = 0
        let restored = 0
        const params = fuzzParams(200)
        fc.assert(
          fc.property(
            trades,
            fc.option(fc.nat({ max: 400_000 })),
            fc.array(edit, { minLength: 1, maxLength: 3 }),
            (ts, adv, edits) => {
              const agg = make()
              agg.addTrades(ts)
              if (adv !== null) agg.advance((ts[0] as Trade).time + adv)
              const saved: unknown = JSON.parse(JSON.stringify(agg.checkpoint()))
              // the unedited checkpoint restores
              expect(onlyMarketDataError(() => make(saved)).error).toBeUndefined()
              let cp = saved
              for (const e of edits) cp = apply(cp, e)
              const r = onlyMarketDataError(() => make(cp))
              expect(r.other).toBeUndefined()
              if (r.error !== undefined) refused++
              else restored++
            },
          ),
          params,
        )
        // not vacuous: the edits reach what restore checks (some are refused) and some leave a valid state
        expect(refused).toBeGreaterThan(0)
        expect(restored).toBeGreaterThan(0)
      },
      FUZZ_TIMEOUT,
    )

    it(`${name}: a value that is no checkpoint is refused with a MarketDataError`, () => {
      fc.assert(
        fc.property(fc.anything({ maxDepth: 3, withNullPrototype: true, withBigInt: true }), (x) => {
          if (x === undefined) return
          const r = onlyMarketDataError(() => make(x))
          expect(r.other).toBeUndefined()
        }),
        fuzzParams(150),
      )
    })
  }

  it.each(Object.keys(AGGREGATORS))(
    '%s: Proxies, throwing getters and deep nesting, as the checkpoint or inside one: a MarketDataError or restored',
    (name) => {
      const make = AGGREGATORS[name as keyof typeof AGGREGATORS]
      const agg = make()
      agg.add({ time: T0, price: '5000.25', volume: '1', side: 'buy' })
      const cp = JSON.parse(JSON.stringify(agg.checkpoint())) as Record<string, unknown>
      const failures: string[] = []
      for (const [what, hostile] of HOSTILE_LARGE) {
        for (const [where, x] of [
          ['the checkpoint', hostile()],
          ['its state', { ...cp, state: hostile() }],
          ['its options', { ...cp, options: hostile() }],
          ['a field of its state', { ...cp, state: { ...(cp.state as object), extra: hostile() } }],
        ] as const) {
          const r = onlyMarketDataError(() => make(x))
          if (r.other !== undefined) failures.push(`${what} as ${where}: ${r.other}`)
          // inside a checkpoint, a value JSON leaves out (a symbol) changes nothing: restoring is fine there
          else if (r.error === undefined && where === 'the checkpoint') failures.push(`${what}: restored`)
        }
      }
      expect(failures).toEqual([])
    },
  )
})
