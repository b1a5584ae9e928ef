// The credential rule (src/config/credentials/), through the Context: the order of precedence (flags, then the
// environment, then the project file, then the active profile) in every combination, which profile is active,
// where `cip auth login` keeps keys (CIP_CREDENTIAL_STORE), when a profile whose keys are in the keychain makes
// cip visit it (only for the keys the environment does not give), the profile store as the settings open it,
// and, in the exact words a user reads, the warnings about variables a profile ignores or that override it, the
// errors for what is missing or broken, and where a bad value came from. Real files in temporary folders.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { DEFAULT_GLOBALS, type GlobalOptions } from '../../../../src/cli/globals.js';
import { KeychainError, type Keychain, type KeychainEntry, type StoredKeys, keychainKeys } from '../../../../src/config/store/keychain.js';
import { resolveSettings, type SettingsInputs, type ResolvedSettings } from '../../../../src/config/credentials/settings.js';
import { openProfileStore, type Profile, type KeychainProfile } from '../../../../src/config/store.js';
import { DEFAULT_BASE_URL } from '../../../../src/config/validate.js';
import type { Context } from '../../../../src/context.js';
import type { Env } from '../../../../src/env.js';
import { AuthError, CipError, ConfigError, UsageError } from '../../../../src/errors.js';
import { tempDir } from '../../../helpers/cli.js';
import { caught } from '../../../helpers/errors.js';
import { drain, fakeIO, testContext } from '../../../helpers/io.js';
import { flat } from '../../../helpers/settings.js';

const GUID_A = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const GUID_B = '0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34';
const GUID_C = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const GUID_D = '11111111-2222-4333-8444-555555555555';

const POSIX = process.platform !== 'win32';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cip-settings-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const stderrs = new WeakMap<Context, PassThrough>();

function makeContext(env: Env = {}, globals: Partial<GlobalOptions> = {}): Context {
  const stderr = new PassThrough();
  const ctx = testContext(fakeIO({ stderr }), { CIP_CONFIG_DIR: dir, ...env }, '0.0.0');
  ctx.globals = { ...DEFAULT_GLOBALS, ...globals };
  stderrs.set(ctx, stderr);
  return ctx;
}

const configPath = () => join(dir, 'config.json');

function stderrOf(ctx: Context): string {
  const stderr = stderrs.get(ctx);
  return stderr ? drain(stderr) : '';
}

function writeConfig(data: unknown): void {
  writeFileSync(configPath(), typeof data === 'string' ? data : JSON.stringify(data, null, 2), { mode: 0o600 });
}

const profileA: Profile = {
  baseUrl: 'https://profile-a.example.com/ms',
  enterpriseId: GUID_A,
  apiKey: 'profile-a-api-key-0123456789',
  subscriptionKey: 'profile-a-sub-key-0123456789',
};
const profileB: Profile = {
  baseUrl: 'https://profile-b.example.com/ms',
  enterpriseId: GUID_B,
  apiKey: 'profile-b-api-key-0123456789',
  subscriptionKey: 'profile-b-sub-key-0123456789',
};
const defaultProfile: Profile = {
  enterpriseId: GUID_C,
  apiKey: 'default-api-key-0123456789',
  subscriptionKey: 'default-sub-key-0123456789',
};

