import { defineConfig } from 'tsup'

const external = ['big.js', 'date-fns', 'date-fns-tz', 'fast-check']

// `prepare` (run by `npm ci`) builds only the command-line tool, in about a second, so that
// `npx svc-marketdata ...` works on a fresh clone; `npm run build` builds everything.
const cliOnly = process.env.SVC_CLI_ONLY === '1'

export default defineConfig([
  ...(cliOnly ? [] : [{
    // the library and its `svc-marketdata/testing` entry: pure, any runtime
    entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    external,
  }]),
  {
    // the command-line tool (the package's bin): Node only
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    target: 'node20',
    platform: 'node',
    external,
  },
])
