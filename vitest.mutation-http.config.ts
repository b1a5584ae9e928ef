// The test set for mutation runs over the request path (api/http.ts, api/transport.ts) and the command tree
// (program.ts, completion/): the unit tests and the in-process tests written for them. A survivor here costs
// seconds, not a run of every in-process test; a score measured this way is a lower bound.
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
    ],
    exclude: ['test/unit/docs.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
