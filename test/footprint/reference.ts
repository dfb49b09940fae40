// A slow, obviously-correct footprint reference on big.js and the per-record bucketStart/bucketEnd.
import Big from 'big.js'
import { bucketEnd, bucketStart, resolveTimeframe, type TimeframeInput } from '../../src/time/index.js'
import type { FootprintProfile, FootprintRow } from '../../src/footprint/index.js'
import type { SessionType, Trade, TradeColumns } from '../../src/trades/index.js'

Big.DP = 1000 // doubles down to 5e-324 have ~330 decimals: quotients must stay exact enough to floor
Big.NE = -200
Big.PE = 200

export interface RefOptions {
  timeframe: TimeframeInput
  tickSize: string | number
  rowSize?: number
  rowSizeValue?: string | number
  timeZone?: string
  sessions?: SessionType[]
  from?: number
  to?: number
}

const plain = (b: Big): string => {
  const s = b.toFixed()
  return s === '-0' ? '0' : s
}
/** Decimals of a Big in minimal form. */
const decimals = (b: Big): number => Math.max(0, b.c.length - b.e - 1)
const fixed = (b: Big, d: number): string => {
  const s = b.toFixed(Math.max(d, decimals(b)))
  return s.startsWith('-') && Number(s) === 0 ? s.slice(1) : s
}
const floorBig = (q: Big): Big => {
  const t = q.round(0, Big.roundDown)
  return t.gt(q) ? t.minus(1) : t
}

/** Reads columns back as trades (numbers, shortest round-trip form). */
export function columnsAsTrades(c: TradeColumns): Trade[] {
  const out: Trade[] = []
  for (let i = 0; i < c.time.length; i++) {
    const code = c.session?.[i] ?? 0
    out.push({
      time: c.time[i] as number,
      price: c.price[i] as number,
      volume: c.volume[i] as number,
      side: c.side[i] === 1 ? 'buy' : 'sell',
      session: (['MAINSESSION', 'PRE_MARKET', 'POST_MARKET'] as const)[code],
    })
  }
  return out
}

interface RefRow {
  buy: Big
  sell: Big
  nb: number
  ns: number
}

/** The footprint profiles of `trades`, computed the slow way. */
export function referenceFootprint(trades: Trade[], o: RefOptions): FootprintProfile[] {
  const tf = resolveTimeframe(o.timeframe)
  const zone = o.timeZone === undefined ? {} : { timeZone: o.timeZone }
  const tick = new Big(String(o.tickSize))
  const rsv = o.rowSizeValue !== undefined ? new Big(String(o.rowSizeValue)) : tick.times(o.rowSize ?? 1)
  const dec = Math.max(decimals(tick), decimals(rsv))
  const ratio = rsv.div(tick)
  const rowSize = ratio.round(0, Big.roundDown).eq(ratio)
    ? Number(ratio.toFixed())
    : Number(rsv.toFixed()) / Number(tick.toFixed())
  const buckets = new Map<number, { end: number; rows: Map<string, RefRow>; high: Big; low: Big }>()
  for (const tr of trades) {
    if (o.from !== undefined && tr.time < o.from) continue
    if (o.to !== undefined && tr.time >= o.to) continue
    if (o.sessions !== undefined && !o.sessions.includes(tr.session ?? 'MAINSESSION')) continue
    const s = bucketStart(tr.time, tf, zone)
    let b = buckets.get(s)
    const p = new Big(String(tr.price))
    if (b === undefined) {
      b = { end: bucketEnd(tr.time, tf, zone), rows: new Map(), high: p, low: p }
      buckets.set(s, b)
    }
    if (p.gt(b.high)) b.high = p
    if (p.lt(b.low)) b.low = p
    const rowPrice = floorBig(p.div(rsv)).times(rsv).toFixed(dec)
    let r = b.rows.get(rowPrice)
    if (r === undefined) {
      r = { buy: new Big(0), sell: new Big(0), nb: 0, ns: 0 }
      b.rows.set(rowPrice, r)
    }
    const v = new Big(String(tr.volume))
    if (tr.side === 'buy') {
      r.buy = r.buy.plus(v)
      r.nb++
    } else {
      r.sell = r.sell.plus(v)
      r.ns++
    }
  }
  const out: FootprintProfile[] = []
  for (const [time, b] of [...buckets.entries()].sort((x, y) => x[0] - y[0])) {
    const entries = [...b.rows.entries()].sort((x, y) => new Big(x[0]).cmp(new Big(y[0])))
    let vb = new Big(0)
    let vs = new Big(0)
    let cb = 0
    let cs = 0
    const rows: FootprintRow[] = entries.map(([price, r]) => {
      vb = vb.plus(r.buy)
      vs = vs.plus(r.sell)
      cb += r.nb
      cs += r.ns
      return [
        price.startsWith('-') && Number(price) === 0 ? price.slice(1) : price,
        plain(r.buy),
        plain(r.sell),
        r.nb,
        r.ns,
      ]
    })
    const p: FootprintProfile = {
      time,
      end: b.end,
      rowSize,
      rowSizeValue: plain(rsv),
      tickSize: plain(tick),
      rows,
      high: fixed(b.high, dec),
      low: fixed(b.low, dec),
      volumeBuy: plain(vb),
      volumeSell: plain(vs),
      volume: plain(vb.plus(vs)),
      delta: plain(vb.minus(vs)),
      tradesCountBuy: cb,
      tradesCountSell: cs,
      trades: cb + cs,
      volumePoc: referencePoc(
        entries.map(([price, r]) => ({ price: new Big(price), vol: r.buy.plus(r.sell) })),
        rsv,
        dec,
      ),
    }
    if (o.from !== undefined && o.from > time) p.profileStart = o.from
    if (o.sessions !== undefined && new Set(o.sessions).size === 1) p.sessionType = o.sessions[0]
    out.push(p)
  }
  return out
}

/** Volume POC by the TPO POC tie rule: most volume; nearest the middle; side with more volume; lower price. */
export function referencePoc(rows: { price: Big; vol: Big }[], _rsv: Big, dec: number): string {
  const max = rows.reduce((m, r) => (r.vol.gt(m) ? r.vol : m), new Big(-1))
  const mid = (rows[0] as { price: Big }).price.plus((rows[rows.length - 1] as { price: Big }).price).div(2)
  const cands = rows.filter((r) => r.vol.eq(max))
  const minDist = cands.reduce(
    (m, r) => {
      const d = r.price.minus(mid).abs()
      return m === null || d.lt(m) ? d : m
    },
    null as Big | null,
  ) as Big
  const near = cands.filter((r) => r.price.minus(mid).abs().eq(minDist))
  let pick = near[0] as { price: Big }
  if (near.length === 2) {
    const above = rows.filter((r) => r.price.gt(mid)).reduce((s, r) => s.plus(r.vol), new Big(0))
    const below = rows.filter((r) => r.price.lt(mid)).reduce((s, r) => s.plus(r.vol), new Big(0))
    pick = above.gt(below) ? (near[1] as { price: Big }) : (near[0] as { price: Big })
  }
  return fixed(pick.price, dec)
}
