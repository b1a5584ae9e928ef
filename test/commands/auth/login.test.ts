// `cip auth login` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, afterAll, beforeEach, beforeAll } from 'vitest';
import { Context } from '../../../src/context.js';
import { expectOneErrorLine, loginArgs, readConfig, tempDir } from '../../helpers/cli.js';
import { epochSeconds, makeJwt } from '../../helpers/jwt.js';
import { rawHttpServer, type RawHttpServer } from '../../helpers/raw-http.js';
import { fakeKeychain, failingUpdate, interruptAt, noKeychain } from '../../helpers/fake-keychain.js';
import { it, test, type Fixtures } from '../../helpers/fixture.js';
import { type Sandbox } from '../../../src/sandbox/index.js';
import { refusedUrl } from '../../helpers/ports.js';
import { writeProfiles, PROTECTED_SANDBOX } from '../../helpers/protected-profiles.js';
import {
  GUID,
  TOKEN_ENTERPRISE,
  SUB_KEY,
  TOKEN,
  OPAQUE,
  NOT_ASCII,
  answer,
  OK,
  configWith,
  noSecrets,
  API_KEY,
  requestHeaders,
} from '../../helpers/token-server.js';
import { keyFiles, configPath, service, KEYS, FILE, otherUrl, noKeys, writeConfig } from '../../helpers/keychain-profiles.js';
import { login, OTHER_ENTERPRISE, keyFiles as profileKeyFiles } from '../../helpers/profiles.js';

describe('with the keychain and at the edges', () => {
  test.override({ sandboxOptions: { seed: 1 } });

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
      const result = await cip(
        ['auth', 'login', ...GUID(sandbox), '--api-key-file', '-', '--subscription-key-file', keyFiles(sandbox).sub],
        {
          configDir,
          env: FILE,
          input: `${sandbox.keys.apiKey}\n`,
        },
      );
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
});

describe('profiles and the config file', () => {
  test.override({ sandboxOptions: { seed: 2 } });

  // The keys in files of their own, as auth login reads them (not the keychain tests' keyFiles above).
  const keyFiles = profileKeyFiles;

  describe('cip auth login', () => {
    it('verifies the keys, stores the first profile as active, in a private file', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await login(cip, configDir, sandbox);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/profile 'default'.*active/);
      expect(sandbox.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /ms/Environments']);
      expect(readConfig(configDir)).toEqual({
        activeProfile: 'default',
        profiles: {
          default: {
            baseUrl: sandbox.url,
            enterpriseId: sandbox.keys.enterpriseId,
            keys: 'file',
            apiKey: sandbox.keys.apiKey,
            subscriptionKey: sandbox.keys.subscriptionKey,
          },
        },
      });
      expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);

      const list = await cip(['env', 'list'], { configDir });
      expect(list.exitCode).toBe(0);
      expect(JSON.parse(list.stdout)).toHaveLength(2);
    });

    it('takes keys from the environment and from stdin', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(
        ['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId, '--api-key-file', '-'],
        {
          configDir,
          input: `${sandbox.keys.apiKey}\n`,
          env: { CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey },
        },
      );
      expect(result.exitCode).toBe(0);
      expect(readConfig(configDir)).toMatchObject({
        profiles: { default: { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey } },
      });
    });

    it('without a terminal, a missing value is exit 2 naming it, and nothing is saved', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId], {
        configDir,
        env: { CIP_API_KEY: 'x'.repeat(20) },
      });
      expect(result.exitCode).toBe(2);
      const line = expectOneErrorLine(result.stderr);
      expect(line).toMatch(/missing subscription key/);
      expect(line).not.toMatch(/missing API key/);
      expect(line).toContain('https://app.copyl.com/en/itops/secrets');
      expect(readConfig(configDir)).toBeUndefined();
      expect(sandbox.requests).toHaveLength(0);
    });

    it('refuses an enterprise id that is not a GUID (exit 2)', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const files = keyFiles(sandbox);
      const result = await cip(
        [
          'auth',
          'login',
          '--enterprise-id',
          'not-a-guid',
          '--api-key-file',
          files.apiKeyFile,
          '--subscription-key-file',
          files.subscriptionKeyFile,
        ],
        { configDir },
      );
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/--enterprise-id must be a GUID/);
      expect(readConfig(configDir)).toBeUndefined();
    });

    it('a 401 from the API is exit 3 and nothing is saved', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const wrong = { url: sandbox.url, keys: { ...sandbox.keys, apiKey: 'wrong-api-key-000000000000' } };
      const result = await cip(loginArgs(wrong), { configDir });
      expect(result.exitCode).toBe(3);
      const line = expectOneErrorLine(result.stderr);
      expect(line).toMatch(/HTTP 401.*nothing was saved/);
      expect(line).not.toContain('wrong-api-key');
      expect(readConfig(configDir)).toBeUndefined();
    });

    it('a network failure is exit 8 and nothing is saved', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(loginArgs(sandbox, [], await refusedUrl('/ms')), { configDir });
      expect(result.exitCode).toBe(8);
      expect(expectOneErrorLine(result.stderr)).toMatch(/connection refused.*nothing was saved/);
      expect(readConfig(configDir)).toBeUndefined();
    });

    it('--no-verify saves without calling the API', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await login(cip, configDir, sandbox, ['--no-verify']);
      expect(result.exitCode).toBe(0);
      expect(sandbox.requests).toHaveLength(0);
      expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
    });

    it('never accepts a key as an option value', async ({ cip }) => {
      const result = await cip(['auth', 'login', '--api-key', 'secret-value'], {});
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/unknown option '--api-key'/);
    });
  });
});

