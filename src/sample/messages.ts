/** Error messages of the sample generator: each names the option and the rule. */
import { describeValue } from '../_lib/describe.js'

const P = 'sampleTrades:'

export const SAMPLE_MSG = {
  notInteger: (name: string, min: number, v: unknown) =>
    `${P} option \`${name}\` must be an integer >= ${min}, got ${describeValue(v)}`,
  notPositiveDecimal: (name: string, v: unknown) =>
    `${P} option \`${name}\` must be a positive decimal such as "0.25", got ${describeValue(v)}`,
  volumeDecimals: (v: unknown) => `${P} option \`volumeDecimals\` must be 0 or 8, got ${describeValue(v)}`,
  timeZone: (v: unknown) =>
    `${P} option \`timeZone\` must be an IANA time zone such as "America/New_York", got ${describeValue(v)}`,
  start: (v: unknown) =>
    `${P} option \`start\` must be an integer epoch-millisecond time with the whole sample (its UTC days, plus a day either side for session hours in any time zone) within ±8.64e15 ms, got ${describeValue(v)}`,
  daysRange: (days: number, start: number) =>
    `${P} option \`days\` (${days}) runs the sample past 8.64e15 ms, the last time a Date holds: from start ${start} at most ${Math.max(0, 99_999_999 - Math.floor(start / 86_400_000))} days fit`,
  tooMany: (fn: string, field: 'days' | 'tradesPerDay', total: number, cap: number) =>
    `${fn}: option \`${field}\` asks for ${total} trades (days × tradesPerDay), more than the ${cap.toLocaleString('en-US')} a materialized sample may allocate; sampleTradeBatches streams any number in constant memory`,
  dayKinds: (v: unknown) =>
    `${P} option \`dayKinds\` must be a non-empty array of 'trend' | 'balanced', got ${describeValue(v)}`,
  tooLarge: (name: string) =>
    `${P} option \`${name}\` is too large: prices must stay below 10^15 units of the tick's last decimal`,
  gridTooFine: () => `${P} option \`tickSize\` has more than 15 decimals`,
} as const
