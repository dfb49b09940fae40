import { spawn } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { main } from '../../src/cli/main.js'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const FIXTURES = resolve(ROOT, 'test/fixtures/cli')
export const fixture = (name: string) => resolve(FIXTURES, name)

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

function collect(s: PassThrough): () => string {
  const parts: Buffer[] = []
  s.on('data', (b: Buffer) => parts.push(Buffer.from(b)))
  return () => Buffer.concat(parts).toString('utf8')
}

/** Runs the CLI's `main` in-process with the given stdin text (fast; same code path as the bin). */
export async function run(argv: string[], stdinText: string | Buffer = '', stderrIsTTY = false): Promise<RunResult> {
  const stdin = new PassThrough()
  stdin.end(stdinText)
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const out = collect(stdout)
  const err = collect(stderr)
  const code = await main(argv, { stdin, stdout, stderr, stderrIsTTY })
  stdout.end()
  stderr.end()
  await new Promise((r) => setImmediate(r))
  return { code, stdout: out(), stderr: err() }
}

/** Spawns the built binary (`dist/cli.js`, the package's bin, rebuilt by `npm test`'s pretest), optionally piping input to its stdin. */
export function spawnCli(args: string[], input?: string | AsyncIterable<string>): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['dist/cli.js', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.on('error', reject)
    child.on('close', (code) =>
      resolvePromise({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    )
    child.stdin.on('error', () => undefined)
    if (input === undefined) child.stdin.end()
    else if (typeof input === 'string') child.stdin.end(input)
    else Readable.from(input).pipe(child.stdin)
  })
}
