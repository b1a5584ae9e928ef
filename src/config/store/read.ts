// Reading the config file: bounded, never blocking, and checked for the shape cip writes.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { ConfigError } from '../../errors.js';
import { checkShape, type StoreData } from './profile.js';
import { isPosix, statOrUndefined } from './privacy.js';

/** A config file larger than this is not one cip wrote (a profile takes a few hundred bytes). */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

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
export function checkConfigFile(path: string): Stats | undefined {
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

/**
 * The config file's text, or undefined when there is none. Opened without blocking and checked on the open
 * file: a FIFO swapped in after a stat cannot block the read.
 */
function readConfigText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, isPosix() ? constants.O_RDONLY | constants.O_NONBLOCK : constants.O_RDONLY);
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

/** The store's data: no file is no profiles; a file that is not JSON throws a SyntaxError. */
export function readStoreData(path: string): StoreData {
  const text = readConfigText(path);
  return text === undefined ? { profiles: {} } : checkShape(JSON.parse(text), path);
}
