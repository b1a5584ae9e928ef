// auth login, status and logout with the keys in a keychain: a stand-in keychain helper (a script that keeps its
// entries in a JSON file and logs each visit), so no D-Bus is needed. Also login's key inputs and messages,
// whether a profile becomes active, what a failed check points at, --migrate, and logout's active profile.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { Context } from '../../src/context.js';
import { expectOneErrorLine, loginArgs, readConfig, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { fakeKeychain, failingUpdate, interruptAt, noKeychain } from '../helpers/fake-keychain.js';
import { it, test } from '../helpers/fixture.js';
import type { Sandbox } from '../../src/sandbox/index.js';

test.override({ sandboxOptions: { seed: 1 } });

function keyFiles(sandbox: Sandbox, api = sandbox.keys.apiKey, sub = sandbox.keys.subscriptionKey): { api: string; sub: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'api'), api);
  writeFileSync(join(dir, 'sub'), sub);
  return { api: join(dir, 'api'), sub: join(dir, 'sub') };
}

const configPath = (configDir: string) => join(configDir, 'config.json');
const service = (sandbox: Sandbox) => `cip:${new URL(sandbox.url).origin}`;
const KEYS = (sandbox: Sandbox) => ({ apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey });
const FILE = { CIP_CREDENTIAL_STORE: 'file' };
/** A second origin for the same sandbox: the keychain's service differs. */
const otherUrl = (sandbox: Sandbox) => sandbox.url.replace('127.0.0.1', 'localhost');

function noKeys(sandbox: Sandbox, result: { stdout: string; stderr: string }): void {
  for (const key of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
    expect(result.stdout).not.toContain(key);
    expect(result.stderr).not.toContain(key);
  }
}

function writeConfig(configDir: string, data: object): void {
  writeFileSync(configPath(configDir), JSON.stringify(data), { mode: 0o600 });
}

describe('auth login with the keychain', () => {
  it('keeps the keys in the keychain, under the origin of the base URL, and only the entry’s name in the file', async ({
    sandbox,
    cip,
  }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox), { keychain, configDir });
    expect(result.stderr).toBe(`Logged in: profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n`);
    expect(result.exitCode).toBe(0);
    noKeys(sandbox, result);
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'default',
      profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, keys: 'keychain' } },
    });
    expect(statSync(configPath(configDir)).mode & 0o777).toBe(0o600);
    expect(readFileSync(configPath(configDir), 'utf8')).not.toContain(sandbox.keys.apiKey);
    expect(keychain.entry(service(sandbox), 'default')).toEqual(KEYS(sandbox));
    // The check comes first, before anything is asked; then the write and its read-back.
    expect(keychain.visits()).toEqual([
      `get ${service(sandbox)} default`,
      `set ${service(sandbox)} default; get ${service(sandbox)} default`,
    ]);
  });
});

