// Loads the library folder by folder, so a folder that is missing or broken marks only its own rows
// "not available" and never stops the runner.

type Fn = (...args: never[]) => unknown
type Module = Record<string, unknown>

const FOLDERS = ['decimal', 'time', 'trades', 'candles', 'footprint', 'tpo', 'sample'] as const
export type Folder = (typeof FOLDERS)[number]

const modules = new Map<Folder, Module>()
const failures = new Map<Folder, string>()

export async function loadLibrary(): Promise<void> {
  for (const f of FOLDERS) {
    try {
      modules.set(f, (await import(`../src/${f}/index.js`)) as Module)
    } catch (e) {
      failures.set(f, e instanceof Error ? (e.message.split('\n')[0] ?? String(e)) : String(e))
    }
  }
}

/** The library function `name` of `folder`, or a reason it is not available. */
export function libFn<F = Fn>(
  folder: Folder,
  name: string,
): { fn: F; missing?: undefined } | { fn?: undefined; missing: string } {
  const m = modules.get(folder)
  if (m === undefined) return { missing: `src/${folder} failed to load: ${failures.get(folder) ?? 'unknown'}` }
  const v = m[name]
  if (typeof v !== 'function') return { missing: `${name} not available in src/${folder}` }
  return { fn: v as F }
}
