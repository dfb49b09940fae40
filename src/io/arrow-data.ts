// The columns of an Arrow table, read without the apache-arrow package: any object shaped like an Arrow JS
// `Table` (a schema of fields, vectors of `Data` chunks carrying their buffers). What a chunk holds is told
// by its type's `typeId` (the Arrow JS `Type` enum) and read here into plain values: numbers, bigints, exact
// decimal text, strings, booleans, or null.
import { describeValue } from '../_lib/describe.js'

/** The type of an Arrow column as Arrow JS describes it: `typeId` and the fields of that type. */
export interface ArrowTypeLike {
  /** The Arrow JS `Type` enum: 2 Int, 3 Float, 5 Utf8, 6 Bool, 7 Decimal, 8 Date, 10 Timestamp, 20 LargeUtf8, 24 Utf8View, -1 Dictionary. */
  readonly typeId: number
  /** Int: the width in bits; Decimal: 32, 64, 128 or 256. */
  readonly bitWidth?: number
  /** Int: signed or not. */
  readonly isSigned?: boolean
  /** Float: 0 half, 1 single, 2 double. */
  readonly precision?: number
  /** Decimal: digits after the point. */
  readonly scale?: number
  /** Timestamp: 0 s, 1 ms, 2 us, 3 ns; Date: 0 day, 1 ms. */
  readonly unit?: number
  /** Dictionary: the type of its values. */
  readonly dictionary?: ArrowTypeLike
}

/** One chunk of an Arrow column (Arrow JS `Data`): its buffers as Arrow JS lays them out. */
export interface ArrowDataLike {
  /** The column's type (every chunk of a column has the same). */
  readonly type: ArrowTypeLike
  /** Rows in the chunk. */
  readonly length: number
  /** The chunk's first row in its buffers: counted by the validity bitmap and a Bool's bits (other buffers start at it). */
  readonly offset: number
  /** Nulls in the chunk; negative when not yet counted. */
  readonly nullCount: number
  /** The values: a typed array (Uint32 words for decimals, UTF-8 bytes for strings, 16-byte views for Utf8View). */
  readonly values: unknown
  /** One bit a row from bit `offset`, 0 for null; absent or empty when no row is null. */
  readonly nullBitmap?: unknown
  /** Strings: where each row's bytes start and end in `values`. */
  readonly valueOffsets?: unknown
  /** Utf8View: the data buffers that long strings point into. */
  readonly variadicBuffers?: unknown
  /** Dictionary: the values that `values` indexes. */
  readonly dictionary?: unknown
}

/** An Arrow column (Arrow JS `Vector`): its chunks. */
export interface ArrowVectorLike {
  /** Rows in the column. */
  readonly length: number
  /** The chunks, in row order. */
  readonly data: readonly ArrowDataLike[]
}

/**
 * An Arrow table as Arrow JS gives it (`tableFromIPC`, `tableFromArrays`, a Polars or DuckDB result handed
 * over as Arrow): a schema naming its columns and `getChild(name)` (or `getChildAt(index)`) giving each one.
 */
export interface ArrowTableLike {
  /** The columns' names (and types), in table order. */
  readonly schema: { readonly fields: readonly { readonly name: string; readonly type?: ArrowTypeLike }[] }
  /** The column of this name. */
  getChild(name: string): ArrowVectorLike | null
  /** The column at this position from 0 (used when present: names may repeat). */
  getChildAt?(index: number): ArrowVectorLike | null
}

/** Arrow JS `Type` ids the readers know. */
export const ARROW_TYPE = {
  Int: 2,
  Float: 3,
  Utf8: 5,
  Bool: 6,
  Decimal: 7,
  Date: 8,
  Timestamp: 10,
  LargeUtf8: 20,
  Utf8View: 24,
  Dictionary: -1,
} as const

const TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'NONE',
  1: 'Null',
  4: 'Binary',
  9: 'Time',
  11: 'Interval',
  12: 'List',
  13: 'Struct',
  14: 'Union',
  15: 'FixedSizeBinary',
  16: 'FixedSizeList',
  17: 'Map',
  18: 'Duration',
  19: 'LargeBinary',
  21: 'LargeList',
  23: 'BinaryView',
}
const TIMESTAMP_UNITS = ['s', 'ms', 'us', 'ns'] as const