describe('logging in again', () => {
  // Logging in again to a profile that exists: what the login gives replaces what the profile had, and the rest is
  // kept (its subscription key, API key or token, base URL, enterprise id, where its keys are kept, its protected
  // mark), so that the hints cip prints for a token that expired or was refused work as printed, in a pipe. A
  // change of kind says what it dropped; another host keeps no keys.

  test.override({ sandboxOptions: { seed: 1 } });

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

  /** An API key profile (default 'prod') in the file (CIP_CREDENTIAL_STORE=file, as the tests keep keys). */
  async function keyProfile({ sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>, profile = 'prod'): Promise<string> {
    const configDir = tempDir();
    const paths = files({ api: sandbox.keys.apiKey, sub: sandbox.keys.subscriptionKey });
    const login = await cip(
      [
        'auth',
        'login',
        '--profile',
        profile,
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
    it('a token that expired: the hint, run with the new token on stdin, replaces the token and keeps the rest', async ({
      sandbox,
      cip,
    }) => {
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

      const enterprise = await cip(['auth', 'login', '--profile', 'prod', '--enterprise-id', OTHER_ENTERPRISE, '--no-verify'], {
        configDir,
      });
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
      const configDir = await keyProfile({ sandbox, cip }, 'p');
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
      expect(withId.stderr).toContain(
        "Profile 'ci' now holds an API key instead of a token: dropped its token; kept its subscription key.",
      );
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
        [
          'auth',
          'login',
          '--profile',
          'ci',
          '--token-file',
          '-',
          '--base-url',
          `${new URL(sandbox.url).origin}/elsewhere/ms`,
          '--no-verify',
        ],
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
});

describe('what login asks and takes', () => {
  // auth login at a terminal (questions answered as they appear) and the edges of its inputs.

  test.override({ sandboxOptions: { seed: 1 } });

  const GUID_Q = 'Enterprise id (GUID): ';

  const API_Q = 'API key (hidden): ';

  const SUB_Q = 'Subscription key (hidden): ';

  describe('auth login asks for what is missing', () => {
    it('asks for the enterprise and both keys, never shows the keys, and saves them', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(['auth', 'login', '--base-url', sandbox.url], {
        configDir,
        answers: [
          [GUID_Q, `${sandbox.keys.enterpriseId}\n`],
          [API_Q, `${sandbox.keys.apiKey}\r`],
          [SUB_Q, `${sandbox.keys.subscriptionKey}\r`],
        ],
      });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('Find your API key and subscription key at https://app.copyl.com/en/itops/secrets');
      expect(result.stderr).not.toContain(sandbox.keys.apiKey);
      expect(result.stderr).not.toContain(sandbox.keys.subscriptionKey);
      expect(result.stderr).toContain(`Logged in: profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.`);
      expect(readConfig(configDir)).toMatchObject({
        activeProfile: 'default',
        profiles: { default: { apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey } },
      });
    });

    it('asks again after an enterprise id that is not a GUID, and after a key that is too short or empty', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--no-verify'], {
        configDir,
        answers: [
          [GUID_Q, 'not-a-guid\n'],
          [GUID_Q, `${sandbox.keys.enterpriseId}\n`],
          [API_Q, 'short\r'],
          [API_Q, '\r'],
          [API_Q, `x\u007fy\u007f${sandbox.keys.apiKey}\r`],
          [SUB_Q, `${sandbox.keys.subscriptionKey}\n`],
        ],
      });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain("the enterprise id must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not 'not-a-guid'");
      expect(result.stderr.split(API_Q)).toHaveLength(4);
      expect(readConfig(configDir)).toMatchObject({
        profiles: { default: { apiKey: sandbox.keys.apiKey, enterpriseId: sandbox.keys.enterpriseId } },
      });
    });

    it.for<[string, string]>([
      ['Ctrl-C', '\u0003'],
      ['Ctrl-D on an empty line', '\u0004'],
    ])('%s at a hidden question stops: exit 130, nothing saved', async ([_name, key], { sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(['auth', 'login', '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId], {
        configDir,
        answers: [[API_Q, key]],
      });
      expect(result.exitCode).toBe(130);
      expect(readConfig(configDir)).toBeUndefined();
    });
  });

  describe('auth login inputs', () => {
    it('an empty key file is exit 2, naming it', async ({ sandbox, cip }) => {
      const dir = tempDir();
      writeFileSync(join(dir, 'empty'), '\n');
      writeFileSync(join(dir, 'sub'), sandbox.keys.subscriptionKey);
      const result = await cip(
        [
          'auth',
          'login',
          '--enterprise-id',
          sandbox.keys.enterpriseId,
          '--api-key-file',
          join(dir, 'empty'),
          '--subscription-key-file',
          join(dir, 'sub'),
        ],
        {},
      );
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(`error: --api-key-file ${join(dir, 'empty')} is empty`);
    });

    it('both keys from stdin is refused', async ({ cip }) => {
      const result = await cip(['auth', 'login', '--api-key-file', '-', '--subscription-key-file', '-'], { input: 'x' });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe('error: only one of --api-key-file and --subscription-key-file can read stdin');
    });

    it('keys the API accepts but that may not list (403) are saved, with a warning', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      sandbox.inject({ fault: { kind: 'status', status: 403, body: '{"message":"no list"}' } });
      const result = await cip(loginArgs(sandbox), { configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('warning: the keys were accepted, but they may not list environments (HTTP 403)');
      expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
    });

    it('a second profile is saved but not made active, and says how to switch', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
      const second = await cip(loginArgs(sandbox, ['--no-verify', '--profile', 'qa']), { configDir });
      expect(second.stderr).toBe(
        `Saved (not checked): profile 'qa' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}); make it active with 'cip auth use qa'.\n` +
          `warning: the keys of profile 'qa' are stored in plain text in ${join(configDir, 'config.json')} (CIP_CREDENTIAL_STORE=file)\n`,
      );
      expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
    });

    it('logging in again keeps the base URL and enterprise the profile has', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
      const dir = tempDir();
      writeFileSync(join(dir, 'api'), `${sandbox.keys.apiKey}\n`);
      writeFileSync(join(dir, 'sub'), `${sandbox.keys.subscriptionKey}\n`);
      const again = await cip(['auth', 'login', '--api-key-file', join(dir, 'api'), '--subscription-key-file', join(dir, 'sub')], {
        configDir,
      });
      expect(again.exitCode).toBe(0);
      expect(readConfig(configDir)).toMatchObject({
        profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId } },
      });
      expect(sandbox.requests.at(-1)?.url).toBe('/ms/Environments');
    });
  });

  describe('auth login --migrate', () => {
    it('moves keys only: other login options are refused (exit 2) and nothing changes', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
      const before = readConfig(configDir);
      const result = await cip(loginArgs(sandbox, ['--migrate', '--no-verify']), { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        'error: --migrate moves the keys a profile has; it takes no --api-key-file, --subscription-key-file, --no-verify, --base-url, --enterprise-id (log in without --migrate to change them)',
      );
      expect(readConfig(configDir)).toEqual(before);
    });

    it('an unknown profile is exit 2 and lists the known ones', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      expect((await cip(loginArgs(sandbox, ['--no-verify']), { configDir })).exitCode).toBe(0);
      const result = await cip(['auth', 'login', '--profile', 'nope', '--migrate'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe("error: unknown profile 'nope' (known profiles: default)");
    });
  });
});

describe('what a new user hits first', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('auth login: what a failed check points at', () => {
    it('a network failure says to check the base URL and the network, not the keys', async ({ sandbox, cip }) => {
      const url = await refusedUrl('/ms');
      const configDir = tempDir();
      const args = loginArgs(sandbox).map((arg) => (arg === sandbox.url ? url : arg));
      const result = await cip(args, { configDir });
      expect(result.exitCode).toBe(8);
      const line = expectOneErrorLine(result.stderr);
      expect(line).toMatch(
        new RegExp(
          `\\(nothing was saved; check the base URL \\(${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\) and the network, or pass --no-verify to save them unchecked\\)$`,
        ),
      );
      expect(line).not.toContain('check the keys');
      expect(readConfig(configDir)).toBeUndefined();
    });

    it('a 401 says to check the keys', async ({ sandbox, cip }) => {
      const args = loginArgs(sandbox);
      const keyFile = args[args.indexOf('--api-key-file') + 1]!;
      writeFileSync(keyFile, 'wrong-api-key-000000000000');
      const result = await cip(args);
      expect(result.exitCode).toBe(3);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /\(nothing was saved; check the keys at https:\/\/app\.copyl\.com\/en\/itops\/secrets, or pass --no-verify to save them unchecked\)$/,
      );
    });

    it('a 404 says to check the base URL, not the keys', async ({ sandbox, cip }) => {
      const args = loginArgs(sandbox);
      args[args.indexOf('--base-url') + 1] = `${sandbox.url}/nothing-here`;
      const result = await cip(args);
      expect(result.exitCode).toBe(5);
      expect(expectOneErrorLine(result.stderr)).toContain(
        `(nothing was saved; check the base URL (${sandbox.url}/nothing-here) and the enterprise id, or pass --no-verify to save them unchecked)`,
      );
    });

    // The harness keeps keys in the file (CIP_CREDENTIAL_STORE=file), which login says after its line.
    const plainText = (configDir: string) =>
      `warning: the keys of profile 'default' are stored in plain text in ${join(configDir, 'config.json')} (CIP_CREDENTIAL_STORE=file)\n`;

    it('--no-verify says the profile was saved without a check', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(loginArgs(sandbox, ['--no-verify']), { configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        `Saved (not checked): profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n${plainText(configDir)}`,
      );
      expect(sandbox.requests).toHaveLength(0);
    });

    it('a checked login still says Logged in', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      const result = await cip(loginArgs(sandbox), { configDir });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        `Logged in: profile 'default' (enterprise ${sandbox.keys.enterpriseId}, ${sandbox.url}) is active.\n${plainText(configDir)}`,
      );
    });
  });

  describe('prompts under CI', () => {
    it('at a terminal with CI set, login says prompts are off under CI, not that there is no terminal', async ({ sandbox, cip }) => {
      const result = await cip(['auth', 'login', '--base-url', sandbox.url], { env: { CI: 'true' }, interactive: true });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        'error: missing enterprise id (--enterprise-id or CIP_ENTERPRISE_ID), API key (--api-key-file or CIP_API_KEY), subscription key (--subscription-key-file or CIP_SUBSCRIPTION_KEY) (prompts are off under CI; find your keys at https://app.copyl.com/en/itops/secrets)',
      );
    });

    it('without a terminal, it says there is no terminal to ask', async ({ sandbox, cip }) => {
      const result = await cip(['auth', 'login', '--base-url', sandbox.url]);
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/\(there is no terminal to ask; find your keys at /);
    });

    it('at a terminal under --quiet, it says prompts are off under --quiet', async ({ sandbox, cip }) => {
      const result = await cip(['auth', 'login', '--quiet', '--base-url', sandbox.url], { interactive: true });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/\(prompts are off under --quiet; find your keys at /);
    });
  });
});

