import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/**
 * The test projects (Vitest 4 takes them through `test.projects` in vitest.config.ts).
 * Tests run in a non-UTC time zone so date bugs surface.
 */
/**
 * How long one test may run. Tests wait for events (a row, a delivery, what the screen shows), so the
 * limit only stops one that hangs; a loaded CI machine runs them several times slower than a quiet one.
 */
const TEST_LIMIT_MS = 30_000;

export const projects = [
  defineProject({
    test: {
      name: 'shared',
      root: './shared',
      include: ['src/**/*.test.ts'],
      environment: 'node',
    },
  }),
  defineProject({
    test: {
      name: 'server',
      root: './server',
      include: ['src/**/*.test.ts', 'test/**/*.int.test.ts'],
      environment: 'node',
      globalSetup: ['./test/global-setup.ts'],
      testTimeout: TEST_LIMIT_MS,
      hookTimeout: 60_000,
    },
  }),
  defineProject({
    test: {
      name: 'client',
      root: './client',
      alias: { '@': fileURLToPath(new URL('./client/src', import.meta.url)) },
      include: ['src/**/*.test.{ts,tsx}'],
      environment: 'happy-dom',
      setupFiles: ['./src/test/setup.ts'],
      testTimeout: TEST_LIMIT_MS,
    },
  }),
];
