// Byte code columns (sides, sessions) tested four bytes a word, four words a step, with no branch on the
// data inside a step: what the columnar hot paths of candles and footprints run once per slice so that their
// per-trade loops can skip the code tests. Internal (not exported from the package).

const NO_WORDS = new Uint32Array(0)

/** Codes a column may hold to count as clean, by byte value (`keep[code] === 1`). */
export type CodeSet = Uint8Array

function codeSet(codes: readonly number[]): CodeSet {
  const keep = new Uint8Array(256)
  for (const c of codes) keep[c] = 1
  return keep
}

/** Side codes: 1 (buy) and 2 (sell). */
export const SIDE_CODES: CodeSet = codeSet([1, 2])
/** Session codes when every session is kept: 0, 1 and 2. */
export const ALL_SESSION_CODES: CodeSet = codeSet([0, 1, 2])

/** The aligned 4-byte words of a byte column (null when it is not a Uint8Array). */
export function codeWords(a: ArrayLike<number>): Uint32Array | null {
  if (!(a instanceof Uint8Array)) return null
  const off = a.byteOffset
  const start = (off + 3) & ~3
  const m = (off + a.length - start) >> 2
  return m > 0 ? new Uint32Array(a.buffer, start, m) : NO_WORDS
}

/**
 * True when every code of a[from, to) is in `keep` (a table of 256: codes past 2 never are); `w` =
 * {@link codeWords}(a), false when it is null.
 */
export function codesKept(
  a: ArrayLike<number>,
  w: Uint32Array | null,
  from: number,
  to: number,
  keep: CodeSet,
): boolean {
  if (w === null) return false
  const u8 = a as Uint8Array
  const lead = ((u8.byteOffset + 3) & ~3) - u8.byteOffset
  const kf = from - lead <= 0 ? 0 : (from - lead + 3) >> 2
  const kt = to - lead <= 0 ? 0 : Math.min((to - lead) >> 2, w.length)
  let bad = 0
  if (kf >= kt) {
    for (let i = from; i < to; i++) bad |= (keep[u8[i] as number] as number) ^ 1
    return bad === 0
  }
  for (let i = from; i < lead + 4 * kf; i++) bad |= (keep[u8[i] as number] as number) ^ 1
  for (let i = lead + 4 * kt; i < to; i++) bad |= (keep[u8[i] as number] as number) ^ 1
  return (
    bad === 0 && wordsKept(w, kf, kt, (keep[0] as number) | ((keep[1] as number) << 1) | ((keep[2] as number) << 2))
  )
}

/** True when every byte of the words w[kf, kt) is a code of `set` (bit c set: code c kept). */
function wordsKept(w: Uint32Array, kf: number, kt: number, set: number): boolean {
  if (set === 0) return false
  let bad = 0
  let k = kf | 0
  if (set === 7) {
    // every byte below 4 and none 3 (bits 0 and 1 both set)
    for (; k + 4 <= kt; k = (k + 4) | 0) {
      const x0 = w[k] as number
      const x1 = w[(k + 1) | 0] as number
      const x2 = w[(k + 2) | 0] as number
      const x3 = w[(k + 3) | 0] as number
      bad |=
        ((x0 | x1 | x2 | x3) & 0xfcfcfcfc) |
        (((x0 & (x0 >>> 1)) | (x1 & (x1 >>> 1)) | (x2 & (x2 >>> 1)) | (x3 & (x3 >>> 1))) & 0x01010101)
    }
    for (; k < kt; k++) {
      const x = w[k] as number
      bad |= (x & 0xfcfcfcfc) | (x & (x >>> 1) & 0x01010101)
    }
  } else if (set === 6) {
    // codes 1 and 2 (the sides): byte - 1 is 0 or 1 with no borrow
    for (; k + 4 <= kt; k = (k + 4) | 0)
      bad |=
        (((w[k] as number) - 0x01010101) |
          ((w[(k + 1) | 0] as number) - 0x01010101) |
          ((w[(k + 2) | 0] as number) - 0x01010101) |
          ((w[(k + 3) | 0] as number) - 0x01010101)) &
        0xfefefefe
    for (; k < kt; k++) bad |= ((w[k] as number) - 0x01010101) & 0xfefefefe
  } else {
    // one code c: every byte is c; codes 0 and 1 or 0 and 2: no bit outside that code's bit
    const pat = set === 1 ? 0 : set === 2 ? 0x01010101 : set === 4 ? 0x02020202 : 0
    const mask = set === 3 ? 0xfefefefe : set === 5 ? 0xfdfdfdfd : -1
    for (; k + 4 <= kt; k = (k + 4) | 0)
      bad |=
        (((w[k] as number) ^ pat) |
          ((w[(k + 1) | 0] as number) ^ pat) |
          ((w[(k + 2) | 0] as number) ^ pat) |
          ((w[(k + 3) | 0] as number) ^ pat)) &
        mask
    for (; k < kt; k++) bad |= ((w[k] as number) ^ pat) & mask
  }
  return bad === 0
}
