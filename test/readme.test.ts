// README's examples run as written and print what README says they print, so they cannot rot: every ```ts block
// followed by a ```text block is executed (imports of svc-marketdata entries pointed at src/) and its console
// output compared with the text block. README also names every entry point of package.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'

const root = new URL('../', import.meta.url)
const readme = readFileSync(new URL('README.md', root), 'utf8')
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```\n+(?:[^\n`]*\n+)?```text\n([\s\S]*?)```/g)].map((m) => ({
  code: m[1]!,
  output: m[2]!,
}))
const ENTRY_FILES: Record<string, string> = {
  'svc-marketdata': 'src/index.ts',
  'svc-marketdata/service': 'src/service/index.ts',
  'svc-marketdata/analytics': 'src/analytics/index.ts',
  'svc-marketdata/render': 'src/render/index.ts',
  'svc-marketdata/io': 'src/io/index.ts',
  'svc-marketdata/sample': 'src/sample/index.ts',
  'svc-marketdata/testing': 'src/testing/index.ts',
}
const dir = new URL('test/.readme-examples/', root)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('README', () => {
  it('has the quick start first, with exactly the two commands', () => {
    const start = /^## Quick start\n+```sh\n([\s\S]*?)```/m.exec(readme)
    expect(readme.indexOf('## ')).toBe(readme.indexOf('## Quick start'))
    expect(
      start?.[1]
        ?.trim()
        .split('\n')
        .map((l) => l.replace(/\s+#.*$/, '')),
    ).toEqual(['npm ci && npm start', 'npm ci && npm test'])
  })

  it('is a front page: at most about 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(210)
  })

  it('has three examples with their output', () => {
    expect(examples.length).toBe(3)
  })

  examples.forEach((ex, i) => {
    it(`example ${i + 1} prints what README shows`, async () => {
      mkdirSync(dir, { recursive: true })
      const code = ex.code.replace(/from '(svc-marketdata(?:\/\w+)?)'/g, (_, entry: string) => {
        const file = ENTRY_FILES[entry]
        if (file === undefined) throw new Error(`unknown entry ${entry}`)
        return `from '../../${file.replace(/\.ts$/, '.js')}'` // from test/.readme-examples/
      })
      const file = new URL(`example-${i + 1}.ts`, dir)
      writeFileSync(file, code)
      const lines: string[] = []
      const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '))
      })
      try {
        await import(file.href)
      } finally {
        log.mockRestore()
      }
      expect(`${lines.join('\n')}\n`).toBe(ex.output)
    }, 60_000)
  })

  it('names every entry point of package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { exports: Record<string, unknown> }
    for (const key of Object.keys(pkg.exports).filter((k) => k !== './package.json')) {
      expect(readme).toContain(`\`${key === '.' ? 'svc-marketdata' : `svc-marketdata/${key.slice(2)}`}\``)
    }
  })
})
