// The test set for mutation runs over the request path (api/http.ts, api/transport.ts) and the command tree
// (program.ts, completion/, the sandbox command, the spinner): the unit tests and the in-process tests that
// reach them. A survivor here costs seconds, not a run of every in-process test; a score measured this way is a
// lower bound.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/commands/http.test.ts',
      'test/commands/boundaries.test.ts',
      'test/commands/faults.test.ts',
      'test/commands/connect-edges.test.ts',
      'test/commands/complete.test.ts',
      'test/commands/completion-edges.test.ts',
      'test/commands/completion-more.test.ts',
      'test/commands/transport-edges.test.ts',
      'test/commands/program-edges.test.ts',
      'test/commands/sandbox.test.ts',
      'test/commands/sandbox-cmd.test.ts',
      'test/commands/new-user.test.ts',
      'test/commands/small-edges.test.ts',
      'test/commands/output.test.ts',
      'test/commands/platform.test.ts',
    ],
    exclude: ['test/unit/docs.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
