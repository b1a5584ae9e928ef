// A narrower test set for mutation runs over the pure modules that every command reaches (json/, text/,
// secrets, errors, …): only the unit tests. Under the full set (vitest.mutation.config.ts) a survivor there
// costs a run of every in-process test; here it costs seconds. A score measured this way is a lower bound.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // docs.test.ts reads the built bundle.
    exclude: ['test/unit/docs.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