const envCredentials = { CIP_API_KEY: 'env-api-key-0123456789', CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789', CIP_ENTERPRISE_ID: GUID_D };

const failure = (promise: Promise<unknown>) => caught(promise, CipError);

const said = (error: CipError) => `${error.message} ${error.hint ?? ''}`;

describe('settings: precedence flag > environment > profile > default', () => {
  beforeEach(() => writeConfig({ activeProfile: 'a', profiles: { a: profileA } }));

  it.each([
    [
      'the flag',
      { baseUrl: 'https://flag.example.com/ms/' },
      { CIP_BASE_URL: 'https://env.example.com/ms' },
      'https://flag.example.com/ms',
    ],
    ['the environment', {}, { CIP_BASE_URL: 'https://env.example.com/ms/' }, 'https://env.example.com/ms'],
    ['the profile', {}, {}, 'https://profile-a.example.com/ms'],
    ['a blank environment value falls through to the profile', {}, { CIP_BASE_URL: '' }, 'https://profile-a.example.com/ms'],
  ])('base URL from %s', async (_name, globals, env, expected) => {
    const settings = flat(await makeContext(env, globals).settings());
    expect(settings.baseUrl).toBe(expected);
    expect(settings.profile).toBe('a');
  });

  it('base URL defaults when the profile has none', async () => {
    writeConfig({ activeProfile: 'd', profiles: { d: defaultProfile } });
    expect(flat(await makeContext().settings()).baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe('https://api.copyl.com/ms');
  });

  it('base URL defaults when only the environment gives credentials', async () => {
    rmSync(configPath());
    expect(flat(await makeContext(envCredentials).settings()).baseUrl).toBe(DEFAULT_BASE_URL);
  });

  it.each([
    ['the flag', { enterpriseId: GUID_C }, { CIP_ENTERPRISE_ID: GUID_D }, GUID_C],
    ['the environment', {}, { CIP_ENTERPRISE_ID: GUID_D }, GUID_D],
    ['the profile', {}, {}, GUID_A],
    ['the environment, trimmed', {}, { CIP_ENTERPRISE_ID: ` ${GUID_D}\n` }, GUID_D],
  ])('enterprise id from %s', async (_name, globals, env, expected) => {
    expect(flat(await makeContext(env, globals).settings()).enterpriseId).toBe(expected);
  });

  it.each([
    ['the environment', { CIP_API_KEY: 'env-api-key-0123456789' }, 'env-api-key-0123456789'],
    ['the profile', {}, 'profile-a-api-key-0123456789'],
    ['the profile when the environment value is blank', { CIP_API_KEY: ' ' }, 'profile-a-api-key-0123456789'],
  ])('API key from %s', async (_name, env, expected) => {
    const settings = flat(await makeContext(env).settings());
    expect(settings.apiKey).toBe(expected);
    expect(settings.subscriptionKey).toBe('profile-a-sub-key-0123456789');
  });

  it.each([
    ['the environment', { CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' }, 'env-sub-key-0123456789'],
    ['the profile', {}, 'profile-a-sub-key-0123456789'],
  ])('subscription key from %s', async (_name, env, expected) => {
    const settings = flat(await makeContext(env).settings());
    expect(settings.subscriptionKey).toBe(expected);
    expect(settings.apiKey).toBe('profile-a-api-key-0123456789');
  });

  it('mixes sources value by value', async () => {
    const settings = flat(
      await makeContext(
        { CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789', CIP_BASE_URL: 'https://env.example.com/ms' },
        { enterpriseId: GUID_C },
      ).settings(),
    );
    expect(settings).toStrictEqual({
      profile: 'a',
      baseUrl: 'https://env.example.com/ms',
      enterpriseId: GUID_C,
      apiKey: 'profile-a-api-key-0123456789',
      subscriptionKey: 'env-sub-key-0123456789',
      sources: { baseUrl: 'CIP_BASE_URL', enterpriseId: '--enterprise-id', apiKey: "profile 'a'", subscriptionKey: 'CIP_SUBSCRIPTION_KEY' },
    });
  });

  it('says which variables override the active profile, in one warning line', async () => {
    const ctx = makeContext({ CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789', CIP_BASE_URL: 'https://env.example.com/ms' });
    await ctx.settings();
    expect(stderrOf(ctx)).toBe("warning: CIP_SUBSCRIPTION_KEY and CIP_BASE_URL from the environment override profile 'a'\n");
  });

  it('takes everything from the environment when all three credentials are there', async () => {
    const settings = flat(await makeContext(envCredentials).settings());
    expect(settings).toMatchObject({ apiKey: 'env-api-key-0123456789', subscriptionKey: 'env-sub-key-0123456789', enterpriseId: GUID_D });
  });
});

describe('settings: which profile', () => {
  beforeEach(() => writeConfig({ activeProfile: 'a', profiles: { a: profileA, b: profileB, default: defaultProfile } }));

  it.each([
    ['--profile', { CIP_PROFILE: 'default' }, { profile: 'b' }, 'b', 'profile-b-api-key-0123456789'],
    ['CIP_PROFILE', { CIP_PROFILE: 'b' }, {}, 'b', 'profile-b-api-key-0123456789'],
    ['the active profile', {}, {}, 'a', 'profile-a-api-key-0123456789'],
  ])('uses %s', async (_name, env, globals, profile, apiKey) => {
    const settings = flat(await makeContext(env, globals).settings());
    expect(settings.profile).toBe(profile);
    expect(settings.apiKey).toBe(apiKey);
  });

  it("falls back to 'default' without an active profile", async () => {
    writeConfig({ profiles: { a: profileA, default: defaultProfile } });
    const settings = flat(await makeContext().settings());
    expect(settings.profile).toBe('default');
    expect(settings.apiKey).toBe('default-api-key-0123456789');
  });

  it("falls back to 'default' when the active profile no longer exists", async () => {
    writeConfig({ activeProfile: 'gone', profiles: { a: profileA, default: defaultProfile } });
    expect(flat(await makeContext().settings()).profile).toBe('default');
  });

  it.each([
    ['CIP_PROFILE', { CIP_PROFILE: 'b' }, {}],
    ['--profile', {}, { profile: 'b' }],
  ])('uses a profile named by %s as it is, ignoring the credential variables with a warning', async (by, env, globals) => {
    const ctx = makeContext({ ...envCredentials, CIP_BASE_URL: 'https://env.example.com/ms', ...env }, globals);
    const settings = flat(await ctx.settings());
    expect(settings).toMatchObject({
      profile: 'b',
      apiKey: 'profile-b-api-key-0123456789',
      subscriptionKey: 'profile-b-sub-key-0123456789',
      enterpriseId: GUID_B,
      baseUrl: 'https://profile-b.example.com/ms',
    });
    expect(stderrOf(ctx)).toBe(
      `warning: using profile 'b' (named by ${by}): ignoring CIP_API_KEY, CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID and CIP_BASE_URL from the environment\n`,
    );
  });

  it('lets flags override a named profile', async () => {
    const settings = flat(
      await makeContext({ CIP_PROFILE: 'b' }, { enterpriseId: GUID_C, baseUrl: 'https://flag.example.com/ms' }).settings(),
    );
    expect(settings).toMatchObject({
      profile: 'b',
      enterpriseId: GUID_C,
      baseUrl: 'https://flag.example.com/ms',
      apiKey: 'profile-b-api-key-0123456789',
    });
    expect(settings.sources).toStrictEqual({
      baseUrl: '--base-url',
      enterpriseId: '--enterprise-id',
      apiKey: "profile 'b'",
      subscriptionKey: "profile 'b'",
    });
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])(
    'treats %s as a profile name, not an Object member',
    async (name) => {
      const error = await failure(makeContext({}, { profile: name }).settings());
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`unknown profile '${name}'`);
    },
  );

  it.each([
    ['--profile', {}, { profile: 'nope' }],
    ['CIP_PROFILE', { CIP_PROFILE: 'nope' }, {}],
  ])('refuses an unknown profile named by %s, listing the known ones', async (_name, env, globals) => {
    const error = await failure(makeContext(env, globals).settings());
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain("'nope'");
    for (const name of ['a', 'b', 'default']) expect(said(error)).toContain(name);
  });

  it('refuses an unknown profile when none exist, saying how to create it', async () => {
    rmSync(configPath());
    const error = await failure(makeContext({}, { profile: 'nope' }).settings());
    expect(error.exitCode).toBe(2);
    expect(said(error)).toContain('cip auth login');
  });
});

describe('settings: missing or bad credentials', () => {
  it('fails with exit code 3 when there are no credentials at all', async () => {
    const error = await failure(makeContext().settings());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
    expect(said(error)).toContain('cip auth login');
  });

  it('fails with exit code 3 when the store has profiles but none is active or default', async () => {
    writeConfig({ profiles: { a: profileA } });
    const error = await failure(makeContext().settings());
    expect(error.exitCode).toBe(3);
  });

  it.each([
    [{ CIP_API_KEY: 'k' }, ['subscription key', 'enterprise id'], ['API key']],
    [{ CIP_API_KEY: 'k', CIP_SUBSCRIPTION_KEY: 's' }, ['enterprise id', 'CIP_ENTERPRISE_ID'], ['API key', 'subscription key']],
    [{ CIP_SUBSCRIPTION_KEY: 's', CIP_ENTERPRISE_ID: GUID_A }, ['API key', 'CIP_API_KEY'], ['subscription key', 'enterprise id']],
  ])('fails with exit code 3 naming what is missing from %j', async (env, missing, present) => {
    const error = await failure(makeContext(env).settings());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
    for (const what of missing) expect(error.message).toContain(what);
    for (const what of present) expect(error.message).not.toContain(what);
  });

  it('names the profile a partial credential set came from', async () => {
    writeConfig({ activeProfile: 'a', profiles: { a: { ...profileA, apiKey: '' } } });
    const error = await failure(makeContext().settings());
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain('API key');
    expect(error.message).toContain("'a'");
  });

  it.each([
    ['CIP_ENTERPRISE_ID', { ...envCredentials, CIP_ENTERPRISE_ID: 'not-a-guid' }, {}],
    ['CIP_ENTERPRISE_ID', { ...envCredentials, CIP_ENTERPRISE_ID: `{${GUID_A}}` }, {}],
    ['--enterprise-id', envCredentials, { enterpriseId: '1234' }],
  ])('fails with exit code 2 for a bad GUID from %s', async (source, env, globals) => {
    const error = await failure(makeContext(env, globals).settings());
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(source);
  });

  it('fails with exit code 2 for a bad GUID stored in a profile, naming the profile', async () => {
    writeConfig({ activeProfile: 'a', profiles: { a: { ...profileA, enterpriseId: 'oops' } } });
    const error = await failure(makeContext().settings());
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain("'a'");
  });

  it.each([
    [{ CIP_BASE_URL: 'http://api.example.com/ms' }, 'CIP_BASE_URL'],
    [{ CIP_BASE_URL: 'ftp://x' }, 'CIP_BASE_URL'],
  ])('fails with exit code 2 for a refused base URL %j', async (env, source) => {
    const error = await failure(makeContext({ ...envCredentials, ...env }).settings());
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(source);
  });

  it('allows http to another host with CIP_ALLOW_HTTP=1', async () => {
    const settings = flat(
      await makeContext({ ...envCredentials, CIP_BASE_URL: 'http://api.example.com/ms', CIP_ALLOW_HTTP: '1' }).settings(),
    );
    expect(settings.baseUrl).toBe('http://api.example.com/ms');
  });
});

describe('settings: a corrupted config file', () => {
  beforeEach(() => writeConfig('{not json'));

  it('is not read when the environment holds every credential and no profile is named', async () => {
    const settings = flat(await makeContext(envCredentials).settings());
    expect(settings).toStrictEqual({
      profile: undefined,
      baseUrl: DEFAULT_BASE_URL,
      enterpriseId: GUID_D,
      apiKey: 'env-api-key-0123456789',
      subscriptionKey: 'env-sub-key-0123456789',
      sources: {
        baseUrl: 'the default',
        enterpriseId: 'CIP_ENTERPRISE_ID',
        apiKey: 'CIP_API_KEY',
        subscriptionKey: 'CIP_SUBSCRIPTION_KEY',
      },
    });
    expect(readFileSync(configPath(), 'utf8')).toBe('{not json');
  });

  it('fails with exit code 2 naming the file when CIP_PROFILE is set', async () => {
    const error = await failure(makeContext({ ...envCredentials, CIP_PROFILE: 'a' }).settings());
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(configPath());
    expect(readFileSync(configPath(), 'utf8')).toBe('{not json');
  });

  it('fails with exit code 2 naming the file when a credential must come from it', async () => {
    const error = await failure(makeContext({ CIP_API_KEY: 'k' }).settings());
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(configPath());
  });
});

describe('openProfileStore', async () => {
  it.runIf(POSIX)('creates the folder 0700 and the file 0600', async () => {
    const storeDir = join(dir, 'nested', 'cip');
    const store = await openProfileStore(storeDir);
    await store.update((data) => {
      data.profiles.a = profileA;
    });
    expect(store.path).toBe(join(storeDir, 'config.json'));
    expect(statSync(storeDir).mode & 0o777).toBe(0o700);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it.runIf(POSIX)('makes its own open folder private', async () => {
    const storeDir = join(dir, 'open');
    mkdirSync(storeDir, { mode: 0o755 });
    chmodSync(storeDir, 0o755);
    await (
      await openProfileStore(storeDir, { ownFolder: true })
    ).update((data) => {
      data.activeProfile = 'a';
      data.profiles.a = profileA;
    });
    expect(statSync(storeDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(storeDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it.runIf(POSIX)('leaves the file 0600 after an update, even if someone opened it up', async () => {
    writeConfig({ profiles: { a: profileA } });
    chmodSync(configPath(), 0o644);
    await (
      await openProfileStore(dir)
    ).update((data) => {
      data.activeProfile = 'a';
    });
    expect(statSync(configPath()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(configPath(), 'utf8'))).toMatchObject({ activeProfile: 'a', profiles: { a: profileA } });
  });

  it('reads an empty store when there is no file', async () => {
    const store = await openProfileStore(join(dir, 'empty'));
    expect(store.read().profiles).toStrictEqual({});
    expect(store.read().activeProfile).toBeUndefined();
  });

  it('round-trips updates, and a fresh store sees them', async () => {
    const storeDir = join(dir, 'rt');
    const store = await openProfileStore(storeDir);
    const returned = await store.update((data) => {
      data.activeProfile = 'b';
      data.profiles.a = profileA;
      data.profiles.b = profileB;
    });
    expect(returned).toMatchObject({ activeProfile: 'b', profiles: { a: profileA, b: profileB } });
    const again = (await openProfileStore(storeDir)).read();
    expect(again.activeProfile).toBe('b');
    expect(again.profiles).toStrictEqual({ a: profileA, b: profileB });

    await store.update((data) => {
      delete data.profiles.a;
      data.activeProfile = undefined;
    });
    const after = (await openProfileStore(storeDir)).read();
    expect(after.profiles).toStrictEqual({ b: profileB });
    expect(after.activeProfile).toBeUndefined();
  });

  it('reads a change another process made after opening', async () => {
    const storeDir = join(dir, 'shared');
    const store = await openProfileStore(storeDir);
    await store.update((data) => {
      data.profiles.a = profileA;
    });
    await (
      await openProfileStore(storeDir)
    ).update((data) => {
      data.profiles.b = profileB;
    });
    expect(Object.keys(store.read().profiles).sort()).toStrictEqual(['a', 'b']);
  });

  async function expectConfigError(fn: () => unknown, path: string): Promise<ConfigError> {
    let caught: unknown;
    try {
      await fn();
    } catch (error) {
      caught = error;
    }
    expect(caught, 'expected a ConfigError').toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).exitCode).toBe(2);
    expect((caught as ConfigError).message).toContain(path);
    return caught as ConfigError;
  }

  it.each([
    ['invalid JSON', '{not json'],
    ['a truncated file', '{"profiles": {"a": {"apiKey": "x"'],
    ['profiles as an array', '{"profiles": []}'],
    ['a profile missing apiKey', JSON.stringify({ profiles: { a: { enterpriseId: GUID_A, subscriptionKey: 's' } } })],
    ['a profile that is a string', JSON.stringify({ profiles: { a: 'x' } })],
    ['a numeric activeProfile', JSON.stringify({ activeProfile: 1, profiles: {} })],
    ['a bad baseUrl', JSON.stringify({ profiles: { a: { ...profileA, baseUrl: 5 } } })],
    ['a top-level array', '[]'],
    ['a top-level string', '"text"'],
    ['a top-level number', '42'],
    ['a top-level null', 'null'],
  ])('refuses %s with a ConfigError naming the file, and never overwrites it', async (_name, content) => {
    writeFileSync(configPath(), content, { mode: 0o600 });
    const error = await expectConfigError(async () => {
      const store = await openProfileStore(dir);
      await store.update((data) => {
        data.profiles.fresh = profileA;
      });
    }, configPath());
    expect(error.hint ?? '').toMatch(/by hand/);
    expect(readFileSync(configPath(), 'utf8')).toBe(content);
    await expectConfigError(async () => (await openProfileStore(dir)).read(), configPath());
    expect(readFileSync(configPath(), 'utf8')).toBe(content);
  });

  it('leaves no file or folder behind when update is never called', async () => {
    const storeDir = join(dir, 'untouched');
    (await openProfileStore(storeDir)).read();
    expect(existsSync(storeDir)).toBe(false);
  });

  it.runIf(POSIX)('never changes a folder that is not its own, and refuses to store keys where others can write', async () => {
    const shared = join(dir, 'shared-tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const warnings: string[] = [];
    const store = await openProfileStore(shared, { warn: (message) => warnings.push(message) });
    expect(store.read().profiles).toStrictEqual({});
    const error = await expectConfigError(
      () =>
        store.update((data) => {
          data.profiles.a = profileA;
        }),
      shared,
    );
    expect(error.message).toBe(`refusing to store keys in ${shared}: others can write to it (mode 1777)`);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(existsSync(join(shared, 'config.json'))).toBe(false);
    expect(warnings).toEqual([
      `the config folder ${shared} is not private: others can write to it (mode 1777); cip will not store keys in it`,
    ]);
  });
});

function setup(config: unknown, env: Env = {}, globals: Partial<GlobalOptions> = {}) {
  const dir = tempDir();
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  const stderr = new PassThrough();
  const ctx = testContext(fakeIO({ stderr }), { CIP_CONFIG_DIR: dir, ...env }, '0.0.0');
  ctx.globals = { ...DEFAULT_GLOBALS, ...globals };
  return { ctx, stderr: () => drain(stderr) };
}

describe('warnings about the credential variables', () => {
  it('names one ignored variable alone, two joined with "and"', async () => {
    const one = setup({ profiles: { a: profileA } }, { CIP_PROFILE: 'a', CIP_BASE_URL: 'https://x.example/ms' });
    await one.ctx.settings();
    expect(one.stderr()).toBe("warning: using profile 'a' (named by CIP_PROFILE): ignoring CIP_BASE_URL from the environment\n");
    const two = setup({ profiles: { a: profileA } }, { CIP_API_KEY: 'x', CIP_ENTERPRISE_ID: GUID_D }, { profile: 'a' });
    await two.ctx.settings();
    expect(two.stderr()).toBe(
      "warning: using profile 'a' (named by --profile): ignoring CIP_API_KEY and CIP_ENTERPRISE_ID from the environment\n",
    );
  });

  it('says nothing when a named profile meets no credential variables, or only blank ones', async () => {
    const quiet = setup({ profiles: { a: profileA } }, { CIP_PROFILE: 'a', CIP_API_KEY: '  ' });
    expect(flat(await quiet.ctx.settings()).apiKey).toBe(profileA.apiKey);
    expect(quiet.stderr()).toBe('');
  });

  it('says "overrides" for one variable over the active profile', async () => {
    const { ctx, stderr } = setup({ activeProfile: 'a', profiles: { a: profileA } }, { CIP_API_KEY: 'env-api-key-0123456789' });
    expect(flat(await ctx.settings()).apiKey).toBe('env-api-key-0123456789');
    expect(stderr()).toBe("warning: CIP_API_KEY from the environment overrides profile 'a'\n");
  });

  it('says nothing when there is no active profile to override', async () => {
    const { ctx, stderr } = setup(undefined, {
      CIP_API_KEY: 'env-api-key-0123456789',
      CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789',
      CIP_BASE_URL: 'https://env.example/ms',
    });
    const error = await failure(ctx.settings());
    expect(error.message).toBe('missing enterprise id (CIP_ENTERPRISE_ID)');
    expect(stderr()).toBe('');
  });
});

describe('what is missing', () => {
  it('names everything missing from a profile, and the profile', async () => {
    const { ctx } = setup({ activeProfile: 'a', profiles: { a: { enterpriseId: '', apiKey: '', subscriptionKey: '' } } });
    const error = await failure(ctx.settings());
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe(
      "missing API key (CIP_API_KEY), subscription key (CIP_SUBSCRIPTION_KEY), enterprise id (CIP_ENTERPRISE_ID) in profile 'a'",
    );
  });

  it('says "not logged in" only when nothing at all is there', async () => {
    const { ctx } = setup(undefined);
    const error = await failure(ctx.settings());
    expect(error.message).toBe('not logged in: no profile and no credentials in the environment');
    expect(error.hint).toBe("run 'cip auth login', or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID");
  });

  it('says no profile is active, listing the known ones', async () => {
    const { ctx } = setup({ activeProfile: 'gone', profiles: { a: profileA, b: profileA } });
    const error = await failure(ctx.settings());
    expect(error.message).toBe('no profile is active');
    expect(error.hint).toBe("choose one with 'cip auth use <name>' or --profile (known profiles: a, b)");
  });

  it('lists the known profiles when an unknown one is named', async () => {
    const { ctx } = setup({ profiles: { a: profileA, b: profileA } }, {}, { profile: 'c' });
    const error = await failure(ctx.settings());
    expect(error.message).toBe("unknown profile 'c'");
    expect(error.hint).toBe('known profiles: a, b');
  });
});

describe('where a bad value came from', () => {
  it("names a profile's value as the profile's", async () => {
    const { ctx } = setup({ activeProfile: 'a', profiles: { a: { ...profileA, baseUrl: 'ftp://x.example/ms' } } });
    const error = await failure(ctx.settings());
    expect(error.message).toBe("the base URL of profile 'a' must be an https:// URL, not 'ftp://x.example/ms'");
    const guid = setup({ activeProfile: 'a', profiles: { a: { ...profileA, enterpriseId: 'oops' } } });
    expect((await failure(guid.ctx.settings())).message).toBe(
      "the enterprise id of profile 'a' must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not 'oops'",
    );
    const key = setup({ activeProfile: 'a', profiles: { a: { ...profileA, subscriptionKey: 'short' } } });
    expect((await failure(key.ctx.settings())).message).toBe(
      "the subscription key from profile 'a' is not a valid key: it has 5 characters; keys have 16 to 1024",
    );
  });

  it('names a flag or a variable as it is', async () => {
    const env = { CIP_API_KEY: 'env-api-key-0123456789', CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789', CIP_ENTERPRISE_ID: GUID_D };
    const { ctx } = setup(undefined, env, { baseUrl: 'ftp://flag.example/ms' });
    expect((await failure(ctx.settings())).message).toBe("--base-url must be an https:// URL, not 'ftp://flag.example/ms'");
  });

  it('gives the default base URL with the credentials from the environment, and says where each came from', async () => {
    const env = { CIP_API_KEY: 'env-api-key-0123456789', CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789', CIP_ENTERPRISE_ID: GUID_D };
    const { ctx } = setup(undefined, env);
    expect(flat(await ctx.settings())).toStrictEqual({
      profile: undefined,
      baseUrl: 'https://api.copyl.com/ms',
      enterpriseId: GUID_D,
      apiKey: env.CIP_API_KEY,
      subscriptionKey: env.CIP_SUBSCRIPTION_KEY,
      sources: {
        baseUrl: 'the default',
        enterpriseId: 'CIP_ENTERPRISE_ID',
        apiKey: 'CIP_API_KEY',
        subscriptionKey: 'CIP_SUBSCRIPTION_KEY',
      },
    });
  });
});

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const keychainProfile: KeychainProfile = { enterpriseId: GUID, keys: 'keychain', baseUrl: 'https://kc.example.com/ms' };
const stored: StoredKeys = { apiKey: 'keychain-api-key-0123456789', subscriptionKey: 'keychain-sub-key-0123456789' };

const anyFailure = (work: Promise<unknown> | (() => unknown)) => caught(work, Error);

/** A keychain that answers reads with `answer` and records each visit. */
function fakeKeychain(answer: (entries: readonly KeychainEntry[]) => Promise<(StoredKeys | undefined)[]>) {
  const visits: KeychainEntry[][] = [];
  const keychain: Keychain = {
    check: () => Promise.reject(new Error('not expected')),
    read: (entries) => {
      visits.push([...entries]);
      return answer(entries);
    },
    write: () => Promise.reject(new Error('not expected')),
    remove: () => Promise.reject(new Error('not expected')),
  };
  return { keychain, visits };
}

describe('keychainKeys', () => {
  it('reads the entry of the profile: service cip:<origin of its base URL>, account its name', async () => {
    const { keychain, visits } = fakeKeychain(() => Promise.resolve([stored]));
    await expect(keychainKeys(keychain, 'kc', keychainProfile)).resolves.toEqual(stored);
    expect(visits).toEqual([[{ service: 'cip:https://kc.example.com', account: 'kc' }]]);
  });

  it('says why a keychain that cannot be read failed, with what to do (exit 3)', async () => {
    const { keychain } = fakeKeychain(() => Promise.reject(new KeychainError('the keychain is locked')));
    const error = await anyFailure(keychainKeys(keychain, 'kc', keychainProfile));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe(
      "cannot read the keys of profile 'kc' from the keychain: unlock it and try again; where there is none, give CIP_API_KEY and CIP_SUBSCRIPTION_KEY, or log in with --insecure-storage",
    );
    expect((error as AuthError).hint).toBe('cause: the keychain is locked');
    expect((error as AuthError).exitCode).toBe(3);
  });

  it('passes on any other failure as it is', async () => {
    const bug = new TypeError('a bug');
    const { keychain } = fakeKeychain(() => Promise.reject(bug));
    expect(await anyFailure(keychainKeys(keychain, 'kc', keychainProfile))).toBe(bug);
  });

  it('says the keys are gone when the entry is missing, and how to store them again', async () => {
    const { keychain } = fakeKeychain(() => Promise.resolve([undefined]));
    const error = await anyFailure(keychainKeys(keychain, 'kc', keychainProfile));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe("the keys of profile 'kc' are gone from the keychain (service 'cip:https://kc.example.com', account 'kc')");
    expect((error as AuthError).hint).toBe('log in again: cip auth login --profile kc');
  });
});

describe('a keychain profile and the key variables', () => {
  function inputs(env: Env, answer = () => Promise.resolve([stored])) {
    const fake = fakeKeychain(answer);
    const warnings: string[] = [];
    let opened = 0;
    const ctx: SettingsInputs = {
      env,
      globals: {},
      store: () => {
        opened++;
        return Promise.resolve({
          path: '/nowhere/config.json',
          read: () => ({ activeProfile: 'kc', profiles: { kc: keychainProfile } }),
          update: () => Promise.reject(new Error('not expected')),
        });
      },
      keychain: () => fake.keychain,
      warn: (message) => warnings.push(message),
    };
    return { ctx, visits: fake.visits, warnings, opened: () => opened };
  }

  it('takes both keys from the keychain when the environment gives none', async () => {
    const { ctx, visits, warnings } = inputs({});
    const settings = flat(await resolveSettings(ctx));
    expect(settings).toMatchObject({ profile: 'kc', apiKey: stored.apiKey, subscriptionKey: stored.subscriptionKey });
    expect(settings.sources).toEqual({
      baseUrl: "profile 'kc'",
      enterpriseId: "profile 'kc'",
      apiKey: "profile 'kc'",
      subscriptionKey: "profile 'kc'",
    });
    expect(visits).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['CIP_API_KEY', { CIP_API_KEY: 'env-api-key-0123456789' }, { apiKey: 'CIP_API_KEY', subscriptionKey: "profile 'kc'" }],
    [
      'CIP_SUBSCRIPTION_KEY',
      { CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' },
      { apiKey: "profile 'kc'", subscriptionKey: 'CIP_SUBSCRIPTION_KEY' },
    ],
  ])('visits the keychain for the other key when only %s is set', async (variable, env: Env, sources) => {
    const { ctx, visits, warnings } = inputs(env);
    const settings = flat(await resolveSettings(ctx));
    expect(visits).toHaveLength(1);
    expect(settings.sources).toMatchObject(sources);
    expect(settings.apiKey).toBe(env.CIP_API_KEY ?? stored.apiKey);
    expect(settings.subscriptionKey).toBe(env.CIP_SUBSCRIPTION_KEY ?? stored.subscriptionKey);
    expect(warnings).toEqual([`${variable} from the environment overrides profile 'kc'`]);
  });

  it('never visits the keychain when both keys are set, and still uses the profile for the rest', async () => {
    const { ctx, visits, opened } = inputs({ CIP_API_KEY: 'env-api-key-0123456789', CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' }, () =>
      Promise.reject(new KeychainError('must not be asked')),
    );
    const settings = flat(await resolveSettings(ctx));
    expect(visits).toEqual([]);
    expect(opened()).toBe(1);
    expect(settings).toMatchObject({
      profile: 'kc',
      baseUrl: 'https://kc.example.com/ms',
      enterpriseId: GUID,
      apiKey: 'env-api-key-0123456789',
      subscriptionKey: 'env-sub-key-0123456789',
    });
  });
});

const DEV = '11111111-2222-4333-8444-555555555555';
const PROD = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const OTHER = '99999999-8888-4777-8666-555555555555';
const dev: Profile = {
  baseUrl: 'https://dev.example.com/ms',
  enterpriseId: DEV,
  apiKey: 'dev-api-key-0123456789',
  subscriptionKey: 'dev-sub-key-0123456789',
};
const prod: Profile = {
  baseUrl: 'https://prod.example.com/ms',
  enterpriseId: PROD,
  apiKey: 'prod-api-key-0123456789',
  subscriptionKey: 'prod-sub-key-0123456789',
};
const ENV_KEYS = { CIP_API_KEY: 'env-api-key-0123456789', CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' };

/** An unsigned JWT whose claims say what it acts for: cip reads claims, never verifies them. */
function token(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJlLW5vdC1jaGVja2Vk`;
}

const tokenProfile = (enterprise: string): Profile => ({
  kind: 'token',
  baseUrl: 'https://dev.example.com/ms',
  token: token({ enterpriseId: enterprise }),
  subscriptionKey: 'bot-sub-key-0123456789',
});

interface Setup {
  /** The project file's JSON (an object), in HOME/app, while the command runs in HOME/app/src. */
  project?: unknown;
  env?: Env;
  globals?: Partial<GlobalOptions>;
  profiles?: Record<string, Profile>;
}

function inProject({ project, env = {}, globals = {}, profiles = { dev, prod } }: Setup = {}) {
  const home = tempDir('cip-home-');
  const app = join(home, 'app');
  const cwd = join(app, 'src');
  mkdirSync(cwd, { recursive: true });
  const path = join(app, '.cip.json');
  if (project !== undefined) writeFileSync(path, JSON.stringify(project));
  const configDir = tempDir();
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'dev', profiles }), { mode: 0o600 });
  const stderr = new PassThrough();
  const ctx = testContext(fakeIO({ stderr }), { CIP_CONFIG_DIR: configDir, HOME: home, ...env }, '0.0.0', undefined, cwd);
  ctx.globals = { ...DEFAULT_GLOBALS, ...globals };
  return { ctx, path, stderr: () => drain(stderr) };
}

/** What decides where a command acts, in one record. */
function target(settings: ResolvedSettings) {
  const { credentials } = settings;
  return {
    profile: settings.profile,
    from: settings.profileFrom,
    project: settings.project,
    kind: credentials.kind,
    enterprise: credentials.kind === 'api-key' ? `${credentials.enterpriseId} (${credentials.sources.enterpriseId})` : undefined,
    key: credentials.kind === 'api-key' ? credentials.sources.apiKey : credentials.sources.token,
    baseUrl: `${settings.baseUrl} (${settings.sources.baseUrl})`,
  };
}

const P = '<project>';
const replaced = (value: unknown, path: string): unknown =>
  typeof value === 'string' ? value.replaceAll(P, path) : Array.isArray(value) ? value.map((item) => replaced(item, path)) : value;

describe('the order of precedence: flag, environment, project file, active profile', () => {
  it.each<[string, Setup, Record<string, unknown>]>([
    [
      'no project file: the active profile',
      {},
      { profile: 'dev', from: 'the active profile', project: undefined, enterprise: `${DEV} (profile 'dev')` },
    ],
    [
      "a project file's profile beats the active one",
      { project: { profile: 'prod' } },
      {
        profile: 'prod',
        from: P,
        project: P,
        enterprise: `${PROD} (profile 'prod')`,
        baseUrl: "https://prod.example.com/ms (profile 'prod')",
      },
    ],
    [
      '--profile beats the project file',
      { project: { profile: 'prod' }, globals: { profile: 'dev' } },
      { profile: 'dev', from: '--profile', project: undefined, enterprise: `${DEV} (profile 'dev')` },
    ],
    [
      'CIP_PROFILE beats the project file',
      { project: { profile: 'prod' }, env: { CIP_PROFILE: 'dev' } },
      { profile: 'dev', from: 'CIP_PROFILE', project: undefined },
    ],
    [
      'a variable overrides the project file’s profile, as it would the active one',
      { project: { profile: 'prod' }, env: { CIP_API_KEY: ENV_KEYS.CIP_API_KEY } },
      { profile: 'prod', from: P, key: 'CIP_API_KEY', enterprise: `${PROD} (profile 'prod')` },
    ],
    [
      'an explicit enterprise id equal to the profile’s (in another letter case) is no conflict',
      { project: { profile: 'prod' }, globals: { enterpriseId: PROD.toUpperCase() } },
      { profile: 'prod', enterprise: `${PROD.toUpperCase()} (--enterprise-id)` },
    ],
    [
      "the project file's enterprise id beats the active profile's",
      { project: { enterpriseId: OTHER } },
      { profile: 'dev', from: 'the active profile', project: P, enterprise: `${OTHER} (${P})`, key: "profile 'dev'" },
    ],
    [
      "the project file's base URL beats the active profile's",
      { project: { baseUrl: 'https://dev.example.com/v2' } },
      { profile: 'dev', project: P, baseUrl: `https://dev.example.com/v2 (${P})`, enterprise: `${DEV} (profile 'dev')` },
    ],
    [
      'CIP_BASE_URL beats the project file’s base URL',
      { project: { baseUrl: 'https://pinned.example.com/ms' }, env: { CIP_BASE_URL: 'https://env.example.com/ms' } },
      { profile: 'dev', project: undefined, baseUrl: 'https://env.example.com/ms (CIP_BASE_URL)' },
    ],
    [
      '--base-url beats them all',
      { project: { baseUrl: 'https://pinned.example.com/ms' }, globals: { baseUrl: 'https://flag.example.com/ms' } },
      { baseUrl: 'https://flag.example.com/ms (--base-url)', project: undefined },
    ],
    [
      'keys in the environment with the project file’s enterprise id: a whole credential, no profile',
      { project: { enterpriseId: OTHER }, env: ENV_KEYS },
      { profile: undefined, from: undefined, project: P, enterprise: `${OTHER} (${P})`, key: 'CIP_API_KEY' },
    ],
    [
      'a whole credential in the environment beats the project file’s profile, in the same enterprise',
      { project: { profile: 'prod' }, env: { ...ENV_KEYS, CIP_ENTERPRISE_ID: PROD } },
      { profile: undefined, project: undefined, enterprise: `${PROD} (CIP_ENTERPRISE_ID)`, key: 'CIP_API_KEY' },
    ],
    [
      'a whole credential with a project file whose profile this machine does not have (CI): the credential',
      { project: { profile: 'ci-only' }, env: { ...ENV_KEYS, CIP_ENTERPRISE_ID: OTHER } },
      { profile: undefined, project: undefined, enterprise: `${OTHER} (CIP_ENTERPRISE_ID)` },
    ],
    [
      'CIP_TOKEN and CIP_API_KEY: the project file’s enterprise id picks the API key, in that enterprise',
      { project: { enterpriseId: OTHER }, env: { ...ENV_KEYS, CIP_TOKEN: token({ enterpriseId: DEV }) } },
      { profile: undefined, kind: 'api-key', key: 'CIP_API_KEY', enterprise: `${OTHER} (${P})` },
    ],
    [
      'a project file pinning a token profile: the token, from the profile',
      { project: { profile: 'bot' }, profiles: { dev, prod, bot: tokenProfile(OTHER) } },
      { profile: 'bot', from: P, project: P, kind: 'token', key: "profile 'bot'" },
    ],
    [
      'a token that says it acts for the pinned enterprise',
      {
        project: { enterpriseId: OTHER },
        env: { CIP_TOKEN: token({ enterpriseId: OTHER }), CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' },
      },
      { profile: undefined, kind: 'token', key: 'CIP_TOKEN' },
    ],
  ])('%s', async (_name, given, expected) => {
    const { ctx, path } = inProject(given);
    const settings = await ctx.settings();
    expect(target(settings)).toMatchObject(
      Object.fromEntries(Object.entries(expected).map(([key, value]) => [key, replaced(value, path)])),
    );
  });

  it.each<[string, Setup, string, string]>([
    [
      'a project file naming a profile that does not exist: exit 2, never the active profile',
      { project: { profile: 'staging' } },
      `the project file ${P} names profile 'staging', which does not exist`,
      "known profiles: dev, prod; log in with 'cip auth login --profile staging', pin another with 'cip auth use NAME --here', or name one with --profile",
    ],
    [
      'CIP_ENTERPRISE_ID for another enterprise than the project file’s profile',
      { project: { profile: 'prod' }, env: { CIP_ENTERPRISE_ID: OTHER } },
      `CIP_ENTERPRISE_ID names enterprise ${OTHER}, but the project file ${P} pins profile 'prod' (enterprise ${PROD}): cip will not act in another enterprise than the project's`,
      `unset CIP_ENTERPRISE_ID, name the profile to use with --profile, or change ${P}`,
    ],
    [
      '--enterprise-id for another enterprise than the project file’s profile',
      { project: { profile: 'prod' }, globals: { enterpriseId: OTHER } },
      `--enterprise-id names enterprise ${OTHER}, but the project file ${P} pins profile 'prod' (enterprise ${PROD}): cip will not act in another enterprise than the project's`,
      `leave out --enterprise-id, name the profile to use with --profile, or change ${P}`,
    ],
    [
      'CIP_ENTERPRISE_ID for another enterprise than the project file’s',
      { project: { enterpriseId: OTHER }, env: { CIP_ENTERPRISE_ID: DEV } },
      `CIP_ENTERPRISE_ID names enterprise ${DEV}, but the project file ${P} pins enterprise ${OTHER}: cip will not act in another enterprise than the project's`,
      `unset CIP_ENTERPRISE_ID, name the profile to use with --profile, or change ${P}`,
    ],
    [
      'a whole credential for another enterprise than the project file’s profile',
      { project: { profile: 'prod' }, env: { ...ENV_KEYS, CIP_ENTERPRISE_ID: DEV } },
      `CIP_ENTERPRISE_ID names enterprise ${DEV}, but the project file ${P} pins profile 'prod' (enterprise ${PROD}): cip will not act in another enterprise than the project's`,
      `unset CIP_ENTERPRISE_ID, name the profile to use with --profile, or change ${P}`,
    ],
    [
      'a token that says it acts for another enterprise than the project file’s',
      {
        project: { enterpriseId: OTHER },
        env: { CIP_TOKEN: token({ enterprise_id: DEV }), CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' },
      },
      `the token (from CIP_TOKEN) says it acts for enterprise ${DEV}, but the project file ${P} pins enterprise ${OTHER}: cip will not act in another enterprise than the project's`,
      `use a token for enterprise ${OTHER}, name the profile to use with --profile, or change ${P}`,
    ],
    [
      'a base URL on another host than the profile’s: the keys would go there',
      { project: { baseUrl: 'https://evil.example.com/ms' } },
      `the project file ${P} sends requests to https://evil.example.com, another host than that of profile 'dev' (https://dev.example.com): cip will not send the keys there`,
      "log in a profile at that host and pin it with 'cip auth use NAME --here', or give --base-url",
    ],
    [
      'a base URL on another host than the default, with keys from the environment (a pull request in CI)',
      { project: { enterpriseId: OTHER, baseUrl: 'https://evil.example.com/ms' }, env: ENV_KEYS },
      `the project file ${P} sends requests to https://evil.example.com, another host than the default (https://api.copyl.com): cip will not send the keys there`,
      "log in a profile at that host and pin it with 'cip auth use NAME --here', or give --base-url",
    ],
    [
      'a project file naming a profile called like an Object member that the store does not have',
      { project: { profile: 'constructor' } },
      `the project file ${P} names profile 'constructor', which does not exist`,
      "known profiles: dev, prod; log in with 'cip auth login --profile constructor', pin another with 'cip auth use NAME --here', or name one with --profile",
    ],
    [
      'an enterprise id pinned beside an active token profile for another enterprise',
      { project: { enterpriseId: OTHER }, profiles: { dev: tokenProfile(DEV) } },
      `the token (from profile 'dev') says it acts for enterprise ${DEV}, but the project file ${P} pins enterprise ${OTHER}: cip will not act in another enterprise than the project's`,
      `use a token for enterprise ${OTHER}, name the profile to use with --profile, or change ${P}`,
    ],
    [
      'a project file pinning a token profile, and an enterprise id given',
      { project: { profile: 'bot' }, profiles: { dev, bot: tokenProfile(OTHER) }, globals: { enterpriseId: OTHER } },
      '--enterprise-id does not apply to a token: a token acts for the enterprise it was issued for',
      'leave out --enterprise-id, or use an API key to choose the enterprise',
    ],
    [
      'CIP_TOKEN and CIP_API_KEY with no enterprise id anywhere: still refused',
      { project: { baseUrl: 'https://pinned.example.com/ms' }, env: { ...ENV_KEYS, CIP_TOKEN: token({}) } },
      'CIP_API_KEY and CIP_TOKEN are both set, and no enterprise id says which to use: cip will not guess (each may act in another enterprise)',
      'unset one of them, or set CIP_ENTERPRISE_ID to use an API key in that enterprise',
    ],
  ])('%s', async (_name, given, message, hint) => {
    const { ctx, path } = inProject(given);
    const error = await caught(ctx.settings(), CipError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(message.replaceAll(P, path));
    expect(error.hint).toBe(hint.replaceAll(P, path));
  });

  it('says a named profile leaves the project file unused, and never reads it (a broken one does not stop --profile)', async () => {
    const { ctx, path } = inProject({ project: { profile: 'prod', extra: true }, globals: { profile: 'dev' } });
    const settings = await ctx.settings();
    expect(settings.profile).toBe('dev');
    expect(settings.unused).toEqual([`the project file ${path} (a profile is named by --profile)`]);
  });

  it('warns when CIP_PROFILE (perhaps left over in the shell) names another profile than the project file', async () => {
    const { ctx, path, stderr } = inProject({ project: { profile: 'prod' }, env: { CIP_PROFILE: 'dev' } });
    expect((await ctx.settings()).profile).toBe('dev');
    expect(stderr()).toBe(
      `warning: CIP_PROFILE names profile 'dev', but the project file ${path} pins profile 'prod': using 'dev' (CIP_PROFILE comes first)\n`,
    );
  });

  it.each<[string, Setup]>([
    ['--profile, typed on the command line', { project: { profile: 'prod' }, globals: { profile: 'dev' } }],
    ['CIP_PROFILE naming the pinned profile', { project: { profile: 'prod' }, env: { CIP_PROFILE: 'prod' } }],
    ['CIP_PROFILE and a project file that cannot be used', { project: { profile: 'prod', extra: 1 }, env: { CIP_PROFILE: 'dev' } }],
  ])('says nothing for %s', async (_name, given) => {
    const { ctx, stderr } = inProject(given);
    await ctx.settings();
    expect(stderr()).toBe('');
  });

  it('says the profile of the project file is unused when a whole credential comes from the environment', async () => {
    const { ctx, path } = inProject({ project: { profile: 'prod' }, env: { ...ENV_KEYS, CIP_ENTERPRISE_ID: PROD } });
    expect((await ctx.settings()).unused).toEqual([
      `profile 'prod' of the project file ${path} (the credentials come from the environment)`,
    ]);
  });

  it('says a token that names no enterprise cannot be checked against the pinned one', async () => {
    const { ctx, path } = inProject({
      project: { enterpriseId: OTHER },
      env: { CIP_TOKEN: token({ sub: 'ci' }), CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' },
    });
    expect((await ctx.settings()).unused).toEqual([
      `the enterprise the project file ${path} pins (the token does not say which enterprise it acts for: cip cannot check it)`,
    ]);
  });

  it('a broken project file is exit 2 for any command that resolves settings, naming the file', async () => {
    const { ctx, path } = inProject({ project: ['prod'] });
    const error = await caught(ctx.settings(), CipError);
    expect([error.exitCode, error.message]).toEqual([2, `the project file ${path} is not a JSON object`]);
  });
});
