// Node's parseArgs errors in the tool's own words: an unknown option gets "did you mean" the nearest one of
// the command, a missing value or an unexpected value says which option and what it takes.
import { usage, type CliError } from './cli-error.js'

/** The options of one command, as given to parseArgs. */
export type OptionSpec = Readonly<Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>>

/** Edit distance (insert, delete, replace, swap of neighbours), for suggestions only. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  }
  return d[a.length]![b.length]!
}

/** The option of `options` nearest to `given` (a long name without dashes), if one is near enough to be meant. */
export function nearestOption(given: string, options: OptionSpec): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0]!.toLowerCase()
  let best: string | undefined
  let bestD = Infinity
  for (const o of Object.keys(options)) {
    const d = o.startsWith(name) && name.length >= 2 ? 0.5 : distance(name, o)
    if (d < bestD) {
      best = o
      bestD = d
    }
  }
  // a typo of a third of the name at most (at least one edit): `--timefrme`, `--tz-name`, `--rowsize`
  return best !== undefined && bestD <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined
}

function optionText(option: string, options: OptionSpec): string {
  const name = option.replace(/^-+/, '')
  const long = option.startsWith('--') ? name : Object.keys(options).find((o) => options[o]?.short === name)
  return long === undefined ? option : `--${long}`
}

/** A usage error (exit 2) for an error thrown by parseArgs, in the tool's words. */
export function argsError(e: unknown, command: string, options: OptionSpec): CliError {
  const code = (e as { code?: unknown }).code
  const message = e instanceof Error ? e.message : String(e)
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? ''
  const help = `(svc-marketdata ${command} --help lists the options)`
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = quoted.split(' ')[0] ?? quoted
    const near = nearestOption(option, options)
    return usage(`${command} has no option ${option}${near !== undefined ? `; did you mean --${near}?` : ''} ${help}`)
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // Node quotes '--timeframe <value>' or '-t, --timeframe <value>'
    const option = optionText(/--[\w-]+/.exec(quoted)?.[0] ?? quoted.split(' ')[0] ?? quoted, options)
    const spec = options[option.replace(/^--/, '')]
    return usage(
      spec?.type === 'boolean'
        ? `${option} is a switch and takes no value ${help}`
        : `${option} needs a value, as in ${option} <value> ${help}`,
    )
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return usage(`${command} takes no input file or other argument, got ${JSON.stringify(quoted)} ${help}`)
  return usage(`${message.split('\n')[0]} ${help}`)
}
