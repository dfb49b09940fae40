import { xml } from './text.js'

/** A minimal SVG writer: every attribute value and text goes through XML escaping. */
export class Svg {
  private readonly parts: string[] = []

  add(tag: string, attrs: Record<string, string | number>, text?: string): this {
    let s = `<${tag}`
    for (const k of Object.keys(attrs)) {
      const v = attrs[k]!
      s += ` ${k}="${xml(typeof v === 'number' ? fmt(v) : v)}"`
    }
    this.parts.push(text === undefined ? `${s}/>` : `${s}>${xml(text)}</${tag}>`)
    return this
  }

  /** The bold title and the summary lines under it, from the top left corner at `pad`; returns the last line's baseline. */
  heading(pad: number, title: string, summary: readonly string[]): number {
    let y = pad + 12
    this.add('text', { x: pad, y, 'font-size': 14, 'font-weight': 'bold' }, title)
    for (const s of summary) {
      y += 18
      this.add('text', { x: pad, y, fill: '#374151' }, s)
    }
    return y
  }

  raw(s: string): this {
    this.parts.push(s)
    return this
  }

  render(width: number, height: number, title: string): string {
    const w = fmt(Math.ceil(width))
    const h = fmt(Math.ceil(height))
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`,
      `<title>${xml(title)}</title>`,
      `<rect x="0" y="0" width="${w}" height="${h}" fill="#ffffff"/>`,
      ...this.parts,
      '</svg>',
      '',
    ].join('\n')
  }
}

/** Numbers in attributes: at most 2 decimals, no exponent. */
function fmt(v: number): string {
  return String(Math.round(v * 100) / 100)
}

/** Approximate width of monospace text at 12px. */
export function textWidth(s: string): number {
  return s.length * 7.3
}
