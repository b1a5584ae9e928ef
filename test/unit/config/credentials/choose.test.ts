// The credential rule's second step, alone (src/config/credentials/choose.ts): the row of the one table (RULES)
// that decides, and the values it takes from the candidates (candidates.test.ts). settings.test.ts runs the whole
// rule through the context.
import { describe, expect, it } from 'vitest';
import { gatherCandidates, type CredentialInputs } from '../../../../src/config/credentials/candidates.js';
import { RULES, chooseCredentials } from '../../../../src/config/credentials/choose.js';
import { UsageError } from '../../../../src/errors.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const inputs = (env: Record<string, string>, globals: CredentialInputs['globals'] = {}): CredentialInputs => ({ env, globals });
const choose = (
  env: Record<string, string>,
  globals: CredentialInputs['globals'] = {},
  project?: { path: string; enterpriseId?: string },
) => chooseCredentials(gatherCandidates(inputs(env, globals), project));

describe('choosing by the table', () => {
  it('lists the rules in the order `cip help environment` gives them', () => {
    expect(RULES.map((rule) => rule.when)).toStrictEqual([
      'a profile is named',
      'the variables hold a whole credential',
      'some variables are set',
      'none is set',
    ]);
  });

  it('a named profile: the variables are ignored, the flags are not', () => {
    const choice = choose(
      { CIP_PROFILE: 'prod', CIP_API_KEY: 'k', CIP_SUBSCRIPTION_KEY: 's', CIP_ENTERPRISE_ID: GUID },
      { baseUrl: 'https://b' },
    );
    expect(choice.rule.profile).toBe('named');
    expect(choice).toMatchObject({ given: undefined, subscriptionKey: undefined, enterpriseId: undefined });
    expect(choice.baseUrl).toStrictEqual({ value: 'https://b', source: '--base-url' });
    expect(choice.setVariables).toStrictEqual(['CIP_API_KEY', 'CIP_SUBSCRIPTION_KEY', 'CIP_ENTERPRISE_ID']);
  });

  it.each([
    ['a token and a subscription key', { CIP_TOKEN: 't', CIP_SUBSCRIPTION_KEY: 's' }, 'none', false],
    [
      'an API key, a subscription key and an enterprise id',
      { CIP_API_KEY: 'k', CIP_SUBSCRIPTION_KEY: 's', CIP_ENTERPRISE_ID: GUID },
      'none',
      false,
    ],
    ['an API key and a subscription key, no enterprise id', { CIP_API_KEY: 'k', CIP_SUBSCRIPTION_KEY: 's' }, 'pinned or active', true],
    ['a subscription key alone', { CIP_SUBSCRIPTION_KEY: 's' }, 'pinned or active', true],
    ['nothing', {}, 'pinned or active', false],
  ] as const)('%s: the profile is %s, overridden: %s', (_what, env, profile, overrides) => {
    const choice = choose(env);
    expect(choice.rule.profile).toBe(profile);
    expect(choice.rule.overrides).toBe(overrides);
  });

  it("a project file's enterprise id makes an API key whole", () => {
    expect(choose({ CIP_API_KEY: 'k', CIP_SUBSCRIPTION_KEY: 's' }, {}, { path: '/p/.cip.json', enterpriseId: GUID }).rule.profile).toBe(
      'none',
    );
  });

  it('a token and an API key: an enterprise id picks the API key, and the token is left unused', () => {
    const choice = choose({ CIP_TOKEN: 't', CIP_API_KEY: 'k', CIP_SUBSCRIPTION_KEY: 's' }, { enterpriseId: GUID });
    expect(choice.given).toStrictEqual({ kind: 'api-key', own: { value: 'k', source: 'CIP_API_KEY' } });
    expect(choice.setVariables).toStrictEqual(['CIP_API_KEY', 'CIP_SUBSCRIPTION_KEY']);
    expect(choice.unused).toStrictEqual([`CIP_TOKEN (an enterprise id is given: the API key is used, in enterprise ${GUID})`]);
  });

  it('a token and an API key without an enterprise id: refused, never guessed', () => {
    expect(() => choose({ CIP_TOKEN: 't', CIP_API_KEY: 'k' })).toThrow(UsageError);
    expect(() => choose({ CIP_TOKEN: 't', CIP_API_KEY: 'k' })).toThrow('CIP_API_KEY and CIP_TOKEN are both set');
  });

  it('a named profile never refuses the variables it ignores', () => {
    expect(choose({ CIP_PROFILE: 'prod', CIP_TOKEN: 't', CIP_API_KEY: 'k' }).rule.profile).toBe('named');
  });
});