/** A readable name of an Arrow type for messages: `Float64`, `Int64`, `Decimal128(18, 2)`, `Timestamp(us)`, ... */
export function arrowTypeName(t: ArrowTypeLike | undefined): string {
  if (t === undefined || t === null || typeof t !== 'object') return describeValue(t)
  switch (t.typeId) {
    case ARROW_TYPE.Int:
      return `${t.isSigned === false ? 'Uint' : 'Int'}${t.bitWidth}`
    case ARROW_TYPE.Float:
      return ['Float16', 'Float32', 'Float64'][t.precision ?? -1] ?? 'Float'
    case ARROW_TYPE.Utf8:
      return 'Utf8'
    case ARROW_TYPE.LargeUtf8:
      return 'LargeUtf8'
    case ARROW_TYPE.Utf8View:
      return 'Utf8View'
    case ARROW_TYPE.Bool:
      return 'Bool'
    case ARROW_TYPE.Decimal:
      return `Decimal${t.bitWidth}(scale ${t.scale})`
    case ARROW_TYPE.Date:
      return t.unit === 0 ? 'Date32(day)' : 'Date64(ms)'
    case ARROW_TYPE.Timestamp:
      return `Timestamp(${TIMESTAMP_UNITS[t.unit ?? -1] ?? '?'})`
    case ARROW_TYPE.Dictionary:
      return `Dictionary(${arrowTypeName(t.dictionary)})`
    default:
      return TYPE_NAMES[t.typeId] ?? `type ${describeValue(t.typeId)}`
  }
}

/** Whether row `i` of a chunk is null. */
export function isNull(d: ArrowDataLike, i: number): boolean {
  const b = d.nullBitmap
  if (d.nullCount === 0 || !(b instanceof Uint8Array) || b.length === 0) return false
  const bit = d.offset + i
  return ((b[bit >> 3] as number) & (1 << (bit & 7))) === 0
}

/** A chunk's values when they are a typed array of this kind, else undefined. */
function typed<T>(d: ArrowDataLike, ctor: new (...a: never[]) => T): T | undefined {
  return d.values instanceof ctor ? d.values : undefined
}

/** UTF-8 bytes as a string (invalid sequences as U+FFFD). */
export function utf8(b: Uint8Array, from: number, to: number): string {
  let s = ''
  for (let i = from; i < to; ) {
    const c = b[i++] as number
    if (c < 0x80) {
      s += String.fromCharCode(c)
      continue
    }
    const n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0
    let cp = n === 0 ? -1 : c & (0x3f >> n)
    for (let k = 0; k < n; k++) {
      const x = i < to ? (b[i] as number) : 0
      if ((x & 0xc0) !== 0x80) {
        cp = -1
        break
      }
      cp = (cp << 6) | (x & 0x3f)
      i++
    }
    s += cp < 0 || cp > 0x10ffff ? '\ufffd' : String.fromCodePoint(cp)
  }
  return s
}

/** A two's complement integer of `words` little-endian 32-bit words from word `at`. */
function wordsToBigInt(w: Uint32Array, at: number, words: number): bigint {
  let v = 0n
  for (let k = words - 1; k >= 0; k--) v = (v << 32n) | BigInt(w[at + k] as number)
  const bits = BigInt(words * 32)
  return v >= 1n << (bits - 1n) ? v - (1n << bits) : v
}

/** A scaled integer as plain decimal text: 123456 at scale 2 is `1234.56`, at scale -2 `12345600`. */
export function scaledText(v: bigint, scale: number): string {
  const neg = v < 0n
  let digits = (neg ? -v : v).toString()
  if (scale <= 0) return `${neg ? '-' : ''}${digits}${v === 0n ? '' : '0'.repeat(-scale)}`
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  return neg ? `-${text}` : text
}

/** A cell as a plain value: number, bigint, exact decimal text, string, boolean; null for a null. */
export type Cell = number | bigint | string | boolean | null

