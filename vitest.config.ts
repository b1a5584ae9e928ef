import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files that change what the whole test process shares, so each runs in a process of its own:
 * - vi.mock / vi.doMock replace modules for every file that imports them later in the same process;
 * - context-edges counts warnings that src/ says once per process.
 * Every other file shares its worker process with the files before it, which spares loading vitest, src/ and
 * its packages again for each file (about a third of the suite's CPU time on two cores). test/helpers/
 * shared-process.ts checks, after each such file, that it left the process as it found it.
 */
const ISOLATED = [
  'test/commands/doctor.test.ts',
  'test/unit/context-edges.test.ts',
  'test/unit/payload-edges.test.ts',
  'test/unit/probe.test.ts',
  'test/unit/store-lock-load.test.ts',
  'test/unit/store-lock-wait.test.ts',
  'test/unit/store-more.test.ts',
  'test/unit/transport-more.test.ts',
];

export default defineConfig({
  // The ky cip ships (dist/vendor/ky.cjs: over cip's own Request, Response and Headers), not the package.
  resolve: { alias: [{ find: /^ky$/, replacement: fileURLToPath(new URL('test/helpers/shipped-ky.ts', import.meta.url)) }] },
  test: {
    // Says once why the reference API tests (test/reference-api/) are skipped, when they are.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end files each start their own sandbox and child processes; two cores here.
    maxWorkers: 4,
    // Each inherits the settings above (vitest 5: an inline project extends the root config).
    projects: [
      { test: { name: 'isolated', include: ISOLATED, isolate: true } },
      {
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          setupFiles: ['test/helpers/shared-process.ts'],
        },
      },
    ],
  },
});
