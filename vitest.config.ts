import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    env: { TZ: 'America/New_York' },
    // The integration files mostly wait on sockets, timers and PostgreSQL, each in a database of its
    // own: two at a time keep a 2-core machine busy, where Vitest's default (cores − 1) runs one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // CI keeps a machine-readable result for the closing summary line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: process.env.CI ? { json: 'test-results/vitest.json' } : {},
  },
});
