// The profile store's lock and the first load of conf (src/config/store.ts). conf, the heaviest package cip
// uses, is loaded only to write, the first time a process writes. That load is a wait under the lock: a lock
// lost during it (proper-lockfile's onCompromised runs from a timer, so only during a wait) must still stop
// the write. Here conf's loading is the moment the lock is lost, which happens exactly once per module
// registry: this file holds that one test alone.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { openProfileStore } from '../../src/config/store.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { caught } from '../helpers/errors.js';

const sim = vi.hoisted(() => ({
  onCompromised: undefined as ((error: Error) => void) | undefined,
  confLoaded: false,
}));

vi.mock('proper-lockfile', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof import('proper-lockfile') }>()).default;
  const lock = (async (path: string, options: { onCompromised: (error: Error) => void }) => {
    const release = await actual.lock(path, { ...options, onCompromised: () => undefined });
    sim.onCompromised = options.onCompromised;
    return release;
  }) as typeof actual.lock;
  return { default: { ...actual, lock } };
});

vi.mock('conf', async (importOriginal) => {
  const actual = await importOriginal<typeof import('conf')>();
  sim.confLoaded = true;
  sim.onCompromised?.(new Error('the lock was taken over while conf loaded'));
  return actual;
});

const PROFILE = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'store-lock-api-key-0123456789',
  subscriptionKey: 'store-lock-sub-key-0123456789',
};

it('writes nothing when the lock is lost while conf is first loaded', async () => {
  const dir = tempDir();
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  const path = join(dir, 'config.json');
  const original = JSON.stringify({ activeProfile: 'a', profiles: { a: PROFILE } });
  writeFileSync(path, original, { mode: 0o600 });
  const store = await openProfileStore(dir);
  expect(sim.confLoaded).toBe(false);

  const error = await caught(
    store.update((data) => {
      data.activeProfile = 'b';
    }),
    ConfigError,
  );

  expect(sim.confLoaded).toBe(true);
  expect(error.message).toBe(`lost the lock on the config file ${path}; nothing was written`);
  expect(readFileSync(path, 'utf8')).toBe(original);
});
