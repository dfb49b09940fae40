import { isArray } from '../_lib/describe.js'
import { formatUnits } from '../decimal/index.js'
import { MarketDataError } from '../errors.js'
import { MAX_ROWS } from '../tpo/parts.js'
import { resolveValueAreaPercent } from '../tpo/options.js'
import { readHistogram, rowPriceOf, type Histogram } from './histogram.js'
import { ANALYTICS_MSG } from './messages.js'
import { nodesOfSeries, resolveNodeOptions } from './nodes.js'
import { readOptions, unreadableAsError } from './options.js'
import { pocAndValueArea } from './series.js'
import type { AnalyticsProfile, CompositeVolumeOptions, CompositeVolumeProfile } from './types.js'

const FN = 'compositeVolumeProfile'

function epoch(p: unknown, who: string, field: 'time' | 'end'): number {
  const x = (p as Record<string, unknown>)[field]
  if (typeof x !== 'number' || !Number.isFinite(x))
    throw new MarketDataError(
      'invalid_option',
      ANALYTICS_MSG.field(FN, who, field, x, 'must be a finite epoch-millisecond number'),
      { field },
    )
  return x
}

/**
 * A composite volume profile: the buy and sell volume of every row summed over any list of profiles (days
 * of a week, several footprint buckets, footprints and TPO profiles mixed), with its own POC, value area
 * and high / low volume nodes, by the library's rules: POC = the row with most volume (ties: nearest the
 * middle, then the heavier side, then the lower price), value area by Dalton's two-row walk from the POC
 * over every grid row between the lowest and highest row (untraded rows count as 0), nodes as
 * {@link volumeNodes}. A composite of one profile has that profile's volume POC and volume value area.
 *
 * All profiles must share one `rowSizeValue` (re-grid a footprint with `regridFootprint` first). TPO
 * profiles from candles have no row volumes and are refused: `compositeTpoProfile` builds a TPO-count
 * composite.
 *
 * @param profiles - footprint and / or TPO profiles (from trades), at least one
 * @param options - `{ valueAreaPercent?, nodes? }` (default value area: the first TPO profile's share, else 70)
 * @returns the composite: rows `[price, volumeBuy, volumeSell]` for rows some input holds, totals, POC,
 *   value area and nodes
 * @throws MarketDataError `invalid_option` for an empty list, a candle profile, a malformed profile or
 *   option; `grid_mismatch` for different row sizes
 * @example
 * const week = compositeVolumeProfile(footprintProfiles(trades, { timeframe: '1d', tickSize: '0.25' }))
 * week.poc // '5001.25'; week.valueAreaLow, week.valueAreaHigh, week.nodes.highVolumeNodes
 */
