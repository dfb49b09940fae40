import { describe, expect, it } from 'vitest'
import { xmlProblem } from './xml-check.js'

describe('xmlProblem (the checker the SVG tests rely on)', () => {
  it('accepts well-formed documents', () => {
    expect(
      xmlProblem('<?xml version="1.0"?>\n<svg a="1" b=\'x &amp; y\'><g><text>a &lt; b &#60;</text></g><rect/></svg>\n'),
    ).toBeUndefined()
  })
  it('rejects broken ones', () => {
    for (const bad of [
      '<svg><g></svg>',
      '<svg>a < b</svg>',
      '<svg>a & b</svg>',
      '<svg a="1" a="2"/>',
      '<svg a=1/>',
      '<svg a="x<y"/>',
      '<svg/><svg/>',
      '<svg>',
      '<svg><text>&bogus;</text></svg>',
      'text<svg/>',
    ])
      expect(xmlProblem(bad), bad).toBeDefined()
  })
})
