// The tests StrykerJS runs against each mutant (`npm run mutation`): the unit and in-process tests, which run
// the code in src/. Tests of the built binary (test/e2e/) run dist/, which a mutant never reaches.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts'],
    // docs.test.ts reads the built bundle.
    exclude: ['test/unit/docs.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