export function compositeVolumeProfile(
  profiles: readonly AnalyticsProfile[],
  options?: CompositeVolumeOptions,
): CompositeVolumeProfile {
  return unreadableAsError('compositeVolumeProfile', () => {
    const o = readOptions(FN, options, ['valueAreaPercent', 'nodes'])
    if (!isArray(profiles) || profiles.length === 0)
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.noProfiles(FN), { field: 'profiles' })
    const hs: Histogram[] = profiles.map((p, i) => readHistogram(p, FN, `profiles[${i}]`))
    const first = hs[0] as Histogram
    let lowRow = first.firstRow
    let highRow = first.firstRow + BigInt(first.n - 1)
    let decimals = 0
    let vScale = 0
    let time = Infinity
    let end = -Infinity
    let tpoPercent: unknown
    for (let i = 0; i < hs.length; i++) {
      const h = hs[i] as Histogram
      if (h.kind === 'tpo-candles')
        throw new MarketDataError(
          'invalid_option',
          ANALYTICS_MSG.noVolumes(FN, h.who, 'compositeTpoProfile builds a TPO-count composite'),
          { field: 'rows', index: i },
        )
      // equal rowSizeValue (exact decimal): the same rows; price decimals may differ (tick sizes)
      const d = Math.max(first.decimals, h.decimals)
      if (first.rowUnits * 10n ** BigInt(d - first.decimals) !== h.rowUnits * 10n ** BigInt(d - h.decimals)) {
        throw new MarketDataError(
          'grid_mismatch',
          ANALYTICS_MSG.gridMismatch(FN, h.who, first.rowSizeValue, h.rowSizeValue),
          { field: 'rowSizeValue', index: i },
        )
      }
      if (h.firstRow < lowRow) lowRow = h.firstRow
      const top = h.firstRow + BigInt(h.n - 1)
      if (top > highRow) highRow = top
      decimals = Math.max(decimals, h.decimals)
      vScale = Math.max(vScale, h.vScale)
      time = Math.min(time, epoch(profiles[i], h.who, 'time'))
      end = Math.max(end, epoch(profiles[i], h.who, 'end'))
      if (tpoPercent === undefined && h.kind === 'tpo')
        tpoPercent = (profiles[i] as { valueAreaPercent?: unknown }).valueAreaPercent
    }
    if (highRow - lowRow + 1n > BigInt(MAX_ROWS))
      throw new MarketDataError('invalid_option', ANALYTICS_MSG.tooManyRows(FN, (highRow - lowRow + 1n).toString()), {
        field: 'rows',
      })
    const n = Number(highRow - lowRow + 1n)
    let percent: number
    try {
      percent = resolveValueAreaPercent(o.valueAreaPercent ?? tpoPercent).percent
    } catch {
      throw new MarketDataError(
        'invalid_option',
        ANALYTICS_MSG.option(FN, 'valueAreaPercent', o.valueAreaPercent, 'must be a number with 0 < p <= 100'),
        { field: 'valueAreaPercent' },
      )
    }
    const nodesIn = readOptions(`${FN} (options.nodes)`, o.nodes, ['smoothing', 'minProminence'])
    const nodeOptions = resolveNodeOptions(`${FN} (options.nodes)`, { ...nodesIn, source: 'volume' }, 'volume')
    const buy = new Array<bigint>(n).fill(0n)
    const sell = new Array<bigint>(n).fill(0n)
    const present = new Array<boolean>(n).fill(false)
    for (const h of hs) {
      const f = 10n ** BigInt(vScale - h.vScale)
      const off = Number(h.firstRow - lowRow)
      for (let i = 0; i < h.n; i++) {
        if (!h.present[i]) continue
        buy[off + i] = (buy[off + i] as bigint) + (h.buy as bigint[])[i]! * f
        sell[off + i] = (sell[off + i] as bigint) + (h.sell as bigint[])[i]! * f
        present[off + i] = true
      }
    }
    const grid: Histogram = {
      ...first,
      who: 'composite',
      decimals,
      rowUnits: first.rowUnits * 10n ** BigInt(decimals - first.decimals),
      firstRow: lowRow,
      n,
      counts: null,
      buy,
      sell,
      vScale,
      present,
      tradesBuy: null,
      tradesSell: null,
    }
    const total = buy.map((b, i) => b + (sell[i] as bigint))
    const va = pocAndValueArea(total, percent)
    const rows: CompositeVolumeProfile['rows'] = []
    let vb = 0n
    let vs = 0n
    for (let i = 0; i < n; i++) {
      if (!present[i]) continue
      vb += buy[i] as bigint
      vs += sell[i] as bigint
      rows.push([rowPriceOf(grid, i), formatUnits(buy[i] as bigint, vScale), formatUnits(sell[i] as bigint, vScale)])
    }
    return {
      time,
      end,
      profiles: hs.length,
      rowSizeValue: first.rowSizeValue,
      rows,
      high: rowPriceOf(grid, n - 1),
      low: rowPriceOf(grid, 0),
      volumeBuy: formatUnits(vb, vScale),
      volumeSell: formatUnits(vs, vScale),
      volume: formatUnits(vb + vs, vScale),
      poc: rowPriceOf(grid, va.poc),
      valueAreaHigh: rowPriceOf(grid, va.high),
      valueAreaLow: rowPriceOf(grid, va.low),
      valueAreaPercent: percent,
      nodes: nodesOfSeries(grid, total, nodeOptions, vScale),
    }
  })
}
