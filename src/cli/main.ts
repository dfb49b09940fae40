#!/usr/bin/env node
/**
 * The `svc-marketdata` command-line tool: candles, footprint and TPO profiles from trade files, sample
 * data, and the demo behind `npm start`. The only part of src/ that does I/O.
 */
import { readFileSync, realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { MarketDataError } from '../errors.js'
import type { Io } from './aggregate.js'
import { CliError, EXIT_BAD_INPUT, EXIT_USAGE } from './cli-error.js'
import { CANDLES_HELP, DEMO_HELP, FOOTPRINT_HELP, MAIN_HELP, SAMPLE_HELP, TPO_HELP } from './help.js'
import type { Command } from './options.js'
import { abortOutputs } from './output.js'

const HELP: Record<string, string> = {
  candles: CANDLES_HELP,
  footprint: FOOTPRINT_HELP,
  tpo: TPO_HELP,
  sample: SAMPLE_HELP,
  demo: DEMO_HELP,
}

/** The package version from package.json (one or two folders up: dist/ or src/cli/). */
function packageVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as {
        name?: string
        version?: string
      }
      if (pkg.name === 'svc-marketdata' && pkg.version !== undefined) return pkg.version
    } catch {
      // try the next place
    }
  }
  return 'unknown'
}

/** Runs the tool with arguments (without `node` and the script); returns the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [cmd, ...rest] = argv
  try {
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      const topic = cmd === 'help' ? rest[0] : undefined
      io.stdout.write(topic !== undefined && HELP[topic] !== undefined ? HELP[topic]! : MAIN_HELP)
      return 0
    }
    if (cmd === '--version' || cmd === '-v') {
      io.stdout.write(`${packageVersion()}\n`)
      return 0
    }
    if (HELP[cmd] === undefined)
      throw new CliError(
        EXIT_USAGE,
        `unknown command ${JSON.stringify(cmd)}; expected one of: demo, tpo, footprint, candles, sample`,
      )
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(HELP[cmd]!)
      return 0
    }
    // commands load on demand, so `--help` and small runs start fast
    if (cmd === 'demo') return await (await import('./demo.js')).runDemo(rest, io)
    if (cmd === 'sample') return await (await import('./sample-command.js')).runSample(rest, io)
    const config = (await import('./options.js')).parseRunArgs(cmd as Command, rest)
    if (config.file === undefined && (io.stdin as { isTTY?: boolean }).isTTY === true) {
      throw new CliError(
        EXIT_USAGE,
        `no input: give a trades FILE or pipe trades to stdin (see svc-marketdata ${cmd} --help)`,
      )
    }
    return await (await import('./aggregate.js')).runAggregate(config, io)
  } catch (e) {
    abortOutputs()
    if (e instanceof CliError) {
      io.stderr.write(`svc-marketdata: ${e.message}\n`)
      return e.exitCode
    }
    if (e instanceof MarketDataError) {
      io.stderr.write(`svc-marketdata: ${e.message}\n`)
      return EXIT_BAD_INPUT
    }
    throw e
  }
}

/** True when this file is the program node runs (not when a test imports `main`); bin symlinks resolved. */
const isEntry = (() => {
  const arg = process.argv[1]
  if (arg === undefined) return false
  try {
    return realpathSync(arg) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
})()

if (isEntry) {
  const io: Io = {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: process.stderr.isTTY === true,
  }
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0)
  })
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code
    },
    (e: unknown) => {
      process.stderr.write(
        `svc-marketdata: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      )
      process.exitCode = 70
    },
  )
}
