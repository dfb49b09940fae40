// `prepare` runs in two places. In a clone (`npm ci`) it builds only the command-line tool, in about a second, so
// that `npm start` and `npx svc-marketdata` work at once (`npm run build` builds the rest). When npm installs the
// package from a git URL, it runs `prepare` in its own checkout before packing it (and sets npm_package_resolved
// there): then the whole package is built, the library entries included.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const tsup = fileURLToPath(new URL('../node_modules/tsup/dist/cli-default.js', import.meta.url))
const gitDependency = process.env.npm_package_resolved !== undefined
execFileSync(process.execPath, [tsup, ...(gitDependency ? [] : ['--silent'])], {
  stdio: 'inherit',
  env: { ...process.env, ...(gitDependency ? {} : { SVC_CLI_ONLY: '1' }) },
})
