import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

// The fast loop, `npm test`: the unit tests (test/unit/, one file a module of src/), each command's in-process
// tests (test/commands/, one file a command of src/commands/), the suites named for a promise that crosses
// commands (test/promises/) and the checks of the repository's own tooling (test/tooling/). What runs the built
// program, the single executable, shells, the keychain, proxies, the reference service or the README's blocks
// is the end-to-end loop, `npm run test:e2e` (vitest.e2e.config.ts).
export const FAST = ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/promises/**/*.test.ts', 'test/tooling/**/*.test.ts'];

/**
 * Files that change what the whole test process shares, so each runs in a process of its own:
 * - vi.mock / vi.doMock replace modules for every file that imports them later in the same process;
 * - context.test.ts counts warnings that src/ says once per process.
 * Every other file shares its worker process with the files before it, which spares loading vitest, src/ and
 * its packages again for each file (about a third of the suite's CPU time on two cores). test/helpers/
 * shared-process.ts checks, after each such file, that it left the process as it found it.
 */
export const ISOLATED = [
  'test/commands/doctor.test.ts',
  'test/unit/api/probe.test.ts',
  'test/unit/api/transport.test.ts',
  'test/unit/config/store-lock-load.test.ts',
  'test/unit/config/store-lock-wait.test.ts',
  'test/unit/config/store.test.ts',
  'test/unit/context.test.ts',
  'test/unit/domain/environments/payload.test.ts',
];

/** What both loops share: the ky that ships, the run's copy of the build, time limits for hangs. */
export function loop(
  projects: { include: string[]; isolated?: string[] },
  extra: { globalSetup?: string[]; provide?: Record<string, unknown> } = {},
): ViteUserConfig {
  const isolated = projects.isolated ?? [];
  return defineConfig({
    // The ky cip ships (dist/vendor/ky.cjs: over cip's own Request, Response and Headers), not the package.
    resolve: { alias: [{ find: /^ky$/, replacement: fileURLToPath(new URL('test/helpers/shipped-ky.ts', import.meta.url)) }] },
    test: {
      // Copies the build for the run and puts this Node first on PATH (test/helpers/global-setup.ts).
      globalSetup: ['test/helpers/global-setup.ts', ...(extra.globalSetup ?? [])],
      ...(extra.provide ? { provide: extra.provide } : {}),
      // For hangs, not for speed: far above what a loaded machine needs.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // Files wait on sockets and child processes as much as they compute; two cores here.
      maxWorkers: 4,
      // Each inherits the settings above (vitest 5: an inline project extends the root config).
      projects: [
        ...(isolated.length ? [{ test: { name: 'isolated', include: isolated, isolate: true } }] : []),
        {
          test: {
            name: 'shared',
            include: projects.include,
            exclude: isolated,
            isolate: false,
            setupFiles: ['test/helpers/shared-process.ts'],
          },
        },
      ],
    },
  });
}

export default loop({ include: FAST, isolated: ISOLATED });
