// A local Postgres 15 server for tests and benches: Debian's postgresql-15 binaries, a new cluster in a
// temporary folder, a probed free port, the socket in that folder. As root the server runs as the `postgres`
// user (initdb refuses root). Stop modes are Postgres' own: `fast`, or `immediate` (a crash: recovery on start).
import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, waitForPort } from './free-port.js'

/** A running local Postgres server. */
export interface LocalPostgres {
  readonly port: number
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  readonly url: string
  readonly dir: string
  /** The postmaster's PID (read from postmaster.pid). */
  pid(): number
  /** Stops the server: `fast` (default) or `immediate` (no shutdown checkpoint: a crash). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Starts it again on the same folder and port. */
  start(): Promise<void>
  /** Stops it (fast, unless already stopped) and removes its folder. */
  destroy(): Promise<void>
}

/** Where Debian's postgresql-15 puts its binaries. */
export function postgresBinDir(): string {
  const base = '/usr/lib/postgresql'
  if (existsSync(join(base, '15', 'bin'))) return join(base, '15', 'bin')
  if (existsSync(base)) {
    const v = readdirSync(base).sort().reverse()[0]
    if (v !== undefined) return join(base, v, 'bin')
  }
  throw new Error("no Postgres server binaries: install Debian's postgresql-15 (apt-get install -y postgresql-15)")
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0

function run(bin: string, args: string[]): void {
  const cmd = isRoot() ? 'runuser' : bin
  const full = isRoot() ? ['-u', 'postgres', '--', bin, ...args] : args
  const r = spawnSync(cmd, full, { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`)
}

/** initdb in a new temporary folder, then start on a free port; resolves when it accepts connections. */
export async function startPostgres(opts: { timeoutMs?: number } = {}): Promise<LocalPostgres> {
  const timeoutMs = opts.timeoutMs ?? 20_000
  const bin = postgresBinDir()
  const dir = mkdtempSync(join(tmpdir(), 'pg-'))
  chmodSync(dir, 0o700)
  if (isRoot()) {
    const pw = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
    const pg = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
    chownSync(dir, Number(pw.stdout.trim()), Number(pg.stdout.trim()))
  }
  const data = join(dir, 'data')
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const pgCtl = join(bin, 'pg_ctl')
  const server: LocalPostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    pid() {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
    },
    async start() {
      run(pgCtl, [
        '-D',
        data,
        '-l',
        join(dir, 'log'),
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
        '-w',
        'start',
      ])
      await waitForPort(port, timeoutMs)
    },
    async stop(mode = 'fast') {
      run(pgCtl, ['-D', data, '-m', mode, '-w', 'stop'])
    },
    async destroy() {
      if (existsSync(join(data, 'postmaster.pid'))) {
        try {
          run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop'])
        } catch {
          // already stopped
        }
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
  await server.start()
  return server
}
