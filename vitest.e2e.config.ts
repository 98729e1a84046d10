import { defineConfig } from 'vitest/config';

// End-to-end tests: the real app (crewdeck serve) in a real Chromium, one file at a time.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too soon for a busy 2-core machine rendering 300 nodes.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    fileParallelism: false,
    // Workspace trust is recorded in a temporary config folder (the served app inherits it), never the real home.
    setupFiles: ['./test/support/userConfigDir.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
