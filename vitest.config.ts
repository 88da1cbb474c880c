import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    env: { TZ: 'America/New_York' },
    // CI keeps a machine-readable result for the closing summary line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI ? { json: 'test-results/vitest.json' } : {},
  },
});
