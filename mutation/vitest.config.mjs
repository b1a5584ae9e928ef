// @ts-check
// The vitest configuration StrykerJS runs each mutant's tests with (mutation/run.mjs): the tests that can kill a
// mutant (mutation/tests.mjs), one file after another in Stryker's worker threads. Which of them a run uses is
// Stryker's `testFiles`, chosen by mutation/run.mjs.
import { defineConfig } from 'vitest/config';
import { ROOT, TEST_EXCLUDES, TEST_GLOBS } from './tests.mjs';

export default defineConfig({
  root: ROOT,
  test: {
    include: TEST_GLOBS,
    exclude: TEST_EXCLUDES,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
