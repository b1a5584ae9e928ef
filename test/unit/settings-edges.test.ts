// The credential rule (src/config/settings.ts) in the exact words a user reads: the warnings about variables
// a profile ignores or that override it, the errors for what is missing, and where a bad value came from.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GLOBALS, type GlobalOptions } from '../../src/cli/globals.js';
import type { Profile } from '../../src/config/store.js';
import { activeProfile, givenBaseUrl, givenEnterpriseId, namedProfile, profileNamedBy } from '../../src/config/settings.js';
import type { Env } from '../../src/env.js';
import { AuthError, CipError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';
import { caught } from '../helpers/errors.js';
import { flat } from '../helpers/settings.js';

const GUID_A = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const GUID_D = '11111111-2222-4333-8444-555555555555';
const profileA: Profile = {
  baseUrl: 'https://profile-a.example.com/ms',
  enterpriseId: GUID_A,
  apiKey: 'profile-a-api-key-0123456789',
  subscriptionKey: 'profile-a-sub-key-0123456789',
};

function setup(config: unknown, env: Env = {}, globals: Partial<GlobalOptions> = {}) {
  const dir = tempDir();
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  const stderr = new PassThrough();
  const ctx = testContext(fakeIO({ stderr }), { CIP_CONFIG_DIR: dir, ...env }, '0.0.0');
  ctx.globals = { ...DEFAULT_GLOBALS, ...globals };
  return { ctx, stderr: () => drain(stderr) };
}

const failure = (promise: Promise<unknown>) => caught(promise, CipError);

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

describe('the pieces other commands use', () => {
  const inputs = (env: Env, globals: Partial<GlobalOptions> = {}) => ({ env, globals: { ...DEFAULT_GLOBALS, ...globals } });

  it('namedProfile: the flag, else CIP_PROFILE trimmed, never a blank one', () => {
    expect(namedProfile(inputs({ CIP_PROFILE: ' b ' }))).toBe('b');
    expect(namedProfile(inputs({ CIP_PROFILE: '  ' }))).toBeUndefined();
    expect(namedProfile(inputs({ CIP_PROFILE: 'b' }, { profile: 'a' }))).toBe('a');
    expect(profileNamedBy(inputs({ CIP_PROFILE: 'b' }, { profile: 'a' }))).toBe('--profile');
    expect(profileNamedBy(inputs({ CIP_PROFILE: 'b' }))).toBe('CIP_PROFILE');
  });

  it('givenBaseUrl and givenEnterpriseId: the flag, else the variable unless a profile is named', () => {
    const env = { CIP_BASE_URL: 'https://env.example/ms', CIP_ENTERPRISE_ID: GUID_D };
    expect(givenBaseUrl(inputs(env))).toEqual({ value: 'https://env.example/ms', source: 'CIP_BASE_URL' });
    expect(givenEnterpriseId(inputs(env))).toEqual({ value: GUID_D, source: 'CIP_ENTERPRISE_ID' });
    expect(givenBaseUrl(inputs({ ...env, CIP_PROFILE: 'a' }))).toBeUndefined();
    expect(givenEnterpriseId(inputs({ ...env, CIP_PROFILE: 'a' }))).toBeUndefined();
    expect(givenBaseUrl(inputs(env, { baseUrl: 'https://flag.example/ms', profile: 'a' }))).toEqual({
      value: 'https://flag.example/ms',
      source: '--base-url',
    });
    expect(givenEnterpriseId(inputs(env, { enterpriseId: GUID_A, profile: 'a' }))).toEqual({ value: GUID_A, source: '--enterprise-id' });
  });

  it("activeProfile: the active one if it exists, else 'default' if that exists", () => {
    expect(activeProfile({ activeProfile: 'a', profiles: { a: profileA, default: profileA } })).toBe('a');
    expect(activeProfile({ activeProfile: 'gone', profiles: { default: profileA } })).toBe('default');
    expect(activeProfile({ profiles: { a: profileA } })).toBeUndefined();
    expect(activeProfile({ activeProfile: 'toString', profiles: {} })).toBeUndefined();
  });
});
