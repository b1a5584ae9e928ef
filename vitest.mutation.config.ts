// The tests StrykerJS runs against each mutant (`npm run mutation`). Cases that spawn the built binary run
// dist/, which a mutant never reaches; with per-test coverage Stryker runs only the cases that ran the
// mutated code, so the in-process cases in test/e2e/ count and the spawned ones cost only the first run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    // docs.test.ts reads the built bundle.
    exclude: ['test/unit/docs.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
