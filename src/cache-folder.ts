// The private cache folder: where the code cache (load-cli.ts) and the single executable's native addon live,
// in the user's own cache folder: $XDG_CACHE_HOME/cip, else ~/.cache/cip (~/Library/Caches/cip on macOS;
// %LOCALAPPDATA%\cip\Cache on Windows, beside the config folder's %APPDATA%\cip\Config). What it holds is
// run (compiled code, a library), so a folder someone else could have filled is never used: it must be a real
// folder of the user's own that only they can use (0700), in a folder others cannot write to. A cache only saves
// time: when there is none to be had, cip runs without it, and says why under --verbose. Part of the entry, but
// touches no process.*: load-cli.ts hands in what it needs.
import { lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

export interface CacheInputs {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** The user's id and primary group (POSIX); undefined on Windows. */
  uid: number | undefined;
  gid: number | undefined;
}

/** The folder, and whether this run made it; or why there is none. */
export type CacheFolder = { dir: string; created: boolean; why?: undefined } | { dir?: undefined; created?: undefined; why: string };

/** Where the cache folder is on this platform; undefined without a home folder to put it in. */
export function cacheLocation({ env, platform }: Pick<CacheInputs, 'env' | 'platform'>): string | undefined {
  const absolute = (path: string | undefined) => (path && isAbsolute(path) ? path : undefined);
  if (platform === 'win32') {
    const local = absolute(env.LOCALAPPDATA);
    return local && join(local, 'cip', 'Cache');
  }
  // The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored. Set, it is honoured on macOS too.
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, 'cip');
  const home = absolute(env.HOME);
  if (!home) return undefined;
  return platform === 'darwin' ? join(home, 'Library', 'Caches', 'cip') : join(home, '.cache', 'cip');
}

const mode = (stats: Stats) => (stats.mode & 0o7777).toString(8);

/** Why a folder that holds the cache folder is not safe: one that others could change lets them swap the cache folder. */
function unsafeParent(stats: Stats, { uid, gid }: CacheInputs): string | undefined {
  if (!stats.isDirectory()) return 'it is not a folder';
  if ((stats.mode & 0o002) !== 0) return `others can write to it (mode ${mode(stats)})`;
  // A folder made under umask 002 by a user with a group of their own is theirs alone.
  if ((stats.mode & 0o020) !== 0 && stats.gid !== gid) return `its group (gid ${stats.gid}) can write to it (mode ${mode(stats)})`;
  if (stats.uid !== uid && stats.uid !== 0) return `it belongs to another user (uid ${stats.uid})`;
  return undefined;
}

/** Why the cache folder itself is not private, if it is not (looked at without following a link). */
function notPrivate(stats: Stats, { uid }: CacheInputs): string | undefined {
  if (stats.isSymbolicLink()) return 'it is a symbolic link';
  if (!stats.isDirectory()) return 'it is not a folder';
  if (stats.uid !== uid) return `it belongs to another user (uid ${stats.uid})`;
  if ((stats.mode & 0o077) !== 0) return `it is not private (mode ${mode(stats)}; \`chmod 700\` it to use it)`;
  return undefined;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * The private cache folder, made (0700) when it is missing, or why there is none. Two system calls when it is
 * there; it never throws.
 */
export function privateCacheFolder(inputs: CacheInputs): CacheFolder {
  const dir = cacheLocation(inputs);
  if (!dir) return { why: 'no cache folder: there is no home folder (HOME is not an absolute path)' };
  const refuse = (what: string, why: string) => ({ why: `the cache folder ${what} is not used: ${why}` });
  // Windows keeps the folder under the user's own profile; its modes say nothing there.
  if (inputs.platform === 'win32') {
    try {
      mkdirSync(dir, { recursive: true });
      return { dir, created: false };
    } catch (error) {
      return refuse(dir, `it cannot be made (${code(error)})`);
    }
  }
  const parent = dirname(dir);
  let created = false;
  try {
    let own = lstatOrUndefined(dir);
    // A link as the parent is followed (~/.cache on another disk); the folder itself must be real.
    let above = statOrUndefined(parent);
    if (!own) {
      if (!above) {
        // Made as the XDG spec says, one level: a home folder that is not there is not made.
        mkdirOnce(parent);
        above = statSync(parent);
      }
      const why = unsafeParent(above, inputs);
      if (why) return refuse(dir, `its folder ${parent}: ${why}`);
      created = mkdirOnce(dir);
      own = lstatSync(dir);
    }
    const why = above ? unsafeParent(above, inputs) : 'it is not there';
    if (why) return refuse(dir, `its folder ${parent}: ${why}`);
    const problem = notPrivate(own, inputs);
    if (problem) return refuse(dir, problem);
    return { dir, created };
  } catch (error) {
    return refuse(dir, `it cannot be made (${code(error)})`);
  }
}

/** Makes a private folder; false when another cip made it at the same moment. */
function mkdirOnce(path: string): boolean {
  try {
    mkdirSync(path, { mode: 0o700 });
    return true;
  } catch (error) {
    if (code(error) !== 'EEXIST') throw error;
    return false;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Removes what earlier versions of cip kept in the temp folder, once, when the cache folder is first made: the
 * code cache folder `cip-compile-cache-<uid>`, its cache files and the executable's `sea-*` folders. Only a
 * folder of that name that is this user's own and real (a link is never followed), only files of cip's names in
 * it, and nothing in a temp folder that others can write to and that has no sticky bit (others could swap an
 * entry under cip). The temp folder itself is not listed: it may hold many thousands of entries. Never throws:
 * what cannot be removed stays.
 */
export function removeOldLayout(temp: string, { uid }: Pick<CacheInputs, 'uid'>): void {
  try {
    const folder = statSync(temp);
    if (!folder.isDirectory() || ((folder.mode & 0o002) !== 0 && (folder.mode & 0o1000) === 0)) return;
    const old = join(temp, `cip-compile-cache-${uid ?? 'user'}`);
    const stats = lstatOrUndefined(old);
    if (!stats?.isDirectory() || (uid !== undefined && stats.uid !== uid)) return;
    for (const name of readdirSync(old)) {
      if (/^cli-.*\.bin(?:\.\d+\.tmp)?$/.test(name) || name.startsWith('sea-')) removeQuietly(join(old, name));
    }
    // Left when it holds something that is not cip's.
    removeQuietly(old, false);
  } catch {
    // The temp folder is missing, or not a folder: there is nothing of cip's in it.
  }
}

/** fs.rm never follows a link: a link is removed, not what it leads to. */
function removeQuietly(path: string, recursive = true): void {
  try {
    if (recursive) rmSync(path, { recursive: true, force: true });
    else rmdirSync(path);
  } catch {
    // Removed meanwhile, or not empty.
  }
}
