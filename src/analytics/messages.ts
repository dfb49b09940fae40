// Error messages of src/analytics, in one place. Each names the function, the argument or field, and the rule.
import { describeValue } from '../_lib/describe.js'

export const ANALYTICS_MSG = {
  notProfile: (fn: string, who: string, x: unknown) =>
    `${fn}: ${who}: ${describeValue(x)} is not a profile (expected a TpoProfile, a TpoCandleProfile or a FootprintProfile)`,
  field: (fn: string, who: string, field: string, x: unknown, rule: string) =>
    `${fn}: ${who}.${field}: ${describeValue(x)} ${rule}`,
  notTpo: (fn: string, who: string, hint: string) => `${fn}: ${who} is a footprint profile; ${hint}`,
  noVolumes: (fn: string, who: string, hint: string) =>
    `${fn}: ${who} was built from candles (rowVolumes: 'unknown'): per-row volumes are unknown, so this rule cannot use volumes; ${hint}`,
  noTpoCounts: (fn: string, who: string, option: string) =>
    `${fn}: ${who} is a footprint profile: it has no TPO counts; use { ${option}: 'volume' }`,
  noInitialBalance: (fn: string, who: string) =>
    `${fn}: ${who}.initialBalance is null (the profile has no main-session block); this rule needs an initial balance`,
  notDaySession: (fn: string, who: string, session: string) =>
    `${fn}: ${who} is a ${session} profile; this rule reads the day session: give the period's MAINSESSION profile`,
  beforeMainSession: (fn: string, who: string) =>
    `${fn}: ${who} holds blocks before its main session (blocks[0] < initialBalanceStart: pre-market trading); this rule reads the day session: give the period's main-session profile (mergeSessions: 'GROUP_BY_TYPE', or sessions: ['MAINSESSION']), or profileAnalytics' mainSession option`,
  samePeriod: (fn: string, who: string) =>
    `${fn}: options.${who} must be a TPO main-session profile of the same period as the profile it goes with (same time, no sessionType other than MAINSESSION)`,
  unreadable: (fn: string, thrown: string) =>
    `${fn}: a profile or option could not be read (reading it threw ${thrown})`,
  tpoInList: (fn: string, who: string) =>
    `${fn}: ${who} is a TPO profile; give a TPO profile alone, or a list of footprint profiles`,
  emptyProfile: (fn: string, who: string) => `${fn}: ${who} has no rows`,
  tooManyRows: (fn: string, n: string) =>
    `${fn}: the profiles span ${n} grid rows (more than 1,000,000); check the prices or use a coarser grid`,
  options: (fn: string, x: unknown, keys: readonly string[]) =>
    `${fn}: options ${describeValue(x)} must be an object { ${keys.join('?, ')}? } or omitted`,
  unknownOption: (fn: string, key: string, keys: readonly string[]) =>
    `${fn}: options.${key} is not an option of ${fn} (expected one of: ${keys.join(', ')})`,
  option: (fn: string, name: string, x: unknown, rule: string) => `${fn}: options.${name}: ${describeValue(x)} ${rule}`,
  noProfiles: (fn: string) => `${fn}: profiles must be a non-empty array of profiles`,
  gridMismatch: (fn: string, who: string, a: string, b: string) =>
    `${fn}: ${who}.rowSizeValue ${b} differs from the first profile's ${a}; a composite needs one price grid (re-grid first)`,
} as const
