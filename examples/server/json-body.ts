// Request bodies are parsed with bounds: the nesting depth is measured on the text before `JSON.parse` (one
// linear pass, no recursion), so a body nested thousands of levels deep is refused as input instead of
// overflowing the stack later, when an answer that echoes part of it is serialised.

/** A parsed body, or the reason it was refused (the message names the rule). */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string }

/**
 * The deepest nesting of arrays and objects in a JSON text, counted without parsing it; stops counting as soon
 * as `limit` is passed (then returns `limit + 1`). Brackets inside strings do not count.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: the next character is escaped
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/** Parses a JSON request body nested at most `maxDepth` levels (arrays and objects). */
export function parseJsonBody(text: string, maxDepth: number): ParsedBody {
  if (jsonDepth(text, maxDepth) > maxDepth)
    return { ok: false, message: `request body: nested deeper than ${maxDepth} levels (arrays and objects)` }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, message: 'request body: not valid JSON' }
  }
}

/**
 * An echoed value, bounded: returned as is when its JSON text is at most `maxChars` characters, else as a
 * string holding the first `maxChars` characters of that text and how long it was. Safe for any value a
 * depth-bounded parse can produce.
 */
export function boundedEcho(value: unknown, maxChars: number): unknown {
  const text = JSON.stringify(value) ?? 'undefined'
  return text.length <= maxChars ? value : `${text.slice(0, maxChars)}... (${text.length} characters in all)`
}
