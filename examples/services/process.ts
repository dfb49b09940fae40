// A child process of a local service: started detached from the test's stdio, stopped by its PID.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'

/** A running service process. */
export interface ServiceProcess {
  readonly pid: number
  readonly child: ChildProcess
  /** What it printed (stdout and stderr), for error messages. */
  output(): string
  /** Sends `signal` (default SIGTERM) and resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Whether the process is still running. */
  alive(): boolean
}

/** The first of `candidates` that exists, else the name itself (found on PATH). */
export function findBinary(name: string, candidates: readonly string[]): string {
  for (const c of candidates) if (existsSync(c)) return c
  return name
}

/** Starts `bin args`; its output is kept (bounded) for `output()`. */
export function startProcess(bin: string, args: readonly string[], env?: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(env === undefined ? {} : { env }) })
  let out = ''
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-64_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let exited = false
  const done = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true
      resolve()
    })
    child.once('error', (e) => {
      out += `\n${String(e)}`
      exited = true
      resolve()
    })
  })
  return {
    get pid() {
      return child.pid ?? -1
    },
    child,
    output: () => out,
    alive: () => !exited,
    async stop(signal = 'SIGTERM') {
      if (!exited && child.pid !== undefined) {
        try {
          process.kill(child.pid, signal)
        } catch {
          // already gone
        }
      }
      await done
    },
  }
}
