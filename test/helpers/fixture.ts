// The one fixture of the tests (vitest's test.extend, as neonctl's test_utils/fixtures.ts): a test names what it
// needs and gets it, started for it and stopped after it, with no set-up of its own:
//
//   it('lists', async ({ sandbox, env, cip }) => { ... })
//
// - sandbox: an offline API (src/sandbox/) of its own for each test that asks for one, so no test sees another's
//   environments, requests or faults; a file or a describe chooses how it starts with
//   `test.override({ sandboxOptions: { seed: 2 } })` (or `records`, JSON texts kept exact).
// - env: the sandbox's base URL and keys as a CI job sets them (CIP_BASE_URL, CIP_API_KEY, ...).
// - cip: runs cip and returns its exit code, stdout and stderr. In-process (test/helpers/harness.ts) in the fast
//   loop; the built program (test/helpers/cli.ts) in the end-to-end loop (vitest.e2e.config.ts provides
//   `runner: 'spawned'`), where the options only the in-process runner has are refused.
// - startSandbox: more sandboxes for one test (another enterprise, other options), each closed after it.
// - configDir: a private config folder of the test's own (pass it as `configDir` to cip to keep profiles in it).
import { test as base } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { cip as spawned, sandboxEnv, seedSandbox, tempDir, type CipResult } from './cli.js';
import { cipInProcess, type InProcessOptions } from './harness.js';

export type Runner = 'in-process' | 'spawned';

declare module 'vitest' {
  export interface ProvidedContext {
    /** How the fixture's `cip` runs cip: set by vitest.e2e.config.ts. */
    runner: Runner;
  }
}

/** How a test's sandbox starts: the sandbox's own options, and records to hold given as JSON texts (numbers exact). */
export type SandboxSetup = SandboxOptions & { records?: readonly string[] };

export type Cip = (args: string[], options?: InProcessOptions) => Promise<CipResult>;

/** What only the in-process runner can do: a spawned cip has no terminal, no typed answers and no abort signal here. */
const IN_PROCESS_ONLY = ['signal', 'terminalColumns', 'spinners', 'interactive', 'answers'] as const;

function runnerFor(runner: Runner): Cip {
  if (runner === 'in-process') return cipInProcess;
  return (args, options = {}) => {
    const unsupported = IN_PROCESS_ONLY.filter((name) => options[name] !== undefined);
    if (unsupported.length) throw new Error(`the spawned cip takes no ${unsupported.join(', ')}: run this test in-process`);
    return spawned(args, options);
  };
}

async function started(setup: SandboxSetup): Promise<Sandbox> {
  const { records, ...options } = setup;
  const sandbox = await startSandbox(options);
  if (records) await seedSandbox(sandbox, records);
  return sandbox;
}

export interface Fixtures {
  /** How the test's sandbox starts (default: empty). */
  sandboxOptions: SandboxSetup;
  sandbox: Sandbox;
  env: Record<string, string | undefined>;
  runner: Runner;
  cip: Cip;
  startSandbox: (setup?: SandboxSetup) => Promise<Sandbox>;
  configDir: string;
}

/** The sandbox a test gets unless its file or describe says otherwise: empty, the default keys. */
export const DEFAULT_SANDBOX: SandboxSetup = {};

export const test = base.extend<Fixtures>({
  sandboxOptions: [DEFAULT_SANDBOX, { scope: 'test' }],
  sandbox: async ({ sandboxOptions }, use) => {
    const sandbox = await started(sandboxOptions);
    try {
      await use(sandbox);
    } finally {
      await sandbox.close();
    }
  },
  env: async ({ sandbox }, use) => {
    await use(sandboxEnv(sandbox));
  },
  runner: ['in-process', { injected: true, scope: 'worker' }],
  cip: async ({ runner }, use) => {
    await use(runnerFor(runner));
  },
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a function takes from its first parameter
  startSandbox: async ({}, use) => {
    const sandboxes: Sandbox[] = [];
    try {
      await use(async (setup = {}) => {
        const sandbox = await started(setup);
        sandboxes.push(sandbox);
        return sandbox;
      });
    } finally {
      await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    }
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  configDir: async ({}, use) => {
    await use(tempDir());
  },
});

export const it = test;
