/**
 * A tiny strict XML well-formedness checker for the SVG tests (no dependency): one root element,
 * matching tags, quoted attributes without duplicates, no raw `<` or stray `&` in text or attribute
 * values (only the five predefined entities and numeric references), an optional `<?xml ...?>`
 * prolog and comments. Returns undefined when well-formed, else the first problem with its offset.
 */
export function xmlProblem(s: string): string | undefined {
  let i = 0
  const n = s.length
  const stack: string[] = []
  let roots = 0
  const isNameStart = (c: string) => /[A-Za-z_:]/.test(c)
  const isName = (c: string) => /[A-Za-z0-9_:.-]/.test(c)
  const entity = (at: number): number => {
    // returns the index after a valid reference starting at `at` ('&'), or -1
    const semi = s.indexOf(';', at)
    if (semi < 0 || semi - at > 10) return -1
    const body = s.slice(at + 1, semi)
    if (['amp', 'lt', 'gt', 'quot', 'apos'].includes(body) || /^#[0-9]+$/.test(body) || /^#x[0-9A-Fa-f]+$/.test(body))
      return semi + 1
    return -1
  }
  const name = (): string => {
    const start = i
    if (i >= n || !isNameStart(s[i]!)) return ''
    while (i < n && isName(s[i]!)) i++
    return s.slice(start, i)
  }
  const space = () => {
    while (i < n && /\s/.test(s[i]!)) i++
  }
  if (s.startsWith('<?xml')) {
    const end = s.indexOf('?>')
    if (end < 0) return 'unterminated prolog'
    i = end + 2
  }
  while (i < n) {
    const c = s[i]!
    if (c === '<') {
      if (s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i + 4)
        if (end < 0) return `unterminated comment at ${i}`
        i = end + 3
        continue
      }
      if (s[i + 1] === '/') {
        i += 2
        const tag = name()
        space()
        if (s[i] !== '>') return `bad end tag at ${i}`
        i++
        const open = stack.pop()
        if (open !== tag) return `end tag </${tag}> does not match <${String(open)}> at ${i}`
        continue
      }
      i++
      const tag = name()
      if (tag === '') return `bad tag name at ${i}`
      if (stack.length === 0) {
        roots++
        if (roots > 1) return `second root element <${tag}> at ${i}`
      }
      const seen = new Set<string>()
      for (;;) {
        const before = i
        space()
        if (s[i] === '/' && s[i + 1] === '>') {
          i += 2
          break
        }
        if (s[i] === '>') {
          i++
          stack.push(tag)
          break
        }
        if (i === before) return `missing space before attribute at ${i}`
        const attr = name()
        if (attr === '') return `bad attribute name at ${i}`
        if (seen.has(attr)) return `duplicate attribute ${attr} at ${i}`
        seen.add(attr)
        space()
        if (s[i] !== '=') return `missing = after ${attr} at ${i}`
        i++
        space()
        const q = s[i]
        if (q !== '"' && q !== "'") return `unquoted attribute ${attr} at ${i}`
        i++
        while (i < n && s[i] !== q) {
          if (s[i] === '<') return `raw < in attribute ${attr} at ${i}`
          if (s[i] === '&') {
            const e = entity(i)
            if (e < 0) return `bad entity in attribute at ${i}`
            i = e
          } else i++
        }
        if (i >= n) return `unterminated attribute ${attr}`
        i++
      }
      continue
    }
    if (c === '&') {
      const e = entity(i)
      if (e < 0) return `bad entity at ${i}`
      i = e
      continue
    }
    if (stack.length === 0 && !/\s/.test(c)) return `text outside the root at ${i}`
    i++
  }
  if (stack.length > 0) return `unclosed <${stack[stack.length - 1]}>`
  if (roots !== 1) return 'no root element'
  return undefined
}
