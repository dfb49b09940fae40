// README documents every public name: each export of the package's entry points appears in README.md in
// backticks (functions, classes and constants in their sections, types in "Exported types").
import { readFileSync } from 'node:fs'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// docs/openapi.md names the OpenAPI exports (README.md is being rewritten as a short front page)
const readme = ['../README.md', '../docs/openapi.md'].map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')).join('\n')

function exportsOf(entry: string): { values: string[]; types: string[]; undocumented: string[] } {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true })
  const checker = program.getTypeChecker()
  const file = program.getSourceFile(entry)
  if (file === undefined) throw new Error(`${entry} not found`)
  const mod = checker.getSymbolAtLocation(file)
  if (mod === undefined) throw new Error(`${entry} has no exports`)
  const values: string[] = []
  const types: string[] = []
  const undocumented: string[] = []
  for (const sym of checker.getExportsOfModule(mod)) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
    if (target.flags & ts.SymbolFlags.Value) values.push(sym.name)
    else types.push(sym.name)
    // a public function carries a TSDoc comment with an example (on its declaration or an overload)
    if (target.flags & ts.SymbolFlags.Function) {
      const docs = (target.declarations ?? []).map((d) => ts.getJSDocTags(d))
      const text = ts.displayPartsToString(target.getDocumentationComment(checker))
      if (text.trim() === '' || !docs.some((tags) => tags.some((t) => t.tagName.text === 'example'))) undocumented.push(sym.name)
    }
  }
  return { values, types, undocumented }
}

/** Names written in backticks somewhere in README: `name`, `name(...)`, `name<...>`, `name.x` ... */
const mentioned = (name: string): boolean => new RegExp('`' + name + '[`(<.\\[ ]').test(readme)

describe('README names every export', () => {
  for (const entry of ['src/index.ts', 'src/testing/index.ts']) {
    it(`${entry}: functions, classes, constants and types`, () => {
      const { values, types } = exportsOf(entry)
      // the entry point really exports things (a broken program would pass vacuously)
      expect(values.length + types.length).toBeGreaterThan(entry === 'src/index.ts' ? 150 : 5)
      expect(values.filter((n) => !mentioned(n))).toEqual([])
      expect(types.filter((n) => !mentioned(n))).toEqual([])
    }, 60_000)
    it(`${entry}: every exported function has a TSDoc comment with an @example`, () => {
      expect(exportsOf(entry).undocumented).toEqual([])
    }, 60_000)
  }
})
