/** Error messages of the sample generator: each names the option and the rule. */
const P = 'sampleTrades:'

export const MSG = {
  notInteger: (name: string, min: number, v: unknown) =>
    `${P} option \`${name}\` must be an integer >= ${min}, got ${String(v)}`,
  notPositiveDecimal: (name: string, v: unknown) =>
    `${P} option \`${name}\` must be a positive decimal such as "0.25", got ${JSON.stringify(v)}`,
  volumeDecimals: (v: unknown) => `${P} option \`volumeDecimals\` must be 0 or 8, got ${String(v)}`,
  timeZone: (v: unknown) => `${P} option \`timeZone\` must be an IANA time zone such as "America/New_York", got ${JSON.stringify(v)}`,
  start: (v: unknown) => `${P} option \`start\` must be a finite epoch-millisecond time, got ${String(v)}`,
  dayKinds: (v: unknown) =>
    `${P} option \`dayKinds\` must be a non-empty array of 'trend' | 'balanced', got ${JSON.stringify(v)}`,
  tooLarge: (name: string) =>
    `${P} option \`${name}\` is too large: prices must stay below 10^15 units of the tick's last decimal`,
  gridTooFine: () => `${P} option \`tickSize\` has more than 15 decimals`,
}
