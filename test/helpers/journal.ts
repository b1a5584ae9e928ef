// The fixture of the journal's tests (test/helpers/fixture.ts, and `run`): cip with the sandbox's credentials,
// keeping its profiles and its journal of writes in the test's own config folder (journal.jsonl there).
import type { CipResult } from './cli.js';
import { test as base } from './fixture.js';

export type Run = (
  args: string[],
  extra?: { env?: Record<string, string | undefined>; input?: string; signal?: AbortSignal },
) => Promise<CipResult>;

export const test = base.extend<{ run: Run }>({
  run: async ({ env, cip, configDir }, use) => {
    await use((args, extra = {}) =>
      cip(args, {
        env: { ...env, ...extra.env },
        configDir,
        ...(extra.input === undefined ? {} : { input: extra.input }),
        ...(extra.signal ? { signal: extra.signal } : {}),
      }),
    );
  },
});
export const it = test;
