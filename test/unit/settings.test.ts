import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../src/context.js';
import { DEFAULT_GLOBALS, type GlobalOptions } from '../../src/cli/globals.js';
import type { Env } from '../../src/env.js';
import { openProfileStore, type Profile } from '../../src/config/store.js';
import { DEFAULT_BASE_URL } from '../../src/config/validate.js';
import { AuthError, CipError, ConfigError, UsageError } from '../../src/errors.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';
import { PassThrough } from 'node:stream';
import { caught } from '../helpers/errors.js';
import { flat } from '../helpers/settings.js';

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
