// Bearer tokens, in-process against a server on 127.0.0.1 that records the headers it receives: what each kind
// of credential sends (a token: Bearer and the subscription key, never EnterpriseId), CIP_TOKEN, the rule beside
// the API key variables, a token's expiry (read, never verified), an opaque token, `auth login --token-file`,
// what `auth status` and `doctor` say, and the token redacted wherever text is shown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect } from 'vitest';
import { expectOneErrorLine, readConfig, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { it } from '../helpers/fixture.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const TOKEN_ENTERPRISE = '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e';
const API_KEY = 'tokens-test-api-key-0123456789';
const SUB_KEY = 'tokens-test-subscription-key-0123';
const TOKEN = makeJwt({ sub: 'alice', enterpriseId: TOKEN_ENTERPRISE, exp: epochSeconds(3600) });
const OPAQUE = 'opaque-token-0123456789abcdefghij';
const NOT_ASCII = 'it contains spaces, line breaks, control characters or characters outside ASCII';

const server = await rawHttpServer();
afterAll(() => server.close());

const answer = (status: string, body: string) =>
  `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const OK = answer('200 OK', '[{"id":"e1","name":"alpha"}]');

beforeEach(() => {
  server.requests.length = 0;
  server.respond(OK);
});

/** The headers of a request the server received (the last by default), names in lower case. */
function headers(index = -1): Record<string, string> {
  const head = server.requests.at(index);
  if (head === undefined) throw new Error('no request was received');
  return Object.fromEntries(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

/** A config folder with these profiles, the first one active. */
function configWith(profiles: Record<string, object>): string {
  const configDir = tempDir();
  const [active] = Object.keys(profiles);
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: active, profiles }), { mode: 0o600 });
  return configDir;
}

const apiKeyProfile = () => ({ baseUrl: server.url, enterpriseId: GUID, apiKey: API_KEY, subscriptionKey: SUB_KEY });
const tokenProfile = (token = TOKEN) => ({ kind: 'token', baseUrl: server.url, keys: 'file', token, subscriptionKey: SUB_KEY });
const tokenEnv = (token = TOKEN) => ({ CIP_BASE_URL: server.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: SUB_KEY });
const keyEnv = { CIP_BASE_URL: server.url, CIP_API_KEY: API_KEY, CIP_SUBSCRIPTION_KEY: SUB_KEY, CIP_ENTERPRISE_ID: GUID };

function noSecrets(result: { stdout: string; stderr: string }, ...secrets: string[]): void {
  for (const secret of [TOKEN, API_KEY, SUB_KEY, ...secrets]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

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

describe('auth status with a token', () => {
  it('shows the kind, the token masked and its expiry, for each profile and for the credential in use', async ({ cip }) => {
    const configDir = configWith({ ci: tokenProfile(), a: apiKeyProfile() });
    const json = await cip(['auth', 'status', '--json'], { configDir });
    expect(json.exitCode).toBe(0);
    const exp = new Date(JSON.parse(Buffer.from(TOKEN.split('.')[1]!, 'base64url').toString()).exp * 1000).toISOString();
    expect(JSON.parse(json.stdout)).toEqual([
      {
        name: 'ci',
        active: true,
        inUse: true,
        protected: false,
        kind: 'token',
        keys: 'file',
        baseUrl: server.url,
        enterpriseId: null,
        apiKey: null,
        token: `****${TOKEN.slice(-4)}`,
        expires: exp,
        subscriptionKey: '****0123',
        overriddenBy: [],
      },
      {
        name: 'a',
        active: false,
        inUse: false,
        protected: false,
        kind: 'api-key',
        keys: 'file',
        baseUrl: server.url,
        enterpriseId: GUID,
        apiKey: '****6789',
        token: null,
        expires: null,
        subscriptionKey: '****0123',
        overriddenBy: [],
      },
    ]);
    expect(json.stderr).toMatch(/^ {2}kind +token$/m);
    expect(json.stderr).toMatch(new RegExp(`^ {2}token +\\*{4}${TOKEN.slice(-4)} {2}\\(from profile 'ci'\\)$`, 'm'));
    expect(json.stderr).toMatch(/^ {2}expires +at [\d: -]+ \(in (59 min|1 h)\)$/m);
    noSecrets(json);
    const table = await cip(['auth', 'status', '-o', 'table'], { configDir });
    expect(table.stdout).toMatch(
      /^NAME\s+ACTIVE\s+IN USE\s+KIND\s+KEYS\s+BASE URL\s+ENTERPRISE ID\s+API KEY\s+TOKEN\s+EXPIRES\s+SUBSCRIPTION KEY$/m,
    );
    noSecrets(table);
  });

  it('a token in use that has expired: the profiles, then exit 3', async ({ cip }) => {
    const configDir = configWith({ ci: tokenProfile(makeJwt({ exp: epochSeconds(-7200) })) });
    const result = await cip(['auth', 'status', '--json'], { configDir });
    expect(result.exitCode).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject([{ name: 'ci', kind: 'token' }]);
    expect(result.stderr).toMatch(/^ {2}expires +expired at [\d: -]+, 2 h ago$/m);
    expect(result.stderr).toMatch(/\nerror: the token of profile 'ci' expired at [\d: -]+, 2 h ago: .*\n$/);
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

describe('auth login --token-file', () => {
  function files(token = TOKEN): { dir: string; token: string; sub: string } {
    const dir = tempDir();
    writeFileSync(join(dir, 't.jwt'), `${token}\n`);
    writeFileSync(join(dir, 'sub.txt'), SUB_KEY);
    return { dir, token: join(dir, 't.jwt'), sub: join(dir, 'sub.txt') };
  }
  const login = ['auth', 'login', '--profile', 'ci', '--base-url'];

  it('from a file: checked with one GET as a Bearer token, then saved as a profile of kind token', async ({ cip }) => {
    const configDir = tempDir();
    const paths = files();
    const result = await cip([...login, server.url, '--token-file', paths.token, '--subscription-key-file', paths.sub], { configDir });
    expect(result.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(headers()).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'ocp-apim-subscription-key': SUB_KEY });
    expect(headers()).not.toHaveProperty('enterpriseid');
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'ci',
      profiles: { ci: { kind: 'token', baseUrl: server.url, keys: 'file', token: TOKEN, subscriptionKey: SUB_KEY } },
    });
    expect(result.stderr).toContain(`Logged in: profile 'ci' (with a token for enterprise ${TOKEN_ENTERPRISE}, ${server.url}) is active.`);
    noSecrets(result);
    // And the profile works.
    const list = await cip(['env', 'list'], { configDir });
    expect(list.exitCode).toBe(0);
    expect(headers().authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('from stdin, unchecked with --no-verify: nothing is sent', async ({ cip }) => {
    const configDir = tempDir();
    const paths = files();
    const result = await cip([...login, server.url, '--token-file', '-', '--subscription-key-file', paths.sub, '--no-verify'], {
      configDir,
      input: `${OPAQUE}\n`,
    });
    expect(result.exitCode).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(readConfig(configDir)).toMatchObject({ profiles: { ci: { kind: 'token', token: OPAQUE } } });
    expect(result.stderr).toContain(`Saved (not checked): profile 'ci' (with a token, ${server.url}) is active.`);
  });

  it('replaces an API key profile of the same name, enterprise id and all', async ({ cip }) => {
    const configDir = configWith({ ci: apiKeyProfile() });
    const paths = files();
    const result = await cip([...login, server.url, '--token-file', paths.token, '--subscription-key-file', paths.sub], { configDir });
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ profiles: { ci: { kind: 'token', keys: 'file', token: TOKEN } } });
    expect((readConfig(configDir) as { profiles: { ci: object } }).profiles.ci).not.toHaveProperty('enterpriseId');
  });

  it('at a terminal, asks for the subscription key only: no enterprise id, no API key', async ({ cip }) => {
    const configDir = tempDir();
    const paths = files();
    const result = await cip([...login, server.url, '--token-file', paths.token, '--no-verify'], {
      configDir,
      answers: [['Subscription key (hidden): ', `${SUB_KEY}\r`]],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Find your subscription key at https://app.copyl.com/en/itops/secrets\n');
    expect(result.stderr).not.toContain('Enterprise id');
    expect(result.stderr).not.toContain('API key (hidden)');
    expect(readConfig(configDir)).toMatchObject({ profiles: { ci: { kind: 'token', token: TOKEN, subscriptionKey: SUB_KEY } } });
    noSecrets(result);
  });

  it.for<[string[], string]>([
    [['--api-key-file', 'k.txt'], 'error: --token-file and --api-key-file cannot be used together: a profile holds a token or an API key'],
    [
      ['--enterprise-id', GUID],
      'error: --enterprise-id does not apply to a token: a token acts for the enterprise it was issued for (leave out --enterprise-id)',
    ],
    [['--subscription-key-file', '-'], 'error: only one of --token-file and --subscription-key-file can read stdin'],
  ])('with %j: exit 2, nothing read or saved', async ([flags, line], { cip }) => {
    const configDir = tempDir();
    const result = await cip([...login, server.url, '--token-file', '-', ...flags], { configDir, input: TOKEN });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(line);
    expect(readConfig(configDir)).toBeUndefined();
    expect(server.requests).toHaveLength(0);
  });

  it('--token VALUE is exit 2, says what to use instead, and never repeats the value', async ({ cip }) => {
    const result = await cip(['auth', 'login', `--token=${TOKEN}`]);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "error: unknown option '--token' (keys are not taken as options, so that shell history and process lists never show them; use --token-file FILE (- for stdin))\n",
    });
  });

  it('an expired token: exit 3, nothing sent or saved', async ({ cip }) => {
    const configDir = tempDir();
    const paths = files(makeJwt({ exp: epochSeconds(-7200) }));
    const result = await cip([...login, server.url, '--token-file', paths.token, '--subscription-key-file', paths.sub], { configDir });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: the token from --token-file .*t\.jwt expired at [\d: -]+, 2 h ago: get a new one; nothing was saved$/,
    );
    expect(server.requests).toHaveLength(0);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a token about to expire: a warning, and it is saved', async ({ cip }) => {
    const configDir = tempDir();
    const paths = files(makeJwt({ exp: epochSeconds(120) }));
    const result = await cip([...login, server.url, '--token-file', paths.token, '--subscription-key-file', paths.sub], { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr.match(/^warning: the token from --token-file .* expires in 2 min/gm)).toHaveLength(1);
  });

  it.for<[string, string, string]>([
    [
      'a line break inside',
      'aaaaaaaaaaaa\nbbbbbbbbbbbb',
      `${NOT_ASCII} (tokens are one word of visible ASCII characters; copy the token again)`,
    ],
    ['a control character', `${TOKEN}\u0007`, `${NOT_ASCII} (tokens are one word of visible ASCII characters; copy the token again)`],
    ['20,000 characters', 'a'.repeat(20_000), 'it has 20000 characters; tokens have 16 to 16384'],
  ])('a token file with %s: exit 2, never shown', async ([_what, token, reason], { cip }) => {
    const configDir = tempDir();
    const paths = files(token);
    const result = await cip([...login, server.url, '--token-file', paths.token, '--subscription-key-file', paths.sub], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(`error: the token from --token-file ${paths.token} is not a valid token: ${reason}`);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a token the API refuses (401): exit 3, nothing saved, and what to check', async ({ cip }) => {
    server.respond(answer('401 Unauthorized', '{"message":"invalid token"}'));
    const configDir = tempDir();
    const paths = files();
    const result = await cip([...login, server.url, '--token-file', paths.token, '--subscription-key-file', paths.sub], { configDir });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /\(nothing was saved; check the token, and the subscription key at https:\/\/app\.copyl\.com\/en\/itops\/secrets, or pass --no-verify to save them unchecked\)$/,
    );
    expect(readConfig(configDir)).toBeUndefined();
  });
});
