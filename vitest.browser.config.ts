import { defineConfig } from 'vitest/config'

// `npm run test:browser`: the viewer page in a real headless Chromium (Debian's package); `npm test` needs no browser.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
