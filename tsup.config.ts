import { defineConfig, type Options } from 'tsup'

const external = ['big.js', 'date-fns', 'date-fns-tz', 'fast-check']

// `npm run build` empties dist/ first (the configs below run in parallel, so none of them may clean it).
// `prepare` (run by `npm ci`) builds only the command-line tool, in about a second, so that
// `npx svc-marketdata ...` works on a fresh clone; `npm run build` builds everything.
const cliOnly = process.env.SVC_CLI_ONLY === '1'

/** The package's entry points (package.json `exports`): dist/<name>.js, .cjs, .d.ts, .d.cts. */
const entries = {
  index: 'src/index.ts',
  service: 'src/service/index.ts',
  analytics: 'src/analytics/index.ts',
  render: 'src/render/index.ts',
  io: 'src/io/index.ts',
  sample: 'src/sample/index.ts',
  testing: 'src/testing/index.ts',
} as const

// keepNames: the CommonJS build (esbuild's ESM chunks turned into CommonJS) would otherwise name classes with
// field initialisers after its helper variables (`_class`), and a stack trace would read `_class: ...`
const library: Options = { target: 'es2022', platform: 'neutral', external, keepNames: true }

export default defineConfig([
  ...(cliOnly
    ? []
    : [
        // the code of every entry in one build with shared chunks, so that one class (MarketDataError) is one
        // class whichever entry threw it: `instanceof` holds across entry points, in ESM and CJS alike
        {
          ...library,
          entry: entries,
          format: ['esm', 'cjs'],
          splitting: true,
          dts: false,
          clean: false,
        } satisfies Options,
        // the types of each entry in a build of its own: one readable .d.ts per entry, no hashed shared chunk
        ...Object.entries(entries).map(
          ([name, file]): Options => ({
            ...library,
            entry: { [name]: file },
            format: ['esm', 'cjs'],
            dts: { only: true },
            clean: false,
          }),
        ),
      ]),
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
