// Bearer tokens, in-process against a server on 127.0.0.1 that records the headers it receives: what each kind
// of credential sends (a token: Bearer and the subscription key, never EnterpriseId), CIP_TOKEN, the rule beside
// the API key variables, a token's expiry (read, never verified), an opaque token, `auth login --token-file`,
// what `auth status` and `doctor` say, and the token redacted wherever text is shown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, afterAll, beforeEach } from 'vitest';
import { expectOneErrorLine, readConfig, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { fakeKeychain } from '../helpers/fake-keychain.js';
import { it, test } from '../helpers/fixture.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import {
  GUID,
  TOKEN_ENTERPRISE,
  API_KEY,
  SUB_KEY,
  TOKEN,
  OPAQUE,
  answer,
  OK,
  configWith,
  noSecrets,
  requestHeaders,
} from '../helpers/token-server.js';
import { keyFiles, service, KEYS, writeConfig } from '../helpers/keychain-profiles.js';

const server = await rawHttpServer();
const apiKeyProfile = () => ({ baseUrl: server.url, enterpriseId: GUID, apiKey: API_KEY, subscriptionKey: SUB_KEY });
const tokenProfile = (token = TOKEN) => ({ kind: 'token', baseUrl: server.url, keys: 'file', token, subscriptionKey: SUB_KEY });
const tokenEnv = (token = TOKEN) => ({ CIP_BASE_URL: server.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: SUB_KEY });
const keyEnv = { CIP_BASE_URL: server.url, CIP_API_KEY: API_KEY, CIP_SUBSCRIPTION_KEY: SUB_KEY, CIP_ENTERPRISE_ID: GUID };

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
  server.respond(OK);
});

const headers = (index = -1) => requestHeaders(server, index);

describe('what each kind of credential sends', () => {
  it('an API key: ApiKey, the subscription key and EnterpriseId', async ({ cip }) => {
    const result = await cip(['env', 'list'], { env: keyEnv });
    expect(result.exitCode).toBe(0);
    expect(headers()).toMatchObject({ authorization: `ApiKey ${API_KEY}`, 'ocp-apim-subscription-key': SUB_KEY, enterpriseid: GUID });
  });

  it('CIP_TOKEN with CIP_SUBSCRIPTION_KEY: Bearer and the subscription key, no EnterpriseId, and no profile is read', async ({ cip }) => {
    const configDir = tempDir();
    // A config file that cannot be read: the variables alone must do.
    writeFileSync(join(configDir, 'config.json'), '{not json', { mode: 0o600 });
    const result = await cip(['env', 'list'], { configDir, env: tokenEnv() });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual([{ id: 'e1', name: 'alpha' }]);
    expect(headers()).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'ocp-apim-subscription-key': SUB_KEY });
    expect(headers()).not.toHaveProperty('enterpriseid');
  });

  it('a token profile: Bearer from the profile', async ({ cip }) => {
    const result = await cip(['env', 'list'], { configDir: configWith({ ci: tokenProfile() }) });
    expect(result.exitCode).toBe(0);
    expect(headers()).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'ocp-apim-subscription-key': SUB_KEY });
    expect(headers()).not.toHaveProperty('enterpriseid');
  });

  it('an opaque token (not a JWT) is sent as it is, its expiry unknown', async ({ cip }) => {
    const result = await cip(['env', 'list'], { env: tokenEnv(OPAQUE) });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(headers().authorization).toBe(`Bearer ${OPAQUE}`);
    const status = await cip(['auth', 'status'], { env: tokenEnv(OPAQUE) });
    expect(status.stderr).toMatch(/^ {2}expires +unknown \(the token is not a JWT that says\)$/m);
  });

  it('a write names what the token acts for, as the token says it', async ({ cip }) => {
    server.respond(answer('201 Created', '{"id":"e2","name":"beta"}'));
    const result = await cip(['env', 'create', '-f', 'name=beta'], { env: tokenEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      `  with a token for enterprise ${TOKEN_ENTERPRISE} at ${new URL(server.url).host} (credentials from the environment).`,
    );
  });
});