describe('auth login: where the keys go', () => {
  it.for<[string, string[], Record<string, string>, string]>([
    ['--insecure-storage', ['--insecure-storage'], {}, '--insecure-storage'],
    ['CIP_CREDENTIAL_STORE=file', [], FILE, 'CIP_CREDENTIAL_STORE=file'],
    ['--insecure-storage and CIP_CREDENTIAL_STORE=file', ['--insecure-storage'], FILE, '--insecure-storage'],
  ])(
    '%s: the keys go into the file (0600), with a warning, and the keychain is never visited',
    async ([_name, extra, env, because], { sandbox, cip }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      const result = await cip(loginArgs(sandbox, ['--no-verify', ...extra]), { keychain, configDir, env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        `Saved (not checked): profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n` +
          `warning: the keys of profile 'default' are stored in plain text in ${configPath(configDir)} (${because})\n`,
      );
      noKeys(sandbox, result);
      expect(readConfig(configDir)).toEqual({
        activeProfile: 'default',
        profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, keys: 'file', ...KEYS(sandbox) } },
      });
      expect(statSync(configPath(configDir)).mode & 0o777).toBe(0o600);
      expect(keychain.visits()).toEqual([]);
    },
  );

  it('CIP_CREDENTIAL_STORE=keychain is the keychain', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir, env: { CIP_CREDENTIAL_STORE: 'keychain' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `Saved (not checked): profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n`,
    );
    expect(keychain.entry(service(sandbox), 'default')).toEqual(KEYS(sandbox));
  });

  it('a keychain that cannot be used stops login at once (exit 2), before any key is read or asked, and saves nothing', async ({
    sandbox,
    cip,
  }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const result = await cip(['auth', 'login', '--base-url', sandbox.url], { keychain, configDir, env: { FAKE_KC_FAIL: 'all' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`${noKeychain(configDir, 'no Secret Service on this bus')}\n`);
    expect(readConfig(configDir)).toBeUndefined();
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a keychain that refuses the write is exit 2 and nothing is saved', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox), { keychain, configDir, env: { FAKE_KC_FAIL: 'set' } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(noKeychain(configDir, 'set refused'));
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('logging in again to another origin moves the keys to the new entry and removes the old one', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir })).exitCode).toBe(0);
    const again = await cip(loginArgs(sandbox, ['--no-verify'], otherUrl(sandbox)), { keychain, configDir });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toBe(
      `Saved (not checked): profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${otherUrl(sandbox)}) is active.\n`,
    );
    const newService = `cip:${new URL(otherUrl(sandbox)).origin}`;
    expect(keychain.entries()).toEqual([`${newService} default`]);
    expect(keychain.visits().at(-1)).toBe(`delete ${service(sandbox)} default`);
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: { baseUrl: otherUrl(sandbox), keys: 'keychain' } } });
  });

  it('logging in again to the same origin overwrites the entry and removes nothing', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir })).exitCode).toBe(0);
    const again = await cip(loginArgs(sandbox, ['--no-verify'], `${sandbox.url}/`), { keychain, configDir });
    expect(again.exitCode).toBe(0);
    expect(keychain.visits().filter((visit) => visit.includes('delete'))).toEqual([]);
    expect(keychain.entry(service(sandbox), 'default')).toEqual(KEYS(sandbox));
  });

  it('logging in again with --insecure-storage moves the keys into the file and out of the keychain', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir })).exitCode).toBe(0);
    const again = await cip(loginArgs(sandbox, ['--no-verify', '--insecure-storage']), { keychain, configDir });
    expect(again.exitCode).toBe(0);
    expect(keychain.entries()).toEqual([]);
    expect(keychain.visits().at(-1)).toBe(`delete ${service(sandbox)} default`);
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: { keys: 'file', ...KEYS(sandbox) } } });
  });

  it('old keys the keychain will not remove are a warning; the new ones are saved all the same', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir })).exitCode).toBe(0);
    const again = await cip(loginArgs(sandbox, ['--no-verify'], otherUrl(sandbox)), {
      keychain,
      configDir,
      env: { FAKE_KC_FAIL: 'delete' },
    });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toBe(
      `warning: the profile's old keys are still in the keychain (service '${service(sandbox)}', account 'default'): delete refused\n` +
        `Saved (not checked): profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${otherUrl(sandbox)}) is active.\n`,
    );
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: { baseUrl: otherUrl(sandbox), keys: 'keychain' } } });
  });
});

describe('auth login interrupted', () => {
  it('while the old entry is being removed: exit 130, the new keys saved, no warning about the old ones', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir })).exitCode).toBe(0);
    const again = await cip(loginArgs(sandbox, ['--no-verify'], otherUrl(sandbox)), { keychain, configDir, ...interruptAt('remove') });
    expect(again.exitCode).toBe(130);
    expect(again.stderr).not.toContain('warning');
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: { baseUrl: otherUrl(sandbox), keys: 'keychain' } } });
  });

  it('while --migrate writes to the keychain: exit 130 and the file keeps the keys', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const data = {
      activeProfile: 'default',
      profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, ...KEYS(sandbox) } },
    };
    writeConfig(configDir, data);
    const result = await cip(['auth', 'login', '--migrate'], { keychain, configDir, ...interruptAt('write') });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).not.toContain('cannot move');
    expect(readConfig(configDir)).toEqual(data);
    expect(keychain.visits()).toEqual([]);
  });

  it('a failure of the check that is not an API answer (a bug) is not taken for one: exit 1, nothing saved', async ({ cip, sandbox }) => {
    const configDir = tempDir();
    const broken = (ctx: Context) => {
      ctx.apiFor = async () => ({ list: () => Promise.reject(new TypeError('list is broken')) }) as never;
    };
    const result = await cip(loginArgs(sandbox), { configDir, env: FILE, patch: broken });
    expect(result.exitCode).toBe(1);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: unexpected failure: list is broken (this is a bug; set CIP_DEBUG=1 to see details)',
    );
    expect(readConfig(configDir)).toBeUndefined();
    // With CIP_DEBUG=1, the error's own stack: it is passed on as it came.
    const debug = await cip(loginArgs(sandbox), { configDir, env: { ...FILE, CIP_DEBUG: '1' }, patch: broken });
    expect(debug.exitCode).toBe(1);
    expect(debug.stderr).toMatch(/^TypeError: list is broken\n {4}at /m);
  });
});

