// What the viewer page uses of the library, bundled for the browser by serve.ts on first request.
export { autoRowSize, regridTpo, renderFootprintChart, renderTpoChart } from '../../../src/index.js'
