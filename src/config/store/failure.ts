// What a failure of the profile store is called: one ConfigError that names the file and, where one helps, the fix.
import { dirname } from 'node:path';
import { ConfigError } from '../../errors.js';

const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export function describeFailure(error: unknown, path: string, lockPath = `${path}.lock`): Error {
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

/** Runs a step of the store, its failure described for the file named. */
export function describing<T>(path: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw describeFailure(error, path);
  }
}
