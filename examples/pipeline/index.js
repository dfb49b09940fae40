// Launcher: `node examples/pipeline <command> [options]` on plain Node 20. Registers tsx so the TypeScript
// sources (and the library's src/) load without a build step, then runs main.ts.
import { register } from 'tsx/esm/api'

register()
await import('./main.ts')
