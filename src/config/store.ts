// The profile store: one JSON file, private to its owner (file 0600, folder 0700), read with JSON.parse and
// replaced whole on each write, under a lock shared by all cip processes. A file we cannot read or that does not
// have the shape we wrote is never reset: we stop and name it. Each job has a module of its own in store/:
// location (where the file lives), privacy (who may read and write it, links), read (bounded, never blocking),
// lock, write, and failure (what cip says when one of them fails). What the file holds is store/profile.ts.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';
import type { StoreData } from './store/profile.js';
import { describeFailure, describing } from './store/failure.js';
import { configFilePath } from './store/location.js';
import { loadLockfile, lockFile } from './store/lock.js';
import { checkFolder, linkTargetProblem, makePrivateFolder, tightenFile, writeTarget, type Warn } from './store/privacy.js';
import { checkConfigFile, readStoreData } from './store/read.js';
import { loadConf, writeStoreData } from './store/write.js';

export {
  KINDS,
  activeProfile,
  getProfile,
  inKeychain,
  profileKind,
  requireProfile,
  type CredentialKind,
  type FileProfile,
  type KeychainProfile,
  type Profile,
  type StoreData,
} from './store/profile.js';
export { configDir, configFilePath, configLocation } from './store/location.js';
export { LOCK_WAIT_MS } from './store/lock.js';
export { MAX_CONFIG_BYTES, kindOf } from './store/read.js';

export interface ProfileStore {
  readonly path: string;
  /** A fresh read of the file on every call: another cip process may have written it. */
  read(): StoreData;
  /**
   * Read, change, write back atomically, holding a lock across the three so that two cip processes writing
   * at once (parallel logins in a CI matrix) cannot lose each other's changes.
   */
  update(change: (data: StoreData) => void): Promise<StoreData>;
}

export interface StoreOptions {
  warn?: Warn;
  /** The folder is cip's own (its default location): cip may make it private. */
  ownFolder?: boolean;
  /** The user's id: a folder someone else owns is not private, and only one's own file is tightened. */
  uid?: number | undefined;
}

// Async although nothing in it waits: a folder or file that fails its checks is a rejection, as callers expect.
// eslint-disable-next-line @typescript-eslint/require-await
export async function openProfileStore(dir: string, options: StoreOptions = {}): Promise<ProfileStore> {
  const warn = options.warn ?? (() => undefined);
  const path = configFilePath(dir);
  const unsafeFolder = describing(path, () => checkOnOpen(dir, path, options, warn));
  // A read is JSON.parse and the shape check; the packages a write needs are loaded only to write.
  const read = (): StoreData => describing(path, () => readStoreData(path));
  return {
    path,
    read,
    async update(change) {
      if (unsafeFolder) {
        throw new ConfigError(
          `refusing to store keys in ${dir}: ${unsafeFolder}`,
          `set CIP_CONFIG_DIR to a folder only you can write to, or make this one private (chmod 700 ${dir})`,
        );
      }
      const target = prepareWrite(dir, path, options.uid);
      // Loaded before the lock is taken: the load is the longest pause of a write, and a lock held through it
      // keeps every other writer waiting.
      const [lockfile, Conf] = await Promise.all([loadLockfile(), loadConf()]);
      let compromised: Error | undefined;
      let release: () => Promise<void>;
      try {
        release = await lockFile(lockfile, target, path, warn, (error) => {
          compromised = error;
        });
      } catch (error) {
        throw describeFailure(error, path, `${target}.lock`);
      }
      try {
        // The link may have been pointed elsewhere while this writer waited: its lock is then not the right one.
        if (target !== path && writeTarget(path) !== target) {
          throw new ConfigError(`the config file ${path} was pointed elsewhere while cip waited to write it; nothing was written`);
        }
        // Read under the lock: another process may have written since this one opened the store.
        const data = read();
        change(data);
        if (compromised) throw new ConfigError(`lost the lock on the config file ${path}; nothing was written`);
        // conf reads the file once more just before the write: a program that ignores the lock (an editor) may
        // have broken it since, and a file cip cannot read, or of another shape, is never overwritten.
        describing(path, () => writeStoreData(Conf, dir, path, target, data));
        return data;
      } finally {
        await release().catch(() => undefined);
      }
    },
  };
}

/**
 * What opening the store checks: the folder (made private if it is cip's own), the file (a regular file of sane
 * size, made private if it is the user's), and where a link leads. Returns why keys must not be stored in the
 * folder, if they must not.
 */
function checkOnOpen(dir: string, path: string, options: StoreOptions, warn: Warn): string | undefined {
  const unsafeFolder = checkFolder(dir, options.ownFolder ?? false, options.uid, warn);
  tightenFile(path, checkConfigFile(path), options.uid, warn);
  const target = writeTarget(path);
  const problem = target === path ? undefined : linkTargetProblem(dir, target, options.uid);
  if (problem) warn(`the config file ${path} links to ${target}: ${problem}; cip will not store keys there`);
  return unsafeFolder;
}

/** The folder made ready for a write, and the file the write replaces (the config file, or where its link leads). */
function prepareWrite(dir: string, path: string, uid: number | undefined): string {
  describing(path, () => {
    if (!existsSync(dir)) makePrivateFolder(dir);
    // The lock would retry a folder it cannot write to, or a file in its place, for seconds; say so at once.
    if (!statSync(dir).isDirectory()) {
      throw new ConfigError(`cannot use the config folder ${dir}: it is not a folder`, 'set CIP_CONFIG_DIR to a folder');
    }
    accessSync(dir, constants.W_OK);
  });
  const target = describing(path, () => {
    const found = writeTarget(path);
    const problem = found === path ? undefined : linkTargetProblem(dir, found, uid);
    if (problem) {
      throw new ConfigError(
        `refusing to store keys in ${found}, where the config file ${path} links: ${problem}`,
        'point the link at a file of your own in a folder only you can write to, or replace the link with a file',
      );
    }
    return found;
  });
  if (target !== path) describing(target, () => accessSync(dirname(target), constants.W_OK));
  return target;
}
