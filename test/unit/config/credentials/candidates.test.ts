// The credential rule's first step, alone (src/config/credentials/candidates.ts): what the command line, the
// environment and the project file offer, gathered without deciding anything. choose.test.ts has the second step,
// settings.test.ts the whole rule through the context.
import { describe, expect, it } from 'vitest';
import { DEFAULT_GLOBALS, type GlobalOptions } from '../../../../src/cli/globals.js';
import {
  gatherCandidates,
  givenBaseUrl,
  givenEnterpriseId,
  namedProfile,
  profileNamedBy,
  type CredentialInputs,
} from '../../../../src/config/credentials/candidates.js';
import type { Env } from '../../../../src/env.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const GUID_D = '11111111-2222-4333-8444-555555555555';
const inputs = (env: Record<string, string>, globals: CredentialInputs['globals'] = {}): CredentialInputs => ({ env, globals });

describe('gathering the candidates', () => {
  it('takes every value set, with where it came from; an empty variable is unset', () => {
    const candidates = gatherCandidates(
      inputs({ CIP_TOKEN: 't', CIP_API_KEY: '', CIP_SUBSCRIPTION_KEY: 's', CIP_PROFILE: ' prod ', CIP_BASE_URL: 'https://a.example' }),
      { path: '/work/.cip.json', enterpriseId: GUID },
    );
    expect(candidates.named).toStrictEqual({ name: 'prod', by: 'CIP_PROFILE' });
    expect(candidates.env.set).toStrictEqual(['CIP_TOKEN', 'CIP_SUBSCRIPTION_KEY', 'CIP_BASE_URL']);
    expect(candidates.env.offered).toStrictEqual([{ kind: 'token', own: { value: 't', source: 'CIP_TOKEN' } }]);
    expect(candidates.env.subscriptionKey).toStrictEqual({ value: 's', source: 'CIP_SUBSCRIPTION_KEY' });
    expect(candidates.project?.enterpriseId).toStrictEqual({ value: GUID, source: '/work/.cip.json' });
    expect(candidates.project?.baseUrl).toBeUndefined();
  });

  it('--profile names the profile before CIP_PROFILE; flags are kept apart from the variables', () => {
    const candidates = gatherCandidates(
      inputs({ CIP_PROFILE: 'dev', CIP_ENTERPRISE_ID: GUID }, { profile: 'prod', enterpriseId: 'x' }),
      undefined,
    );
    expect(candidates.named).toStrictEqual({ name: 'prod', by: '--profile' });
    expect(candidates.flags.enterpriseId).toStrictEqual({ value: 'x', source: '--enterprise-id' });
    expect(candidates.env.enterpriseId).toStrictEqual({ value: GUID, source: 'CIP_ENTERPRISE_ID' });
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
    expect(givenEnterpriseId(inputs(env, { enterpriseId: GUID, profile: 'a' }))).toEqual({ value: GUID, source: '--enterprise-id' });
  });
});
