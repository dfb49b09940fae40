// Reading a Polars result back into JavaScript typed arrays, by the paths a Node user has. nodejs-polars
// makes a JS wrapper object for every series it hands out (about 0.25 ms each here, whatever its length),
// so paths that go column by column pay that per column; one Arrow IPC buffer of the whole frame, read with
// apache-arrow, pays it once and reads the columns as views of that buffer.
import { createRequire } from 'node:module'
import { polars, type Frame } from './polars.js'

/** One column as read back: float64, integer or Datetime (BigInt64Array of ms) values. */
export type Column = Float64Array | BigInt64Array | Uint32Array | Int32Array | Uint8Array | ArrayLike<number | bigint>

/** The columns of a frame by name. */
export type Columns = Record<string, Column>

/** How a frame is read back: `ipc` (writeIPC + apache-arrow), `typed` (toTypedArray per column, no cast), `cast` (cast to Float64, then toTypedArray: this bench's path before). */
export type ReadPath = 'ipc' | 'typed' | 'cast'

export const READ_PATHS: readonly ReadPath[] = ['ipc', 'typed', 'cast']

/** What each path does, for the row names. */
export const READ_PATH_TEXT: Record<ReadPath, string> = {
  ipc: 'writeIPC() read with apache-arrow',
  typed: 'getColumn().toTypedArray() (Datetime cast to Int64)',
  cast: 'getColumn().cast(Float64).toTypedArray()',
}

let arrow: any

/** Why the IPC path cannot run (apache-arrow missing), or undefined. */
export function arrowUnavailable(): string | undefined {
  try {
    createRequire(import.meta.url).resolve('apache-arrow')
  } catch (e) {
    return `apache-arrow not found: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`
  }
  return undefined
}

/** The columns of `df` as typed arrays, by `path`. */
export function readFrame(df: Frame, path: ReadPath): Columns {
  const names: string[] = df.columns
  const out: Columns = {}
  if (path === 'ipc') {
    arrow ??= createRequire(import.meta.url)('apache-arrow')
    const t = arrow.tableFromIPC(df.writeIPC())
    for (const k of names) out[k] = t.getChild(k).toArray()
    return out
  }
  const p = polars()
  for (const k of names) {
    const s = df.getColumn(k)
    const temporal = String(s.dtype).startsWith('DataType(Datetime')
    out[k] = (path === 'cast' ? s.cast(p.Float64) : temporal ? s.cast(p.Int64) : s).toTypedArray()
  }
  return out
}

/** A read-back column as numbers (bigint ms and integer counts as doubles), for the checks. */
export function numbers(c: Column | undefined): Float64Array {
  if (c === undefined) return new Float64Array(0)
  if (c instanceof Float64Array) return c
  const out = new Float64Array(c.length)
  for (let i = 0; i < c.length; i++) out[i] = Number(c[i])
  return out
}
