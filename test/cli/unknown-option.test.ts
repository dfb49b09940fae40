// The tool answers a mistyped option in its own words: which command has no such option and, when one is near,
// "did you mean"; a missing value or a value given to a switch says which option. Never Node's parseArgs text.
import { describe, expect, it } from 'vitest'
import { nearestOption } from '../../src/cli/arg-errors.js'
import { run } from './helpers.js'

const CSV = 'time,price,volume,side\n1780320600000,5000,1,buy\n'

describe('unknown and malformed options', () => {
  it.each([
    ['candles', '--timefrme', '15m', '--timeframe'],
    ['footprint', '--rowsize', '2', '--row-size'],
    ['tpo', '--tick-szie', '0.25', '--tick-size'],
    ['tpo', '--value-are', '70', '--value-area'],
    ['sample', '--sed', '3', '--seed'],
    ['demo', '--outdir', 'x', '--out-dir'],
  ])('%s %s: did you mean %s', async (command, typo, value, meant) => {
    const r = await run([command, `${typo}=${value}`], CSV)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${command} has no option ${typo}; did you mean ${meant}?`)
    expect(r.stderr).toContain(`svc-marketdata ${command} --help lists the options`)
    expect(r.stderr).not.toMatch(/Unknown option|To specify a positional argument/)
  })

  it('an option like none of them gets no guess', async () => {
    const r = await run(['candles', '--colour=red'], CSV)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('candles has no option --colour (svc-marketdata candles --help lists the options)')
    expect(r.stderr).not.toContain('did you mean')
  })

  it('a missing value and a value given to a switch name the option', async () => {
    const missing = await run(['footprint', '--timeframe'], CSV)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--timeframe needs a value, as in --timeframe <value>')
    const short = await run(['footprint', '-t'], CSV)
    expect(short.stderr).toContain('--timeframe needs a value')
    const valued = await run(['candles', '--quiet=yes'], CSV)
    expect(valued.code).toBe(2)
    expect(valued.stderr).toContain('--quiet is a switch and takes no value')
  })

  it('nearestOption: a prefix or a small typo is meant; a far name is not', () => {
    const spec = {
      timeframe: { type: 'string' },
      'tick-size': { type: 'string' },
      tz: { type: 'string' },
      quiet: { type: 'boolean' },
    } as const
    expect(nearestOption('--timefram', spec)).toBe('timeframe')
    expect(nearestOption('--tick-siez', spec)).toBe('tick-size')
    expect(nearestOption('--tzz', spec)).toBe('tz')
    expect(nearestOption('--volume', spec)).toBeUndefined()
  })
})
