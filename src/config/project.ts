// The project file: a `.cip.json` in a project folder that says which profile (or which enterprise id and base
// URL) the commands run under it mean, like `.nvmrc`. It is found from the working folder upward; the search
// stops at the home folder when the working folder is inside it (folders above home belong to others or to the
// system, and must not decide which enterprise a user acts in), else at the file system's root. It does not
// stop at a git root: one file above several checkouts (~/clients/acme/.cip.json) is a use worth keeping.
// The nearest file found decides; a farther one is never read in its place.
//
// The file is JSON, read (never executed), bounded and checked: `{"profile": "prod"}`, or
// `{"enterpriseId": "GUID", "baseUrl": "https://..."}` (either or both). Anything else (a key given twice, too)
// is exit 2, naming the file.
// A file that others can change (it, or its folder, is writable by others, or belongs to another user) is
// ignored with a warning, as the config folder is (store/privacy.ts): whoever can write it could send the
// user's keys to another enterprise.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { repeatedKey } from '../json/repeated-key.js';
import { printable } from '../text/sanitize.js';
import { isPosix, statOrUndefined, type Warn } from './store/privacy.js';
import { kindOf } from './store/read.js';
import { writeFileAtomic } from './store/write.js';
import { checkBaseUrl, checkEnterpriseId, isProfileName } from './validate.js';

export const PROJECT_FILE = '.cip.json';
/** A project file takes a few dozen bytes; a larger one is not one (64 KiB). */
export const MAX_PROJECT_BYTES = 64 * 1024;
const FIELDS = ['profile', 'enterpriseId', 'baseUrl'] as const;
const EXAMPLE = '{"profile": "prod"} or {"enterpriseId": "GUID", "baseUrl": "https://..."}';

export interface ProjectFile {
  /** Where it is, absolute. */
  path: string;
  profile?: string;
  enterpriseId?: string;
  baseUrl?: string;
}

export interface ProjectInputs {
  /** The working folder; undefined (it was removed) looks for nothing. */
  cwd: string | undefined;
  /** The home folder, where the search stops when the working folder is inside it. */
  home: string | undefined;
  uid: number | undefined;
  gid: number | undefined;
  allowHttp: boolean;
  warn: Warn;
}

/** A path as messages show it: control characters made visible, long ones kept whole enough to find. */
export function shownPath(path: string): string {
  return printable(path, 300);
}

/** The nearest `.cip.json` from `cwd` upward (see the top of this file), whatever it is; undefined when none. */
export function findProjectFile(cwd: string | undefined, home: string | undefined): string | undefined {
  if (cwd === undefined || !isAbsolute(cwd)) return undefined;
  let dir = resolve(cwd);
  // The working folder comes as the system gives it (links resolved): so is home, when it is reached through a link.
  const stopAt = home !== undefined && isAbsolute(home) ? [resolve(home), realOrSame(home)].find((top) => within(dir, top)) : undefined;
  for (;;) {
    const candidate = join(dir, PROJECT_FILE);
    if (exists(candidate)) return candidate;
    const parent = dirname(dir);
    if (dir === stopAt || parent === dir) return undefined;
    dir = parent;
  }
}

function within(dir: string, top: string): boolean {
  return dir === top || dir.startsWith(top.endsWith(sep) ? top : top + sep);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const modeText = (mode: number) => (mode & 0o7777).toString(8);

/**
 * Why others could change what this entry holds, if they can: written by anyone (o+w), by a group that is not
 * the user's own (g+w: a folder made under umask 002 by a user with a group of their own is theirs alone), or
 * owned by another user than the user or root.
 */
function othersCanChange(stats: Stats, uid: number | undefined, gid: number | undefined): string | undefined {
  if ((stats.mode & 0o002) !== 0) return `others can write to it (mode ${modeText(stats.mode)})`;
  if ((stats.mode & 0o020) !== 0 && stats.gid !== gid) return `its group (gid ${stats.gid}) can write to it (mode ${modeText(stats.mode)})`;
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) return `it belongs to another user (uid ${stats.uid})`;
  return undefined;
}

/** Why the project file must not be trusted, if so: the file (through a link, the file it leads to) and the folders holding them. */
export function untrusted(path: string, uid: number | undefined, gid: number | undefined): string | undefined {
  if (!isPosix()) return undefined;
  const file = statOrUndefined(path);
  // A link to nothing is read, and refused, as what it is.
  if (!file) return undefined;
  const problem = othersCanChange(file, uid, gid);
  if (problem) return `the file: ${problem}`;
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // Checked as it is.
  }
  for (const folder of new Set([dirname(path), dirname(real)])) {
    const stats = statOrUndefined(folder);
    const why = stats && othersCanChange(stats, uid, gid);
    if (why) return `its folder ${shownPath(folder)}: ${why}`;
  }
  return undefined;
}

function invalid(path: string, what: string, hint = `a project file holds ${EXAMPLE}`): UsageError {
  return new UsageError(`the project file ${shownPath(path)} ${what}`, hint);
}

