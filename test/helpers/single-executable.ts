// What the tests of the single executable (e2e/sea.test.ts, and e2e/sea-arm64.test.ts under qemu) share: the
// variables a CI job would give a bare run, and the round trip against the API that every build must pass.
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Runs the executable under test with these variables; what it printed and how it ended. */
export type RunExecutable = (
  args: string[],
  options: { env: Record<string, string | undefined> },
) => PromiseLike<{ exitCode?: number; stdout: unknown; stderr: unknown }>;

/** The sandbox's base URL and keys as a CI job sets them, and nothing else. */
export const credentialsOf = (sandbox: Sandbox) => ({
  CIP_BASE_URL: sandbox.url,
  CIP_API_KEY: sandbox.keys.apiKey,
  CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
  CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
});

/** `env list`, then `env create NAME` with a number past 2^64 that must come back exact; the id created. */
export async function listAndCreate(run: RunExecutable, sandbox: Sandbox, name: string): Promise<string> {
  const env = credentialsOf(sandbox);
  const list = await run(['env', 'list'], { env });
  expect(list.exitCode, String(list.stderr)).toBe(0);
  expect(JSON.parse(String(list.stdout))).toHaveLength(sandbox.environments.size);

  const created = await run(['env', 'create', '-f', `name=${name}`, '-F', 'size=12345678901234567890'], { env });
  expect(created.exitCode, String(created.stderr)).toBe(0);
  expect(created.stdout).toContain('"size": 12345678901234567890');
  const { id } = JSON.parse(String(created.stdout)) as { id: string };
  expect(sandbox.environments.get(id)).toMatchObject({ name });
  return id;
}
