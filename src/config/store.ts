// The profile store: one JSON file, read with JSON.parse and written through conf, private to its owner (file 0600, folder 0700).
// A file we cannot read or that does not have the shape we wrote is never reset: we stop and name it.
// cip changes the permissions only of what is its own (its default folder, a folder it creates, its file),
// never of a folder someone else made (CIP_CONFIG_DIR=/var/tmp), and refuses to keep keys in a folder that
// others can write to. A config.json that is a symbolic link (a dotfile manager's) is written through: the
// file it leads to is replaced, the link stays.
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { nonEmpty, type Env } from '../env.js';
import { isRecord } from '../json/record.js';

/**
 * The kinds of credential a profile holds (config/credentials.ts), and what a profile of each keeps: its
 * secrets (in this file, or as one keychain entry), whether it names an enterprise, and what the kind is called
 * in messages. `kind` is absent from profiles stored before tokens: an API key.
 */
export const KINDS = {
  'api-key': { secrets: ['apiKey', 'subscriptionKey'], enterpriseId: true, called: 'an API key' },
  token: { secrets: ['token', 'subscriptionKey'], enterpriseId: false, called: 'a token' },
} as const;
export type CredentialKind = keyof typeof KINDS;

/** What a profile of each kind holds beside its keys: an API key acts in the enterprise the profile names; a token names none. */
interface ApiKeyFields {
  kind?: 'api-key';
  baseUrl?: string;
  enterpriseId: string;
}
interface TokenFields {
  kind: 'token';
  baseUrl?: string;
}

/** A profile whose keys are in this file, in plain text (every profile before the keychain; `keys` absent). */
export type FileProfile =
  | (ApiKeyFields & { keys?: 'file'; apiKey: string; subscriptionKey: string })
  | (TokenFields & { keys?: 'file'; token: string; subscriptionKey: string });

/** A profile whose keys are in the operating system's keychain (config/keychain.ts): none in this file. */
export type KeychainProfile = (ApiKeyFields | TokenFields) & { keys: 'keychain' };

export type Profile = FileProfile | KeychainProfile;

export function inKeychain(profile: Profile): profile is KeychainProfile {
  return profile.keys === 'keychain';
}

/** The kind of credential a profile holds. */
export function profileKind(profile: Profile): CredentialKind {
  return profile.kind ?? 'api-key';
}

export interface StoreData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

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

const CONFIG_NAME = 'config';
/** A config file larger than this is not one cip wrote (a profile takes a few hundred bytes). */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

export interface ConfigLocation {
  dir: string;
  /** The platform's folder for cip (not CIP_CONFIG_DIR): cip's own, so cip may make it private. */
  isDefault: boolean;
}

/** CIP_CONFIG_DIR, else the platform's per-user config folder. */
export function configLocation(env: Env): ConfigLocation {
  if (env.CIP_CONFIG_DIR) return { dir: env.CIP_CONFIG_DIR, isDefault: false };
  const home = nonEmpty(env.HOME) ?? homedir();
  if (platform() === 'win32')
    return { dir: join(nonEmpty(env.APPDATA) ?? join(home, 'AppData', 'Roaming'), 'cip', 'Config'), isDefault: true };
  if (platform() === 'darwin') return { dir: join(home, 'Library', 'Preferences', 'cip'), isDefault: true };
  return { dir: join(nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, '.config'), 'cip'), isDefault: true };
}

export function configDir(env: Env): string {
  return configLocation(env).dir;
}

export function configFilePath(dir: string): string {
  return join(dir, `${CONFIG_NAME}.json`);
}

export type Warn = (message: string) => void;

const POSIX = platform() !== 'win32';

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What a file system entry is, for messages. */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * The config file must be a regular file of sane size: reading a FIFO would block cip (and its Ctrl-C)
 * until someone writes to it. Checked with stat, which never blocks.
 */
function checkConfigFile(path: string): Stats | undefined {
  const stats = statOrUndefined(path);
  if (stats) checkConfigStats(path, stats);
  return stats;
}

