// How long a write waits for the config file's lock (src/config/store.ts), and when it takes over a lock
// another cip left. The real proper-lockfile runs on a fake clock, and the lock folder it makes is kept in
// memory, where the test plays the other cip: one that holds the lock and refreshes it as a live process does,
// one whose refreshes come late (a busy machine), one that died. The config file itself is real.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCK_WAIT_MS, openProfileStore, type Profile } from '../../../src/config/store.js';
import { ConfigError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/cli.js';

type Callback = (error: NodeJS.ErrnoException | null, value?: unknown) => void;

/** The lock folders proper-lockfile makes, in memory: ours (with the mtime it sets) and the other cip's. */
const sim = vi.hoisted(() => ({
  /** The other cip's lock: the mtime it shows now, or undefined when it holds none. */
  other: undefined as (() => number) | undefined,
  /** Whether the other cip's lock was removed by the writer under test (taken over as stale). */
  takenOver: false,
  mine: undefined as number | undefined,
  /** Called on each attempt to make the lock folder. */
  onAttempt: (() => undefined) as () => void,
}));

vi.mock('proper-lockfile', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof import('proper-lockfile') }>()).default;
  const errno = (code: string) => Object.assign(new Error(code), { code });
  const later = (callback: Callback, error: NodeJS.ErrnoException | null, value?: unknown) =>
    process.nextTick(() => {
      callback(error, value);
    });
  const fs = {
    mkdir(_path: string, callback: Callback) {
      sim.onAttempt();
      if (sim.other || sim.mine !== undefined) return later(callback, errno('EEXIST'));
      sim.mine = Date.now();
      later(callback, null);
    },
    stat(_path: string, callback: Callback) {
      const mtime = sim.other ? sim.other() : sim.mine;
      if (mtime === undefined) return later(callback, errno('ENOENT'));
      later(callback, null, { mtime: new Date(mtime) });
    },
    utimes(_path: string, _atime: Date, mtime: Date, callback: Callback) {
      if (sim.mine !== undefined) sim.mine = mtime.getTime();
      later(callback, null);
    },
    rmdir(_path: string, callback: Callback) {
      if (sim.other) {
        sim.other = undefined;
        sim.takenOver = true;
      } else sim.mine = undefined;
      later(callback, null);
    },
    rmdirSync() {
      sim.mine = undefined;
    },
  };
  const lock = ((file: string, options: object) => actual.lock(file, { ...options, fs })) as typeof actual.lock;
  return { default: { ...actual, lock } };
});

const profile: Profile = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'store-wait-api-key-0123456789',
  subscriptionKey: 'store-wait-sub-key-0123456789',
};

beforeEach(async () => {
  // Loaded on the real clock: a write loads them before it first tries the lock.
  await Promise.all([import('conf'), import('proper-lockfile')]);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  sim.other = undefined;
  sim.takenOver = false;
  sim.mine = undefined;
});

afterEach(() => {
  vi.useRealTimers();
});

/** A private folder with a config file holding profile a; a write of profile b started; its state as it goes. */
async function startWrite() {
  const dir = tempDir();
  chmodSync(dir, 0o700);
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ activeProfile: 'a', profiles: { a: profile } }), { mode: 0o600 });
  const warnings: string[] = [];
  const store = await openProfileStore(dir, { warn: (message) => warnings.push(message) });
  const tried = new Promise<void>((resolve) => (sim.onAttempt = resolve));
  const state = { settled: false, error: undefined as unknown };
  const done = store
    .update((data) => {
      data.profiles.b = profile;
    })
    .then(
      () => undefined,
      (error: unknown) => {
        state.error = error;
      },
    )
    .finally(() => (state.settled = true));
  // The clock moves only once the writer has found the lock taken.
  await tried;
  const profiles = () => Object.keys((JSON.parse(readFileSync(path, 'utf8')) as { profiles: object }).profiles);
  return { path, warnings, state, done, profiles };
}

/** Moves the fake clock on by `ms`, a quarter of a second at a time, as a busy machine's timers would. */
async function pass(ms: number) {
  for (let left = ms; left > 0; left -= 250) await vi.advanceTimersByTimeAsync(Math.min(250, left));
}

const WAITING = (path: string) => `another cip is writing the config file ${path}; waiting for it (up to 3 minutes)`;

describe('a write that finds the lock held by a live cip', () => {
  it('waits minutes for it, says so once, and writes when it is released', async () => {
    sim.other = () => Date.now();
    const write = await startWrite();
    // The old wait gave up after 7 to 14 s; 80 logins on a loaded machine needed up to 47 s.
    await pass(150_000);
    expect(write.state).toEqual({ settled: false, error: undefined });
    expect(write.warnings).toEqual([WAITING(write.path)]);
    expect(sim.takenOver).toBe(false);

    sim.other = undefined;
    await pass(1_000);
    await write.done;
    expect(write.state).toEqual({ settled: true, error: undefined });
    expect(write.profiles()).toEqual(['a', 'b']);
    expect(write.warnings).toHaveLength(1);
    expect(sim.mine).toBeUndefined();
  });

  it('gives up after 3 minutes with one error line, and writes nothing', async () => {
    expect(LOCK_WAIT_MS).toBe(180_000);
    sim.other = () => Date.now();
    const write = await startWrite();
    await pass(LOCK_WAIT_MS - 2_000);
    expect(write.state.settled).toBe(false);
    await pass(4_000);
    await write.done;
    const error = write.state.error as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`cannot lock the config file ${write.path}: another cip is writing it (ELOCKED)`);
    expect(error.hint).toBe(`if none is running, remove ${write.path}.lock`);
    expect(write.profiles()).toEqual(['a']);
    expect(sim.takenOver).toBe(false);
  });

  it('never takes the lock from a live cip whose refreshes come 15 s late (a busy machine)', async () => {
    sim.other = () => Date.now() - 15_000;
    const write = await startWrite();
    await pass(60_000);
    expect(sim.takenOver).toBe(false);
    expect(write.state.settled).toBe(false);
    sim.other = undefined;
    await pass(1_000);
    await write.done;
    expect(write.state.error).toBeUndefined();
    expect(write.profiles()).toEqual(['a', 'b']);
  });
});

describe('a lock its holder left behind (a crash)', () => {
  it('is taken over once it has not been refreshed for 20 s, not before', async () => {
    const left = Date.now();
    sim.other = () => left;
    const write = await startWrite();
    await pass(18_000);
    expect(sim.takenOver).toBe(false);
    expect(write.state.settled).toBe(false);
    await pass(4_000);
    await write.done;
    expect(sim.takenOver).toBe(true);
    expect(write.state.error).toBeUndefined();
    expect(write.profiles()).toEqual(['a', 'b']);
  });
});

describe('a write that waits a moment', () => {
  it('says nothing when the lock is released within a second', async () => {
    sim.other = () => Date.now();
    const write = await startWrite();
    await pass(250);
    sim.other = undefined;
    // The next try comes within half a second (the longest interval), before the note is due.
    await pass(1_000);
    await write.done;
    expect(write.state.error).toBeUndefined();
    expect(write.warnings).toEqual([]);
    expect(write.profiles()).toEqual(['a', 'b']);
  });
});

describe('a write that finds the lock free', () => {
  it('says nothing about waiting', async () => {
    const write = await startWrite();
    await pass(1_000);
    await write.done;
    expect(write.state.error).toBeUndefined();
    expect(write.warnings).toEqual([]);
    expect(write.profiles()).toEqual(['a', 'b']);
  });
});
