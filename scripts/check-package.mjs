// Packaging checks on the built dist/ (run after `npm run build`; CI: .ci/steps/50-package.sh):
// 1. every class an entry exports is named as it is exported, in the ESM and the CommonJS build (the CommonJS
//    build once named MarketDataError `_class`, and stack traces read `_class: ...`);
// 2. the manifest `npm pack` ships has no install-time script (`prepare`, `preinstall`, `install`,
//    `postinstall`): npm warns about those of an installed package, and `prepare` runs scripts/prepare.mjs,
//    which the tarball does not hold. The tarball is packed the way `npm pack` does it (prepack's manifest
//    step, postpack's restore) without building again.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const problems = []

const require = createRequire(import.meta.url)
for (const [entry, conditions] of Object.entries(pkg.exports)) {
  if (typeof conditions !== 'object') continue
  const builds = [
    ['cjs', () => require(join(root, conditions.require.default))],
    ['esm', () => import(pathToFileURL(join(root, conditions.import.default)).href)],
  ]
  for (const [kind, load] of builds) {
    const mod = await load()
    for (const [name, value] of Object.entries(mod)) {
      const isClass = typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value))
      if (isClass && value.name !== name) problems.push(`${entry} (${kind}): class ${name} is named ${value.name}`)
    }
  }
}
const { MarketDataError } = require(join(root, pkg.main))
const line = new MarketDataError('invalid_option', 'x').stack.split('\n')[0]
if (line !== 'MarketDataError: x') problems.push(`a CommonJS MarketDataError's stack starts ${JSON.stringify(line)}`)

const dir = mkdtempSync(join(tmpdir(), 'pack-check-'))
const npm = (args) => execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
try {
  execFileSync(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: root, stdio: 'inherit' })
  let file
  try {
    file = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir]))[0].filename
  } finally {
    execFileSync(process.execPath, ['scripts/pack-manifest.mjs', 'restore'], { cwd: root, stdio: 'inherit' })
  }
  const packed = JSON.parse(
    execFileSync('tar', ['-xzOf', join(dir, file), 'package/package.json'], { encoding: 'utf8' }),
  )
  for (const s of ['preinstall', 'install', 'postinstall', 'prepare'])
    if (packed.scripts?.[s] !== undefined) problems.push(`the packed package.json has an install script: ${s}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}

if (problems.length > 0) {
  for (const p of problems) console.error(`package check: ${p}`)
  process.exit(1)
}
console.log('package check: classes keep their names (ESM and CommonJS); the packed manifest has no install script')
