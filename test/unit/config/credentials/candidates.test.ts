// The credential rule's first step, alone (src/config/credentials/candidates.ts): what the command line, the
// environment and the project file offer, gathered without deciding anything. choose.test.ts has the second step,
// settings.test.ts the whole rule through the context.
import { describe, expect, it } from 'vitest';
import { gatherCandidates, type CredentialInputs } from '../../../../src/config/credentials/candidates.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
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
