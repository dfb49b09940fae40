// Runs before `npm run bench`: makes sure the DuckDB peer is installed.
// @duckdb/node-api is not a devDependency on purpose: its platform binaries are optional dependencies, and
// a registry that lacks some of them (as the one this project is built against does) leaves them out of
// package-lock.json, after which `npm ci` refuses to install anything. So the bench installs it on demand,
// without touching package.json or the lockfile. If that fails, the bench still runs and its DuckDB rows say why.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'

const PEER = '@duckdb/node-api@1.5.6-r.1'
const require = createRequire(import.meta.url)
try {
  require.resolve('@duckdb/node-api')
} catch {
  console.error(`bench: installing the DuckDB peer (${PEER}, not saved to package.json) ...`)
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', PEER], { stdio: 'inherit' })
  } catch (e) {
    console.error(`bench: could not install ${PEER} (${e.message}); DuckDB rows will say "not available"`)
  }
}
