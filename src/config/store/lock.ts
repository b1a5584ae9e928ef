// The lock that lets cip processes write the config file one at a time (parallel logins in a CI matrix):
// proper-lockfile, a `<file>.lock` folder beside the file, refreshed while held.
import { mkdirSync, rmdirSync } from 'node:fs';
import type { Warn } from './privacy.js';

// A live holder refreshes its lock every second; a lock not refreshed for 20 s is its dead holder's and is
// taken over. 20 s, not less: on a busy machine a live cip's refresh can come seconds late, and a lock taken
// from a live holder loses its write. A writer waits up to 3 minutes, with backoff, so that many parallel
// logins on a loaded machine all get their turn (80 at load 15 took up to 47 s) and a crashed writer never
// blocks the next one.
const LOCK_STALE_MS = 20_000;
const LOCK_UPDATE_MS = 1_000;
export const LOCK_WAIT_MS = 180_000;
const LOCK_RETRY_MIN_MS = 50;
const LOCK_RETRY_MAX_MS = 500;
/** How long a writer waits before it says that it waits. */
const LOCK_NOTE_AFTER_MS = 1_000;
const LOCK_OPTIONS = { realpath: false, stale: LOCK_STALE_MS, update: LOCK_UPDATE_MS };
const LOCK_RETRIES = {
  // Enough tries to fill the wait even at the longest interval; the time limit ends it.
  retries: Math.ceil(LOCK_WAIT_MS / LOCK_RETRY_MAX_MS) + 20,
  factor: 1.5,
  minTimeout: LOCK_RETRY_MIN_MS,
  maxTimeout: LOCK_RETRY_MAX_MS,
  randomize: true,
  maxRetryTime: LOCK_WAIT_MS,
};

export type Lockfile = typeof import('proper-lockfile');

/** proper-lockfile, loaded only to write: a read takes no lock. */
export async function loadLockfile(): Promise<Lockfile> {
  return (await import('proper-lockfile')).default;
}

/**
 * The same lock, taken at once when nobody holds it, for a write that is done before the event loop turns again
 * (the journal's append): proper-lockfile makes and removes its folder with asynchronous calls, runs a timer that
 * refreshes it, and is a module to load, which cost every write command milliseconds. It is the same folder
 * (`<file>.lock`), so either way keeps the other out, and a holder that dies leaves what proper-lockfile takes
 * over as stale. Undefined when someone holds it, or it cannot be made: then lockFile waits for it.
 */
export function lockNow(file: string): (() => void) | undefined {
  const lock = `${file}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return undefined;
  }
  return () => {
    try {
      rmdirSync(lock);
    } catch {
      // Already gone: nothing to release.
    }
  };
}

/**
 * Takes the lock on the file a write replaces (`<file>.lock` beside it, so a writer through a link and one
 * naming the file itself take the same lock). A wait of more than a moment is said, once: a login that
 * pauses for minutes must say why.
 */
export async function lockFile(
  lockfile: Lockfile,
  file: string,
  path: string,
  warn: Warn,
  onCompromised: (error: Error) => void,
): Promise<() => Promise<void>> {
  const note = setTimeout(() => {
    warn(`another cip is writing the config file ${path}; waiting for it (up to ${LOCK_WAIT_MS / 60_000} minutes)`);
  }, LOCK_NOTE_AFTER_MS);
  try {
    return await lockfile.lock(file, { ...LOCK_OPTIONS, lockfilePath: `${file}.lock`, onCompromised, retries: LOCK_RETRIES });
  } finally {
    clearTimeout(note);
  }
}
