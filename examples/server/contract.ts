// Checks an HTTP answer against the library's OpenAPI document: the operation's documented status, the JSON
// body against its schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses), and every documented header
// (required ones present, values of the declared type). A path or method the document does not have must
// still answer the documented error body of its interface. Used by the end-to-end harness on every answer.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { openApiDocument, type JsonObject } from '../../src/service/index.js'

/** One answer as a test saw it. */
export interface SeenAnswer {
  method: string
  /** Request path (the URL's pathname, still percent-encoded). */
  path: string
  status: number
  headers: Headers
  /** Parsed JSON body, `undefined` when empty. */
  body: unknown
}

export interface Contract {
  /** Problems with an answer; empty when the document allows it. */
  check(answer: SeenAnswer): string[]
  /** Problems of a value against a component schema (`'ListCandlesRequest'`) or a schema of the document. */
  validate(schema: string | object, value: unknown): string[]
  /** The document the contract checks against. */
  document: JsonObject
}

type Obj = Record<string, unknown>
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x)
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void
const SCHEMAS_ID = 'urn:svc-marketdata:openapi'

/** `#/components/schemas/X` -> the Ajv document's `$defs/X`, everywhere in a schema. */
function rewriteRefs(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(rewriteRefs)
  if (!isObj(x)) return x
  const out: Obj = {}
  for (const [k, v] of Object.entries(x)) {
    out[k] =
      k === '$ref' && typeof v === 'string'
        ? v.replace('#/components/schemas/', `${SCHEMAS_ID}#/$defs/`)
        : rewriteRefs(v)
  }
  return out
}

/** A path template of the document as a regular expression (`{exchange}` matches one segment). */
function templateRegex(prefix: string, template: string): RegExp {
  const escaped = `${prefix}${template}`.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')
  return new RegExp(`^${escaped}$`)
}

/**
 * Builds the checker for a document whose server URLs are paths on the server under test (the default: the
 * reference server's, `/api/v1/marketdata` and `/partner`).
 */
export function createContract(
  document: JsonObject = openApiDocument({ restServerUrl: '/api/v1/marketdata', partnerServerUrl: '/partner' }),
): Contract {
  const components = document.components as Obj
  const ajv = new Ajv2020({ strictTuples: false })
  addFormats(ajv)
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  })
  ajv.addVocabulary(['x-status-codes'])
  ajv.addSchema({ $id: SCHEMAS_ID, $defs: rewriteRefs(components.schemas) as Obj })
  const compiled = new Map<unknown, ValidateFunction>()
  const validator = (schema: unknown): ValidateFunction => {
    let v = compiled.get(schema)
    if (v === undefined) {
      v = ajv.compile(rewriteRefs(schema) as Obj)
      compiled.set(schema, v)
    }
    return v
  }
  const resolve = (x: unknown): Obj => {
    // a Reference Object (with optional summary / description beside it) -> its component
    if (
      isObj(x) &&
      typeof x.$ref === 'string' &&
      x.$ref.startsWith('#/components/') &&
      Object.keys(x).every((k) => ['$ref', 'summary', 'description'].includes(k))
    ) {
      const [, , kind, name] = x.$ref.split('/')
      return resolve((components[kind!] as Obj)[name!])
    }
    return x as Obj
  }

  const restPrefix = String(((document.servers as Obj[])[0] as Obj).url)
  const routes: { regex: RegExp; item: Obj; label: string }[] = []
  let partnerPrefix = ''
  for (const [template, item] of Object.entries(document.paths as Obj)) {
    const servers = (item as Obj).servers as Obj[] | undefined
    const prefix = servers === undefined ? restPrefix : String(servers[0]!.url)
    if (servers !== undefined) partnerPrefix = prefix
    routes.push({ regex: templateRegex(prefix, template), item: item as Obj, label: template })
  }
  const errorBody = validator((components.schemas as Obj).ErrorBody)
  const statusBody = validator((components.schemas as Obj).StatusResponse)

  const schemaProblems = (v: ValidateFunction, body: unknown, where: string): string[] =>
    v(body)
      ? []
      : (v.errors ?? []).map((e) =>
          `${where}: body${e.instancePath} ${e.message ?? 'is invalid'} ${e.params !== undefined ? JSON.stringify(e.params) : ''}`.trim(),
        )

  function headerProblems(headers: Obj, answer: SeenAnswer, where: string): string[] {
    const problems: string[] = []
    for (const [name, raw] of Object.entries(headers)) {
      const h = resolve(raw)
      const value = answer.headers.get(name)
      if (value === null) {
        if (h.required === true) problems.push(`${where}: header ${name} is required`)
        continue
      }
      const schema = h.schema as Obj
      let typed: unknown = value
      if (schema.type === 'integer' || schema.type === 'number')
        typed = /^-?[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : value
      problems.push(
        ...schemaProblems(validator(schema), typed, `${where} header ${name}`).map((p) =>
          p.replace(': body', ': value'),
        ),
      )
    }
    return problems
  }

  function check(answer: SeenAnswer): string[] {
    const method = answer.method.toLowerCase()
    const route = routes.find((r) => r.regex.test(answer.path))
    const where = `${answer.method} ${answer.path} -> ${answer.status}`
    const operation = route === undefined ? undefined : (route.item[method] as Obj | undefined)
    if (operation === undefined) {
      // not an operation of the document: still the interface's documented error body
      if (answer.path === restPrefix || answer.path.startsWith(`${restPrefix}/`)) {
        return [
          ...(answer.status >= 400 ? [] : [`${where}: not an operation of the document, yet not an error`]),
          ...schemaProblems(errorBody, answer.body, where),
        ]
      }
      if (partnerPrefix !== '' && answer.path.startsWith(`${partnerPrefix}/`))
        return schemaProblems(statusBody, answer.body, where)
      return []
    }
    const responses = operation.responses as Obj
    const raw = responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default
    if (raw === undefined)
      return [`${where}: status ${answer.status} is not documented for ${answer.method} ${route!.label}`]
    const response = resolve(raw)
    const problems = headerProblems((response.headers as Obj | undefined) ?? {}, answer, where)
    const content = response.content as Obj | undefined
    if (content === undefined) {
      if (answer.body !== undefined) problems.push(`${where}: a body where the document has none`)
      return problems
    }
    const type = answer.headers.get('content-type') ?? ''
    const media = content[type.split(';')[0]!.trim().toLowerCase()] as Obj | undefined
    if (media === undefined)
      return [
        ...problems,
        `${where}: content-type ${JSON.stringify(type)} is not one of ${Object.keys(content).join(', ')}`,
      ]
    return [...problems, ...schemaProblems(validator(media.schema), answer.body, where)]
  }

  const validate = (schema: string | object, value: unknown): string[] =>
    schemaProblems(
      validator(typeof schema === 'string' ? { $ref: `#/components/schemas/${schema}` } : schema),
      value,
      typeof schema === 'string' ? schema : 'schema',
    )

  return { check, validate, document }
}

let shared: Contract | undefined
/** One contract per test worker (compiling the schemas takes a moment). */
export function sharedContract(): Contract {
  shared ??= createContract()
  return shared
}

/** Throws when the document does not allow an answer (the test that saw it fails, naming every problem). */
export function assertContract(answer: SeenAnswer): void {
  const problems = sharedContract().check(answer)
  if (problems.length > 0) throw new Error(`the answer breaks the OpenAPI document:\n  ${problems.join('\n  ')}`)
}
