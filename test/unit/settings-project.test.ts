// The order of precedence with a project file (src/config/settings.ts): flags, then the environment, then the
// project file, then the active profile; every combination with the credential rule, through the Context (the
// working folder comes in as the host's cwd), with real files in a temporary tree.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GLOBALS, type GlobalOptions } from '../../src/cli/globals.js';
import type { Profile } from '../../src/config/store.js';
import type { ResolvedSettings } from '../../src/config/settings.js';
import type { Env } from '../../src/env.js';
import { CipError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { caught } from '../helpers/errors.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';

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

function setup({ project, env = {}, globals = {}, profiles = { dev, prod } }: Setup = {}) {
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
    const { ctx, path } = setup(given);
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
    const { ctx, path } = setup(given);
    const error = await caught(ctx.settings(), CipError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(message.replaceAll(P, path));
    expect(error.hint).toBe(hint.replaceAll(P, path));
  });

  it('says a named profile leaves the project file unused, and never reads it (a broken one does not stop --profile)', async () => {
    const { ctx, path } = setup({ project: { profile: 'prod', extra: true }, globals: { profile: 'dev' } });
    const settings = await ctx.settings();
    expect(settings.profile).toBe('dev');
    expect(settings.unused).toEqual([`the project file ${path} (a profile is named by --profile)`]);
  });

  it('warns when CIP_PROFILE (perhaps left over in the shell) names another profile than the project file', async () => {
    const { ctx, path, stderr } = setup({ project: { profile: 'prod' }, env: { CIP_PROFILE: 'dev' } });
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
    const { ctx, stderr } = setup(given);
    await ctx.settings();
    expect(stderr()).toBe('');
  });

  it('says the profile of the project file is unused when a whole credential comes from the environment', async () => {
    const { ctx, path } = setup({ project: { profile: 'prod' }, env: { ...ENV_KEYS, CIP_ENTERPRISE_ID: PROD } });
    expect((await ctx.settings()).unused).toEqual([
      `profile 'prod' of the project file ${path} (the credentials come from the environment)`,
    ]);
  });

  it('says a token that names no enterprise cannot be checked against the pinned one', async () => {
    const { ctx, path } = setup({
      project: { enterpriseId: OTHER },
      env: { CIP_TOKEN: token({ sub: 'ci' }), CIP_SUBSCRIPTION_KEY: 'env-sub-key-0123456789' },
    });
    expect((await ctx.settings()).unused).toEqual([
      `the enterprise the project file ${path} pins (the token does not say which enterprise it acts for: cip cannot check it)`,
    ]);
  });

  it('a broken project file is exit 2 for any command that resolves settings, naming the file', async () => {
    const { ctx, path } = setup({ project: ['prod'] });
    const error = await caught(ctx.settings(), CipError);
    expect([error.exitCode, error.message]).toEqual([2, `the project file ${path} is not a JSON object`]);
  });
});