describe('auth login: a config file that cannot be written', () => {
  const error = (configDir: string) => `error: cannot write the config file ${configPath(configDir)}: disk trouble\n`;

  it('a new profile: the entry just written is taken back out of the keychain', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir, patch: failingUpdate });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(error(configDir));
    expect(keychain.entries()).toEqual([]);
    expect(keychain.visits().at(-1)).toBe(`delete ${service(sandbox)} default`);
  });

  it('a profile already in that entry: the entry stays, since the file still names it', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir })).exitCode).toBe(0);
    const result = await cip(loginArgs(sandbox, ['--no-verify']), { keychain, configDir, patch: failingUpdate });
    expect(result.stderr).toBe(error(configDir));
    expect(keychain.entries()).toEqual([`${service(sandbox)} default`]);
    expect(keychain.visits().filter((visit) => visit.includes('delete'))).toEqual([]);
  });

  it.for<[string, boolean]>([
    ['in the keychain under another origin', false],
    ['in the file, logging in with CIP_CREDENTIAL_STORE=keychain', true],
  ])('a profile %s: the new entry is taken back', async ([_name, insecure], { cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const first = await cip(loginArgs(sandbox, ['--no-verify', ...(insecure ? ['--insecure-storage'] : [])], otherUrl(sandbox)), {
      keychain,
      configDir,
    });
    expect(first.exitCode).toBe(0);
    const before = readConfig(configDir);
    // A profile whose keys are in the file keeps them there when logged in again, unless told otherwise.
    const result = await cip(loginArgs(sandbox, ['--no-verify']), {
      keychain,
      configDir,
      patch: failingUpdate,
      env: { CIP_CREDENTIAL_STORE: 'keychain' },
    });
    expect(result.stderr).toBe(error(configDir));
    expect(keychain.visits().at(-1)).toBe(`delete ${service(sandbox)} default`);
    expect(keychain.entry(service(sandbox), 'default')).toBeUndefined();
    expect(readConfig(configDir)).toEqual(before);
  });

  it('keys bound for the file: the keychain is not visited', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const result = await cip(loginArgs(sandbox, ['--no-verify', '--insecure-storage']), { keychain, configDir, patch: failingUpdate });
    expect(result.stderr).toBe(error(configDir));
    expect(keychain.visits()).toEqual([]);
  });
});

