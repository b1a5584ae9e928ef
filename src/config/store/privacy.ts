// Who may read and write the profile store. cip changes the permissions only of what is its own (its default
// folder, a folder it creates, its file), never of a folder someone else made (CIP_CONFIG_DIR=/var/tmp), and
// refuses to keep keys in a folder that others can write to. A config.json that is a symbolic link (a dotfile
// manager's) is written through: the file it leads to is replaced, the link stays.
import { chmodSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { platform } from 'node:os';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../../errors.js';

export type Warn = (message: string) => void;

/**
 * Whether file modes and owners apply (not on Windows). Asked when needed, not when the module loads: node:os is a
 * module to load, and most runs (`--help`) never ask.
 */
export function isPosix(): boolean {
  return platform() !== 'win32';
}

export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

const modeText = (mode: number) => (mode & 0o7777).toString(8);

/**
 * Why this folder is not private (others can write to it, or someone else owns it), if it is not. cip's own
 * folder with a wider mode is made private instead, and said so.
 */
export function folderPrivacy(dir: string, own: boolean, uid: number | undefined, warn: Warn): string | undefined {
  if (!isPosix()) return undefined;
  const stats = statOrUndefined(dir);
  if (!stats) return undefined;
  if (own) {
    if ((stats.mode & 0o077) !== 0) {
      chmodSync(dir, (stats.mode & 0o7000) | 0o700);
      warn(`${dir} was readable by others (mode ${modeText(stats.mode)}); cip made it private (700)`);
    }
    return undefined;
  }
  return notPrivate(stats, uid);
}

/** Why keys must not be kept in this folder, if they must not (folderPrivacy), said as a warning. */
export function checkFolder(dir: string, own: boolean, uid: number | undefined, warn: Warn): string | undefined {
  const problem = folderPrivacy(dir, own, uid, warn);
  if (problem) warn(`the config folder ${dir} is not private: ${problem}; cip will not store keys in it`);
  return problem;
}

/** Why a folder is not one to keep keys in: others can write to it, or it is someone else's. */
function notPrivate(stats: Stats, uid: number | undefined): string | undefined {
  if ((stats.mode & 0o022) !== 0) return `others can write to it (mode ${modeText(stats.mode)})`;
  if (uid !== undefined && stats.uid !== uid) return `it belongs to another user (uid ${stats.uid})`;
  return undefined;
}

/** A folder cip creates is cip's: private whatever the umask. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (isPosix()) chmodSync(dir, 0o700);
}

/** cip's own file, opened up by someone: made private again, and said so. */
export function tightenFile(path: string, stats: Stats | undefined, uid: number | undefined, warn: Warn): void {
  if (!isPosix() || !stats || (stats.mode & 0o077) === 0 || stats.uid !== uid) return;
  chmodSync(path, 0o600);
  warn(`${path} was readable by others (mode ${modeText(stats.mode)}); cip made it private (600)`);
}

/**
 * The file a write replaces: the config file itself, or, when it is a symbolic link (stow, chezmoi,
 * home-manager), the file the link leads to, so that the link stays. A link to nothing, or a loop, is refused.
 */
export function writeTarget(path: string): string {
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
export function linkTargetProblem(dir: string, target: string, uid: number | undefined): string | undefined {
  if (!isPosix()) return undefined;
  const stats = statSync(target);
  if (uid !== undefined && stats.uid !== uid) return `it belongs to another user (uid ${stats.uid})`;
  const folder = dirname(target);
  if (folder === realpathSync(dir)) return undefined;
  const problem = notPrivate(statSync(folder), uid);
  return problem && `its folder ${folder} is not private: ${problem}`;
}