describe('CIP_TOKEN beside the API key variables: one rule', () => {
  it('both set with no enterprise id: exit 2, nothing sent', async ({ cip }) => {
    const result = await cip(['env', 'list'], { env: { ...tokenEnv(), CIP_API_KEY: API_KEY } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: CIP_API_KEY and CIP_TOKEN are both set, and no enterprise id says which to use: cip will not guess (each may act in another enterprise) (unset one of them, or set CIP_ENTERPRISE_ID to use an API key in that enterprise)',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('both set with an enterprise id: the API key, in that enterprise; auth status says CIP_TOKEN is not used', async ({ cip }) => {
    const env = { ...keyEnv, CIP_TOKEN: TOKEN };
    const result = await cip(['env', 'list'], { env });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(headers()).toMatchObject({ authorization: `ApiKey ${API_KEY}`, enterpriseid: GUID });
    const status = await cip(['auth', 'status'], { env });
    expect(status.exitCode).toBe(0);
    expect(status.stderr).toMatch(/^ {2}kind +api-key$/m);
    expect(status.stderr).toMatch(
      new RegExp(`^ {2}not used +CIP_TOKEN \\(an enterprise id is given: the API key is used, in enterprise ${GUID}\\)$`, 'm'),
    );
    noSecrets(status);
  });

  it('a named profile ignores CIP_TOKEN, with a warning', async ({ cip }) => {
    const configDir = configWith({ a: apiKeyProfile() });
    const result = await cip(['env', 'list', '--profile', 'a'], { configDir, env: tokenEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      "warning: using profile 'a' (named by --profile): ignoring CIP_TOKEN, CIP_SUBSCRIPTION_KEY and CIP_BASE_URL from the environment\n",
    );
    expect(headers().authorization).toBe(`ApiKey ${API_KEY}`);
  });

  it("CIP_TOKEN over an active API key profile: the token with the profile's subscription key, said in a warning", async ({ cip }) => {
    const configDir = configWith({ a: apiKeyProfile() });
    const result = await cip(['env', 'list'], { configDir, env: { CIP_TOKEN: TOKEN } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("warning: CIP_TOKEN from the environment overrides profile 'a' (ignoring its API key and enterprise id)\n");
    expect(headers()).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'ocp-apim-subscription-key': SUB_KEY });
    expect(headers()).not.toHaveProperty('enterpriseid');
    const status = await cip(['auth', 'status'], { configDir, env: { CIP_TOKEN: TOKEN } });
    expect(status.stderr).toMatch(/^ {2}not used +the API key and enterprise id of profile 'a'$/m);
  });

  it.for<[string, Record<string, string | undefined>, string[], string]>([
    ['CIP_ENTERPRISE_ID', { ...tokenEnv(), CIP_ENTERPRISE_ID: GUID }, [], 'unset CIP_ENTERPRISE_ID'],
    ['--enterprise-id', tokenEnv(), ['--enterprise-id', GUID], 'leave out --enterprise-id'],
  ])('an enterprise id from %s with a token: exit 2, nothing sent', async ([source, env, flags, fix], { cip }) => {
    const result = await cip(['env', 'list', ...flags], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: ${source} does not apply to a token: a token acts for the enterprise it was issued for (${fix}, or use an API key to choose the enterprise)`,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a token profile named with --enterprise-id: exit 2', async ({ cip }) => {
    const result = await cip(['env', 'list', '--enterprise-id', GUID], { configDir: configWith({ ci: tokenProfile() }) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: --enterprise-id does not apply to a token: /);
    expect(server.requests).toHaveLength(0);
  });
});

describe("a token's expiry", () => {
  it('expired in CIP_TOKEN: exit 3 before anything is sent, saying when and what to do', async ({ cip }) => {
    const expired = makeJwt({ exp: epochSeconds(-2 * 3600) });
    const result = await cip(['env', 'list'], { env: tokenEnv(expired) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: the token in CIP_TOKEN expired at [\d: -]+, 2 h ago: set CIP_TOKEN to a new one$/,
    );
    expect(server.requests).toHaveLength(0);
    noSecrets(result, expired);
  });

  it('expired in a profile: how to log in again', async ({ cip }) => {
    const expired = makeJwt({ exp: epochSeconds(-90) });
    const result = await cip(['env', 'list'], { configDir: configWith({ ci: tokenProfile(expired) }) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: the token of profile 'ci' expired at [\d: -]+, 2 min ago: get a new one and log in again \(cip auth login --profile ci --token-file -\) or set CIP_TOKEN$/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('expiring within 5 minutes: one warning, and the command runs', async ({ cip }) => {
    const soon = makeJwt({ exp: epochSeconds(150) });
    const result = await cip(['env', 'get', 'e1'], { env: tokenEnv(soon) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(
      /^warning: the token in CIP_TOKEN expires in (2|3) min \(at [\d: -]+\): a long command may outlive it; set CIP_TOKEN to a new one\n$/,
    );
    expect(server.requests.length).toBeGreaterThan(0);
  });
});

describe('doctor with a token', () => {
  interface Check {
    check: string;
    status: string;
    detail: string;
    fix?: string;
  }
  const checks = (stdout: string) => JSON.parse(stdout) as Check[];

  it("checks the expiry and names the token's verdict", async ({ cip }) => {
    const result = await cip(['doctor', '-o', 'json'], { env: tokenEnv() });
    expect(result.exitCode).toBe(0);
    const list = checks(result.stdout);
    expect(list.map(({ check, status }) => `${check}: ${status}`)).toEqual([
      'credentials: ok',
      'token expiry: ok',
      'base URL: ok',
      'DNS: ok',
      'TCP: ok',
      'TLS: skipped',
      'ping: ok',
      'subscription key: ok',
      'token: ok',
      'clock: skipped',
    ]);
    expect(list[0]!.detail).toBe(
      `no profile; base URL ${server.url} (from CIP_BASE_URL); token ****${TOKEN.slice(-4)} (from CIP_TOKEN); subscription key ****0123 (from CIP_SUBSCRIPTION_KEY)`,
    );
    expect(list[1]!.detail).toMatch(/^expires at [\d: -]+ \(in (59 min|1 h)\)$/);
    expect(list[8]!.detail).toBe(`GET Environments: HTTP 200; the token (from CIP_TOKEN) was accepted for enterprise ${TOKEN_ENTERPRISE}`);
    noSecrets(result);
  });

  it('a token expiring soon is a warning, and the checks pass', async ({ cip }) => {
    const result = await cip(['doctor', '-o', 'json'], { env: tokenEnv(makeJwt({ exp: epochSeconds(200) })) });
    expect(result.exitCode).toBe(0);
    expect(checks(result.stdout)[1]).toMatchObject({
      check: 'token expiry',
      status: 'warning',
      fix: 'get a new token before a long command',
    });
  });

  it('an expired token fails (exit 3), and is never sent', async ({ cip }) => {
    const expired = makeJwt({ exp: epochSeconds(-600) });
    const result = await cip(['doctor', '-o', 'json'], { env: tokenEnv(expired) });
    expect(result.exitCode).toBe(3);
    const list = checks(result.stdout);
    expect(list[1]).toMatchObject({ check: 'token expiry', status: 'failed' });
    expect(list[1]!.detail).toMatch(/^the token in CIP_TOKEN expired at [\d: -]+, 10 min ago: set CIP_TOKEN to a new one$/);
    expect(list.slice(-3, -1)).toEqual([
      { check: 'subscription key', status: 'skipped', detail: 'the token expired: nothing was sent' },
      { check: 'token', status: 'skipped', detail: 'the token expired: nothing was sent' },
    ]);
    // The anonymous ping only.
    expect(server.requests).toHaveLength(1);
    expect(headers()).not.toHaveProperty('authorization');
    noSecrets(result, expired);
  });

  it('a 401 for the token: the fix names where it came from', async ({ cip }) => {
    server.respond(answer('401 Unauthorized', '{"message":"The token is invalid"}'));
    const result = await cip(['doctor', '-o', 'json'], { env: tokenEnv() });
    // This server answers the anonymous ping with the 401 too: that check fails first.
    expect(result.exitCode).not.toBe(0);
    expect(checks(result.stdout).find((check) => check.check === 'token')).toMatchObject({
      status: 'failed',
      fix: 'check the token (from CIP_TOKEN)',
    });
  });
});

describe('the token is a secret everywhere', () => {
  it('--verbose shows the Authorization header as ***', async ({ cip }) => {
    const result = await cip(['env', 'list', '--verbose'], { env: tokenEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^> {3}authorization: \*\*\*$/im);
    noSecrets(result);
  });

  it('an error body that echoes the token is redacted, and the 401 hint names where it came from', async ({ cip }) => {
    server.respond(answer('401 Unauthorized', JSON.stringify({ message: `bad token ${TOKEN}` })));
    const result = await cip(['env', 'list'], { env: tokenEnv() });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /HTTP 401\): bad token \*\*\* \(check CIP_TOKEN and CIP_SUBSCRIPTION_KEY: the keys came from the environment\)$/,
    );
    noSecrets(result);
  });

  it('CIP_TOKEN is redacted even when a named profile leaves it unused', async ({ cip }) => {
    server.respond(answer('400 Bad Request', JSON.stringify({ message: `you sent ${TOKEN}` })));
    const configDir = configWith({ a: apiKeyProfile() });
    const result = await cip(['env', 'list', '--profile', 'a'], { configDir, env: { CIP_TOKEN: TOKEN } });
    expect(result.exitCode).toBe(6);
    expect(expectOneErrorLine(result.stderr)).toMatch(/: you sent \*\*\*$/);
    noSecrets(result);
  });

  it('a token refused as too long is never shown, nor worked on', async ({ cip }) => {
    const huge = `eyJ.${'a'.repeat(100_000)}.sig`;
    const result = await cip(['env', 'list'], { env: tokenEnv(huge) });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: the token from CIP_TOKEN is not a valid token: it has 100008 characters; tokens have 16 to 16384',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('with the keychain and at the edges', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('a token in the keychain', () => {
    const token = makeJwt({ sub: 'ci-bot', exp: epochSeconds(3600) });
    const tokenKeys = (sandbox: Sandbox) => ({ token, subscriptionKey: sandbox.keys.subscriptionKey });

    /** A server that takes any credentials and records the heads of the requests it receives. */
    async function recording() {
      const server = await rawHttpServer();
      server.respond('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]');
      return server;
    }
    const authorizationOf = (head: string | undefined) => /^authorization: (.*)$/im.exec(head ?? '')?.[1];

    it('login --token-file keeps the token and the subscription key in one entry, and only the kind in the file', async ({
      cip,
      sandbox,
    }) => {
      const server = await recording();
      try {
        const keychain = fakeKeychain();
        const configDir = tempDir();
        const files = keyFiles(sandbox);
        writeFileSync(join(configDir, 't.jwt'), token);
        const result = await cip(
          [
            'auth',
            'login',
            '--profile',
            'ci',
            '--base-url',
            server.url,
            '--token-file',
            join(configDir, 't.jwt'),
            '--subscription-key-file',
            files.sub,
          ],
          { keychain, configDir },
        );
        expect(result.exitCode).toBe(0);
        const entry = `cip:${new URL(server.url).origin}`;
        expect(keychain.entry(entry, 'ci')).toEqual(tokenKeys(sandbox));
        expect(readConfig(configDir)).toEqual({
          activeProfile: 'ci',
          profiles: { ci: { kind: 'token', baseUrl: server.url, keys: 'keychain' } },
        });
        expect(result.stdout + result.stderr).not.toContain(token);
        // A command reads the token from the keychain and sends it as a Bearer token.
        const list = await cip(['env', 'list'], { keychain, configDir });
        expect(list.exitCode).toBe(0);
        expect(authorizationOf(server.requests.at(-1))).toBe(`Bearer ${token}`);
        const status = await cip(['auth', 'status', '--json'], { keychain, configDir });
        expect(JSON.parse(status.stdout)).toMatchObject([{ name: 'ci', kind: 'token', keys: 'keychain', token: `****${token.slice(-4)}` }]);
      } finally {
        await server.close();
      }
    });

    it('--migrate moves a token profile’s token and subscription key into the keychain', async ({ sandbox, cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'ci', profiles: { ci: { kind: 'token', baseUrl: sandbox.url, ...tokenKeys(sandbox) } } });
      const result = await cip(['auth', 'login', '--migrate', '--profile', 'ci'], { keychain, configDir });
      expect(result.exitCode).toBe(0);
      expect(keychain.entry(service(sandbox), 'ci')).toEqual(tokenKeys(sandbox));
      expect(readConfig(configDir)).toEqual({
        activeProfile: 'ci',
        profiles: { ci: { kind: 'token', baseUrl: sandbox.url, keys: 'keychain' } },
      });
    });

    it('a keychain entry that holds API keys for a token profile: missing token, exit 3', async ({ sandbox, cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      keychain.put(service(sandbox), 'ci', KEYS(sandbox));
      writeConfig(configDir, { activeProfile: 'ci', profiles: { ci: { kind: 'token', baseUrl: sandbox.url, keys: 'keychain' } } });
      const result = await cip(['env', 'list'], { keychain, configDir });
      expect(result.exitCode).toBe(3);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: missing token \(CIP_TOKEN\) in profile 'ci'/);
    });
  });
});

describe('against the sandbox', () => {
  // Bearer tokens end to end against the sandbox, which checks them as ASP.NET Core's JWT handler does
  // (test/reference-api/conformance.test.ts holds it to that): CIP_TOKEN and a token profile list, create, update
  // and delete with Bearer and the subscription key and no EnterpriseId; an expired token is stopped by cip before
  // anything is sent; a read-only token's write gets the service's 403; a token for another enterprise sees only
  // that enterprise's environments.

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
});
