// The committed contract files are the generated ones: openapi.json equals openApiDocument(), and the client
// types equal what openapi-typescript makes of it today (run `npm run openapi` after changing a rule).
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { openApiDocument, openApiJson } from '../../src/service/index.js'
import { CLIENT_TYPES, generatedFiles, OPENAPI_JSON } from '../../scripts/openapi-files.js'

const root = new URL('../../', import.meta.url)

test('openapi.json and the generated client types are committed as generated (npm run openapi)', async () => {
  const files = await generatedFiles()
  expect(Object.keys(files).sort()).toEqual([CLIENT_TYPES, OPENAPI_JSON].sort())
  for (const [path, text] of Object.entries(files)) {
    const committed = readFileSync(new URL(path, root), 'utf8')
    expect(committed === text, `${path} is stale: run npm run openapi`).toBe(true)
  }
})

test('the document is plain JSON data (no undefined, function or non-finite value), a fresh object on every call', () => {
  const doc = openApiDocument()
  expect(JSON.parse(openApiJson())).toStrictEqual(doc)
  ;(doc.paths as Record<string, unknown>)['/candles'] = 'changed'
  expect(openApiDocument().paths['/candles']).not.toBe('changed')
})

test('info.version is the package version', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string }
  expect((openApiDocument().info as { version: string }).version).toBe(pkg.version)
})
