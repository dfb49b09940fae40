import { MarketDataError } from '../errors.js'
import type { DecimalInput } from '../decimal/index.js'
import { footprintAnalytics, type FootprintProfile } from '../footprint/index.js'
import { add, approx, checkProfile, cmp, dec, localDate, show, sub, timeLabel, zoneOption } from './text.js'

/** Keys of {@link RenderFootprintOptions}. */
export const FOOTPRINT_RENDER_KEYS = ['imbalanceRatio', 'minVolume', 'timeZone'] as const

/** Options of the footprint renderings. */
export interface RenderFootprintOptions {
  /** Diagonal imbalance threshold in percent (default 300): buy at a row vs sell one row below, sell vs buy one row above. */
  imbalanceRatio?: DecimalInput
  /** Minimum dominant volume for an imbalance (default 0). */
  minVolume?: DecimalInput
  /** IANA zone of the printed times; default `UTC`. */
  timeZone?: string
}

export interface LadderRow {
  price: string
  sell: string
  buy: string
  delta: string
  /** Sign of the delta: -1, 0, 1. */
  deltaSign: number
  volume: number
  poc: boolean
  buyImbalance: boolean
  sellImbalance: boolean
}

export interface Ladder {
  title: string
  summary: string[]
  rows: LadderRow[]
  maxVolume: number
  ratio: string
}

export function footprintLadder(p: FootprintProfile, opts: RenderFootprintOptions = {}): Ladder {
  checkProfile(p, ['rows'], ['time', 'end'])
  // the fields the ladder prints as they are
  for (const f of [
    'volume',
    'volumeBuy',
    'volumeSell',
    'high',
    'low',
    'volumePoc',
    'delta',
    'rowSizeValue',
    'tickSize',
  ] as const)
    dec(p[f], f)
  for (const f of ['trades', 'tradesCountBuy', 'tradesCountSell'] as const) {
    if (typeof p[f] !== 'number')
      throw new MarketDataError('invalid_option', `render: field \`${f}\` must be a number`, { field: f })
  }
  if (p.sessionType !== undefined && typeof p.sessionType !== 'string')
    throw new MarketDataError('invalid_option', 'render: field `sessionType` must be a session type', {
      field: 'sessionType',
    })
  const tz = zoneOption(opts?.timeZone)
  const an = footprintAnalytics(p, {
    ratio: opts.imbalanceRatio ?? 300,
    ...(opts.minVolume !== undefined ? { minVolume: opts.minVolume } : {}),
  })
  const buyImb = an.imbalances.filter((x) => x.side === 'buy').map((x) => dec(x.price, 'imbalance'))
  const sellImb = an.imbalances.filter((x) => x.side === 'sell').map((x) => dec(x.price, 'imbalance'))
  const poc = dec(p.volumePoc, 'volumePoc')
  const rows: LadderRow[] = []
  let maxVolume = 0
  for (let i = p.rows.length - 1; i >= 0; i--) {
    const [price, vb, vs] = p.rows[i]!
    const r = dec(price, 'rows.price')
    const b = dec(vb, 'rows.volumeBuy')
    const s = dec(vs, 'rows.volumeSell')
    const d = sub(b, s)
    const volume = approx(add(b, s))
    if (volume > maxVolume) maxVolume = volume
    rows.push({
      price,
      sell: vs,
      buy: vb,
      delta: show(d, true),
      deltaSign: d.units > 0n ? 1 : d.units < 0n ? -1 : 0,
      volume,
      poc: cmp(r, poc) === 0,
      buyImbalance: buyImb.some((x) => cmp(x, r) === 0),
      sellImbalance: sellImb.some((x) => cmp(x, r) === 0),
    })
  }
  const sameDay = localDate(p.time, tz) === localDate(p.end - 1, tz)
  const title = `Footprint ${timeLabel(p.time, tz)}-${timeLabel(p.end, tz, sameDay ? 'clock' : 'full')} ${tz}${p.sessionType !== undefined ? ` ${p.sessionType}` : ''} | row ${p.rowSizeValue} | tick ${p.tickSize}`
  const delta = dec(p.delta, 'delta')
  const summary = [
    `volume ${p.volume} (buy ${p.volumeBuy}, sell ${p.volumeSell}) | delta ${show(delta, true)} | trades ${p.trades} (buy ${p.tradesCountBuy}, sell ${p.tradesCountSell})`,
    `high ${p.high} | low ${p.low} | POC ${p.volumePoc} | imbalance >= ${an.ratio}%`,
  ]
  return { title, summary, rows, maxVolume, ratio: an.ratio }
}
