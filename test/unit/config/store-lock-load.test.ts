// The profile store's lock and the first load of conf (src/config/store.ts). conf, the heaviest package cip
// uses, is loaded only to write, the first time a process writes. On a busy machine that load is the longest
// pause of a write, and a lock held through it keeps every other writer waiting (and, if the pause outlasts
// the stale time, lets another writer take a live lock). So conf is loaded before the lock is taken. The first
// load happens once per module registry: this file holds that one test alone.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { openProfileStore } from '../../../src/config/store.js';
import { tempDir } from '../../helpers/cli.js';

const sim = vi.hoisted(() => ({
  lockPath: '',
  /** Whether the lock was held when conf was first loaded; undefined until then. */
  lockedDuringLoad: undefined as boolean | undefined,
}));

vi.mock('conf', async (importOriginal) => {
  const actual = await importOriginal<typeof import('conf')>();
  sim.lockedDuringLoad = existsSync(sim.lockPath);
  return actual;
});

const PROFILE = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'store-lock-api-key-0123456789',
  subscriptionKey: 'store-lock-sub-key-0123456789',
};

it('loads conf before it takes the lock, so no other writer waits for that load', async () => {
  const dir = tempDir();
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  const path = join(dir, 'config.json');
  sim.lockPath = `${path}.lock`;
  writeFileSync(path, JSON.stringify({ activeProfile: 'a', profiles: { a: PROFILE } }), { mode: 0o600 });
  const store = await openProfileStore(dir);
  expect(sim.lockedDuringLoad).toBeUndefined();

  await store.update((data) => {
    data.activeProfile = 'b';
    data.profiles.b = PROFILE;
  });

  expect(sim.lockedDuringLoad).toBe(false);
  expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ activeProfile: 'b', profiles: { a: PROFILE, b: PROFILE } });
  expect(existsSync(sim.lockPath)).toBe(false);
});
