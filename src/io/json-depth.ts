/**
 * True when the JSON text nests arrays or objects deeper than `max` levels (brackets inside strings not
 * counted). A linear scan with no recursion, so it is safe on any line before `JSON.parse` or any walk.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: skip to its closing quote, over escapes
      i++
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}
