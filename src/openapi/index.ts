// The service contract as an OpenAPI 3.1 document (pure data built from the library's rules).
export type { Json, JsonObject } from './schema.js'
export type { OpenApiDocumentOptions } from './document.js'
export { openApiDocument, openApiJson } from './document.js'
export { REST_PATHS } from './rest-paths.js'
