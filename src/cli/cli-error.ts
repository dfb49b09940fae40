/** Exit codes of the command-line tool. */
export const EXIT_OK = 0
export const EXIT_BAD_INPUT = 1
export const EXIT_USAGE = 2

/** An error the tool reports on stderr and turns into an exit code (1 bad input, 2 usage). */
export class CliError extends Error {
  readonly exitCode: number
  constructor(exitCode: number, message: string) {
    super(message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

export const usage = (msg: string) => new CliError(EXIT_USAGE, msg)
export const badInput = (msg: string) => new CliError(EXIT_BAD_INPUT, msg)
