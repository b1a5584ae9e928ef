// How a write names its target (src/domain/environments/target.ts), with and without a project file.
import { describe, expect, it } from 'vitest';
import { targetText } from '../../../../src/domain/environments/target.js';
import { fromFlat } from '../../../helpers/settings.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const PATH = '/home/u/app/.cip.json';

function settings(profile: string | undefined, extra: { profileFrom?: string; project?: string } = {}) {
  const source = profile === undefined ? 'CIP_API_KEY' : `profile '${profile}'`;
  return {
    ...fromFlat({
      profile,
      baseUrl: 'https://api.copyl.com/ms',
      enterpriseId: GUID,
      apiKey: 'api-key-0123456789abcdef',
      subscriptionKey: 'sub-key-0123456789abcdef',
      sources: { baseUrl: 'the default', enterpriseId: extra.project ?? source, apiKey: source, subscriptionKey: source },
    }),
    ...extra,
  };
}

describe('targetText', () => {
  it.each([
    ['a profile', settings('prod', { profileFrom: 'the active profile' }), `in profile 'prod', enterprise ${GUID}`],
    [
      'a profile the project file chose',
      settings('prod', { profileFrom: PATH, project: PATH }),
      `in profile 'prod' (from ${PATH}), enterprise ${GUID}`,
    ],
    [
      'an enterprise the project file pinned',
      settings('dev', { profileFrom: 'the active profile', project: PATH }),
      `in profile 'dev', enterprise ${GUID} (pinned by ${PATH})`,
    ],
    ['the environment', settings(undefined), `in enterprise ${GUID} (credentials from the environment)`],
    [
      'the environment, with an enterprise the project file pinned',
      settings(undefined, { project: PATH }),
      `in enterprise ${GUID} (credentials from the environment; pinned by ${PATH})`,
    ],
  ])('%s', (_name, given, text) => {
    expect(targetText(given)).toBe(text);
  });
});
