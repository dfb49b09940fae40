/** Help texts of the tool, one per command. */

export const MAIN_HELP = `svc-marketdata - exact candles, footprint and TPO (Market Profile) from your trades

Usage:
  svc-marketdata <command> [FILE] [options]

Commands:
  demo        generate a sample day and show a TPO chart, a footprint ladder and candles (npm start)
  tpo         TPO profiles (letter chart, SVG, JSON) from trades
  footprint   volume footprint profiles (bid x ask ladder, SVG, JSON) from trades
  candles     OHLCV candles from trades
  sample      write a deterministic sample trades file (CSV or NDJSON)

Input: trades (or candles for candles and tpo) as CSV (a header naming the columns, or
time,price,volume,side[,session]), NDJSON or Parquet, gzipped or not, from FILE, or from stdin when FILE is
absent or "-". time: epoch s, ms, us or ns, or a date-time (RFC 3339, T or a space; without an offset give
--input-zone), detected from the first row. Other column names, units and sides: see --help of a command.

Run "svc-marketdata <command> --help" for the options of a command; "svc-marketdata --version" for the version.
Exit codes: 0 ok, 1 bad input, 2 usage error.
`

const INPUT = `Input:
  FILE                      CSV, NDJSON or Parquet (.gz too); stdin when absent or "-"
  --input-format F          csv, ndjson or parquet (default: from the file name, else from the first line)
  --input trades|candles    what FILE holds (default: candles when its header names open, high, low, close)
  --time-column C           the time column by header name or position from 1 (also --price-column,
                            --volume-column, --side-column, --session-column; for candles --open-column,
                            --high-column, --low-column, --close-column, --value-column, --trades-column)
  --time-unit s|ms|us|ns    unit of epoch times (default: the header's name, else the first row's magnitude)
  --input-zone ZONE         IANA zone of times without an offset (refused without it)
  --side-rule column|tick   tick: sides estimated by the tick rule (default: a side column for footprints;
                            candles and tpo need none: tpo then profiles candles of the block size)
  --session-hours "ZONE MAIN [PRE [POST]]"  sessions from the local clock, e.g.
                            "America/New_York 09:30-16:00 04:00-09:30 16:00-20:00" (others left out)
  --skip-bad                skip bad rows and report how many (default: stop at the first, exit 1)
  --from T, --to T          keep trades with from <= time < to; T = Unix seconds or RFC 3339
  --session-type S          MAINSESSION, PRE_MARKET, POST_MARKET; repeat or comma-separate (default all)
  --tz ZONE                 IANA time zone the buckets align in and times print in (default UTC)`

const OUTPUT = (formats: string) => `Output:
  --format ${`${formats} `.padEnd(18)}default text
  --out PATH                write to PATH instead of stdout${formats.includes('svg') ? ' (svg: a directory ending in / for one file per profile)' : ''}
  --last N                  only the last N results
  -q, --quiet               no notes on stderr
  -h, --help                this help`

export const TPO_HELP = `svc-marketdata tpo [FILE] [options]

TPO (Market Profile) profiles: one per period (or per session type with --merge-sessions GROUP_BY_TYPE),
with POC, value area (70%), initial balance and single prints.

Profile:
  --timeframe ID            period: 1d..6d, 1w..3w, 1M..11M (default 1d)
  --tick-size X             price tick (default: the largest step dividing the first prices, stated on stderr)
  --row-size N              rows of N ticks (default 1; the text chart of a profile of more than 80 rows
                            uses the size for 30..80 rows instead and says so in its header)
  --row-size-value X        rows of an absolute price step, a whole number of ticks (instead of --row-size)
  --block-size ID           TPO block length, a minute/hour timeframe id (default 30m)
  --merge-sessions M        true|MERGE_ALL (default) or false|GROUP_BY_TYPE
  --value-area P            value area percent (default 70)
  --initial-balance D       initial balance length, <n>m or <n>h (default 1h)
  --letters traded|fixed    text and svg letters: traded (default) A, B, C... to the blocks that traded;
                            fixed: one letter per clock period of the day in --tz (30m: 00:00 A, 09:30 T)
  --analytics               add profile analytics (open range, balanced target, volume/TPO nodes, value
                            migration, day type, poor extremes, single prints); JSON: profileAnalytics
${INPUT}
${OUTPUT('json|ndjson|text|svg')}
  --chart bars|single       bars: one SVG of every period side by side (implies --format svg; without
                            --row-size, rows sized for 30..80 per period from the first prices' range);
                            single (default): one picture per profile

Examples:
  svc-marketdata tpo sample.csv --timeframe 1d --tz America/New_York
  svc-marketdata tpo sample.csv --tick-size 0.25 --row-size 4 --session-type MAINSESSION --tz America/New_York
  svc-marketdata tpo sample.csv --format svg --last 1 --out tpo.svg
  svc-marketdata tpo week.csv --tick-size 0.25 --tz America/New_York --chart bars --out tpo-week.svg
`

