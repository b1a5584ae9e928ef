// Writing the config file: whole or not at all. conf manages the store: under the lock it reads the file once
// more, as the store it is (a file someone broke since cip read it is refused by the shape check, and nothing is
// written). The write is cip's: conf 16's writer (atomically's) renames its temporary file over the config without
// checking that the whole text reached it (a short write on a full disk truncates the file that holds the keys),
// and writes in place when SNAP is set (a Node installed with snap sets it).
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkShape, type StoreData } from './profile.js';

export type Conf = typeof import('conf').default;

/** conf (with ajv, the heaviest package cip uses), loaded only to write. */
export async function loadConf(): Promise<Conf> {
  return (await import('conf')).default;
}

/**
 * Replaces the file in one step: a temporary file in the same folder, flushed to disk, renamed over it.
 * A full disk or a crash leaves the old file whole.
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
  flushFolder(dirname(path));
}

/** The rename itself must reach the disk too. */
function flushFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a folder; the rename has happened all the same.
  }
}

/**
 * Writes the data to the file a write replaces (`target`: the config file, or the file its link leads to), as
 * conf would (tab-indented JSON), once conf has read the file again. Synchronous: nothing can happen between the
 * last check of the lock and the write.
 */
export function writeStoreData(Conf: Conf, dir: string, path: string, target: string, data: StoreData): void {
  // conf reads the file as it opens the store: through the shape check below, the file as it is now must still be
  // a config cip can write over.
  new Conf<Record<string, unknown>>({
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
  writeFileAtomic(target, JSON.stringify(data, null, '\t'));
}
