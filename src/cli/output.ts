import { once } from 'node:events'
import { createWriteStream, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Writable } from 'node:stream'
import { badInput, usage, type CliError } from './cli-error.js'

/** Output files opened by this run and not yet closed: removed when the run fails (see {@link abortOutputs}). */
const openFiles = new Set<Out>()

/** Removes the output files of a failed run (an empty file or half an array would look like a result). */
export function abortOutputs(): void {
  for (const o of openFiles) o.abort()
  openFiles.clear()
}

/** A text sink that respects backpressure; a write error (disk full, a closed pipe) becomes a clear CLI error. */
export class Out {
  private readonly stream: Writable
  private readonly owned: boolean
  private readonly path: string | undefined
  /** The file written instead of `path` until the run succeeds (renamed over `path` on close), or undefined. */
  private readonly temp: string | undefined
  private failure: Error | undefined
  private readonly failed: Promise<never>
  constructor(stream: Writable, owned = false, path?: string, temp?: string) {
    this.stream = stream
    this.owned = owned
    this.path = path
    this.temp = temp
    this.failed = new Promise<never>((_, reject) => {
      stream.on('error', (e: Error) => {
        this.failure = e
        reject(this.cannotWrite(e))
      })
    })
    this.failed.catch(() => undefined)
  }

  /**
   * Opens `path` for writing now, so a bad path is reported before any work: usage error (exit 2). A
   * regular file (or a new one) is written as a temporary file beside it and renamed over `path` only when
   * the run succeeds, so a failed run leaves an existing file as it was; a device or pipe (`/dev/null`,
   * `/dev/stdout`) is written directly. `inputs` are files the run reads: naming one of them is refused.
   */
  static toFile(path: string, inputs: readonly (string | undefined)[] = []): Out {
    let existing: ReturnType<typeof statSync> | undefined
    try {
      existing = statSync(path)
    } catch {
      existing = undefined
    }
    if (existing?.isDirectory() === true) throw usage(`--out: ${path} is a directory`)
    for (const input of inputs) {
      if (input === undefined || existing === undefined) continue
      let st: ReturnType<typeof statSync> | undefined
      try {
        st = statSync(input)
      } catch {
        st = undefined
      }
      if (st !== undefined && st.dev === existing.dev && st.ino === existing.ino)
        throw usage(`--out: ${path} is the input file; write the output elsewhere`)
    }
    const direct = existing !== undefined && !existing.isFile()
    const temp = direct
      ? undefined
      : join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`)
    let fd: number
    try {
      fd = openSync(temp ?? path, 'w')
    } catch (e) {
      throw usage(`--out: cannot write ${path}: ${(e as Error).message}`)
    }
    const out = new Out(createWriteStream(temp ?? path, { fd }), true, path, temp)
    openFiles.add(out)
    return out
  }

  /** Stops writing and removes what this run wrote (the temporary file; never an existing file or a device). */
  abort(): void {
    this.stream.destroy()
    if (this.temp === undefined) return
    try {
      unlinkSync(this.temp)
    } catch {
      // already gone
    }
  }

  private cannotWrite(e: Error): CliError {
    return badInput(`cannot write ${this.path ?? 'the output'}: ${e.message}`)
  }

  async write(s: string): Promise<void> {
    if (this.failure !== undefined) throw this.cannotWrite(this.failure)
    if (!this.stream.write(s)) await Promise.race([once(this.stream, 'drain'), this.failed])
  }

  async close(): Promise<void> {
    if (this.failure !== undefined) throw this.cannotWrite(this.failure)
    if (this.owned) {
      this.stream.end()
      await Promise.race([once(this.stream, 'finish'), this.failed])
      if (this.temp !== undefined && this.path !== undefined) {
        try {
          renameSync(this.temp, this.path)
        } catch (e) {
          throw badInput(`cannot write ${this.path}: ${(e as Error).message}`)
        }
      }
      openFiles.delete(this)
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
          const file = join(this.svgDir, this.svgName(item))
          try {
            writeFileSync(file, doc)
          } catch (e) {
            throw badInput(`cannot write ${file}: ${(e as Error).message}`)
          }
          return
        }
        if (i > 0)
          throw usage(
            '--format svg draws one picture per profile and this input gives several: add --last 1, narrow with --from/--to, or give --out DIR/ to write one file per profile',
          )
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
  try {
    mkdirSync(out, { recursive: true })
  } catch (e) {
    throw usage(`--out: cannot create the directory ${out}: ${(e as Error).message}`)
  }
  return out
}
