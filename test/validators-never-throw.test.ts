// Every function a public entry documents as never throwing (`@throws never`) is run on fc.anything() and on
// hostile values (Proxies with throwing traps, revoked Proxies, throwing getters, null prototypes, huge strings,
// deep nesting) in each argument that carries the caller's input, and must answer: a Result for a validator,
// its documented value for the others. The list is found in the TSDoc of the entries, so a new function that
// promises "never" is held to it here, or this test names it.
import fc from 'fast-check'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as core from '../src/index.js'
import * as service from '../src/service/index.js'
import { HOSTILE_LARGE } from './fixtures/hostile-values.js'
import { lcBody } from './rules/helpers.js'

// The entries whose functions are the library's validators and rules. `svc-marketdata/testing` is left out:
// its helpers (arbitraries, splitAt) take a test's own values, not untrusted input.
const ENTRIES = [
  'src/index.ts',
  'src/service/index.ts',
  'src/analytics/index.ts',
  'src/render/index.ts',
  'src/io/index.ts',
  'src/sample/index.ts',
]

/** Exported functions whose `@throws` says `never`, split into unconditional and `never for ...` ones. */
function documentedNever(): { never: string[]; conditional: string[] } {
  const program = ts.createProgram(ENTRIES, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const never = new Set<string>()
  const conditional = new Set<string>()
  for (const entry of ENTRIES) {
    const file = program.getSourceFile(entry)
    const mod = file === undefined ? undefined : checker.getSymbolAtLocation(file)
    if (mod === undefined) throw new Error(`${entry} has no exports`)
    for (const sym of checker.getExportsOfModule(mod)) {
      const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
      if (!(target.flags & ts.SymbolFlags.Function)) continue
      for (const d of (target.declarations ?? []).filter(ts.isFunctionDeclaration)) {
        for (const tag of ts.getJSDocTags(d)) {
          if (tag.tagName.text !== 'throws') continue
          const text = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim()
          if (/^never for\b/i.test(text)) conditional.add(sym.name)
          else if (/^never\b/i.test(text)) never.add(sym.name)
        }
      }
    }
  }
  return { never: [...never].sort(), conditional: [...conditional].sort() }
}

const lib = { ...core, ...service } as unknown as Record<string, (...args: unknown[]) => unknown>

type Shape = 'result' | 'status' | 'apiError' | 'boolean' | 'any'
interface Spec {
  /** Valid arguments; each position in `input` is replaced in turn by a drawn value. */
  args: unknown[]
  /** Positions that carry the caller's input (the others are the server's own: a lookup, a clock). */
  input: number[]
  shape: Shape
}

const trade = { time: 0, price: '5000.25', volume: '1', side: 'buy' }
const candle = { time: 0, open: '1', high: '2', low: '1', close: '2', volume: '3' }
const NOW = Date.UTC(2026, 5, 10)

/** Every function documented as never throwing, with valid arguments and the positions a caller fills. */
const SPECS: Record<string, Spec> = {
  ok: { args: [1], input: [0], shape: 'result' },
  err: { args: ['e'], input: [0], shape: 'result' },
  parseDecimal: { args: ['12.5'], input: [0], shape: 'result' },
  floorToGrid: { args: ['12.5', '0.25'], input: [0, 1], shape: 'result' },
  parseTimeframe: { args: ['15m'], input: [0], shape: 'result' },
  listTimeframes: { args: [], input: [], shape: 'any' },
  isValidTimeZone: { args: ['Europe/Berlin'], input: [0], shape: 'boolean' },
  validateTrade: { args: [trade, 0], input: [0, 1], shape: 'result' },
  validateTrades: { args: [[trade]], input: [0], shape: 'result' },
  validateTradeColumns: {
    args: [
      { time: new Float64Array(1), price: new Float64Array(1), volume: new Float64Array(1), side: new Uint8Array([1]) },
    ],
    input: [0],
    shape: 'result',
  },
  isTradeColumns: { args: [{}], input: [0], shape: 'boolean' },
  validateCandle: { args: [candle, 0], input: [0, 1], shape: 'result' },
  validateCandles: { args: [[candle]], input: [0], shape: 'result' },
  parseHistoryQuery: {
    args: ['candles', { exchange: 'XNAS', symbol: 'AAPL', timeframe: '1h' }, { now: NOW }],
    input: [1],
    shape: 'result',
  },
  invalidArgumentError: { args: ['m', 'p'], input: [0, 1], shape: 'apiError' },
  tooMuchDataError: { args: [1000, 'footprint profiles'], input: [0, 1], shape: 'apiError' },
  unauthenticatedError: { args: [], input: [0], shape: 'apiError' },
  permissionDeniedError: { args: [], input: [0], shape: 'apiError' },
  notFoundError: { args: ['data'], input: [0], shape: 'apiError' },
  rateLimitedError: { args: [5], input: [0], shape: 'apiError' },
  tooManyStreamsError: { args: ['candles', 100], input: [0, 1], shape: 'apiError' },
  unavailableError: { args: [503, 'down'], input: [0, 1], shape: 'apiError' },
  parseRfc3339: { args: ['2026-06-01T00:00:00Z'], input: [0], shape: 'result' },
  parseUnixSeconds: { args: ['1780000000'], input: [0], shape: 'result' },
  nextStreamDue: { args: [undefined], input: [0], shape: 'any' },
  statusOk: { args: [], input: [0], shape: 'status' },
  invalidArgument: { args: ['m'], input: [0], shape: 'status' },
  notFound: { args: [], input: [0], shape: 'status' },
  unauthenticated: { args: [], input: [0], shape: 'status' },
  resourceExhausted: { args: [], input: [0], shape: 'status' },
  validateLinkRequest: {
    args: ['LinkSecurity', { security_guid: 'g-1', partner_security_id: 'P1' }],
    input: [0, 1],
    shape: 'result',
  },
  listSecuritiesItems: { args: [[{ guid: 'g-1' }], () => undefined], input: [0], shape: 'result' },
  checkAccessToken: { args: ['2026-06-10T00:30:00.000Z', NOW], input: [0], shape: 'status' },
  parseSecurityId: { args: [{ guid: 'g-1' }, 'security_id'], input: [0, 1], shape: 'result' },
  validateListCandlesRequest: { args: [lcBody({})], input: [0], shape: 'result' },
  toPartnerDecimal: { args: ['12.5'], input: [0], shape: 'result' },
  fromPartnerDecimal: { args: [{ value: '125', scale: '10' }], input: [0], shape: 'result' },
  parseIsoDuration: { args: ['PT4H'], input: [0], shape: 'result' },
  timeframeFromPartner: { args: [{ time_unit: 'MINUTE', count: 15 }], input: [0], shape: 'result' },
}

/** `never for <condition>`: the condition is the caller's (a request from the parser, valid options). */
const CONDITIONAL = ['checkCap', 'openApiDocument', 'openApiJson']

function answered(shape: Shape, r: unknown): boolean {
  const o = r as Record<string, unknown>
  switch (shape) {
    case 'result':
      return typeof r === 'object' && r !== null && (o.ok === true ? 'value' in o : o.ok === false && 'error' in o)
    case 'status':
      return (
        typeof r === 'object' &&
        r !== null &&
        typeof o.code === 'number' &&
        typeof o.message === 'string' &&
        Array.isArray(o.details)
      )
    case 'apiError':
      return (
        typeof r === 'object' &&
        r !== null &&
        typeof o.status === 'number' &&
        typeof o.code === 'string' &&
        typeof o.message === 'string'
      )
    case 'boolean':
      return typeof r === 'boolean'
    case 'any':
      return true
  }
}

/** Calls `name` with `x` in argument `pos`; a throw or a wrong shape is a failure line. */
function probe(name: string, pos: number, x: unknown): string | undefined {
  const spec = SPECS[name] as Spec
  const args = [...spec.args]
  args[pos] = x
  try {
    const r = lib[name]?.(...args)
    return answered(spec.shape, r) ? undefined : `${name} arg ${pos}: answered ${typeof r}, not a ${spec.shape}`
  } catch (e) {
    return `${name} arg ${pos}: threw ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 120)}` : typeof e}`
  }
}

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  maxDepth: 4,
})

describe('functions documented as never throwing', () => {
  it('the table holds every one the public entries document (and nothing else)', () => {
    const found = documentedNever()
    expect(Object.keys(SPECS).sort()).toEqual(found.never)
    expect(CONDITIONAL.sort()).toEqual(found.conditional)
  }, 120_000)

  it.each(Object.keys(SPECS))('%s: valid arguments are answered', (name) => {
    const spec = SPECS[name] as Spec
    expect(answered(spec.shape, lib[name]?.(...spec.args))).toBe(true)
  })

  it.each(Object.keys(SPECS).filter((n) => (SPECS[n] as Spec).input.length > 0))(
    '%s: fc.anything() in each input argument is answered',
    (name) => {
      const spec = SPECS[name] as Spec
      fc.assert(
        fc.property(fc.constantFrom(...spec.input), anything, (pos, x) => {
          expect(probe(name, pos, x)).toBeUndefined()
        }),
        { numRuns: 150 },
      )
    },
  )

  it.each(Object.keys(SPECS).filter((n) => (SPECS[n] as Spec).input.length > 0))(
    '%s: Proxies, getters, null prototypes, huge strings and deep nesting are answered',
    (name) => {
      const failures: string[] = []
      for (const pos of (SPECS[name] as Spec).input) {
        for (const [what, make] of HOSTILE_LARGE) {
          const line = probe(name, pos, make())
          if (line !== undefined) failures.push(`${what}: ${line}`)
        }
      }
      expect(failures).toEqual([])
    },
  )
})
