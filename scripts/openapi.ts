// Writes openapi.json at the repository root from the library's `openApiDocument()` (`npm run openapi`).
// `--check` writes nothing and exits 1 when the committed file differs from the generated one.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { openApiJson } from '../src/openapi/index.js'

const file = fileURLToPath(new URL('../openapi.json', import.meta.url))
const text = openApiJson()
if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(file, 'utf8')
  } catch {
    // missing: differs
  }
  if (current !== text) {
    console.error('openapi.json differs from openApiDocument(): run npm run openapi')
    process.exit(1)
  }
  console.log('openapi.json is up to date')
} else {
  writeFileSync(file, text)
  console.log(`wrote ${file}`)
}
