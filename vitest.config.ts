import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    setupFiles: ['./test/support/userConfigDir.ts', './test/support/hostContractGuard.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