function checkConfigStats(path: string, stats: Stats): void {
  if (!stats.isFile()) {
    throw new ConfigError(
      `the config file ${path} is not a regular file (${kindOf(stats)})`,
      'remove it; cip keeps its profiles in a regular file',
    );
  }
  if (stats.size > MAX_CONFIG_BYTES) {
    throw new ConfigError(
      `the config file ${path} is too large (${stats.size} bytes)`,
      'fix or remove it by hand; cip will not overwrite it',
    );
  }
}

const modeText = (mode: number) => (mode & 0o7777).toString(8);

/**
 * Why keys must not be kept in this folder (others can write to it, or someone else owns it), if they can.
 * cip's own folder with a wider mode is made private instead, and said so.
 */
function checkFolder(dir: string, own: boolean, uid: number | undefined, warn: Warn): string | undefined {
  if (!POSIX) return undefined;
  const stats = statOrUndefined(dir);
  if (!stats) return undefined;
  if (own) {
    if ((stats.mode & 0o077) !== 0) {
      chmodSync(dir, (stats.mode & 0o7000) | 0o700);
      warn(`${dir} was readable by others (mode ${modeText(stats.mode)}); cip made it private (700)`);
    }
    return undefined;
  }
  const problem = notPrivate(stats, uid);
  if (problem) warn(`the config folder ${dir} is not private: ${problem}; cip will not store keys in it`);
  return problem;
}

/** Why a folder is not one to keep keys in: others can write to it, or it is someone else's. */
function notPrivate(stats: Stats, uid: number | undefined): string | undefined {
  if ((stats.mode & 0o022) !== 0) return `others can write to it (mode ${modeText(stats.mode)})`;
  if (uid !== undefined && stats.uid !== uid) return `it belongs to another user (uid ${stats.uid})`;
  return undefined;
}

/**
 * The file a write replaces: the config file itself, or, when it is a symbolic link (stow, chezmoi,
 * home-manager), the file the link leads to, so that the link stays. A link to nothing, or a loop, is refused.
 */
function writeTarget(path: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
  } catch {
    // No file (or no folder): what comes next says what is wrong, as without a link.
    return path;
  }
  try {
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new ConfigError(
        `the config file ${path} is a link to ${resolve(dirname(path), readlinkSync(path))}, which does not exist`,
        'restore that file, or remove the link',
      );
    }
    if (code === 'ELOOP') {
      throw new ConfigError(`the config file ${path} is a link that leads round in a loop`, 'remove the link, or point it at a file');
    }
    throw error;
  }
}

/**
 * Why keys must not be written to the file a config link leads to: it is someone else's, or it is in a folder
 * others can write to (who could swap the file) or that is someone else's. The config folder itself is
 * checked as such.
 */
function linkTargetProblem(dir: string, target: string, uid: number | undefined): string | undefined {
  if (!POSIX) return undefined;
  const stats = statSync(target);
  if (uid !== undefined && stats.uid !== uid) return `it belongs to another user (uid ${stats.uid})`;
  const folder = dirname(target);
  if (folder === realpathSync(dir)) return undefined;
  const problem = notPrivate(statSync(folder), uid);
  return problem && `its folder ${folder} is not private: ${problem}`;
}

/** cip's own file, opened up by someone: made private again, and said so. */
function tightenFile(path: string, stats: Stats | undefined, uid: number | undefined, warn: Warn): void {
  if (!POSIX || !stats || (stats.mode & 0o077) === 0 || stats.uid !== uid) return;
  chmodSync(path, 0o600);
  warn(`${path} was readable by others (mode ${modeText(stats.mode)}); cip made it private (600)`);
}

/**
 * Replaces the file in one step: a temporary file in the same folder, flushed to disk, renamed over it.
 * A full disk or a crash leaves the old file whole. conf would write in place when SNAP is set.
 */
