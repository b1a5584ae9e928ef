// A project's .cip.json naming its profile, against two sandboxes (one per enterprise): the profiles, the
// folders, and what each server received.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base } from './fixture.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempDir } from './cli.js';
import { cipInProcess, type InProcessOptions } from './harness.js';

export const PROD_ENTERPRISE = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

export const POSIX = process.platform !== 'win32';

export const profileOf = (sandbox: Sandbox) => ({
  baseUrl: sandbox.url,
  enterpriseId: sandbox.keys.enterpriseId,
  keys: 'file',
  apiKey: sandbox.keys.apiKey,
  subscriptionKey: sandbox.keys.subscriptionKey,
});

export function setup(
  { dev, prod }: { dev: Sandbox; prod: Sandbox },
  project?: string,
  { protect = [], active = 'dev' }: { protect?: string[]; active?: string } = {},
) {
  const configDir = tempDir();
  const profile = (name: string, sandbox: Sandbox) => ({ ...profileOf(sandbox), ...(protect.includes(name) ? { protected: true } : {}) });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({ activeProfile: active, profiles: { dev: profile('dev', dev), prod: profile('prod', prod) } }),
    { mode: 0o600 },
  );
  // HOME is a folder below a private one, so that a test can put a project file above it.
  const above = tempDir('cip-project-');
  const home = join(above, 'home');
  const app = join(home, 'app');
  const cwd = join(app, 'src');
  mkdirSync(cwd, { recursive: true });
  const path = join(app, '.cip.json');
  if (project !== undefined) writeFileSync(path, project);
  const cip = (args: string[], options: InProcessOptions = {}) =>
    cipInProcess(args, { configDir, cwd, ...options, env: { HOME: home, ...options.env } });
  return { cip, configDir, above, home, app, cwd, path };
}

export const sent = ({ dev, prod }: { dev: Sandbox; prod: Sandbox }) => [
  ...dev.requests.map(() => 'dev'),
  ...prod.requests.map(() => 'prod'),
];

/**
 * The fixture, and the two sandboxes a test's profiles point at: dev (the test's sandbox, with dev-one) and prod,
 * each an enterprise. A new one for each file or describe that calls it, so no override of one reaches another.
 */
export function projectTest() {
  const test = base.extend<{ dev: Sandbox; prod: Sandbox }>({
    dev: async ({ sandbox }, use) => {
      await use(sandbox);
    },
    prod: async ({ startSandbox }, use) => {
      await use(
        await startSandbox({
          seed: [{ id: 'p1', name: 'prod-one' }],
          enterpriseId: PROD_ENTERPRISE,
          apiKey: 'prod-api-key-abcdefghijkl',
          subscriptionKey: 'prod-sub-key-mnopqrstuvwx',
        }),
      );
    },
  });
  test.override({ sandboxOptions: { seed: [{ id: 'd1', name: 'dev-one' }] } });
  return test;
}
