import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Says once why the reference API tests (test/reference-api/) are skipped, when they are.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end files each start their own sandbox and child processes; two cores here.
    maxWorkers: 4,
  },
});
