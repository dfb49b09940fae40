import { describe, expect, it } from 'vitest'
import { profileAnalytics, type ProfileAnalytics } from '../../src/analytics/index.js'
import type { FootprintProfile } from '../../src/footprint/index.js'
import type { TpoProfile } from '../../src/tpo/index.js'
import { fixture, run } from './helpers.js'

type WithAnalytics<P> = P & { profileAnalytics: ProfileAnalytics }

// Three days of the library's own sample, written by the CLI's `sample` command into the test.
async function sampleCsv(): Promise<string> {
  const r = await run(['sample', '--days', '3', '--trades-per-day', '2000'])
  expect(r.code).toBe(0)
  return r.stdout
}

describe('--analytics on tpo and footprint', () => {
  it("tpo JSON: each profile carries the library's profileAnalytics, the value migration against the day before", async () => {
    const csv = await sampleCsv()
    const r = await run(['tpo', '--tick-size', '0.25', '--row-size', '4', '--format', 'json', '--analytics', '-q'], csv)
    expect(r.code).toBe(0)
    const days = JSON.parse(r.stdout) as WithAnalytics<TpoProfile>[]
    expect(days).toHaveLength(3)
    const plain = days.map(({ profileAnalytics: _, ...p }) => p as TpoProfile)
    expect(days[0]!.profileAnalytics).toEqual(profileAnalytics(plain[0]!))
    expect(days[2]!.profileAnalytics).toEqual(profileAnalytics(plain[2]!, { previous: plain[1]! }))
    expect(days[0]!.profileAnalytics.valueMigration).toBeNull()
    expect(days[1]!.profileAnalytics.dayType?.type).toMatch(
      /^(normal|normal-variation|trend|double-distribution|neutral-center|neutral-extreme|non-trend)$/,
    )
  })
  it('tpo text prints an analytics block under each profile; without the option there is none', async () => {
    const csv = await sampleCsv()
    const r = await run(['tpo', '--tick-size', '0.25', '--row-size', '4', '--analytics', '-q'], csv)
    expect(r.stdout.match(/^analytics:$/gm)).toHaveLength(3)
    expect(r.stdout).toMatch(/^ {2}day type {9}\S+/m)
    expect(r.stdout).toMatch(/^ {2}value {12}(higher|lower|overlapping-higher|overlapping-lower|inside|outside) /m)
    const plain = await run(['tpo', '--tick-size', '0.25', '--row-size', '4', '-q'], csv)
    expect(plain.stdout).not.toMatch(/^analytics:$/m)
  })
  it('footprint JSON keeps the order-flow analytics and adds the profile analytics', async () => {
    const j = await run([
      'footprint',
      fixture('trades.csv'),
      '--tick-size',
      '0.25',
      '--format',
      'json',
      '--analytics',
      '-q',
    ])
    expect(j.code).toBe(0)
    const ps = JSON.parse(j.stdout) as WithAnalytics<FootprintProfile>[]
    expect(ps[0]!.analytics?.ratio).toBe('300')
    const a = ps[0]!.profileAnalytics
    expect(a.balancedTarget.basis).toBe('volume')
    expect([a.openRange, a.dayType, a.tpoNodes, a.singlePrintZones]).toEqual([null, null, null, null])
  })
})
