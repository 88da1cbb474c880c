import { defineConfig } from 'vitest/config';

/** Browser journeys: one app, one browser, run one file at a time against the built SPA. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: './e2e',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    env: { TZ: 'America/New_York' },
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI ? { json: '../test-results/e2e.json' } : {},
  },
});
