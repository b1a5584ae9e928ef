// Bearer tokens end to end against the sandbox, which checks them as ASP.NET Core's JWT handler does
// (test/reference-api/conformance.test.ts holds it to that): CIP_TOKEN and a token profile list, create, update
// and delete with Bearer and the subscription key and no EnterpriseId; an expired token is stopped by cip before
// anything is sent; a read-only token's write gets the service's 403; a token for another enterprise sees only
// that enterprise's environments.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: 2 } });

function tokenEnv(sandbox: Sandbox, token: string): Record<string, string> {
  return { CIP_BASE_URL: sandbox.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey };
}

const lastRequest = (sandbox: Sandbox) => sandbox.requests.at(-1)!;

describe('CIP_TOKEN against the sandbox', () => {
  it('lists, creates, updates and deletes with Bearer and the subscription key, and no EnterpriseId', async ({ sandbox, cip }) => {
    const token = sandbox.token();
    const env = tokenEnv(sandbox, token);
    const listed = await cip(['env', 'list', '--json'], { env });
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(2);
    expect(lastRequest(sandbox).headers.authorization).toBe(`Bearer ${token}`);
    expect(lastRequest(sandbox).headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
    expect(lastRequest(sandbox).headers.enterpriseid).toBeUndefined();

    const created = await cip(['env', 'create', '-f', 'name=token-made', '-F', 'quota=9007199254740993', '--json'], { env });
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain('"quota": 9007199254740993');
    expect(created.stderr).not.toContain(token);

    const updated = await cip(['env', 'update', 'token-made', '-f', 'description=by token', '--json'], { env });
    expect(updated.exitCode).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ name: 'token-made', description: 'by token' });
    expect(lastRequest(sandbox).method).toBe('PUT');
    expect(lastRequest(sandbox).headers.enterpriseid).toBeUndefined();

    const deleted = await cip(['env', 'delete', 'token-made', '--yes'], { env });
    expect(deleted.exitCode).toBe(0);
    expect(lastRequest(sandbox).method).toBe('DELETE');
  });

  it('an expired token is exit 3 and nothing reaches the sandbox', async ({ sandbox, cip }) => {
    const before = sandbox.requests.length;
    const result = await cip(['env', 'list'], { env: tokenEnv(sandbox, sandbox.token({ expiresIn: -7200 })) });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: the token in CIP_TOKEN expired at \d\d:\d\d:\d\d, 2 h ago: set CIP_TOKEN to a new one$/,
    );
    expect(sandbox.requests).toHaveLength(before);
  });

  it("a read-only token's write is the service's 403 (exit 4), and nothing is created", async ({ sandbox, cip }) => {
    const env = tokenEnv(sandbox, sandbox.token({ readOnly: true }));
    const result = await cip(['env', 'create', '-f', 'name=not-made'], { env });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect([...sandbox.environments.values()].some((record) => record.name === 'not-made')).toBe(false);
  });

  it("a token for another enterprise is refused by the sandbox (403), not answered with this one's data", async ({ sandbox, cip }) => {
    const env = tokenEnv(sandbox, sandbox.token({ enterpriseId: '11111111-2222-4333-8444-555555555555' }));
    const result = await cip(['env', 'list', '--json'], { env });
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
  });
});

describe('a token profile against the sandbox', () => {
  it('auth login --token-file checks the token with one request, stores it, and env list uses it', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const dir = tempDir();
    const token = sandbox.token();
    writeFileSync(join(dir, 'token'), token);
    writeFileSync(join(dir, 'sub'), sandbox.keys.subscriptionKey);
    const login = await cip(
      [
        'auth',
        'login',
        '--profile',
        'tok',
        '--base-url',
        sandbox.url,
        '--token-file',
        join(dir, 'token'),
        '--subscription-key-file',
        join(dir, 'sub'),
      ],
      { configDir },
    );
    expect(login.exitCode).toBe(0);
    expect(login.stderr).not.toContain(token);
    expect(lastRequest(sandbox).headers.authorization).toBe(`Bearer ${token}`);

    const listed = await cip(['env', 'list', '--json'], { configDir });
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout).length).toBeGreaterThan(0);
    expect(lastRequest(sandbox).headers.authorization).toBe(`Bearer ${token}`);
    expect(lastRequest(sandbox).headers.enterpriseid).toBeUndefined();
  });
});
