// What the viewer page uses of the library, bundled for the browser by serve.ts on first request.
export { autoRowSize, regridTpo } from '../../../src/index.js'
export { renderFootprintChart, renderTpoChart } from '../../../src/render/index.js'
