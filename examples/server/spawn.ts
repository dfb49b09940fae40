// Test helper: runs `node examples/server ...` as a child process (the launcher registers tsx) and waits for
// its start-up banner. Every child gets its own `--data-dir` unless the arguments name one or `--memory`.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** A running server process. */
export interface ServerProcess {
  child: ChildProcess
  /** Everything printed up to the end of the banner, by line. */
  lines: string[]
  url: string
  /** Everything it printed on stderr so far. */
  stderr(): string
}

/** Children of one test file and their temporary folder; `cleanup()` in `afterAll`. */
export function serverProcesses(prefix: string): {
  tmp: string
  /** Starts a server; rejects when its banner is not out within `timeoutMs` (default 30 s). */
  start(args: string[], env?: NodeJS.ProcessEnv, timeoutMs?: number): Promise<ServerProcess>
  fail(args: string[]): Promise<{ code: number | null; out: string; err: string }>
  cleanup(): void
} {
  const children: ChildProcess[] = []
  const tmp = mkdtempSync(join(tmpdir(), prefix))
  let dirs = 0
  const withDataDir = (args: string[]): string[] =>
    args.includes('--data-dir') || args.includes('--memory')
      ? args
      : [...args, '--data-dir', join(tmp, `data-${++dirs}`)]
  const run = (args: string[], env?: NodeJS.ProcessEnv): ChildProcess => {
    const child = spawn(process.execPath, [here, ...withDataDir(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(env === undefined ? {} : { env }),
    })
    children.push(child)
    return child
  }
  return {
    tmp,
    start(args, env, timeoutMs = 30_000) {
      const child = run(args, env)
      return new Promise((resolve, reject) => {
        let out = ''
        let err = ''
        const timer = setTimeout(
          () => reject(new Error(`no start-up output in ${timeoutMs} ms: ${out} ${err}`)),
          timeoutMs,
        )
        child.stdout!.on('data', (b: Buffer) => {
          out += b.toString()
          if (out.includes('/partner/svc.marketdata.external.candle.v1.CandleHistoryApi.ListCandles')) {
            clearTimeout(timer)
            const lines = out.split('\n')
            const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? '')
            if (m === null) reject(new Error(`first line: ${lines[0]}`))
            else resolve({ child, lines, url: m[1]!, stderr: () => err })
          }
        })
        child.stderr!.on('data', (b: Buffer) => {
          err += b.toString()
        })
        child.on('exit', (code) => {
          clearTimeout(timer)
          reject(new Error(`exited with ${code}: ${err}`))
        })
      })
    },
    fail(args) {
      const child = run(args)
      return new Promise((resolve, reject) => {
        let out = ''
        let err = ''
        const timer = setTimeout(() => reject(new Error(`still running after 30 s: ${out} ${err}`)), 30_000)
        child.stdout!.on('data', (b: Buffer) => {
          out += b.toString()
          // it started after all: stop it (the test then fails on the exit code)
          if (out.includes('listening on')) child.kill('SIGTERM')
        })
        child.stderr!.on('data', (b: Buffer) => {
          err += b.toString()
        })
        child.on('close', (code) => {
          clearTimeout(timer)
          resolve({ code, out, err })
        })
      })
    },
    cleanup() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
      rmSync(tmp, { recursive: true, force: true })
    },
  }
}
