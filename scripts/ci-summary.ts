/** Prints one plain closing line ('N passed, N failed') from the vitest and e2e JSON results. */
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of ['test-results/vitest.json', 'test-results/e2e.json']) {
  if (!existsSync(file)) continue;
  const r = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests?: number;
    numFailedTests?: number;
    numPendingTests?: number;
    numTodoTests?: number;
  };
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (passed === 0 || failed > 0) process.exit(1);
