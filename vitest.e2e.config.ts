import { defineConfig } from 'vitest/config';

// End-to-end tests: the real app (crewdeck serve) in a real Chromium, one file at a time.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
