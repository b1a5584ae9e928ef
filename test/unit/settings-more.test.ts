// More of the credential rule (src/config/settings.ts): where `cip auth login` keeps keys
// (CIP_CREDENTIAL_STORE), which profile is active, and when a profile whose keys are in the keychain makes cip
// visit it: only for the keys the environment does not give.
import { describe, expect, it } from 'vitest';
import { KeychainError, type Keychain, type KeychainEntry, type StoredKeys } from '../../src/config/keychain.js';
import { activeProfile, credentialStore, keychainKeys, resolveSettings, type SettingsInputs } from '../../src/config/settings.js';
import type { KeychainProfile, Profile, StoreData } from '../../src/config/store.js';
import type { Env } from '../../src/env.js';
import { AuthError, UsageError } from '../../src/errors.js';
import { caught } from '../helpers/errors.js';
import { flat } from '../helpers/settings.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const fileProfile: Profile = { enterpriseId: GUID, apiKey: 'file-api-key-0123456789', subscriptionKey: 'file-sub-key-0123456789' };
const keychainProfile: KeychainProfile = { enterpriseId: GUID, keys: 'keychain', baseUrl: 'https://kc.example.com/ms' };
const stored: StoredKeys = { apiKey: 'keychain-api-key-0123456789', subscriptionKey: 'keychain-sub-key-0123456789' };

const failure = (work: Promise<unknown> | (() => unknown)) => caught(work, Error);

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

describe('credentialStore (CIP_CREDENTIAL_STORE)', () => {
  it.each([
    [undefined, 'keychain'],
    ['', 'keychain'],
    ['  ', 'keychain'],
    ['keychain', 'keychain'],
    [' keychain\n', 'keychain'],
    ['file', 'file'],
    ['  file ', 'file'],
  ])('%j is %s', (value, store) => {
    expect(credentialStore(value === undefined ? {} : { CIP_CREDENTIAL_STORE: value })).toBe(store);
  });

  it.each([
    ['vault', 'vault'],
    ['File', 'File'],
    [' files ', 'files'],
    ['key\u001bchain', 'key?chain'],
  ])('refuses %j, naming it printably', (value, shown) => {
    let caught: unknown;
    try {
      credentialStore({ CIP_CREDENTIAL_STORE: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe(`CIP_CREDENTIAL_STORE is '${shown}'`);
    expect((caught as UsageError).hint).toBe("use 'keychain' (the default) or 'file'");
  });
});

describe('activeProfile', () => {
  it.each([
    ['the active one', { activeProfile: 'a', profiles: { a: fileProfile, default: fileProfile } }, 'a'],
    ["'default' when none is active", { profiles: { a: fileProfile, default: fileProfile } }, 'default'],
    ["'default' when the active one is gone", { activeProfile: 'gone', profiles: { default: fileProfile } }, 'default'],
    ['none when the active one is gone and there is no default', { activeProfile: 'gone', profiles: { a: fileProfile } }, undefined],
    ['none when nothing is active and there is no default', { profiles: { a: fileProfile } }, undefined],
    [
      "'default' when none is active, beside a profile named 'undefined'",
      { profiles: { undefined: fileProfile, default: fileProfile } },
      'default',
    ],
    ["none for an inherited name such as 'toString'", { activeProfile: 'toString', profiles: {} }, undefined],
  ])('is %s', (_name, data: StoreData, expected) => {
    expect(activeProfile(data)).toBe(expected);
  });
});

describe('keychainKeys', () => {
  it('reads the entry of the profile: service cip:<origin of its base URL>, account its name', async () => {
    const { keychain, visits } = fakeKeychain(() => Promise.resolve([stored]));
    await expect(keychainKeys(keychain, 'kc', keychainProfile)).resolves.toEqual(stored);
    expect(visits).toEqual([[{ service: 'cip:https://kc.example.com', account: 'kc' }]]);
  });

  it('says why a keychain that cannot be read failed, with what to do (exit 3)', async () => {
    const { keychain } = fakeKeychain(() => Promise.reject(new KeychainError('the keychain is locked')));
    const error = await failure(keychainKeys(keychain, 'kc', keychainProfile));
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
    expect(await failure(keychainKeys(keychain, 'kc', keychainProfile))).toBe(bug);
  });

  it('says the keys are gone when the entry is missing, and how to store them again', async () => {
    const { keychain } = fakeKeychain(() => Promise.resolve([undefined]));
    const error = await failure(keychainKeys(keychain, 'kc', keychainProfile));
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
