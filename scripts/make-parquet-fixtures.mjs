// Writes the Parquet fixtures of test/fixtures/files with DuckDB, once (they are committed; tests never run this):
//   npm i --no-save @duckdb/node-api@1.5.6-r.1 && node scripts/make-parquet-fixtures.mjs test/fixtures/files
import { DuckDBInstance } from '@duckdb/node-api'
const out = process.argv[2]
const db = await DuckDBInstance.create(':memory:')
const c = await db.connect()
const rows = `VALUES
 (TIMESTAMP '2019-11-05 14:30:00.123', 9310.50, 0.015, 'buy'),
 (TIMESTAMP '2019-11-05 14:30:00.456', 9310.25, 0.2, 'sell'),
 (TIMESTAMP '2019-11-05 14:30:01.000', 9310.25, 1.5, 'sell'),
 (TIMESTAMP '2019-11-05 14:30:02.789', 9311.00, 0.003, 'buy'),
 (TIMESTAMP '2019-11-05 14:31:05.001', 9312.75, 0.25, 'buy'),
 (TIMESTAMP '2019-11-05 14:31:59.999', 9311.50, 2, 'sell')`
// decimals exact (DECIMAL(18,2) prices, DECIMAL(18,8) quantities), a TIMESTAMP time column, zstd pages
await c.run(`COPY (SELECT t AS ts, CAST(p AS DECIMAL(18,2)) AS price, CAST(q AS DECIMAL(18,8)) AS qty, s AS side
  FROM (${rows}) v(t, p, q, s)) TO '${out}/trades-duckdb.parquet' (FORMAT parquet, COMPRESSION zstd)`)
// epoch microseconds as BIGINT, doubles, is_buyer_maker booleans, snappy, two row groups
await c.run(`COPY (SELECT CAST(epoch_us(t) AS BIGINT) AS transact_time, CAST(p AS DOUBLE) AS price, CAST(q AS DOUBLE) AS quantity,
  s = 'sell' AS is_buyer_maker FROM (${rows}) v(t, p, q, s)) TO '${out}/trades-binance.parquet' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 4)`)
// one-minute candles with a wide decimal (DECIMAL(38,10)) volume that no double holds exactly
await c.run(`COPY (SELECT * FROM (VALUES
  (TIMESTAMP '2019-11-05 14:30:00', 9310.50, 9311.00, 9310.25, 9311.00, CAST('1.7180000000123456789' AS DECIMAL(38,19))),
  (TIMESTAMP '2019-11-05 14:31:00', 9312.75, 9312.75, 9311.50, 9311.50, CAST('2.25' AS DECIMAL(38,19)))
  ) v(time, open, high, low, close, volume)) TO '${out}/candles-duckdb.parquet' (FORMAT parquet)`)
console.log('written')
