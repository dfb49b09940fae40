// A check of Postgres's control file (`global/pg_control`) before PGlite opens a data directory: a damaged one
// makes PGlite abort with nothing but `Aborted()`. The file holds its own CRC-32C right after the fields it
// covers; the check looks for a prefix whose CRC-32C is the four bytes after it, so it does not depend on the
// layout of one Postgres version.
import { readFileSync, statSync } from 'node:fs'

/** Size Postgres writes the control file with (PG_CONTROL_FILE_SIZE). */
const CONTROL_FILE_SIZE = 8192
/** The covered fields end well before this offset in every Postgres version (about 300 bytes). */
const MAX_CRC_OFFSET = 1024

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1
    t[i] = c >>> 0
  }
  return t
})()

/** What is wrong with the control file at `path`, or undefined when it looks sound. */
export function controlFileProblem(path: string): string | undefined {
  let size: number
  try {
    size = statSync(path).size
  } catch {
    return 'is missing'
  }
  if (size !== CONTROL_FILE_SIZE) return `has ${size} bytes, not ${CONTROL_FILE_SIZE} (truncated or overwritten)`
  const b = readFileSync(path)
  let crc = 0xffffffff
  for (let k = 0; k < MAX_CRC_OFFSET; k++) {
    if (k >= 16 && (crc ^ 0xffffffff) >>> 0 === b.readUInt32LE(k)) return undefined
    crc = CRC32C_TABLE[(crc ^ b[k]!) & 0xff]! ^ (crc >>> 8)
  }
  return 'fails its checksum (damaged)'
}