describe('auth login: which profile is active', () => {
  it.for<[string, { activeProfile?: string; profiles: object }, boolean]>([
    ['no active profile', { profiles: {} }, true],
    ['an active profile that is gone', { activeProfile: 'gone', profiles: {} }, true],
    [
      "no active profile, and one named 'undefined'",
      {
        profiles: {
          undefined: { enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', apiKey: 'a'.repeat(20), subscriptionKey: 's'.repeat(20) },
        },
      },
      true,
    ],
    [
      'an active profile that exists',
      {
        activeProfile: 'prod',
        profiles: {
          prod: { enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', apiKey: 'a'.repeat(20), subscriptionKey: 's'.repeat(20) },
        },
      },
      false,
    ],
  ])('%s: whether the profile saved becomes active', async ([_name, data, becomesActive], { sandbox, cip }) => {
    const configDir = tempDir();
    writeConfig(configDir, data);
    const result = await cip(loginArgs(sandbox, ['--no-verify', '--profile', 'qa']), { configDir, env: FILE });
    expect(result.exitCode).toBe(0);
    const target = `profile 'qa' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url})`;
    expect(result.stderr.split('\n')[0]).toBe(
      becomesActive
        ? `Saved (not checked): ${target} is active.`
        : `Saved (not checked): ${target}; make it active with 'cip auth use qa'.`,
    );
    expect((readConfig(configDir) as { activeProfile: string }).activeProfile).toBe(becomesActive ? 'qa' : 'prod');
  });

  it('checked keys: says so, and for a profile that is not active how to switch', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const first = await cip(loginArgs(sandbox), { configDir, env: FILE });
    expect(first.stderr.split('\n')[0]).toBe(
      `Logged in: profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.`,
    );
    const second = await cip(loginArgs(sandbox, ['--profile', 'qa']), { configDir, env: FILE });
    expect(second.exitCode).toBe(0);
    expect(second.stderr.split('\n')[0]).toBe(
      `Logged in: profile 'qa' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) saved; make it active with 'cip auth use qa'.`,
    );
  });
});

describe('auth login: the keys given', () => {
  const GUID = (sandbox: Sandbox) => ['--enterprise-id', sandbox.keys.enterpriseId, '--no-verify'];
  const INVALID = 'is not a valid key: it contains spaces, line breaks, control characters or characters outside ASCII';

  it.for<[string, (sandbox: Sandbox) => string[], string, string]>([
    [
      'an empty API key on stdin',
      (sandbox: Sandbox) => ['--api-key-file', '-', '--subscription-key-file', keyFiles(sandbox).sub],
      '  \n',
      'error: --api-key-file (stdin) is empty',
    ],
    [
      'an empty subscription key on stdin',
      (sandbox: Sandbox) => ['--subscription-key-file', '-', '--api-key-file', keyFiles(sandbox).api],
      '\n',
      'error: --subscription-key-file (stdin) is empty',
    ],
    [
      'an API key on stdin that is not a key',
      (sandbox: Sandbox) => ['--api-key-file', '-', '--subscription-key-file', keyFiles(sandbox).sub],
      'two words-that-are-long-enough\n',
      `error: the API key from --api-key-file (stdin) ${INVALID} (keys are one word of visible ASCII characters; copy the key again)`,
    ],
  ])('%s is exit 2, naming stdin', async ([_name, args, input, line], { sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', ...GUID(sandbox), ...args(sandbox)], { configDir, env: FILE, input });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(line);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('a subscription key file holding a key too short is exit 2, naming the file', async ({ sandbox, cip }) => {
    const files = keyFiles(sandbox, sandbox.keys.apiKey, 'short-key');
    const result = await cip(['auth', 'login', ...GUID(sandbox), '--api-key-file', files.api, '--subscription-key-file', files.sub], {
      env: FILE,
    });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: the subscription key from --subscription-key-file ${files.sub} is not a valid key: it has 9 characters; keys have 16 to 1024`,
    );
  });

  it('one key on stdin and the other from a file is fine', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', ...GUID(sandbox), '--api-key-file', '-', '--subscription-key-file', keyFiles(sandbox).sub], {
      configDir,
      env: FILE,
      input: `${sandbox.keys.apiKey}\n`,
    });
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: KEYS(sandbox) } });
  });

  it.for<[string, string]>([
    ['CIP_API_KEY', 'API key'],
    ['CIP_SUBSCRIPTION_KEY', 'subscription key'],
  ])('%s that is not a key is exit 2, naming the variable, never the value', async ([variable, what], { sandbox, cip }) => {
    const env = { ...FILE, CIP_API_KEY: sandbox.keys.apiKey, CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey, [variable]: 'tiny' };
    const result = await cip(['auth', 'login', ...GUID(sandbox)], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: the ${what} from ${variable} is not a valid key: it has 4 characters; keys have 16 to 1024`,
    );
  });

  it('with --profile, CIP_BASE_URL and CIP_ENTERPRISE_ID still give the profile being stored its values', async ({ cip, sandbox }) => {
    const configDir = tempDir();
    const other = '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f';
    const files = keyFiles(sandbox);
    const result = await cip(
      ['auth', 'login', '--profile', 'qa', '--no-verify', '--api-key-file', files.api, '--subscription-key-file', files.sub],
      { configDir, env: { ...FILE, CIP_BASE_URL: otherUrl(sandbox), CIP_ENTERPRISE_ID: other } },
    );
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ profiles: { qa: { baseUrl: otherUrl(sandbox), enterpriseId: other } } });
  });

  it('a profile whose stored base URL is not valid is named as "the base URL"', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    writeConfig(configDir, {
      profiles: {
        default: {
          baseUrl: 'http://example.com/ms',
          enterpriseId: sandbox.keys.enterpriseId,
          apiKey: 'a'.repeat(20),
          subscriptionKey: 's'.repeat(20),
        },
      },
    });
    const files = keyFiles(sandbox);
    const result = await cip(['auth', 'login', '--no-verify', '--api-key-file', files.api, '--subscription-key-file', files.sub], {
      configDir,
      env: FILE,
    });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: the base URL uses http:// to a host that is not this machine; the API keys would travel in cleartext (use https://, or set CIP_ALLOW_HTTP=1 if you really mean it)',
    );
  });
});

