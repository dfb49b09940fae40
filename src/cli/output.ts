import { once } from 'node:events'
import { createWriteStream, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { usage } from './cli-error.js'

/** A text sink that respects backpressure. */
export class Out {
  private readonly stream: Writable
  private readonly owned: boolean
  constructor(stream: Writable, owned = false) {
    this.stream = stream
    this.owned = owned
  }

  static toFile(path: string): Out {
    return new Out(createWriteStream(path), true)
  }

  async write(s: string): Promise<void> {
    if (!this.stream.write(s)) await once(this.stream, 'drain')
  }

  async close(): Promise<void> {
    if (this.owned) {
      this.stream.end()
      await once(this.stream, 'finish')
    }
  }
}

export type Format = 'json' | 'ndjson' | 'text' | 'svg'

/**
 * Writes items as they come in the chosen format. JSON is one array streamed item by item; NDJSON one
 * item per line; text and SVG use the given renderers. SVG is one document per item: to stdout or a file
 * only when there is exactly one item; with `--out DIR/` (or an existing directory) one file per item.
 */
export class ItemWriter<T> {
  private count = 0
  private pendingSvg: string | undefined
  constructor(
    private readonly out: Out,
    private readonly format: Format,
    private readonly text: (item: T, index: number) => string,
    private readonly svg: ((item: T) => string) | undefined,
    private readonly svgDir: string | undefined,
    private readonly svgName: (item: T) => string,
  ) {}

  get written(): number {
    return this.count
  }

  async add(item: T): Promise<void> {
    const i = this.count++
    switch (this.format) {
      case 'json':
        await this.out.write(`${i === 0 ? '[\n' : ',\n'}${JSON.stringify(item)}`)
        return
      case 'ndjson':
        await this.out.write(`${JSON.stringify(item)}\n`)
        return
      case 'text':
        await this.out.write(this.text(item, i))
        return
      case 'svg': {
        const doc = this.svg!(item)
        if (this.svgDir !== undefined) {
          writeFileSync(join(this.svgDir, this.svgName(item)), doc)
          return
        }
        if (i > 0) throw usage('--format svg draws one picture per profile and this input gives several: add --last 1, narrow with --from/--to, or give --out DIR/ to write one file per profile')
        this.pendingSvg = doc
        return
      }
    }
  }

  async end(): Promise<void> {
    if (this.format === 'json') await this.out.write(this.count === 0 ? '[]\n' : '\n]\n')
    if (this.pendingSvg !== undefined) await this.out.write(this.pendingSvg)
  }
}

/** Whether `--out` names a directory for SVG files: ends with a slash or is an existing directory (created when needed). */
export function svgDirectory(out: string | undefined): string | undefined {
  if (out === undefined) return undefined
  let isDir = out.endsWith('/') || out.endsWith('\\')
  if (!isDir) {
    try {
      isDir = statSync(out).isDirectory()
    } catch {
      isDir = false
    }
  }
  if (!isDir) return undefined
  mkdirSync(out, { recursive: true })
  return out
}
