// Every public function of every entry point carries TSDoc with a description, an @param per parameter, @returns,
// @throws and one @example: the generated reference (npm run docs) shows them to users.
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ENTRIES = [
  'src/index.ts',
  'src/service/index.ts',
  'src/analytics/index.ts',
  'src/render/index.ts',
  'src/io/index.ts',
  'src/sample/index.ts',
  'src/testing/index.ts',
]

const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
})
const checker = program.getTypeChecker()

/** What a public function's TSDoc lacks, as `name: missing, missing`. */
function gaps(entry: string): string[] {
  const file = program.getSourceFile(entry)
  const mod = file === undefined ? undefined : checker.getSymbolAtLocation(file)
  if (mod === undefined) throw new Error(`${entry} has no exports`)
  const out: string[] = []
  for (const sym of checker.getExportsOfModule(mod)) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
    if (!(target.flags & ts.SymbolFlags.Function)) continue
    const decls = (target.declarations ?? []).filter(ts.isFunctionDeclaration)
    // the documented declaration: the implementation, or the first overload with a comment
    const missing = new Set<string>()
    const tags = decls.flatMap((d) => ts.getJSDocTags(d))
    const names = new Set(tags.map((t) => t.tagName.text))
    if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '') missing.add('description')
    for (const tag of ['returns', 'throws', 'example']) if (!names.has(tag)) missing.add(`@${tag}`)
    const documented = new Set(tags.filter(ts.isJSDocParameterTag).map((t) => t.name.getText()))
    for (const d of decls)
      for (const p of d.parameters) if (!documented.has(p.name.getText())) missing.add(`@param ${p.name.getText()}`)
    if (missing.size > 0) out.push(`${sym.name}: ${[...missing].join(', ')}`)
  }
  return out
}

describe('TSDoc of public functions', () => {
  for (const entry of ENTRIES) {
    it(`${entry}: description, @param, @returns, @throws, @example`, () => {
      expect(gaps(entry)).toEqual([])
    }, 60_000)
  }
})
