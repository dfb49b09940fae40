// The API report: one api/<entry>.api.md per package entry point, made by API Extractor from the declarations
// of src/ (emitted by tsc into .api/dts). `node scripts/api-report.mjs --update` rewrites the reports
// (npm run api:update); without --update it fails when the public API differs from the committed report
// (npm run api:check, in CI), so that every change to the public API is deliberate and reviewed.
import { execFileSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const update = process.argv.includes('--update')

/** Entry point name -> its declaration file under .api/dts (package.json `exports`). */
const ENTRIES = {
  index: 'index.d.ts',
  service: 'service/index.d.ts',
  analytics: 'analytics/index.d.ts',
  render: 'render/index.d.ts',
  io: 'io/index.d.ts',
  sample: 'sample/index.d.ts',
  testing: 'testing/index.d.ts',
}

rmSync(join(root, '.api/dts'), { recursive: true, force: true })
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.api.json')], {
  stdio: 'inherit',
})

const quiet = { logLevel: 'none' }
const changed = []
for (const [name, file] of Object.entries(ENTRIES)) {
  const configObject = {
    projectFolder: root,
    mainEntryPointFilePath: join(root, '.api/dts', file),
    bundledPackages: [],
    compiler: { tsconfigFilePath: join(root, 'tsconfig.api.json') },
    apiReport: {
      enabled: true,
      reportFileName: `${name}.api.md`,
      reportFolder: join(root, 'api'),
      reportTempFolder: join(root, '.api/temp'),
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      // release tags (@public / @beta) are not used: every exported name is public
      extractorMessageReporting: {
        default: { logLevel: 'warning' },
        'ae-missing-release-tag': quiet,
        'ae-forgotten-export': quiet,
        'ae-unresolved-link': quiet,
        'ae-undocumented': quiet,
      },
      // TSDoc is checked by TypeDoc (npm run docs), which knows this project's tags
      tsdocMessageReporting: { default: quiet },
      compilerMessageReporting: { default: { logLevel: 'warning' } },
    },
  }
  const config = ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, 'package.json'),
  })
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (m) => {
      if (m.logLevel === 'none') m.handled = true
    },
  })
  if (result.apiReportChanged) changed.push(name)
  if (result.errorCount > 0) {
    console.error(`api report ${name}: ${result.errorCount} errors`)
    process.exitCode = 1
  }
}
if (changed.length > 0 && !update) {
  console.error(`The public API differs from api/${changed.map((n) => `${n}.api.md`).join(', api/')}.`)
  console.error('If the change is meant, run `npm run api:update` and commit the reports with the change.')
  process.exitCode = 1
} else if (changed.length > 0) console.log(`updated api/${changed.map((n) => `${n}.api.md`).join(', api/')}`)
else console.log('api reports: unchanged')
if (!existsSync(join(root, 'api'))) process.exitCode = 1
