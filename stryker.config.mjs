// @ts-check
// Mutation testing (`npm run mutation`, not part of `npm test`): StrykerJS changes src/ one small way at a
// time and checks that some unit or in-process test fails. The report goes to reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/**/*.ts',
    // Only the built binary runs these: the launcher and the code-cache loader.
    '!src/main.ts',
    '!src/load-cli.ts',
    '!src/version.ts',
    // The keychain helper's process entry; its work is config/keychain-ops.ts, which tests reach in-process.
    '!src/keychain-helper.ts',
    // The sandbox is the tests' fixture, not the product.
    '!src/sandbox/**',
  ],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 15_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
