// Writing the config file: whole or not at all. conf holds the data; the file is replaced by writeFileAtomic.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkShape, type StoreData } from '../profile.js';

export type Conf = typeof import('conf').default;

/** conf (with ajv, the heaviest package cip uses), loaded only to write. */
export async function loadConf(): Promise<Conf> {
  return (await import('conf')).default;
}

/**
 * Replaces the file in one step: a temporary file in the same folder, flushed to disk, renamed over it.
 * A full disk or a crash leaves the old file whole. conf would write in place when SNAP is set.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  // Created exclusively ('wx') in a folder cip checked: the name need only differ from other writers' at
  // once, so node:crypto (a cost for every command, since this module is loaded by all) is not needed.
  const temp = `${path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', mode);
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

/**
 * Writes the data to the file a write replaces (`target`: the config file, or the file its link leads to).
 * Synchronous, given conf: nothing can happen between the last check of the lock and the write.
 */
export function writeStoreData(Conf: Conf, dir: string, path: string, target: string, data: StoreData): void {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dir,
    configName: 'config',
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
}
