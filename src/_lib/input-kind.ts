/**
 * What an input is, read without throwing: columns (by `isColumns`), an array, another iterable, or undefined
 * (anything else, or an object whose shape cannot be read: a revoked Proxy, a throwing getter). An `isColumns`
 * that throws means not columns: an array Proxy whose traps throw is then an array, whose reads pass the
 * caller's error through.
 */
export function inputKind(
  x: unknown,
  isColumns: (x: unknown) => boolean,
): 'columns' | 'array' | 'iterable' | undefined {
  let columns = false
  try {
    columns = isColumns(x)
  } catch {
    // not columns
  }
  if (columns) return 'columns'
  try {
    if (Array.isArray(x)) return 'array'
    if (
      typeof x === 'object' &&
      x !== null &&
      typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
    )
      return 'iterable'
  } catch {
    // the shape cannot be read: not an input
  }
  return undefined
}