export const FOOTPRINT_HELP = `svc-marketdata footprint [FILE] [options]

Volume footprint profiles: per timeframe bucket, buy and sell volume and trade counts per price row.

Profile:
  --timeframe ID            bucket: 1m..59m, 1h..23h, 1d..6d, 1w..3w, 1M..11M (default 1h)
  --tick-size X             price tick (default: the largest step dividing the first prices, stated on stderr)
  --row-size N              rows of N ticks (default: text, svg and --chart bars pick one size for 30..80
                            rows over the whole input's price range, said on stderr; json and ndjson 1)
  --row-size-value X        rows of an absolute price step (instead of --row-size)
  --imbalance P             diagonal imbalance threshold in percent for text and svg (default 300)
  --analytics               add order-flow analytics (imbalances, stacked imbalances) and profile analytics
                            (balanced target, volume nodes, value migration, poor extremes); JSON: profileAnalytics
${INPUT}
${OUTPUT('json|ndjson|text|svg')}
  --chart bars|single       bars: one SVG chart of every bucket on a time axis with candles, POC, value area,
                            imbalances and cumulative delta (implies --format svg); single (default): one
                            picture per profile
  --cells bidAsk|delta|volume  what the cells of --chart bars show (default bidAsk: sell x buy)

Examples:
  svc-marketdata footprint sample.csv --timeframe 1h --tick-size 0.25 --row-size 2
  svc-marketdata footprint trades.ndjson --timeframe 5m --format ndjson > profiles.ndjson
  svc-marketdata footprint sample.csv --timeframe 15m --tick-size 0.25 --row-size 4 --chart bars --last 60 --out chart.svg
`

export const CANDLES_HELP = `svc-marketdata candles [FILE] [options]

OHLCV candles (with value = sum of price x volume, and trade counts) from trades.

Candles:
  --timeframe ID            1m..59m, 1h..23h, 1d..6d, 1w..3w, 1M..11M, 1y, any other count of a unit
                            (90m, 36h), or ticks 1t..1000t (default 1m); an OHLCV input is resampled
  --tick-size X             print prices with the tick's decimals (default: as written in the input)
${INPUT}
${OUTPUT('json|ndjson|text')}

Examples:
  svc-marketdata candles sample.csv --timeframe 15m
  cat trades.csv | svc-marketdata candles --timeframe 1h --format json
`

export const SAMPLE_HELP = `svc-marketdata sample [options]

Writes deterministic sample trades: a random walk on a tick grid with bursts, buy/sell aggressors and
three sessions a day (pre-market 04:00-09:30, main 09:30-16:00, post-market 16:00-20:00, New York time),
trend and balanced days alternating.

Options:
  --out FILE                write to FILE (default stdout)
  --days N                  trading days (default 1)
  --trades-per-day N        (default 50000)
  --start DATE              first day, YYYY-MM-DD (default 2026-06-01)
  --seed N                  (default 1)
  --tick-size X             (default 0.25)
  --start-price X           (default 5000)
  --volume-decimals 0|8     whole lots or 8-decimal volumes (default 0)
  --tz ZONE                 zone of the session hours (default America/New_York)
  --format csv|ndjson       (default csv: time,price,volume,side,session)
  --time-format iso|ms|s    (default iso)
  -h, --help                this help

Example:
  svc-marketdata sample --out sample.csv --days 5
`

export const DEMO_HELP = `svc-marketdata demo [options]

Generates a sample trading day, prints a TPO letter chart of the main session, a footprint ladder of one
hour and a few resampled candles, and writes into the output directory: tpo.svg, footprint.svg, the charts
footprint-chart.svg, footprint-chart-60.svg and tpo-chart.svg, and the trades as sample.csv.

Options:
  --out-dir DIR             (default demo-output)
  --seed N                  (default 1)
  -h, --help                this help
`
