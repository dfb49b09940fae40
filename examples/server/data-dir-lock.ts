// One server per data directory: a lock file (`server.lock`) naming its holder (pid, host, start time),
// created atomically (written under a temporary name, then hard-linked into place, which fails when a lock
// exists), removed on exit. A lock whose process is no longer alive on this host (a server killed with
// kill -9) is stale: it is taken over, and the start says so.
import { randomBytes } from 'node:crypto'
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'

/** The lock file's name inside the data directory. */
export const LOCK_FILE = 'server.lock'

/** What the lock file says. */
export interface LockHolder {
  pid: number
  host: string
  /** When the holder started, ISO 8601. */
  startedAt: string
}

/** A held lock. */
export interface DataDirLock {
  /** The message of a stale lock that was taken over, when there was one. */
  readonly tookOver: string | undefined
  /** Removes the lock file when it is still this process's (also done on process exit). */
  release(): void
}

/** The data directory is held by another live server (or its lock cannot be read). */
export class DataDirLocked extends Error {}

/** Lock files this process holds (a second server in the same process is refused too). */
const heldHere = new Set<string>()

const describe = (h: LockHolder): string => `pid ${h.pid} on ${h.host}, started ${h.startedAt}`

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>
    if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.startedAt === 'string')
      return { pid: h.pid, host: h.host, startedAt: h.startedAt }
  } catch {}
  return undefined
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: the process exists, it is someone else's
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the lock of `dir` (which must exist) for this process, or throws {@link DataDirLocked} naming the holder. */
export function lockDataDir(dir: string, now: Date = new Date()): DataDirLock {
  const path = join(dir, LOCK_FILE)
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: now.toISOString() }
  const text = `${JSON.stringify(me)}\n`
  let tookOver: string | undefined
  for (let attempt = 0; ; attempt++) {
    const tmp = join(dir, `${LOCK_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`)
    writeFileSync(tmp, text, { mode: 0o600 })
    try {
      linkSync(tmp, path)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw e
    } finally {
      unlinkSync(tmp)
    }
    const holder = readHolder(path)
    if (holder === undefined)
      throw new DataDirLocked(
        `data directory ${dir}: its lock file ${path} cannot be read; if no server uses this directory, remove the file and start again`,
      )
    if (holder.host !== me.host)
      throw new DataDirLocked(
        `data directory ${dir} is in use by ${describe(holder)} (another host: its process cannot be checked from here); stop that server first`,
      )
    // a lock with this process's own pid that this process does not hold was left by an earlier process
    // that had the same pid (a container restarted): stale
    const live = holder.pid === process.pid ? heldHere.has(path) : alive(holder.pid)
    if (live)
      throw new DataDirLocked(
        `data directory ${dir} is in use by ${describe(holder)}; stop that server first (if that process is no server of this directory, remove ${path})`,
      )
    // stale: move it aside under a unique name, then try again. Should a racing start have replaced it with
    // its own lock in the meantime, that lock is put back (and the next attempt finds its live holder).
    const aside = join(dir, `${LOCK_FILE}.stale.${process.pid}`)
    try {
      renameSync(path, aside)
      const moved = readHolder(aside)
      if (moved?.pid !== holder.pid || moved.startedAt !== holder.startedAt) linkSync(aside, path)
      unlinkSync(aside)
    } catch {}
    tookOver = `data directory ${dir}: took over the stale lock of ${describe(holder)} (that process is gone)`
  }
  let held = true
  heldHere.add(path)
  const release = (): void => {
    if (!held) return
    held = false
    heldHere.delete(path)
    process.off('exit', release)
    const now = readHolder(path)
    if (now?.pid === me.pid && now.startedAt === me.startedAt) unlinkSync(path)
  }
  process.on('exit', release)
  return { tookOver, release }
}
