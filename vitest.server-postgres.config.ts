import { defineConfig } from 'vitest/config'

// The reference server against a real Postgres server (Debian's postgresql-15): `npm run test:server-postgres`.
// Not part of `npm test`, which needs nothing beyond `npm ci`.
export default defineConfig({
  test: {
    include: ['examples/server/**/*.pgtest.ts'],
    testTimeout: 300_000,
  },
})