function writeFileAtomic(path: string, text: string): void {
  // Created exclusively ('wx') in a folder cip checked: the name need only differ from other writers' at
  // once, so node:crypto (a cost for every command, since this module is loaded by all) is not needed.
  const temp = `${path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  // The rename itself must reach the disk too.
  try {
    const folder = openSync(dirname(path), 'r');
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename has happened all the same.
  }
}

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

type Lockfile = typeof import('proper-lockfile');

/**
 * Takes the lock on the file a write replaces (`<file>.lock` beside it, so a writer through a link and one
 * naming the file itself take the same lock). A wait of more than a moment is said, once: a login that
 * pauses for minutes must say why.
 */
async function lockFile(
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

/** Every secret field of any kind: a profile may hold only its own kind's. */
const SECRET_FIELDS = [...new Set(Object.values(KINDS).flatMap((kind) => kind.secrets))];

function checkShape(raw: unknown, path: string): StoreData {
  const broken = (what: string) =>
    new ConfigError(`the config file ${path} is not valid: ${what}`, 'fix or remove it by hand; cip will not overwrite it');
  if (!isRecord(raw)) throw broken('expected a JSON object');
  const data = raw;
  const profiles = data.profiles ?? {};
  if (!isRecord(profiles)) throw broken('"profiles" is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (typeof profile !== 'object' || profile === null) throw broken(`profile '${name}' is not an object`);
    const fields = profile as Record<string, unknown>;
    const kindName = fields.kind === undefined ? 'api-key' : fields.kind;
    if (typeof kindName !== 'string' || !Object.hasOwn(KINDS, kindName)) {
      throw broken(
        `profile '${name}' has a bad "kind" (expected ${Object.keys(KINDS)
          .map((kind) => `"${kind}"`)
          .join(' or ')})`,
      );
    }
    const kind = KINDS[kindName as CredentialKind];
    if (kind.enterpriseId && typeof fields.enterpriseId !== 'string') throw broken(`profile '${name}' has no enterpriseId`);
    // A token acts for whom it says: an enterprise id beside it would look as if it chose one.
    if (!kind.enterpriseId && fields.enterpriseId !== undefined)
      throw broken(`profile '${name}' holds ${kind.called} but has an enterpriseId`);
    if (fields.keys !== undefined && fields.keys !== 'file' && fields.keys !== 'keychain') {
      throw broken(`profile '${name}' has a bad "keys" (expected "keychain" or "file")`);
    }
    const own: readonly string[] = kind.secrets;
    for (const field of SECRET_FIELDS) {
      // Keys of another kind, or a keychain profile with keys in the file too, would leave the user unsure
      // which are used, and where.
      if (!own.includes(field) && fields[field] !== undefined) throw broken(`profile '${name}' holds ${kind.called} but has ${field}`);
      else if (fields.keys === 'keychain' && fields[field] !== undefined)
        throw broken(`profile '${name}' keeps its keys in the keychain but has ${field}`);
      else if (own.includes(field) && fields.keys !== 'keychain' && typeof fields[field] !== 'string')
        throw broken(`profile '${name}' has no ${field}`);
    }
    if (fields.baseUrl !== undefined && typeof fields.baseUrl !== 'string') throw broken(`profile '${name}' has a bad baseUrl`);
  }
  if (data.activeProfile !== undefined && typeof data.activeProfile !== 'string') throw broken('"activeProfile" is not a string');
  return { ...(data as object), profiles: profiles as Record<string, Profile> };
}

export interface StoreOptions {
  warn?: Warn;
  /** The folder is cip's own (its default location): cip may make it private. */
  ownFolder?: boolean;
  /** The user's id: a folder someone else owns is not private, and only one's own file is tightened. */
  uid?: number | undefined;
}

/**
 * The config file's text, or undefined when there is none. Opened without blocking and checked on the open
 * file: a FIFO swapped in after a stat cannot block the read.
 */
function readConfigText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, POSIX ? constants.O_RDONLY | constants.O_NONBLOCK : constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    checkConfigStats(path, fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

// Async although nothing in it waits: a folder or file that fails its checks is a rejection, as callers expect.
// eslint-disable-next-line @typescript-eslint/require-await
export async function openProfileStore(dir: string, options: StoreOptions = {}): Promise<ProfileStore> {
  const warn = options.warn ?? (() => undefined);
  const path = configFilePath(dir);
  let unsafeFolder: string | undefined;
  try {
    unsafeFolder = checkFolder(dir, options.ownFolder ?? false, options.uid, warn);
    tightenFile(path, checkConfigFile(path), options.uid, warn);
    const target = writeTarget(path);
    const problem = target === path ? undefined : linkTargetProblem(dir, target, options.uid);
    if (problem) warn(`the config file ${path} links to ${target}: ${problem}; cip will not store keys there`);
  } catch (error) {
    throw describeFailure(error, path);
  }

  // A read is JSON.parse and the shape check; conf (with ajv, the heaviest package cip uses) is loaded only
  // to write.
  const read = (): StoreData => {
    try {
      const text = readConfigText(path);
      return text === undefined ? { profiles: {} } : checkShape(JSON.parse(text), path);
    } catch (error) {
      throw describeFailure(error, path);
    }
  };
  // Synchronous, given conf: nothing can happen between the last check of the lock and the write.
  const write = (Conf: typeof import('conf').default, data: StoreData, target: string): void => {
    const conf = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: CONFIG_NAME,
      projectName: 'cip',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      // conf would turn a top-level array or string into an object and then write that back.
      deserialize: (text: string) => {
        const value: unknown = JSON.parse(text);
        return checkShape(value, path) as unknown as Record<string, unknown>;
      },
    });
    // Every write goes through writeFileAtomic, whatever conf would do (it writes in place under SNAP).
    (conf as unknown as { _write(value: unknown): void })._write = (value) => writeFileAtomic(target, JSON.stringify(value, null, '\t'));
    conf.store = data as unknown as Record<string, unknown>;
  };
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
      try {
        if (!existsSync(dir)) {
          // A folder cip creates is cip's: private whatever the umask.
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          if (POSIX) chmodSync(dir, 0o700);
        }
        // The lock would retry a folder it cannot write to, or a file in its place, for seconds; say so at once.
        if (!statSync(dir).isDirectory()) {
          throw new ConfigError(`cannot use the config folder ${dir}: it is not a folder`, 'set CIP_CONFIG_DIR to a folder');
        }
        accessSync(dir, constants.W_OK);
      } catch (error) {
        throw describeFailure(error, path);
      }
      let target: string;
      try {
        target = writeTarget(path);
        if (target !== path) {
          const problem = linkTargetProblem(dir, target, options.uid);
          if (problem) {
            throw new ConfigError(
              `refusing to store keys in ${target}, where the config file ${path} links: ${problem}`,
              'point the link at a file of your own in a folder only you can write to, or replace the link with a file',
            );
          }
        }
      } catch (error) {
        throw describeFailure(error, path);
      }
      try {
        if (target !== path) accessSync(dirname(target), constants.W_OK);
      } catch (error) {
        throw describeFailure(error, target);
      }
      // Loaded before the lock is taken: the load is the longest pause of a write, and a lock held through it
      // keeps every other writer waiting.
      const [{ default: lockfile }, { default: Conf }] = await Promise.all([import('proper-lockfile'), import('conf')]);
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
        try {
          write(Conf, data, target);
        } catch (error) {
          throw describeFailure(error, path);
        }
        return data;
      } finally {
        await release().catch(() => undefined);
      }
    },
  };
}

const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

function describeFailure(error: unknown, path: string, lockPath = `${path}.lock`): Error {
  if (error instanceof ConfigError) return error;
  if (error instanceof SyntaxError) {
    return new ConfigError(`the config file ${path} is not valid JSON`, 'fix or remove it by hand; cip will not overwrite it');
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const folder = dirname(path);
  if (code === 'ELOCKED') {
    return new ConfigError(
      `cannot lock the config file ${path}: another cip is writing it (ELOCKED)`,
      `if none is running, remove ${lockPath}`,
    );
  }
  if (code && NOT_WRITABLE.has(code)) {
    return new ConfigError(
      `cannot write the config file ${path}: the folder ${folder} is not writable (${code})`,
      'check its permissions, or set CIP_CONFIG_DIR to a folder you can write to',
    );
  }
  if (code && DISK_FULL.has(code)) {
    return new ConfigError(`cannot write the config file ${path}: no room left (${code}); the file was left as it was`);
  }
  if (code === 'ENOTDIR') {
    return new ConfigError(`cannot use the config folder ${dirname(path)}: it is not a folder`, 'set CIP_CONFIG_DIR to a folder');
  }
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new ConfigError(`cannot use the config file ${path}: ${reason}`);
}
