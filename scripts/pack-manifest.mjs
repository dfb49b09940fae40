// `npm pack` / `npm publish` ship package.json as it is on disk when the tarball is made. Its `prepare` script
// builds a clone (scripts/prepare.mjs, not in the tarball), and npm warns about an install script of an installed
// package: `prepack` runs this with `strip` (package.json without `scripts.prepare`, the original kept beside
// it byte for byte), `postpack` with `restore` (the original back). A pack that fails between the two leaves
// package.json.prepack behind: `node scripts/pack-manifest.mjs restore` puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const file = fileURLToPath(new URL('../package.json', import.meta.url))
const kept = `${file}.prepack`
const mode = process.argv[2]
if (mode === 'strip') {
  if (existsSync(kept)) throw new Error(`${kept} exists: a previous pack did not finish; run with \`restore\` first`)
  const text = readFileSync(file, 'utf8')
  const manifest = JSON.parse(text)
  writeFileSync(kept, text)
  delete manifest.scripts.prepare
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
} else if (mode === 'restore') {
  if (existsSync(kept)) renameSync(kept, file)
} else {
  throw new Error('usage: node scripts/pack-manifest.mjs strip|restore')
}