/** The file's text: a regular file of at most MAX_PROJECT_BYTES, opened without blocking (a FIFO cannot hang cip). */
function readProjectText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, isPosix() ? constants.O_RDONLY | constants.O_NONBLOCK : constants.O_RDONLY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw invalid(path, `cannot be read (${code})`, 'fix its permissions, or remove it');
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw invalid(path, `is not a regular file (${kindOf(stats)})`, `remove it; a project file holds ${EXAMPLE}`);
    if (stats.size > MAX_PROJECT_BYTES) throw invalid(path, `is too large (${stats.size} bytes; at most ${MAX_PROJECT_BYTES})`);
    // Read up to one byte past the limit: a file that grew after the stat is still bounded.
    const buffer = Buffer.alloc(MAX_PROJECT_BYTES + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_PROJECT_BYTES) throw invalid(path, `is too large (more than ${MAX_PROJECT_BYTES} bytes)`);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The project file's fields, checked; exit 2 naming the file for anything else. */
export function checkProject(value: unknown, path: string, allowHttp: boolean): ProjectFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'is not a JSON object');
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length) {
    const names = unknown.map((key) => `'${printable(key, 40)}'`).join(', ');
    throw invalid(
      path,
      `has ${unknown.length === 1 ? 'an unknown field' : 'unknown fields'} ${names}`,
      `a project file holds only ${EXAMPLE}`,
    );
  }
  const text = (key: (typeof FIELDS)[number]): string | undefined => {
    if (!Object.hasOwn(fields, key)) return undefined;
    const field = fields[key];
    if (typeof field !== 'string' || field.trim() === '') throw invalid(path, `has a ${key} that is not a non-empty string`);
    return field;
  };
  const profile = text('profile');
  const enterpriseId = text('enterpriseId');
  const baseUrl = text('baseUrl');
  const where = `in the project file ${shownPath(path)}`;
  if (profile !== undefined) {
    if (enterpriseId !== undefined || baseUrl !== undefined) {
      throw invalid(
        path,
        `names a profile and ${enterpriseId !== undefined ? 'an enterprise id' : 'a base URL'}: a profile brings its own`,
        'keep the profile, or the enterprise id and base URL',
      );
    }
    if (!isProfileName(profile.trim())) throw invalid(path, `names profile '${printable(profile, 64)}', which is not a valid profile name`);
    return { path, profile: profile.trim() };
  }
  if (enterpriseId === undefined && baseUrl === undefined) throw invalid(path, 'pins nothing');
  return {
    path,
    ...(enterpriseId === undefined ? {} : { enterpriseId: checkEnterpriseId(enterpriseId, `the enterprise id ${where}`) }),
    ...(baseUrl === undefined ? {} : { baseUrl: checkBaseUrl(baseUrl, `the base URL ${where}`, allowHttp) }),
  };
}

/** Reads and checks the project file at `path`. */
export function readProject(path: string, allowHttp: boolean): ProjectFile {
  // Editors on Windows may start the file with a byte order mark.
  const text = readProjectText(path).replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(path, 'is not valid JSON');
  }
  // JSON.parse would keep the last: the file would read as one profile and act in another.
  const twice = repeatedKey(text);
  if (twice !== undefined) {
    throw invalid(
      path,
      `has the key '${printable(twice, 40)}' twice`,
      `cip will not guess which one is meant: keep one; a project file holds ${EXAMPLE}`,
    );
  }
  return checkProject(parsed, path, allowHttp);
}

/** The project file in force for this run: the nearest, unless others can change it (then ignored, with a warning). */
export function loadProject(inputs: ProjectInputs): ProjectFile | undefined {
  const path = findProjectFile(inputs.cwd, inputs.home);
  if (path === undefined) return undefined;
  const problem = untrusted(path, inputs.uid, inputs.gid);
  if (problem !== undefined) {
    inputs.warn(`ignoring the project file ${shownPath(path)}: ${problem}; others could change which profile cip uses`);
    return undefined;
  }
  return readProject(path, inputs.allowHttp);
}

/**
 * Writes `{"profile": NAME}` as the project file of `dir` (`cip auth use NAME --here`), in one step. A file
 * already there is replaced only if it is a valid project file: cip never overwrites anything else, nor a link.
 * A folder where the file would be ignored (others can change it) is refused. Returns what the file held before.
 */
export function writeProjectProfile(
  dir: string,
  profile: string,
  inputs: Pick<ProjectInputs, 'uid' | 'gid' | 'allowHttp'>,
): { path: string; before: ProjectFile | undefined } {
  const path = join(dir, PROJECT_FILE);
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path);
  } catch {
    stats = undefined;
  }
  if (stats?.isSymbolicLink()) {
    throw new UsageError(
      `the project file ${shownPath(path)} is a link: cip will not replace it`,
      'remove the link, or edit the file it leads to',
    );
  }
  let before: ProjectFile | undefined;
  if (stats) {
    try {
      before = readProject(path, inputs.allowHttp);
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`${error.message}: cip will not replace it`, 'fix or remove it by hand');
      throw error;
    }
  }
  const folder = isPosix() ? statOrUndefined(dir) : undefined;
  const problem = folder && othersCanChange(folder, inputs.uid, inputs.gid);
  if (problem) {
    throw new UsageError(
      `cip will not write a project file in ${shownPath(dir)}: ${problem}, so cip would ignore it`,
      'pin the profile in a folder only you can write to',
    );
  }
  try {
    writeFileAtomic(path, `${JSON.stringify({ profile }, null, 2)}\n`, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot write the project file ${shownPath(path)} (${code})`, "check the folder's permissions");
  }
  return { path, before };
}
