/**
 * Text and SVG pictures of footprint and TPO profiles.
 *
 * @module svc-marketdata/render
 */
export type { RenderTpoOptions } from './tpo-model.js'
export type { RenderFootprintOptions } from './footprint-model.js'
export { renderTpo } from './tpo-text.js'
export { renderTpoSvg } from './tpo-svg.js'
export { renderFootprint } from './footprint-text.js'
export { renderFootprintSvg } from './footprint-svg.js'