describe('auth login at a terminal', () => {
  const API_Q = 'API key (hidden): ';
  const SUB_Q = 'Subscription key (hidden): ';

  it('a key typed that is not valid is said, and asked again', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId, '--no-verify'], {
      configDir,
      answers: [
        [API_Q, 'short\r'],
        [API_Q, `${sandbox.keys.apiKey}\r`],
        [SUB_Q, 'also short\r'],
        [SUB_Q, `${sandbox.keys.subscriptionKey}\r`],
      ],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      `${API_Q}\nthe API key from the prompt is not a valid key: it has 5 characters; keys have 16 to 1024\n${API_Q}`,
    );
    expect(result.stderr).toContain(
      `${SUB_Q}\nthe subscription key from the prompt ${'is not a valid key: it contains spaces, line breaks, control characters or characters outside ASCII'}\n${SUB_Q}`,
    );
    noKeys(sandbox, result);
    expect(readConfig(configDir)).toMatchObject({ profiles: { default: KEYS(sandbox) } });
  });
});

describe('auth login: a check that fails says what to check', () => {
  const hint = (what: string) => `(nothing was saved; ${what}, or pass --no-verify to save them unchecked)`;
  const address = (sandbox: Sandbox) => `check the base URL (${sandbox.url}) and the enterprise id`;

  it.for<[number, string, string]>([
    [500, 'server error', 'try again later'],
    [501, 'server error', 'try again later'],
    [429, 'too many requests', 'try again later'],
    [404, 'not found', 'ADDRESS'],
    [400, 'the API rejected the request', 'ADDRESS'],
  ])('HTTP %i: %s, and nothing is saved', async ([status, _what, check], { sandbox, cip }) => {
    const configDir = tempDir();
    sandbox.inject({ fault: { kind: 'status', status, body: '{"message":"nope"}', headers: { 'Retry-After': '0' } }, times: 3 });
    const result = await cip(loginArgs(sandbox), { configDir, env: FILE });
    expect(result.exitCode).not.toBe(0);
    const line = expectOneErrorLine(result.stderr);
    expect(line.endsWith(`: nope ${hint(check === 'ADDRESS' ? address(sandbox) : check)}`)).toBe(true);
    expect(readConfig(configDir)).toBeUndefined();
  });

  it('at a terminal, a spinner says the keys are being checked', async ({ cip, sandbox }) => {
    const result = await cip(loginArgs(sandbox), { env: FILE, terminalColumns: 100, spinners: true });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Checking the keys');
  });
});

