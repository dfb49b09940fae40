// Small linear-time text helpers for untrusted input (no regular expressions on user input).

/** True when `s` is non-empty and every character is an ASCII digit. */
export function isDigits(s: string): boolean {
  if (s.length === 0) return false
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/**
 * Reads a string of ASCII digits as a non-negative integer. Leading zeros are allowed. Returns `-1` when `s`
 * is not all digits, `Infinity` when its value exceeds `max` (decided without reading a huge string as a number).
 */
export function readDigits(s: string, max: number): number {
  if (!isDigits(s)) return -1
  let i = 0
  while (i < s.length - 1 && s.charCodeAt(i) === 48) i++
  const significant = s.length - i
  if (significant > 16) return Infinity
  const n = Number(s.slice(i))
  return n > max ? Infinity : n
}