/** The string of row `i` of a Utf8, LargeUtf8 or Utf8View chunk, or undefined when its buffers are not those. */
function stringAt(d: ArrowDataLike, i: number): string | undefined {
  const v = typed(d, Uint8Array)
  if (v === undefined) return undefined
  if (d.type.typeId === ARROW_TYPE.Utf8View) {
    const at = i * 16
    if (at + 16 > v.length) return undefined
    const view = new DataView(v.buffer, v.byteOffset + at, 16)
    const size = view.getInt32(0, true)
    if (size <= 12) return utf8(v, at + 4, at + 4 + Math.max(size, 0))
    const buf = Array.isArray(d.variadicBuffers) ? (d.variadicBuffers[view.getInt32(8, true)] as unknown) : undefined
    const off = view.getInt32(12, true)
    return buf instanceof Uint8Array ? utf8(buf, off, off + size) : undefined
  }
  const o = d.valueOffsets
  if (!(o instanceof Int32Array || o instanceof BigInt64Array) || i + 1 >= o.length) return undefined
  return utf8(v, Number(o[i]), Number(o[i + 1]))
}

/**
 * Reads the cells of Arrow chunks; a dictionary's values are decoded once per dictionary. `cell` returns
 * undefined for a chunk whose type it does not read or whose buffers do not match its type.
 */
export function createCellReader(): (d: ArrowDataLike, i: number) => Cell | undefined {
  const dictionaries = new Map<ArrowVectorLike, Cell[] | undefined>()
  const decode = (v: ArrowVectorLike): Cell[] | undefined => {
    if (dictionaries.has(v)) return dictionaries.get(v)
    const out: Cell[] = []
    for (const d of v.data ?? []) {
      for (let i = 0; i < d.length; i++) {
        const c = d.type.typeId === ARROW_TYPE.Dictionary ? undefined : cell(d, i)
        if (c === undefined) {
          dictionaries.set(v, undefined)
          return undefined
        }
        out.push(c)
      }
    }
    dictionaries.set(v, out)
    return out
  }
  const cell = (d: ArrowDataLike, i: number): Cell | undefined => {
    if (isNull(d, i)) return null
    const t = d.type
    switch (t.typeId) {
      case ARROW_TYPE.Float: {
        if (t.precision === 0) return undefined // half floats: not read
        const v = d.values
        return v instanceof Float64Array || v instanceof Float32Array ? (v[i] as number) : undefined
      }
      case ARROW_TYPE.Int: {
        const v = d.values
        if (v instanceof BigInt64Array || v instanceof BigUint64Array) return v[i] as bigint
        return ArrayBuffer.isView(v) && !(v instanceof DataView) ? ((v as Int32Array)[i] as number) : undefined
      }
      case ARROW_TYPE.Bool: {
        const v = typed(d, Uint8Array)
        const bit = d.offset + i
        return v === undefined ? undefined : ((v[bit >> 3] as number) & (1 << (bit & 7))) !== 0
      }
      case ARROW_TYPE.Decimal: {
        const v = typed(d, Uint32Array)
        const words = (t.bitWidth ?? 128) / 32
        if (v === undefined || !Number.isInteger(words) || (i + 1) * words > v.length) return undefined
        return scaledText(wordsToBigInt(v, i * words, words), t.scale ?? 0)
      }
      case ARROW_TYPE.Date: {
        const v = d.values
        if (t.unit === 0 && v instanceof Int32Array) return v[i] as number
        if (t.unit === 1 && v instanceof BigInt64Array) return v[i] as bigint
        return undefined
      }
      case ARROW_TYPE.Timestamp:
        return d.values instanceof BigInt64Array ? (d.values[i] as bigint) : undefined
      case ARROW_TYPE.Utf8:
      case ARROW_TYPE.LargeUtf8:
      case ARROW_TYPE.Utf8View:
        return stringAt(d, i)
      case ARROW_TYPE.Dictionary: {
        const dict = d.dictionary as ArrowVectorLike | null | undefined
        const values = typeof dict !== 'object' || dict === null || !Array.isArray(dict.data) ? undefined : decode(dict)
        const idx = d.values
        if (values === undefined || !ArrayBuffer.isView(idx) || idx instanceof DataView) return undefined
        return values[Number((idx as Int32Array)[i])] ?? undefined
      }
      default:
        return undefined
    }
  }
  return cell
}