describe('auth login --migrate', () => {
  const fileProfile = (sandbox: Sandbox) => ({ baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, ...KEYS(sandbox) });

  it('moves the keys of the default profile into the keychain; the rest of the profile stays as it was', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { ...fileProfile(sandbox), note: 'kept' } } });
    const result = await cip(['auth', 'login', '--migrate'], { keychain, configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `Moved the keys of profile 'default' into the keychain (service '${service(sandbox)}', account 'default'); ${configPath(configDir)} holds them no more.\n`,
    );
    noKeys(sandbox, result);
    expect(readConfig(configDir)).toEqual({
      activeProfile: 'default',
      profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, note: 'kept', keys: 'keychain' } },
    });
    expect(statSync(configPath(configDir)).mode & 0o777).toBe(0o600);
    expect(keychain.entry(service(sandbox), 'default')).toEqual(KEYS(sandbox));
  });

  it('keys already in the keychain: says so, and neither the keychain nor the file is touched', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const data = {
      activeProfile: 'prod',
      profiles: { prod: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, keys: 'keychain' } },
    };
    writeConfig(configDir, data);
    const result = await cip(['auth', 'login', '--migrate', '--profile', 'prod'], { keychain, configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("The keys of profile 'prod' are already in the keychain.\n");
    expect(keychain.visits()).toEqual([]);
    expect(readConfig(configDir)).toEqual(data);
  });

  it('a keychain that refuses is exit 2 and the file keeps the keys', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    const data = { activeProfile: 'default', profiles: { default: fileProfile(sandbox) } };
    writeConfig(configDir, data);
    const result = await cip(['auth', 'login', '--migrate'], { keychain, configDir, env: { FAKE_KC_FAIL: 'set' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `error: cannot move the keys of profile 'default' into the keychain: nothing changed; they are still in ${configPath(configDir)} (cause: set refused)\n`,
    );
    expect(readConfig(configDir)).toEqual(data);
  });

  it('takes no --insecure-storage', async ({ cip, sandbox }) => {
    const configDir = tempDir();
    writeConfig(configDir, { profiles: { default: fileProfile(sandbox) } });
    const result = await cip(['auth', 'login', '--migrate', '--insecure-storage'], { keychain: fakeKeychain(), configDir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'error: --migrate moves the keys a profile has; it takes no --insecure-storage (log in without --migrate to change them)\n',
    );
  });

  it.for<[string, (profile: Record<string, unknown>, sandbox: Sandbox) => Record<string, unknown> | undefined]>([
    ['removed', (profile: Record<string, unknown>) => (void profile, undefined)],
    [
      'moved to the keychain',
      (profile: Record<string, unknown>) => ({ baseUrl: profile.baseUrl, enterpriseId: profile.enterpriseId, keys: 'keychain' }),
    ],
    ['given another API key', (profile: Record<string, unknown>) => ({ ...profile, apiKey: 'b'.repeat(20) })],
    ['given another subscription key', (profile: Record<string, unknown>) => ({ ...profile, subscriptionKey: 't'.repeat(20) })],
    ['given another base URL', (profile: Record<string, unknown>, sandbox: Sandbox) => ({ ...profile, baseUrl: otherUrl(sandbox) })],
  ])(
    'a profile %s meanwhile: exit 2, the file as the other writer left it, the keychain entry taken back',
    async ([_name, change], { cip, sandbox }) => {
      const keychain = fakeKeychain();
      const configDir = tempDir();
      writeConfig(configDir, { activeProfile: 'default', profiles: { default: fileProfile(sandbox) } });
      const changed = change(fileProfile(sandbox), sandbox);
      const tampered = { activeProfile: 'default', profiles: changed ? { default: changed } : {} };
      const result = await cip(['auth', 'login', '--migrate'], {
        keychain,
        configDir,
        env: { FAKE_KC_TAMPER: configPath(configDir), FAKE_KC_TAMPER_WITH: JSON.stringify(tampered) },
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(
        "error: profile 'default' changed while its keys were being moved; nothing changed (run the command again)\n",
      );
      expect(readConfig(configDir)).toEqual(tampered);
      expect(keychain.entries()).toEqual([]);
      expect(keychain.visits().at(-1)).toBe(`delete ${service(sandbox)} default`);
    },
  );
});

const keychainProfile = (sandbox: Sandbox, baseUrl = sandbox.url) => ({
  baseUrl,
  enterpriseId: sandbox.keys.enterpriseId,
  keys: 'keychain',
});
const plainProfile = (apiKey = 'dev-api-key-0123456789', subscriptionKey = 'dev-sub-key-abcdefghij') => ({
  baseUrl: 'https://api.example.com/ms',
  enterpriseId: '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f',
  apiKey,
  subscriptionKey,
});

describe('auth status with the keychain', () => {
  it('reads the keychain profiles’ keys in one visit, masks them, and warns only of keys in plain text', async ({ sandbox, cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox), dev: plainProfile() } });
    keychain.put(service(sandbox), 'prod', KEYS(sandbox));
    const other = '1a1a1a1a-2b2b-4c4c-8d8d-3e3e3e3e3e3e';
    const result = await cip(['auth', 'status', '--json'], { keychain, configDir, env: { CIP_ENTERPRISE_ID: other } });
    expect(result.exitCode).toBe(0);
    noKeys(sandbox, result);
    const mask = (key: string) => `****${key.slice(-4)}`;
    expect(JSON.parse(result.stdout)).toEqual([
      {
        name: 'prod',
        active: true,
        inUse: true,
        protected: false,
        keys: 'keychain',
        baseUrl: sandbox.url,
        enterpriseId: sandbox.keys.enterpriseId,
        apiKey: mask(sandbox.keys.apiKey),
        subscriptionKey: mask(sandbox.keys.subscriptionKey),
        overriddenBy: ['CIP_ENTERPRISE_ID'],
      },
      {
        name: 'dev',
        active: false,
        inUse: false,
        protected: false,
        keys: 'file',
        baseUrl: 'https://api.example.com/ms',
        enterpriseId: '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f',
        apiKey: '****6789',
        subscriptionKey: '****ghij',
        overriddenBy: [],
      },
    ]);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      "warning: CIP_ENTERPRISE_ID from the environment overrides profile 'prod'",
      `warning: profile 'dev' keeps its keys in plain text in ${configPath(configDir)}; move them into the keychain with 'cip auth login --profile dev --migrate'`,
    ]);
    expect(keychain.visits()).toEqual([`get ${service(sandbox)} prod`]);
  });

  it('keys gone from the keychain: null, a warning naming the entry, and the profile in use fails (exit 3) after the list', async ({
    cip,
    sandbox,
  }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox) } });
    const json = await cip(['auth', 'status', '--json'], { keychain, configDir });
    expect(json.exitCode).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject([{ name: 'prod', keys: 'keychain', apiKey: null, subscriptionKey: null, inUse: false }]);
    const gone = `the keys of profile 'prod' are gone from the keychain (service '${service(sandbox)}', account 'prod')`;
    expect(json.stderr).toBe(
      `warning: ${gone}; log in again: cip auth login --profile prod\nerror: ${gone} (log in again: cip auth login --profile prod)\n`,
    );
    const table = await cip(['auth', 'status'], { keychain, configDir, terminalColumns: 200, spinners: true });
    expect(table.exitCode).toBe(3);
    expect(table.stdout).toMatch(/^prod\s+true\s+false\s+keychain\s/m);
  });

  it('a keychain that cannot be read: a warning naming its profiles, their keys null; a file profile in use still works', async ({
    cip,
    sandbox,
  }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, {
      activeProfile: 'dev',
      profiles: { a: keychainProfile(sandbox), b: keychainProfile(sandbox, otherUrl(sandbox)), dev: plainProfile() },
    });
    const result = await cip(['auth', 'status', '--json'], { keychain, configDir, env: { FAKE_KC_FAIL: 'all' } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).map((row: { name: string; apiKey: unknown }) => [row.name, row.apiKey])).toEqual([
      ['a', null],
      ['b', null],
      ['dev', '****6789'],
    ]);
    // No --migrate where the keychain does not answer: it could not work.
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: profile 'dev' keeps its keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600): no keychain answers here, so keep that file out of backups and shared images`,
      "warning: cannot read the keys of 'a', 'b' from the keychain: no Secret Service on this bus",
    ]);
  });

  it('interrupted while the keychain is read: exit 130, no warning that it cannot be read', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'dev', profiles: { a: keychainProfile(sandbox), dev: plainProfile() } });
    const result = await cip(['auth', 'status', '--json'], { keychain, configDir, ...interruptAt('read') });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).not.toContain('cannot read');
    expect(result.stdout).toBe('');
  });

  const fiveInFile = () => ({
    activeProfile: 'a',
    profiles: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [name, plainProfile()])),
  });
  const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'));

  it('profiles with their keys in the file, without a D-Bus session (a server): one warning, no --migrate, no keychain helper', async ({
    cip,
  }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, fiveInFile());
    const result = await cip(['auth', 'status', '--json'], { keychain, configDir });
    expect(result.exitCode).toBe(0);
    expect(warnings(result.stderr)).toEqual([
      `warning: profiles 'a', 'b', 'c', 'd', 'e' keep their keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600): ` +
        'no keychain answers here, so keep that file out of backups and shared images',
    ]);
    expect(result.stderr).not.toContain('--migrate');
    expect(keychain.visits()).toEqual([]);
  });

  it('profiles with their keys in the file where a keychain answers: one warning that says how to move them', async ({ cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, fiveInFile());
    const result = await cip(['auth', 'status', '--json'], { keychain, configDir, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' } });
    expect(result.exitCode).toBe(0);
    expect(warnings(result.stderr)).toEqual([
      `warning: profiles 'a', 'b', 'c', 'd', 'e' keep their keys in plain text in ${configPath(configDir)}; ` +
        "move each into the keychain with 'cip auth login --profile NAME --migrate'",
    ]);
    // One visit asked whether the keychain answers.
    expect(keychain.visits()).toEqual([`get cip:https://api.example.com a`]);
  });

  it('profiles with their keys in the file where the keychain does not answer: the advice for keeping the file', async ({ cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, fiveInFile());
    const result = await cip(['auth', 'status', '--json'], {
      keychain,
      configDir,
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', FAKE_KC_FAIL: 'all' },
    });
    expect(result.exitCode).toBe(0);
    expect(warnings(result.stderr)).toEqual([
      `warning: profiles 'a', 'b', 'c', 'd', 'e' keep their keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600): ` +
        'no keychain answers here, so keep that file out of backups and shared images',
    ]);
  });

  it('CIP_CREDENTIAL_STORE=file: the file was chosen, so no --migrate and no keychain helper', async ({ cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'dev', profiles: { dev: plainProfile() } });
    const result = await cip(['auth', 'status', '--json'], {
      keychain,
      configDir,
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', CIP_CREDENTIAL_STORE: 'file' },
    });
    expect(result.exitCode).toBe(0);
    expect(warnings(result.stderr)).toEqual([
      `warning: profile 'dev' keeps its keys in plain text in ${configPath(configDir)}, readable only by you (mode 0600), as CIP_CREDENTIAL_STORE=file asks`,
    ]);
    expect(keychain.visits()).toEqual([]);
  });

  it('no profile, keys from the environment: the table says how to create one, then what is in use', async ({ sandbox, cip }) => {
    const result = await cip(['auth', 'status'], {
      keychain: fakeKeychain(),
      terminalColumns: 120,
      spinners: true,
      env: {
        CIP_BASE_URL: sandbox.url,
        CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
        CIP_API_KEY: sandbox.keys.apiKey,
        CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
      },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      "No profiles. Run 'cip auth login' to create one.",
      'A command run now would use no profile (every credential from the environment):',
    ]);
    noKeys(sandbox, result);
  });

  it('no profile and nothing usable: the table is only the error; JSON is an empty list, then the error', async ({ cip }) => {
    const configDir = tempDir();
    const table = await cip(['auth', 'status'], { configDir, terminalColumns: 120, spinners: true });
    expect(table.exitCode).toBe(3);
    expect(table.stdout).toBe('');
    const json = await cip(['auth', 'status', '--json'], { configDir });
    expect(json.exitCode).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual([]);
    expect(expectOneErrorLine(json.stderr)).toBe(expectOneErrorLine(table.stderr));
  });
});

