// Runs before `npm run bench`: makes sure the DuckDB and Polars peers (and apache-arrow) are installed.
// Neither is a devDependency on purpose: their platform binaries are optional dependencies, and a registry
// that lacks some of them (as the one this project is built against does) leaves them out of
// package-lock.json, after which `npm ci` refuses to install anything. So the bench installs them on demand,
// without touching package.json or the lockfile. If that fails, the bench still runs and the peer's rows say
// why. `npm install --no-save` removes packages it was not asked for that are not in the lockfile, so every
// peer is named in the one install command whenever any of them is missing. nodejs-polars finds its native
// binding in a platform package it does not pull in by itself here: it is named too (releases after 0.25.2
// may not install on Node 20).
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { arch, platform } from 'node:os'

const require = createRequire(import.meta.url)
const POLARS_VERSION = '0.25.2'
const polarsBinding =
  platform() === 'linux' && arch() === 'x64' ? [`nodejs-polars-linux-x64-gnu@${POLARS_VERSION}`] : []
const PEERS = [
  { name: '@duckdb/node-api', specs: ['@duckdb/node-api@1.5.6-r.1'] },
  { name: 'nodejs-polars', specs: [`nodejs-polars@${POLARS_VERSION}`, ...polarsBinding] },
  // reads the Polars and DuckDB results back as Arrow IPC (one of the read-back paths the bench times)
  { name: 'apache-arrow', specs: ['apache-arrow@21.2.0'] },
]

function loads(name) {
  try {
    require(name)
    return true
  } catch {
    return false
  }
}

if (!PEERS.every((p) => loads(p.name))) {
  const specs = PEERS.flatMap((p) => p.specs)
  console.error(`bench: installing the peers (${specs.join(', ')}; not saved to package.json) ...`)
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...specs], { stdio: 'inherit' })
  } catch (e) {
    console.error(`bench: could not install the peers (${e.message}); their rows will say "not available"`)
  }
}
