// The price grid's row bound, shared by footprint and TPO: one trade stream, one refusal.

/** Largest |row index| on a profile's price grid (price / rowSizeValue): a row index stays a safe integer. */
export const MAX_ROW_INDEX = BigInt(Number.MAX_SAFE_INTEGER)

/** Message of a price whose row index is past {@link MAX_ROW_INDEX}, for footprint and TPO alike. */
export const PROFILE_MSG = {
  priceRow: (x: string, rsv: string) =>
    `price: ${x} is too far from 0 for rowSizeValue ${rsv} (the row index price / rowSizeValue must stay within ±(2^53 - 1))`,
} as const
