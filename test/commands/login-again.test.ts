// Logging in again to a profile that exists: what the login gives replaces what the profile had, and the rest is
// kept (its subscription key, API key or token, base URL, enterprise id, where its keys are kept, its protected
// mark), so that the hints cip prints for a token that expired or was refused work as printed, in a pipe. A
// change of kind says what it dropped; another host keeps no keys.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, readConfig, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { it, test, type Fixtures } from '../helpers/fixture.js';

test.override({ sandboxOptions: { seed: 1 } });

const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';
/** As on a server or in CI: no CIP_CREDENTIAL_STORE, and no keychain to be had. */
const NO_STORE = { CIP_CREDENTIAL_STORE: undefined };

function files(values: Record<string, string>): Record<string, string> {
  const dir = tempDir();
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      writeFileSync(join(dir, name), `${value}\n`);
      return [name, join(dir, name)];
    }),
  );
}

type Stored = Record<string, unknown>;
const profileIn = (configDir: string, name: string): Stored =>
  (readConfig(configDir) as { profiles: Record<string, Stored> }).profiles[name]!;

/** A token profile 'ci' in the file, protected, as `auth login --token-file --insecure-storage --protect` leaves it. */
async function tokenProfile(
  { sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>,
  token = sandbox.token(),
  extra: string[] = [],
): Promise<string> {
  const configDir = tempDir();
  const paths = files({ token, sub: sandbox.keys.subscriptionKey });
  const login = await cip(
    [
      'auth',
      'login',
      '--profile',
      'ci',
      '--base-url',
      sandbox.url,
      '--token-file',
      paths.token!,
      '--subscription-key-file',
      paths.sub!,
      '--insecure-storage',
      '--protect',
      ...extra,
    ],
    { configDir, env: NO_STORE },
  );
  expect(login.exitCode, login.stderr).toBe(0);
  return configDir;
}

/** The `cip auth login ...` a hint names, as argv. */
function hintedLogin(stderr: string): string[] {
  const command = /(?:\(|')(cip auth login [^)']*)(?:\)|')/.exec(stderr)?.[1];
  if (command === undefined) throw new Error(`no login command in:\n${stderr}`);
  return command.split(' ').slice(1);
}

describe("the hints' login command works as printed, in a pipe", () => {
  it('a token that expired: the hint, run with the new token on stdin, replaces the token and keeps the rest', async ({ sandbox, cip }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    expect(profileIn(configDir, 'ci')).toMatchObject({ keys: 'file', protected: true });
    // Time passes: the stored token expires.
    const expired = makeJwt({ sub: 'alice', enterpriseId: sandbox.keys.enterpriseId, exp: epochSeconds(-600) });
    const path = join(configDir, 'config.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace(profileIn(configDir, 'ci').token as string, expired));

    const refused = await cip(['env', 'list'], { configDir, env: NO_STORE });
    expect(refused.exitCode).toBe(3);
    const argv = hintedLogin(expectOneErrorLine(refused.stderr));
    expect(argv).toEqual(['auth', 'login', '--profile', 'ci', '--token-file', '-']);

    const fresh = sandbox.token();
    const again = await cip(argv, { configDir, env: NO_STORE, input: `${fresh}\n` });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("Logged in: profile 'ci'");
    expect(again.stderr).toContain("Profile 'ci': kept its subscription key.");
    expect(profileIn(configDir, 'ci')).toEqual({
      kind: 'token',
      baseUrl: sandbox.url,
      protected: true,
      keys: 'file',
      token: fresh,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });
    expect(again.stderr).toContain(`(where profile 'ci' had them; 'cip auth login --profile ci --migrate' moves them to the keychain)`);
    expect(again.stderr).not.toContain(fresh);
    expect(again.stderr).not.toContain(sandbox.keys.subscriptionKey);

    const listed = await cip(['env', 'list', '--json'], { configDir, env: NO_STORE });
    expect(listed.exitCode).toBe(0);
    expect(sandbox.requests.at(-1)!.headers.authorization).toBe(`Bearer ${fresh}`);
  });

  it('a token the server refused (401): the hint, run as printed, replaces the token', async ({ sandbox, cip }) => {
    // A token the server does not take (signed with another key), stored unchecked.
    const configDir = await tokenProfile(
      { sandbox, cip },
      makeJwt(
        { sub: 'alice', enterpriseId: sandbox.keys.enterpriseId, exp: epochSeconds(3600) },
        { secret: 'another-token-secret-0123456789abcdef' },
      ),
      ['--no-verify'],
    );
    const refused = await cip(['env', 'list'], { configDir, env: NO_STORE });
    expect(refused.exitCode).toBe(3);
    const line = expectOneErrorLine(refused.stderr);
    expect(line).toContain('The signature key was not found (invalid_token)');
    const fresh = sandbox.token();
    const again = await cip(hintedLogin(line), { configDir, env: NO_STORE, input: fresh });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(profileIn(configDir, 'ci')).toMatchObject({ token: fresh, subscriptionKey: sandbox.keys.subscriptionKey, keys: 'file' });
  });
});

describe('logging in again keeps what it is not given', () => {
  /** An API key profile 'prod' in the file (CIP_CREDENTIAL_STORE=file, as the tests keep keys). */
  async function keyProfile({ sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>): Promise<string> {
    const configDir = tempDir();
    const paths = files({ api: sandbox.keys.apiKey, sub: sandbox.keys.subscriptionKey });
    const login = await cip(
      [
        'auth',
        'login',
        '--profile',
        'prod',
        '--base-url',
        sandbox.url,
        '--enterprise-id',
        sandbox.keys.enterpriseId,
        '--api-key-file',
        paths.api!,
        '--subscription-key-file',
        paths.sub!,
      ],
      { configDir },
    );
    expect(login.exitCode, login.stderr).toBe(0);
    return configDir;
  }

  it('a new API key from stdin keeps the subscription key, enterprise id and base URL', async ({ sandbox, cip }) => {
    const configDir = await keyProfile({ sandbox, cip });
    const again = await cip(['auth', 'login', '--profile', 'prod', '--api-key-file', '-'], { configDir, input: sandbox.keys.apiKey });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("Profile 'prod': kept its subscription key.");
    expect(profileIn(configDir, 'prod')).toEqual({
      baseUrl: sandbox.url,
      enterpriseId: sandbox.keys.enterpriseId,
      keys: 'file',
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });
    expect(sandbox.requests.at(-1)!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
  });

  it('a new subscription key keeps the API key; a new enterprise id alone keeps both keys', async ({ sandbox, cip }) => {
    const configDir = await keyProfile({ sandbox, cip });
    const sub = await cip(['auth', 'login', '--profile', 'prod', '--subscription-key-file', '-', '--no-verify'], {
      configDir,
      input: 'a-new-subscription-key-0123456789',
    });
    expect(sub.exitCode, sub.stderr).toBe(0);
    expect(sub.stderr).toContain("Profile 'prod': kept its API key.");
    expect(profileIn(configDir, 'prod')).toMatchObject({
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: 'a-new-subscription-key-0123456789',
    });

    const enterprise = await cip(['auth', 'login', '--profile', 'prod', '--enterprise-id', OTHER_ENTERPRISE, '--no-verify'], { configDir });
    expect(enterprise.exitCode, enterprise.stderr).toBe(0);
    expect(enterprise.stderr).toContain("Profile 'prod': kept its API key and its subscription key.");
    expect(profileIn(configDir, 'prod')).toMatchObject({
      enterpriseId: OTHER_ENTERPRISE,
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: 'a-new-subscription-key-0123456789',
    });
  });

  it('given nothing, at a terminal: asks for both keys again, as the first login did, and keeps the enterprise', async ({
    sandbox,
    cip,
  }) => {
    const configDir = await keyProfile({ sandbox, cip });
    const again = await cip(['auth', 'login', '--profile', 'prod'], {
      configDir,
      answers: [
        ['API key (hidden): ', `${sandbox.keys.apiKey}\n`],
        ['Subscription key (hidden): ', `${sandbox.keys.subscriptionKey}\n`],
      ],
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Enterprise id');
    expect(profileIn(configDir, 'prod')).toMatchObject({ enterpriseId: sandbox.keys.enterpriseId });
  });

  it('a token profile given nothing: exit 2, saying how to give the token', async ({ cip, sandbox }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const before = readConfig(configDir);
    const again = await cip(['auth', 'login', '--profile', 'ci'], { configDir, env: NO_STORE });
    expect(again.exitCode).toBe(2);
    expect(expectOneErrorLine(again.stderr)).toBe(
      "error: profile 'ci' holds a token: give the new one (cip auth login --profile ci --token-file PATH ('-' for stdin))",
    );
    expect(readConfig(configDir)).toEqual(before);
  });

  it('a kept token that has expired is refused (exit 3), nothing saved', async ({ sandbox, cip }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const path = join(configDir, 'config.json');
    const expired = makeJwt({ exp: epochSeconds(-600) });
    writeFileSync(path, readFileSync(path, 'utf8').replace(profileIn(configDir, 'ci').token as string, expired));
    const before = readConfig(configDir);
    const again = await cip(['auth', 'login', '--profile', 'ci', '--subscription-key-file', '-'], {
      configDir,
      env: NO_STORE,
      input: sandbox.keys.subscriptionKey,
    });
    expect(again.exitCode).toBe(3);
    expect(expectOneErrorLine(again.stderr)).toMatch(/^error: the token from profile 'ci' expired at .*; nothing was saved$/);
    expect(readConfig(configDir)).toEqual(before);
  });

  it('an enterprise id for a token profile: exit 2, saying how to make it hold an API key instead', async ({ cip, sandbox }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const again = await cip(['auth', 'login', '--profile', 'ci', '--enterprise-id', OTHER_ENTERPRISE], { configDir, env: NO_STORE });
    expect(again.exitCode).toBe(2);
    expect(expectOneErrorLine(again.stderr)).toBe(
      "error: --enterprise-id does not apply to a token: a token acts for the enterprise it was issued for (leave out --enterprise-id, or give --api-key-file to make profile 'ci' hold an API key)",
    );
  });

  it('CIP_API_KEY beside a token profile is not taken for a change of kind: said, and ignored', async ({ sandbox, cip }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const again = await cip(['auth', 'login', '--profile', 'ci', '--subscription-key-file', '-'], {
      configDir,
      env: { ...NO_STORE, CIP_API_KEY: sandbox.keys.apiKey },
      input: sandbox.keys.subscriptionKey,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      "warning: ignoring CIP_API_KEY: profile 'ci' holds a token (give --api-key-file to make it hold an API key)",
    );
    expect(profileIn(configDir, 'ci')).toMatchObject({ kind: 'token' });
  });
});

describe('a change of kind says what it dropped', () => {
  it('an API key profile given a token: drops the API key and enterprise id, keeps the subscription key', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const paths = files({ api: sandbox.keys.apiKey, sub: sandbox.keys.subscriptionKey });
    const first = await cip(
      [
        'auth',
        'login',
        '--profile',
        'p',
        '--base-url',
        sandbox.url,
        '--enterprise-id',
        sandbox.keys.enterpriseId,
        '--api-key-file',
        paths.api!,
        '--subscription-key-file',
        paths.sub!,
      ],
      { configDir },
    );
    expect(first.exitCode, first.stderr).toBe(0);
    const token = sandbox.token();
    const again = await cip(['auth', 'login', '--profile', 'p', '--token-file', '-'], { configDir, input: token });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `Profile 'p' now holds a token instead of an API key: dropped its API key and enterprise id ${sandbox.keys.enterpriseId}; kept its subscription key.`,
    );
    expect(profileIn(configDir, 'p')).toEqual({
      kind: 'token',
      baseUrl: sandbox.url,
      keys: 'file',
      token,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });
  });

  it('a token profile given an API key: needs an enterprise id (exit 2 in a pipe, nothing saved), then keeps the subscription key', async ({
    sandbox,
    cip,
  }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const before = readConfig(configDir);
    const without = await cip(['auth', 'login', '--profile', 'ci', '--api-key-file', '-'], {
      configDir,
      env: NO_STORE,
      input: sandbox.keys.apiKey,
    });
    expect(without.exitCode).toBe(2);
    expect(expectOneErrorLine(without.stderr)).toMatch(/^error: missing enterprise id \(--enterprise-id or CIP_ENTERPRISE_ID\) \(/);
    expect(readConfig(configDir)).toEqual(before);

    const withId = await cip(['auth', 'login', '--profile', 'ci', '--api-key-file', '-', '--enterprise-id', sandbox.keys.enterpriseId], {
      configDir,
      env: NO_STORE,
      input: sandbox.keys.apiKey,
    });
    expect(withId.exitCode, withId.stderr).toBe(0);
    expect(withId.stderr).toContain("Profile 'ci' now holds an API key instead of a token: dropped its token; kept its subscription key.");
    expect(profileIn(configDir, 'ci')).toEqual({
      baseUrl: sandbox.url,
      enterpriseId: sandbox.keys.enterpriseId,
      protected: true,
      keys: 'file',
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
    });
  });
});

describe('keys go only to the host they were stored for', () => {
  it('a base URL on another host keeps no keys: said, and in a pipe exit 2 with nothing sent or saved', async ({ sandbox, cip }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const before = readConfig(configDir);
    sandbox.reset();
    const elsewhere = sandbox.url.replace('127.0.0.1', 'localhost');
    const again = await cip(['auth', 'login', '--profile', 'ci', '--token-file', '-', '--base-url', elsewhere], {
      configDir,
      env: { ...NO_STORE, CIP_ALLOW_HTTP: '1' },
      input: sandbox.token(),
    });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(
      `warning: the keys of profile 'ci' are for ${new URL(sandbox.url).origin}: they are not kept for ${new URL(elsewhere).origin}\n`,
    );
    expect(expectOneErrorLine(again.stderr)).toMatch(/^error: missing subscription key /);
    expect(sandbox.requests).toHaveLength(0);
    expect(readConfig(configDir)).toEqual(before);
  });

  it('a base URL on the same host, another path: the keys are kept', async ({ sandbox, cip }) => {
    const configDir = await tokenProfile({ sandbox, cip });
    const again = await cip(
      ['auth', 'login', '--profile', 'ci', '--token-file', '-', '--base-url', `${new URL(sandbox.url).origin}/elsewhere/ms`, '--no-verify'],
      {
        configDir,
        env: NO_STORE,
        input: sandbox.token(),
      },
    );
    expect(again.exitCode, again.stderr).toBe(0);
    expect(profileIn(configDir, 'ci')).toMatchObject({ subscriptionKey: sandbox.keys.subscriptionKey });
  });
});
