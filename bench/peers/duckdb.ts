// Peer (c): DuckDB through @duckdb/node-api, in the same process, both threads. Data is loaded before
// timing (appender fed with data chunks straight from the typed arrays). Each peer is timed twice: the query
// alone (its result materialized in DuckDB) and the query with the read-back of its rows into JS.
// An exact variant uses DECIMAL columns.
import { createRequire } from 'node:module'
import { minimal, numText } from '../canon.js'
import type { Impl } from '../harness.js'

// The module is loaded lazily so that a missing native binding only marks DuckDB rows unavailable. It is
// installed on demand by bench/install-peers.mjs (not a devDependency), so its types are not assumed here.
type Duck = any
type Connection = any
type Instance = any
const DUCK_MODULE = '@duckdb/node-api'

let duck: Duck | undefined
let loadError: string | undefined

/**
 * Why the DuckDB rows cannot run, decided without loading the module (the module is found, not loaded).
 * Workloads build their rows with this and load DuckDB only in those rows' `prepare`, which the harness runs
 * after the JavaScript rows of the group are timed: under tsx, a process that has loaded @duckdb/node-api (or
 * any large package) ran the library's loops 12-19% slower (README, "How the numbers are measured").
 */
export function duckUnavailable(): string | undefined {
  if (process.argv.includes('--no-duckdb')) return 'skipped (--no-duckdb)'
  try {
    createRequire(import.meta.url).resolve(DUCK_MODULE)
  } catch (e) {
    return `@duckdb/node-api not found: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`
  }
  return undefined
}

export async function loadDuck(): Promise<string | undefined> {
  if (duck !== undefined || loadError !== undefined) return loadError
  if (process.argv.includes('--no-duckdb')) return (loadError = 'skipped (--no-duckdb)')
  try {
    duck = await import(DUCK_MODULE)
  } catch (e) {
    loadError = `@duckdb/node-api failed to load: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`
  }
  return loadError
}

export class DuckPeer {
  private constructor(
    private readonly instance: Instance,
    readonly con: Connection,
  ) {}

  static async open(threads = 2): Promise<DuckPeer> {
    const err = await loadDuck()
    if (err !== undefined || duck === undefined) throw new Error(err ?? 'DuckDB unavailable')
    const instance = await duck.DuckDBInstance.create(':memory:', { threads: String(threads) })
    return new DuckPeer(instance, await instance.connect())
  }

  /**
   * Loads columns into table `name` (DOUBLE for Float64Array, UTINYINT for Uint8Array) plus `seq`, the row
   * number (arrival order), then `transform` (a SELECT over `raw`) makes the final table.
   */
  async load(
    name: string,
    cols: Record<string, Float64Array | Uint8Array>,
    n: number,
    transform: string,
  ): Promise<void> {
    const d = duck as Duck
    const names = Object.keys(cols)
    const types = names.map((k) => (cols[k] instanceof Uint8Array ? d.UTINYINT : d.DOUBLE))
    await this.con.run(`DROP TABLE IF EXISTS raw`)
    await this.con.run(
      `CREATE TABLE raw (${[...names.map((k, j) => `${k} ${String(types[j])}`), 'seq DOUBLE'].join(', ')})`,
    )
    const app = await this.con.createAppender('raw')
    const chunk = d.DuckDBDataChunk.create([...types, d.DOUBLE])
    const size = 2048
    const seq = new Float64Array(size)
    for (let off = 0; off < n; off += size) {
      const m = Math.min(size, n - off)
      chunk.reset()
      chunk.rowCount = m
      for (let j = 0; j < names.length; j++) {
        const v = chunk.getColumnVector(j) as unknown as { items: Float64Array | Uint8Array; flush(): void }
        v.items.set((cols[names[j] as string] as Float64Array | Uint8Array).subarray(off, off + m) as never)
        v.flush()
      }
      for (let i = 0; i < m; i++) seq[i] = off + i
      const sv = chunk.getColumnVector(names.length) as unknown as { items: Float64Array; flush(): void }
      sv.items.set(seq.subarray(0, m))
      sv.flush()
      app.appendDataChunk(chunk)
    }
    app.closeSync()
    await this.con.run(`DROP TABLE IF EXISTS ${name}`)
    await this.con.run(`CREATE TABLE ${name} AS ${transform}`)
    await this.con.run(`DROP TABLE raw`)
  }

  /** Runs a query to its result, materialized in DuckDB (not read into JS): what the query row times. */
  compute(sql: string): Promise<unknown> {
    return this.con.run(sql)
  }

  /**
   * The query and the read-back of its rows into JS values. `run` then `getRows()` of the materialized result:
   * as fast as `runAndReadAll`, `getColumns()` or the raw chunks for these results (a few thousand rows,
   * under a millisecond of read-back).
   */
  async query(sql: string): Promise<unknown[][]> {
    return DuckPeer.rows(await this.con.run(sql))
  }

  /** The rows of a result of {@link compute}. */
  static async rows(result: unknown): Promise<unknown[][]> {
    return (await (result as { getRows(): Promise<unknown[][]> }).getRows()) as unknown[][]
  }

  async drop(name: string): Promise<void> {
    await this.con.run(`DROP TABLE IF EXISTS ${name}`)
  }

  close(): void {
    this.con.closeSync()
    this.instance.closeSync()
  }
}

/** Canonical text of one DuckDB value: DECIMAL exactly, DOUBLE by its short form, integers as digits. */
export function duckText(v: unknown): string {
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : numText(v)
  if (v !== null && typeof v === 'object' && 'scale' in v && 'value' in v) {
    const d = v as { value: bigint; scale: number }
    return minimal(d.value, d.scale)
  }
  if (v === null) return '0'
  return String(v)
}

/**
 * The two rows of one DuckDB peer: `<impl>: query` (the query to a result held in DuckDB; its check reads the
 * rows) and `<impl>: query + read-back`. The query row loads the data (`prepare`); the pair shares it, and
 * the second row frees it (`dispose`).
 */
export function duckRows(im: Impl, sql: string, peer: () => DuckPeer): Impl[] {
  const { prepare, dispose, ...rest } = im
  const canon = im.canon
  return [
    {
      ...rest,
      impl: `${im.impl}: query`,
      ...(prepare !== undefined ? { prepare } : {}),
      run: () => peer().compute(sql),
      canon: async (r) => canon(await DuckPeer.rows(r)),
    },
    {
      ...rest,
      impl: `${im.impl}: query + read-back`,
      // a prepare marks a row that loads DuckDB: it is timed with the DuckDB cohort, after the JS rows
      prepare: () => undefined,
      ...(dispose !== undefined ? { dispose } : {}),
      run: () => peer().query(sql),
    },
  ]
}
