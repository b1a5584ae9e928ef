// The keys go only to the base URL's origin, and no URL cip shows carries a password: `cip api` paths that a URL
// parser reads as another host, an http:// URL beside an https:// base URL, next-page links and redirects with
// credentials, and a base URL with a password in doctor and auth status. In-process, against two sandboxes on
// 127.0.0.1 that record what they received.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

const hint = '(nothing was sent: the keys go only to the base URL)';
const otherHost = (elsewhere: Sandbox) => `127.0.0.1:${elsewhere.port}`;

describe('cip api: a path is resolved, then its origin checked; off the origin is exit 2 and nothing is sent', () => {
  it.for<[string, string[]]>([
    ['\\\\HOST/steal', ['-X', 'GET', '-f', 'q=1']],
    ['/\\/HOST/x', ['-X', 'DELETE', '-f', 'q=1']],
    ['\\\\HOST/steal', []],
    ['/\\/HOST/x', []],
    ['\\/HOST/x', ['-X', 'HEAD', '-f', 'q=1']],
    ['http:\\\\HOST/x', []],
    ['http:HOST/x', []],
  ])('%s %j', async ([path, args], { sandbox, env, cip, startSandbox }) => {
    const elsewhere = await startSandbox();
    const result = await cip(['api', path.replace('HOST', otherHost(elsewhere)), ...args], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: http://${otherHost(elsewhere)} is not the base URL's origin (${new URL(sandbox.url).origin}) ${hint}`,
    );
    expect(elsewhere.requests).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });

  it.for(['\t//HOST/x', '/\n/HOST/x', 'Environ\tments'])(
    'refuses a path with a tab or line break: %j',
    async (path, { sandbox, env, cip, startSandbox }) => {
      const elsewhere = await startSandbox();
      const result = await cip(['api', path.replace('HOST', otherHost(elsewhere)), '-X', 'GET', '-f', 'q=1'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: '.*' holds a control character \(nothing was sent/);
      expect(elsewhere.requests).toEqual([]);
      expect(sandbox.requests).toEqual([]);
    },
  );

  it('an encoded //host stays a path, and .. climbs above the base path but never off the origin', async ({
    sandbox,
    env,
    cip,
    startSandbox,
  }) => {
    const elsewhere = await startSandbox();
    await cip(['api', `%2F%2F${otherHost(elsewhere)}/x`, '-X', 'GET', '-f', 'q=1'], { env });
    await cip(['api', '../../Integrations/../x', '-X', 'GET', '-f', 'q=1'], { env });
    await cip(['api', 'Environments/../Integrations'], { env });
    expect(sandbox.requests.map((request) => request.url)).toEqual([
      `/ms/%2F%2F${otherHost(elsewhere)}/x?q=1`,
      '/x?q=1',
      '/ms/Integrations',
    ]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('with an https:// base URL, an http:// URL to the same host and port is another origin: the keys never go in cleartext', async ({
    sandbox,
    env,
    cip,
    startSandbox,
  }) => {
    const elsewhere = await startSandbox();
    const host = new URL(sandbox.url).host;
    const result = await cip(['api', `http://${host}/ms/Environments`], { env: { ...env, CIP_BASE_URL: `https://${host}/ms` } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(`error: http://${host} is not the base URL's origin (https://${host}) ${hint}`);
    expect(sandbox.requests).toEqual([]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('a URL on the origin with a user name and password is exit 2, without showing the password', async ({ sandbox, env, cip }) => {
    const result = await cip(['api', `${sandbox.url.replace('//', '//user:hunter2-pw@')}/Environments`], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toContain('hunter2');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: '${sandbox.url.replace('//', '//***@')}/Environments' holds a user name or password ${hint}`,
    );
    expect(sandbox.requests).toEqual([]);
  });
});

describe('a next-page link with a user name and password', () => {
  const link = (sandbox: Sandbox) => `${sandbox.url.replace('//', '//user:hunter2-pw@')}/Environments?page=2`;
  it.for<[string, (sandbox: Sandbox) => { body: string; headers?: Record<string, string> }]>([
    ['in the body', (sandbox) => ({ body: JSON.stringify({ value: [{ id: 'e1' }], '@odata.nextLink': link(sandbox) }) })],
    ['in a Link header', (sandbox) => ({ body: '[{"id":"e1"}]', headers: { Link: `<${link(sandbox)}>; rel="next"` } })],
  ])(
    '%s is a broken answer (exit 7) that never shows the password, and is not followed',
    async ([_where, answer], { sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, ...answer(sandbox) } });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('hunter2');
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: cannot list environments: the API's next-page link holds a user name or password (${sandbox.url.replace('//', '//***@')}/Environments?page=2) (nothing was sent; the list is incomplete, so nothing is shown)`,
      );
      expect(sandbox.requests).toHaveLength(1);
    },
  );
});

describe('no URL cip shows carries a password', () => {
  it('a redirect to a URL with a password is reported without it', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 302, headers: { Location: 'https://user:hunter2-pw@elsewhere.example/x' } } });
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(7);
    expect(result.stderr).not.toContain('hunter2');
    expect(expectOneErrorLine(result.stderr)).toContain('to https://***@elsewhere.example/x');
  });

  it('doctor fails the base URL check without the password, and stops there: nothing is sent', async ({ sandbox, env, cip }) => {
    const withPassword = sandbox.url.replace('//', '//user:hunter2-pw@');
    const result = await cip(['doctor', '-o', 'json'], { env: { ...env, CIP_BASE_URL: withPassword } });
    expect(result.exitCode).toBe(2);
    expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
    const checks = JSON.parse(result.stdout) as { check: string; status: string; detail: string }[];
    expect(checks.map(({ check, status }) => `${check}: ${status}`)).toEqual(['credentials: failed', 'base URL: failed']);
    expect(checks[1]!.detail).toBe(`${sandbox.url.replace('//', '//***@')} holds a user name or password`);
    expect(sandbox.requests).toEqual([]);
  });

  it('auth status shows a hand-edited profile base URL without its password', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    mkdirSync(configDir, { recursive: true });
    const profile = {
      baseUrl: 'https://user:hunter2-pw@api.example.com/ms',
      enterpriseId: sandbox.keys.enterpriseId,
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
    for (const format of ['json', 'table']) {
      const result = await cip(['auth', 'status', '-o', format], { configDir });
      expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
      expect(result.stdout).toContain('https://***@api.example.com/ms');
    }
  });
});
