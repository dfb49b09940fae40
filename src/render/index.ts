/**
 * Text and SVG pictures of footprint and TPO profiles.
 *
 * @module svc-marketdata/render
 */
export type { RenderTpoOptions } from './tpo-model.js'
export type { TpoLetters } from './tpo-letters.js'
export type { RenderFootprintOptions } from './footprint-model.js'
export { renderTpo } from './tpo-text.js'
export { renderTpoSvg } from './tpo-svg.js'
export { renderFootprint } from './footprint-text.js'
export { renderFootprintSvg } from './footprint-svg.js'
export type { FootprintCells, FootprintChartCandle, RenderFootprintChartOptions } from './footprint-chart-model.js'
export { renderFootprintChart } from './footprint-chart-svg.js'
export type { RenderTpoChartOptions, TpoChartAnnotation } from './tpo-chart-model.js'
export { renderTpoChart } from './tpo-chart-svg.js'