describe('auth logout', () => {
  it('removes a keychain profile’s entry from the keychain', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox), dev: plainProfile() } });
    keychain.put(service(sandbox), 'prod', KEYS(sandbox));
    const result = await cip(['auth', 'logout'], { keychain, configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("Removed profile 'prod'. Active profile: 'dev'.\n");
    expect(keychain.entries()).toEqual([]);
    expect(keychain.visits()).toEqual([`delete ${service(sandbox)} prod`]);
    expect(readConfig(configDir)).toEqual({ activeProfile: 'dev', profiles: { dev: plainProfile() } });
  });

  it('a keychain that will not remove the keys: the profile is gone all the same, exit 9, naming the entry left', async ({
    cip,
    sandbox,
  }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox) } });
    keychain.put(service(sandbox), 'prod', KEYS(sandbox));
    const result = await cip(['auth', 'logout', '--profile', 'prod'], { keychain, configDir, env: { FAKE_KC_FAIL: 'delete' } });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toBe(
      `error: removed profile 'prod', but not its keys from the keychain: delete refused (they are still there (service '${service(sandbox)}', account 'prod'); remove them with your keychain's own tool)\n`,
    );
    expect(readConfig(configDir)).toEqual({ profiles: {} });
  });

  it('interrupted while the keys are being removed: exit 130, the profile gone, no claim the keys are left', async ({ cip, sandbox }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'prod', profiles: { prod: keychainProfile(sandbox) } });
    const result = await cip(['auth', 'logout'], { keychain, configDir, ...interruptAt('remove') });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).not.toContain('still there');
    expect(readConfig(configDir)).toEqual({ profiles: {} });
  });

  it('a profile with its keys in the file: the keychain is not visited', async ({ cip }) => {
    const keychain = fakeKeychain();
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'dev', profiles: { dev: plainProfile() } });
    const result = await cip(['auth', 'logout'], { keychain, configDir });
    expect(result.exitCode).toBe(0);
    expect(keychain.visits()).toEqual([]);
  });

  const three = { a: plainProfile(), b: plainProfile(), c: plainProfile() };
  it.for<[string, { activeProfile?: string; profiles: Record<string, object> }, string, string | undefined]>([
    ['the active one, one left', { activeProfile: 'a', profiles: { a: plainProfile(), b: plainProfile() } }, 'a', 'b'],
    ['the active one, two left', { activeProfile: 'a', profiles: three }, 'a', undefined],
    ['another, the active one stays', { activeProfile: 'a', profiles: three }, 'c', 'a'],
    [
      'another, with the active one gone already and one left',
      { activeProfile: 'gone', profiles: { a: plainProfile(), b: plainProfile() } },
      'b',
      'a',
    ],
    ['another, with the active one gone already and two left', { activeProfile: 'gone', profiles: three }, 'b', undefined],
    ['another, with none active and one left', { profiles: { a: plainProfile(), b: plainProfile() } }, 'b', undefined],
  ])('logging out of %s', async ([_name, data, name, active], { cip }) => {
    const configDir = tempDir();
    writeConfig(configDir, data);
    const result = await cip(['auth', 'logout', '--profile', name], { configDir, keychain: fakeKeychain() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `Removed profile '${name}'.${active ? ` Active profile: '${active}'.` : " No profile is active; choose one with 'cip auth use <name>'."}\n`,
    );
    const after = readConfig(configDir) as { activeProfile?: string; profiles: object };
    expect(after.activeProfile).toBe(active);
    expect('activeProfile' in after).toBe(active !== undefined);
    expect(Object.keys(after.profiles)).toEqual(Object.keys(data.profiles).filter((other) => other !== name));
  });
});

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
