// What the profile store holds (src/config/store/profile.ts): the profile used when none is named.
import { describe, expect, it } from 'vitest';
import { activeProfile, type Profile, type StoreData } from '../../../../src/config/store.js';

const fileProfile: Profile = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'file-api-key-0123456789',
  subscriptionKey: 'file-sub-key-0123456789',
};

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
