// Names of the slots of the loop state the candle engine hands to and from its kernels through one
// Float64Array (doubles in a typed array are not boxed; a call's double arguments or an object would be).
// An aggregator takes trades or candles, never both, so the trade and candle layouts share the array;
// each call sets the slots it reads first.

// ---- trade loops (tradeRun, cleanCandleRun, and the fast trade readers around them) ----------------
/** Time of the last trade taken (the next one must not be earlier). */
export const T_PREV_TIME = 0
/** End of the open candle (exclusive; at most MAX_TIME + 1). */
export const T_END = 1
/** Volume units of the current run of one price (not yet in the sums). */
export const T_RUN_VOLUME = 2
/** The run's price as given (a number; NaN: none yet in this candle). */
export const T_RUN_PRICE = 3
/** The run's price in units. */
export const T_RUN_UNITS = 4
/** The open candle's high and low in units. */
export const T_HIGH = 5
export const T_LOW = 6
/** The open candle's volume and value units below 2^52 (the bigint parts stay in the engine). */
export const T_VOLUME = 7
export const T_VALUE = 8
/** Indexes of the trades holding the high and the low (-1: not set in this call). */
export const T_HIGH_AT = 9
export const T_LOW_AT = 10
/** The open candle's trade count. */
export const T_COUNT = 11
/** Candle stepping (cleanCandleRun, minute / hour frames): the day's grid (start, end, bucket length). */
export const T_DAY = 12
export const T_DAY_END = 13
export const T_LEN = 14
/** The open candle's start, the index of its opening trade and its session code. */
export const T_START = 15
export const T_OPEN = 16
export const T_SESSION = 17
/** Candles the call closed (written to the records). */
export const T_CLOSED = 18
/** The value sum's high limb (weighted by 2^26, decision 0601), in and out of fracCandleRun. */
export const T_VALUE_MID = 19

// ---- candle loops (candleRun and the fast candle-column reader) ------------------------------------
/** Time of the last candle taken, and the open bucket's end. */
export const C_PREV_TIME = 0
export const C_END = 1
/** The open bucket's high and low (doubles: double order is decimal order). */
export const C_HIGH = 2
export const C_LOW = 3
/** The open bucket's volume and value units below 2^52, and its trade count. */
export const C_VOLUME = 4
export const C_VALUE = 5
export const C_COUNT = 6
/** Indexes of the candles holding a new high / low (-1: none in this call). */
export const C_HIGH_AT = 7
export const C_LOW_AT = 8
/** Bucket stepping: the day's grid (start, end, bucket length). */
export const C_DAY = 9
export const C_DAY_END = 10
export const C_LEN = 11
/** The open bucket's start, the index of its opening candle, its session code. */
export const C_START = 12
export const C_OPEN = 13
export const C_SESSION = 14
/** Buckets the call closed (written to the records), and the index of the open bucket's close. */
export const C_CLOSED = 15
export const C_CLOSE_AT = 16

/** Length of the loop state array (the larger layout). */
export const LOOP_SLOTS = 20

// ---- a closing candle from a candle loop's values (closeFromScratch) --------------------------------
/** High, low and close (the spellings are these doubles), volume / value units below 2^52, trade count. */
export const S_HIGH = 0
export const S_LOW = 1
export const S_CLOSE = 2
export const S_VOLUME = 3
export const S_VALUE = 4
export const S_COUNT = 5

// ---- a closed candle for the column sink (ColumnOut.write) ------------------------------------------
export const W_TIME = 0
export const W_OPEN = 1
export const W_HIGH = 2
export const W_LOW = 3
export const W_CLOSE = 4
/** Volume and value: the number parts (units below 2^52; the bigint parts and scales go beside). */
export const W_VOLUME = 5
export const W_VALUE = 6
export const W_TRADES = 7
export const W_SESSION = 8

// ---- closed-bucket records a loop writes when it steps (REC numbers each) ---------------------------
/**
 * Bucket start, index of the opening record, high, low (prices, or for trade records their indexes), index
 * of the close, volume units, value units, trades, session code; for trade records the value's high limb
 * (weighted by 2^26, see LIMB: value = mid * 2^26 + value units).
 */
export const REC_START = 0
export const REC_OPEN_AT = 1
export const REC_HIGH = 2
export const REC_LOW = 3
export const REC_CLOSE_AT = 4
export const REC_VOLUME = 5
export const REC_VALUE = 6
export const REC_TRADES = 7
export const REC_SESSION = 8
export const REC_VALUE_MID = 9
/** Numbers per closed-bucket record. */
export const REC = 10
/** Closed buckets one loop call may write before the caller turns them into candles. */
export const REC_CAP = 64
/** Records for a cleanCandleRun call that does not step (never written). */
export const NO_REC = new Float64Array(0)
/** Stands for an absent session column (never read: keeps the loops' loads on one array type). */
export const NO_SESSIONS = new Uint8Array(0)
