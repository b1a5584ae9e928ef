// Writing the config file: whole or not at all. cip's own, not conf's: conf 16 made its writer private (it was
// `_write`, which cip replaced), and that writer writes in place when SNAP is set or a rename fails with EXDEV
// (a full disk then truncates the file that holds the keys), and does not flush the folder after the rename.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StoreData } from '../profile.js';

/**
 * Replaces the file in one step: a temporary file in the same folder, flushed to disk, renamed over it.
 * A full disk or a crash leaves the old file whole, whatever the environment.
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
 * Writes the data to the file a write replaces (`target`: the config file, or the file its link leads to), as
 * conf wrote it (tab-indented JSON). Synchronous: nothing can happen between the last check of the lock and the
 * write.
 */
export function writeStoreData(target: string, data: StoreData): void {
  writeFileAtomic(target, JSON.stringify(data, null, '\t'));
}
