// The private cache folder (src/cache-folder.ts): where it is, when it is used, and what of the old layout in the
// temp folder is removed. The runs that use it are in test/e2e/compile-cache.test.ts and test/e2e/sea.test.ts.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheLocation, privateCacheFolder, removeOldLayout, type CacheInputs } from '../../src/cache-folder.js';
import { tempDir } from '../helpers/cli.js';

const posix = process.platform !== 'win32';
const uid = process.getuid?.();
const isRoot = uid === 0;
/** A user id that is not this one, for folders another user owns (only root can give one away). */
const OTHER_UID = 12345;

function inputs(env: Record<string, string | undefined>): CacheInputs {
  return { env, platform: process.platform, uid, gid: process.getgid?.() };
}

describe('cacheLocation', () => {
  it.each([
    ['linux', { XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' }, '/x/cache/cip'],
    ['linux', { HOME: '/home/u' }, '/home/u/.cache/cip'],
    // The XDG spec: a relative path is invalid and ignored; an empty one is unset.
    ['linux', { XDG_CACHE_HOME: 'cache', HOME: '/home/u' }, '/home/u/.cache/cip'],
    ['linux', { XDG_CACHE_HOME: '', HOME: '/home/u' }, '/home/u/.cache/cip'],
    ['linux', { HOME: 'relative' }, undefined],
    ['linux', {}, undefined],
    ['darwin', { HOME: '/Users/u' }, '/Users/u/Library/Caches/cip'],
    ['darwin', { XDG_CACHE_HOME: '/x/cache', HOME: '/Users/u' }, '/x/cache/cip'],
  ] as const)('on %s with %j: %s', (platform, env, expected) => {
    expect(cacheLocation({ env, platform })).toBe(expected);
  });
});

describe.runIf(posix)('privateCacheFolder', () => {
  it('makes $XDG_CACHE_HOME/cip private (0700), once, and uses it after', () => {
    const xdg = join(tempDir(), 'cache');
    const first = privateCacheFolder(inputs({ XDG_CACHE_HOME: xdg }));
    expect(first).toEqual({ dir: join(xdg, 'cip'), created: true });
    // The XDG spec's mode for the base folder it makes.
    expect(statSync(xdg).mode & 0o777).toBe(0o700);
    expect(statSync(join(xdg, 'cip')).mode & 0o777).toBe(0o700);
    expect(privateCacheFolder(inputs({ XDG_CACHE_HOME: xdg }))).toEqual({ dir: join(xdg, 'cip'), created: false });
  });

  it('makes ~/.cache/cip under a home folder that is there, and no home folder that is not', () => {
    const home = tempDir();
    expect(privateCacheFolder(inputs({ HOME: home }))).toEqual({ dir: join(home, '.cache', 'cip'), created: true });
    const missing = join(tempDir(), 'gone');
    expect(privateCacheFolder(inputs({ HOME: missing }))).toEqual({
      why: `the cache folder ${join(missing, '.cache', 'cip')} is not used: it cannot be made (ENOENT)`,
    });
    expect(existsSync(missing)).toBe(false);
  });

  it('follows a link as the folder above (~/.cache on another disk)', () => {
    const home = tempDir();
    const disk = tempDir();
    symlinkSync(disk, join(home, '.cache'));
    expect(privateCacheFolder(inputs({ HOME: home }))).toMatchObject({ dir: join(home, '.cache', 'cip') });
    expect(readdirSync(disk)).toEqual(['cip']);
  });

  /** A cache folder set up by `arrange` in a fresh XDG_CACHE_HOME: whether it is used, and what it holds after. */
  function refused(arrange: (xdg: string, dir: string) => void) {
    const xdg = tempDir();
    const dir = join(xdg, 'cip');
    arrange(xdg, dir);
    const before = existsSync(dir) && lstatSync(dir).isDirectory() && !lstatSync(dir).isSymbolicLink() ? readdirSync(dir) : [];
    const folder = privateCacheFolder(inputs({ XDG_CACHE_HOME: xdg }));
    expect(folder.dir).toBeUndefined();
    if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) expect(readdirSync(dir)).toEqual(before);
    return folder.why!.replace(`the cache folder ${dir} is not used: `, '').replaceAll(xdg, 'XDG');
  }

  it('is not used where others can write to the folder above it: they could swap it', () => {
    expect(refused((xdg) => chmodSync(xdg, 0o777))).toBe('its folder XDG: others can write to it (mode 777)');
    // Sticky or not: another user could have made cip/ there first.
    expect(refused((xdg) => chmodSync(xdg, 0o1777))).toBe('its folder XDG: others can write to it (mode 1777)');
  });

  it('is not used where it is not a real, private folder', () => {
    expect(refused((_, dir) => mkdirSync(dir, { mode: 0o755 }))).toBe('it is not private (mode 755; `chmod 700` it to use it)');
    expect(
      refused((_, dir) => {
        mkdirSync(dir);
        chmodSync(dir, 0o777);
      }),
    ).toBe('it is not private (mode 777; `chmod 700` it to use it)');
    expect(refused((_, dir) => writeFileSync(dir, 'a file where the folder should be'))).toBe('it is not a folder');
    expect(refused((_, dir) => symlinkSync(tempDir(), dir))).toBe('it is a symbolic link');
    // A file where the folder above it should be.
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    expect(privateCacheFolder(inputs({ XDG_CACHE_HOME: file })).why).toBe(
      `the cache folder ${join(file, 'cip')} is not used: it cannot be made (ENOTDIR)`,
    );
  });

  it.runIf(isRoot)("is not used where it, or the folder above it, is another user's (root can make one)", () => {
    expect(
      refused((_, dir) => {
        mkdirSync(dir, { mode: 0o700 });
        chownSync(dir, OTHER_UID, OTHER_UID);
      }),
    ).toBe(`it belongs to another user (uid ${OTHER_UID})`);
    expect(refused((xdg) => chownSync(xdg, OTHER_UID, OTHER_UID))).toBe(`its folder XDG: it belongs to another user (uid ${OTHER_UID})`);
  });
});

describe.runIf(posix)('removeOldLayout', () => {
  const old = (temp: string) => join(temp, `cip-compile-cache-${uid}`);

  /** The old code cache folder, as earlier versions left it: cache files, an executable's folder, a crashed write. */
  function oldLayout(temp: string, extra: string[] = []): string {
    const dir = old(temp);
    mkdirSync(join(dir, 'sea-0.1.0-v20.20.2-x64-1-2', 'vendor'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'sea-0.1.0-v20.20.2-x64-1-2', 'jq-worker.cjs'), '');
    writeFileSync(join(dir, 'cli-0.1.0-v20.20.2-x64-1-2-shared.bin'), '');
    writeFileSync(join(dir, 'cli-0.1.0-v20.20.2-x64-1-2-811c9dc5.bin.4242.tmp'), '');
    for (const name of extra) writeFileSync(join(dir, name), '');
    return dir;
  }

  it('removes the old code cache folder, and nothing else in the temp folder', () => {
    const temp = tempDir();
    oldLayout(temp);
    // A private temporary folder of an executable's own, perhaps a live run's.
    mkdirSync(join(temp, 'cip-sea-AbC123'));
    writeFileSync(join(temp, 'unrelated'), '');
    removeOldLayout(temp, { uid });
    expect(readdirSync(temp).sort()).toEqual(['cip-sea-AbC123', 'unrelated']);
  });

  it("keeps what is not cip's in the old folder, and the folder with it", () => {
    const temp = tempDir();
    const dir = oldLayout(temp, ['notes.txt']);
    removeOldLayout(temp, { uid });
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('never follows a link: one in place of the old folder, or inside it, is left or removed, never what it leads to', () => {
    const temp = tempDir();
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'cli-0.1.0-v20.20.2-x64-1-2-shared.bin'), 'not cip');
    mkdirSync(join(elsewhere, 'sea-x'));
    symlinkSync(elsewhere, old(temp));
    removeOldLayout(temp, { uid });
    expect(readdirSync(elsewhere).sort()).toEqual(['cli-0.1.0-v20.20.2-x64-1-2-shared.bin', 'sea-x']);

    const temp2 = tempDir();
    const dir = oldLayout(temp2, ['notes.txt']);
    symlinkSync(elsewhere, join(dir, 'sea-link'));
    removeOldLayout(temp2, { uid });
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    expect(readdirSync(elsewhere).sort()).toEqual(['cli-0.1.0-v20.20.2-x64-1-2-shared.bin', 'sea-x']);
  });

  it('touches nothing in a temp folder others can write to without a sticky bit', () => {
    const temp = tempDir();
    const dir = oldLayout(temp);
    chmodSync(temp, 0o777);
    removeOldLayout(temp, { uid });
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it.runIf(isRoot)("leaves another user's folder of the same name", () => {
    const temp = tempDir();
    const dir = oldLayout(temp);
    chownSync(dir, OTHER_UID, OTHER_UID);
    removeOldLayout(temp, { uid });
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('does nothing where the temp folder is missing or a file', () => {
    expect(() => removeOldLayout(join(tempDir(), 'missing'), { uid })).not.toThrow();
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    expect(() => removeOldLayout(file, { uid })).not.toThrow();
  });
});
