// The decision index (docs/decisions/README.md) lists every record once, in number order, under the
// record's own title, and links nothing that is not there.
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const dir = new URL('../docs/decisions/', import.meta.url)
const records = readdirSync(dir)
  .filter((f) => /^\d{4}-.*\.md$/.test(f))
  .sort()
const index = readFileSync(new URL('README.md', dir), 'utf8')
const links = [...index.matchAll(/^- \[(.+)\]\((\d{4}-[^)]+\.md)\)$/gm)].map((m) => ({ title: m[1], file: m[2] }))

describe('decision index', () => {
  it('links every record once, in number order', () => {
    expect(links.map((l) => l.file)).toEqual(records)
  })

  it('gives each record the title of its first heading', () => {
    for (const { title, file } of links) {
      const heading = readFileSync(new URL(file as string, dir), 'utf8').split('\n')[0]
      expect(heading, file).toBe(`# ${title}`)
    }
  })
})
