// Layer rule of src/ (checked in CI by `npm run layers`): imports point down the layers, never up or
// sideways between features, and never in a cycle. The same run checks examples/, bench/ and scripts/ for cycles.
//   core:     _lib, errors, result, the aggregator contract, decimal, time, trades, profile (POC and value area)
//   features: candles, footprint, tpo, sample (each on core only; what two features share lives in core)
//   derived:  analytics, render, testing (on features and core)
//   service:  rules, credits, partner, openapi, io, the service entry (on anything below)
//   cli:      the command line (on anything)
const CORE = '^src/(_lib|errors\\.ts|result\\.ts|aggregator\\.ts|decimal|time|trades|profile)'
const FEATURES = '^src/(candles|footprint|tpo|sample)/'
const DERIVED = '^src/(analytics|render|testing)/'
const SERVICE = '^src/(rules|credits|partner|openapi|io|service)/'

module.exports = {
  forbidden: [
    // type-only imports count too: a cycle of types is still two files that cannot be read one without the other
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles, type imports included',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-the-base',
      severity: 'error',
      comment: 'core imports only core',
      from: { path: CORE },
      to: { path: '^src/', pathNot: CORE },
    },
    {
      name: 'features-on-core',
      severity: 'error',
      comment: 'a feature imports core and itself only (no footprint -> tpo): shared pieces move to core',
      from: { path: '^src/(candles|footprint|tpo|sample)/' },
      to: { path: FEATURES, pathNot: '^src/$1/' },
    },
    { name: 'derived-below-service', severity: 'error', from: { path: DERIVED }, to: { path: [SERVICE, '^src/cli/'] } },
    { name: 'service-below-cli', severity: 'error', from: { path: SERVICE }, to: { path: '^src/cli/' } },
    {
      name: 'library-not-cli',
      severity: 'error',
      comment: 'only the cli is above everything',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
  },
}
