// `GET /search`: the catalog look-up a server does against its own database. Parameters and ranking are
// this example's choices (the spec leaves them open): `q` text or an exact ISIN, optional `exchange`, `limit`.
import type { StoredSecurity } from './store.js'

/** One search hit. */
export interface SearchHit {
  exchange: string
  symbol: string
  name: string
  type: string
  guid: string
  isin?: string
  /** Why it matched: `isin`, `symbol`, `symbol-prefix`, `name-word`, `name`. */
  match: string
  score: number
}

const ISIN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/

/** Whether a query is shaped like an ISIN (then only exact ISIN matches count). */
export function isIsin(q: string): boolean {
  return ISIN.test(q.toUpperCase())
}

/**
 * Ranks securities for a query: an ISIN-shaped query matches exact ISINs only; otherwise exact symbol (100),
 * symbol prefix (60), a word of the name starting with the query (40), the name containing it (20);
 * ties by exchange and symbol.
 */
export function searchSecurities(all: readonly StoredSecurity[], q: string, limit: number): SearchHit[] {
  const query = q.trim().toUpperCase()
  const hits: SearchHit[] = []
  for (const { security: s } of all) {
    let score = 0
    let match = ''
    if (isIsin(query)) {
      if (s.isin === query) [score, match] = [100, 'isin']
    } else {
      const symbol = s.symbol.toUpperCase()
      const name = s.name.toUpperCase()
      if (symbol === query) [score, match] = [100, 'symbol']
      else if (symbol.startsWith(query)) [score, match] = [60, 'symbol-prefix']
      else if (name.split(/[^A-Z0-9]+/).some((w) => w.length > 0 && w.startsWith(query)))
        [score, match] = [40, 'name-word']
      else if (name.includes(query)) [score, match] = [20, 'name']
    }
    if (score > 0) {
      hits.push({
        exchange: s.exchange,
        symbol: s.symbol,
        name: s.name,
        type: s.type,
        guid: s.guid,
        ...(s.isin === undefined ? {} : { isin: s.isin }),
        match,
        score,
      })
    }
  }
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      (a.exchange < b.exchange
        ? -1
        : a.exchange > b.exchange
          ? 1
          : a.symbol < b.symbol
            ? -1
            : a.symbol > b.symbol
              ? 1
              : 0),
  )
  return hits.slice(0, limit)
}
