// The tests StrykerJS runs against each mutant (`npm run mutation`): the unit and in-process tests, which run
// src/. Two end-to-end files with many in-process cases come along; the other end-to-end files run only the
// built binary (dist/, which no mutant reaches), and some of them need more than Stryker's sandbox copy gives.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/e2e/safety.test.ts', 'test/e2e/hostile.test.ts'],
    // docs.test.ts reads the built bundle.
    exclude: ['test/unit/docs.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