describe('protected profiles', () => {
  test.override({ sandboxOptions: PROTECTED_SANDBOX });

  // The test's config folder holds two profiles for the sandbox: prod (protected, active) and staging.
  test.override('configDir', ({ sandbox }) => {
    const configDir = tempDir();
    writeProfiles(sandbox, configDir, { prod: { protected: true }, staging: {} }, 'prod');
    return configDir;
  });

  describe('auth login --protect', () => {
    it('marks the new profile; logging in again keeps it protected; --migrate takes no --protect', async ({ sandbox, cip, configDir }) => {
      configDir = tempDir();
      const first = await cip([...loginArgs(sandbox), '--profile', 'live', '--protect'], { configDir });
      expect(first.exitCode).toBe(0);
      expect(first.stderr).toContain(
        "Profile 'live' is protected: deletes and other wide changes in it ask for its name (--confirm live in a script).",
      );
      expect(readConfig(configDir)).toMatchObject({ profiles: { live: { protected: true } } });
      const again = await cip([...loginArgs(sandbox), '--profile', 'live'], { configDir });
      expect(again.exitCode).toBe(0);
      expect(readConfig(configDir)).toMatchObject({ profiles: { live: { protected: true } } });
      const migrate = await cip(['auth', 'login', '--profile', 'live', '--migrate', '--protect'], { configDir });
      expect(migrate.exitCode).toBe(2);
      expect(expectOneErrorLine(migrate.stderr)).toContain('--migrate moves the keys a profile has; it takes no --protect');
      const plain = await cip([...loginArgs(sandbox), '--profile', 'other'], { configDir });
      expect(plain.exitCode).toBe(0);
      expect((readConfig(configDir) as { profiles: { other: object } }).profiles.other).not.toHaveProperty('protected');
    });
  });
});

describe('tokens', () => {
  // A server of the describe's own, answering as each test says.
  let server!: RawHttpServer;
  beforeAll(async () => {
    server = await rawHttpServer();
  });
  const apiKeyProfile = () => ({ baseUrl: server.url, enterpriseId: GUID, apiKey: API_KEY, subscriptionKey: SUB_KEY });

  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    server.respond(OK);
  });

  const headers = (index = -1) => requestHeaders(server, index);

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
      expect(result.stderr).toContain(
        `Logged in: profile 'ci' (with a token for enterprise ${TOKEN_ENTERPRISE}, ${server.url}) is active.`,
      );
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
      [
        ['--api-key-file', 'k.txt'],
        'error: --token-file and --api-key-file cannot be used together: a profile holds a token or an API key',
      ],
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
});
