export type { DecimalInput, ExactDecimal } from './types.js'
export { parseDecimal, parseOutputDecimal } from './parse.js'
export { compareExactDecimals } from './compare.js'
export { formatUnits, formatFixed, decimalToString } from './format.js'
export {
  POW10,
  UNITS_LIMIT,
  decimalsOf,
  numberToUnits,
  stringToUnits,
  toUnitsBig,
  floorDiv,
  floorDivBig,
} from './units.js'
export { ExactSums } from './exact-sums.js'
export { exactDouble, nextDown, nextUp } from './double.js'
export { floorToGrid } from './grid.js'
