export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000
/** The last instant an ISO 8601 / RFC 3339 time with a 4-digit year names: 9999-12-31T23:59:59.999Z. */
export const LAST_ISO_MS = 253_402_300_799_999
