// @ts-check
// The vitest configuration StrykerJS runs each mutant's tests with (mutation/run.mjs): the tests that can kill a
// mutant (mutation/tests.mjs), one file after another in Stryker's worker threads. Which of them a run uses is
// Stryker's `testFiles`, chosen by mutation/run.mjs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ROOT, TEST_EXCLUDES, TEST_GLOBS } from './tests.mjs';

export default defineConfig({
  root: ROOT,
  // As vitest.config.ts: the ky cip ships, from dist/ (build first).
  resolve: { alias: [{ find: /^ky$/, replacement: fileURLToPath(new URL('../test/helpers/shipped-ky.ts', import.meta.url)) }] },
  test: {
    include: TEST_GLOBS,
    exclude: TEST_EXCLUDES,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
