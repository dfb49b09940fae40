// Heavy work (partner ListCandles) runs through a bounded queue: at most `concurrency` jobs at once, at most
// `maxQueued` waiting, and a full queue is refused at once (the caller answers "busy, retry after"). Jobs
// yield to the event loop between their chunks, so cheap requests are served between two chunks of heavy
// work instead of after all of it.

/** A bounded queue of async jobs. */
export interface WorkQueue {
  /** Runs `job` when a slot frees; `undefined` (job not run) when the queue is full. */
  run<T>(job: () => Promise<T>): Promise<T> | undefined
  /** Jobs running and waiting now. */
  readonly load: { running: number; queued: number }
}

/** Lets the event loop serve pending I/O before the next chunk of work. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export function createWorkQueue(opts: { concurrency: number; maxQueued: number }): WorkQueue {
  let running = 0
  const waiting: Array<() => void> = []
  const release = (): void => {
    const next = waiting.shift()
    if (next === undefined) running--
    else next()
  }
  return {
    run<T>(job: () => Promise<T>): Promise<T> | undefined {
      if (running < opts.concurrency) {
        running++
        return job().finally(release)
      }
      if (waiting.length >= opts.maxQueued) return undefined
      return new Promise<void>((resolve) => waiting.push(resolve)).then(() => job().finally(release))
    },
    get load() {
      return { running, queued: waiting.length }
    },
  }
}
