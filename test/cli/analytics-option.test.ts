import { describe, expect, it } from 'vitest'
import { dayType, openLocation, profileAnalytics, type ProfileAnalytics } from '../../src/analytics/index.js'
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
  it("tpo JSON: each profile carries the library's profileAnalytics, its day-session reads from the main session", async () => {
    const csv = await sampleCsv()
    const args = ['tpo', '--tick-size', '0.25', '--row-size', '4', '--format', 'json', '-q']
    const r = await run([...args, '--analytics'], csv)
    expect(r.code).toBe(0)
    const days = JSON.parse(r.stdout) as WithAnalytics<TpoProfile>[]
    expect(days).toHaveLength(3)
    const plain = days.map(({ profileAnalytics: _, ...p }) => p as TpoProfile)
    // the sample trades before and after its main session: the CLI reads the day session from the main-session profiles
    const mains = JSON.parse((await run([...args, '--session-type', 'MAINSESSION'], csv)).stdout) as TpoProfile[]
    expect(mains).toHaveLength(3)
    expect(days[0]!.profileAnalytics).toEqual(profileAnalytics(plain[0]!, { mainSession: mains[0]! }))
    expect(days[2]!.profileAnalytics).toEqual(
      profileAnalytics(plain[2]!, { previous: plain[1]!, mainSession: mains[2]!, previousMainSession: mains[1]! }),
    )
    for (let i = 0; i < 3; i++) {
      expect(days[i]!.profileAnalytics.daySession).toBe('main-session')
      expect(days[i]!.profileAnalytics.dayType).toEqual(dayType(mains[i]!))
    }
    expect(days[1]!.profileAnalytics.openLocation).toEqual(openLocation(mains[1]!, mains[0]!))
    expect(days[0]!.profileAnalytics.valueMigration).toBeNull()
  })
  it("a trend day followed by a post-market block back to 106 is a trend day (the close is the main session's)", async () => {
    const t0 = Date.UTC(2026, 5, 1, 9)
    const blocks = [
      [100, 102],
      [101, 103],
      [103, 106],
      [105, 108],
      [107, 110],
      [109, 112],
    ]
    const rows = blocks.flatMap(([lo, hi], i) => [
      `${t0 + i * 1_800_000},${lo},1,sell,MAINSESSION`,
      `${t0 + i * 1_800_000 + 1000},${hi},1,buy,MAINSESSION`,
    ])
    rows.push(`${t0 + 4 * 3_600_000},112,1,buy,POST_MARKET`, `${t0 + 4 * 3_600_000 + 1000},106,1,sell,POST_MARKET`)
    const csv = `time,price,volume,side,session\n${rows.join('\n')}\n`
    const r = await run(['tpo', '--tick-size', '1', '--format', 'json', '--analytics', '-q'], csv)
    expect(r.code).toBe(0)
    const [p] = JSON.parse(r.stdout) as WithAnalytics<TpoProfile>[]
    expect(p!.close).toBe('106')
    expect(p!.profileAnalytics.dayType?.type).toBe('trend')
    expect(p!.profileAnalytics.rangeExtension?.up).toEqual({ distance: '9', multiple: '3' })
  })
  it('tpo JSON with --merge-sessions GROUP_BY_TYPE: the MAINSESSION profile is its own day session', async () => {
    const csv = await sampleCsv()
    const r = await run(
      [
        'tpo',
        '--tick-size',
        '0.25',
        '--row-size',
        '4',
        '--format',
        'json',
        '--merge-sessions',
        'GROUP_BY_TYPE',
        '--analytics',
        '-q',
      ],
      csv,
    )
    expect(r.code).toBe(0)
    const ps = JSON.parse(r.stdout) as WithAnalytics<TpoProfile>[]
    for (const p of ps)
      expect(p.profileAnalytics.daySession).toBe(p.sessionType === 'MAINSESSION' ? 'main-session' : null)
  })
  it('tpo text prints an analytics block under each profile; without the option there is none', async () => {
    const csv = await sampleCsv()
    const r = await run(['tpo', '--tick-size', '0.25', '--row-size', '4', '--analytics', '-q'], csv)
    expect(r.stdout.match(/^analytics:$/gm)).toHaveLength(3)
    expect(r.stdout).toMatch(/^ {2}day type {9}\S+/m)
    expect(r.stdout).toMatch(
      /^ {2}value {12}(higher|lower|overlapping-higher|overlapping-lower|unchanged|inside|outside) /m,
    )
    expect(r.stdout).toMatch(/^ {2}day session {6}main session$/m)
    expect(r.stdout).toMatch(/^ {2}IB extension {5}up /m)
    expect(r.stdout).toMatch(/^ {2}rotation factor {2}[-+0]/m)
    expect(r.stdout).toMatch(/^ {2}open type {8}open-/m)
    expect(r.stdout).toMatch(/^ {2}shape {12}(P|b|D|B|thin) /m)
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
