// The file part of reading records: a path or stdin as text chunks, gzip undone (by its magic bytes, whatever
// the name), Parquet files turned into NDJSON lines so that the one text reader applies the same column,
// time and side rules to every format. The command line and the reference server both read through here.
import { createReadStream, statSync, type ReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createGunzip } from 'node:zlib'
import { badInput } from './cli-error.js'

/** Formats of an input file: the two text formats the reader parses, and Parquet. */
export type InputFormat = 'csv' | 'ndjson' | 'parquet'

/** An opened input: its text chunks, the format its name says, and how far through it reading is. */
export interface OpenedInput {
  chunks: AsyncIterable<string>
  /** From the name (`.csv`, `.ndjson`, `.parquet`, with or without `.gz`), else undefined (the reader detects it). */
  format: 'csv' | 'ndjson' | undefined
  /** Fraction of the file read so far (0 when unknown: stdin). */
  fraction(): number
  /** What to call the input in messages. */
  name: string
}

/** The format a file name says, or undefined. */
export function formatOfName(file: string): InputFormat | undefined {
  const base = file.replace(/\.gz$/i, '')
  if (/\.parquet$/i.test(base)) return 'parquet'
  if (/\.(ndjson|jsonl|json)$/i.test(base)) return 'ndjson'
  if (/\.(csv|txt|tsv)$/i.test(base)) return 'csv'
  return undefined
}

/** Text chunks of a byte stream, gunzipped when it starts with the gzip magic bytes. */
async function* decoded(stream: Readable, name: string): AsyncGenerator<string, void, undefined> {
  const it = (stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]()
  const next = async () => {
    try {
      return await it.next()
    } catch (e) {
      throw badInput(`cannot read ${name}: ${(e as Error).message}`)
    }
  }
  const first = await next()
  if (first.done === true) return
  const head = typeof first.value === 'string' ? Buffer.from(first.value) : first.value
  const dec = new StringDecoder('utf8')
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield dec.write(head)
    for (;;) {
      const n = await next()
      if (n.done === true) break
      yield typeof n.value === 'string' ? n.value : dec.write(n.value)
    }
    yield dec.end()
    return
  }
  const rest = Readable.from(
    (async function* () {
      yield head
      for (;;) {
        const n = await next()
        if (n.done === true) return
        yield typeof n.value === 'string' ? Buffer.from(n.value) : n.value
      }
    })(),
  )
  const gunzip = rest.pipe(createGunzip())
  try {
    for await (const b of gunzip as AsyncIterable<Buffer>) yield dec.write(b)
  } catch (e) {
    throw badInput(`cannot read ${name}: gzip: ${(e as Error).message}`)
  }
  yield dec.end()
}

/**
 * Opens a path (or stdin for undefined / `-`) as text chunks. `format` given (`--input-format`) wins over the
 * name; Parquet is read row group by row group and comes out as NDJSON lines.
 */
export function openInput(file: string | undefined, stdin: Readable, format: InputFormat | undefined): OpenedInput {
  if (file === undefined || file === '-') {
    if (format === 'parquet')
      throw badInput('Parquet cannot be read from stdin (it is read from its end): give the file')
    return { chunks: decoded(stdin, 'stdin'), format, fraction: () => 0, name: 'stdin' }
  }
  let size = 0
  try {
    size = statSync(file).size
  } catch (e) {
    throw badInput(`cannot read ${file}: ${(e as Error).message}`)
  }
  const f = format ?? formatOfName(file)
  if (f === 'parquet') {
    let done = 0
    return {
      chunks: parquetLines(file, (x) => {
        done = x
      }),
      format: 'ndjson',
      fraction: () => done,
      name: file,
    }
  }
  const stream: ReadStream = createReadStream(file)
  return {
    chunks: decoded(stream, file),
    format: f,
    fraction: () => (size > 0 ? stream.bytesRead / size : 0),
    name: file,
  }
}

/** A Parquet cell as a JSON value the text reader reads exactly: decimals as strings, big integers as digits. */
function cell(v: unknown): unknown {
  if (typeof v === 'bigint') return { digits: v.toString() }
  if (v instanceof Date) return v.toISOString()
  return v
}

/** The NDJSON text of some Parquet rows (big integers as bare digits, so their literal text is exact). */
function ndjson(rows: Record<string, unknown>[]): string {
  let out = ''
  for (const r of rows) {
    const o: Record<string, unknown> = {}
    for (const k of Object.keys(r)) o[k] = cell(r[k])
    out += `${JSON.stringify(o).replace(/\{"digits":"(-?\d+)"\}/g, '$1')}\n`
  }
  return out
}

/**
 * The rows of a Parquet file as NDJSON text, one row group at a time. DECIMAL columns are read as their exact
 * decimal text (hyparquet would divide them into doubles: the schema's decimal mark is taken off and the
 * scaled integers placed here), timestamps as epoch milliseconds (finer units floored).
 */
async function* parquetLines(file: string, progress: (f: number) => void): AsyncGenerator<string, void, undefined> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } = await import('hyparquet')
  const { compressors } = await import('hyparquet-compressors')
  let buffer: Awaited<ReturnType<typeof asyncBufferFromFile>>
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>
  try {
    buffer = await asyncBufferFromFile(file)
    metadata = await parquetMetadataAsync(buffer)
  } catch (e) {
    throw badInput(`cannot read ${file} as Parquet: ${(e as Error).message}`)
  }
  const scales = new Map<string, number>()
  for (const el of metadata.schema) {
    const lt = el.logical_type as { type?: string; scale?: number } | undefined
    if (el.converted_type === 'DECIMAL' || lt?.type === 'DECIMAL') {
      scales.set(el.name, el.scale ?? lt?.scale ?? 0)
      el.converted_type = undefined
      el.logical_type = undefined
    }
  }
  const parsers = {
    timestampFromMilliseconds: (x: bigint) => new Date(Number(x)),
    timestampFromMicroseconds: (x: bigint) => new Date(Number(x / 1000n)),
    timestampFromNanoseconds: (x: bigint) => new Date(Number(x / 1_000_000n)),
  }
  const total = Number(metadata.num_rows)
  let start = 0
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows)
    let rows: Record<string, unknown>[]
    try {
      rows = (await parquetReadObjects({
        file: buffer,
        metadata,
        rowStart: start,
        rowEnd: end,
        compressors,
        parsers,
      })) as Record<string, unknown>[]
    } catch (e) {
      throw badInput(`cannot read ${file} as Parquet: ${(e as Error).message}`)
    }
    if (scales.size > 0) for (const r of rows) for (const [k, s] of scales) r[k] = decimalText(r[k], s)
    start = end
    progress(total > 0 ? start / total : 1)
    yield ndjson(rows)
  }
}

/** The exact decimal text of a Parquet DECIMAL's unscaled integer (int32, int64 or big-endian bytes). */
export function decimalText(v: unknown, scale: number): unknown {
  let units: bigint
  if (typeof v === 'number' && Number.isSafeInteger(v)) units = BigInt(v)
  else if (typeof v === 'bigint') units = v
  else if (v instanceof Uint8Array) {
    units = 0n
    for (const b of v) units = units * 256n + BigInt(b)
    if (v.length > 0 && units >= 2n ** BigInt(v.length * 8 - 1)) units -= 2n ** BigInt(v.length * 8)
  } else return v
  const neg = units < 0n
  const s = (neg ? -units : units).toString().padStart(scale + 1, '0')
  const text = scale === 0 ? s : `${s.slice(0, -scale)}.${s.slice(-scale)}`
  return neg ? `-${text}` : text
}
