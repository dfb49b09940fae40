import { defineConfig } from 'vitest/config'

// `npm run test:services`: suites that start real services (Debian's nats-server and postgresql-15) on free
// ports: the live pipeline, the live streams. `npm test` needs none of them. Files are `*.live.ts`.
export default defineConfig({
  test: {
    include: ['examples/**/*.live.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
})
