// How a write names its target (src/domain/environments/target.ts), with and without a project file.
import { describe, expect, it } from 'vitest';
import { targetText, environmentLabel, idOf, nameOf } from '../../../../src/domain/environments/target.js';
import { fromFlat } from '../../../helpers/settings.js';
import { GUID } from '../../../helpers/token-server.js';

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

describe('how a record is named, from what the API gave', () => {
  describe('how a record is named', () => {
    it.each([
      [null, undefined, undefined],
      [[{ id: 'x', name: 'y' }], undefined, undefined],
      [{ undefined: 'u' }, undefined, undefined],
      [{ ID: 7, Name: 'seven' }, '7', 'seven'],
      [{ id: true, name: 5 }, undefined, undefined],
      [{ id: 'e', name: '' }, 'e', undefined],
      [{ id: 'e', name: ' \t' }, 'e', undefined],
      [{ id: 'e', name: ' padded ' }, 'e', ' padded '],
    ])('%j: id %j, name %j', (record, id, name) => {
      expect(idOf(record)).toBe(id);
      expect(nameOf(record)).toBe(name);
    });

    it.each([
      [undefined, undefined, 'environment'],
      ['e1', undefined, 'environment e1'],
      [undefined, 'alpha', "environment 'alpha'"],
      ['e1', 'alpha', "environment 'alpha' (e1)"],
    ])('id %j and name %j: %j', (id, name, label) => {
      expect(environmentLabel(id, name)).toBe(label);
    });
  });
});
