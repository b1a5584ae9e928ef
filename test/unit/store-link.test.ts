// A config.json that is a symbolic link, as dotfile managers make them (stow, chezmoi, home-manager link
// ~/.config/cip/config.json to a file in a dotfiles repository): cip writes through the link, keeps it, and
// refuses a link that leads nowhere, round in a loop, or to a file that is not safely the user's.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { openProfileStore, type Profile, type ProfileStore } from '../../src/config/store.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { caught } from '../helpers/errors.js';

const POSIX = process.platform !== 'win32';
const UID = process.getuid?.();

const profile: Profile = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'store-link-api-key-0123456789',
  subscriptionKey: 'store-link-sub-key-0123456789',
};
const original = JSON.stringify({ activeProfile: 'a', profiles: { a: profile } });

const refusal = (work: Promise<unknown> | (() => unknown)) => caught(work, ConfigError);

/** A dotfiles folder with the real config.json, and a private config folder whose config.json links to it. */
function linked(link: (target: string) => string = (target) => target): { dir: string; path: string; dotfiles: string; target: string } {
  const dotfiles = join(tempDir(), 'dotfiles', 'cip');
  mkdirSync(dotfiles, { recursive: true, mode: 0o700 });
  const target = join(dotfiles, 'config.json');
  writeFileSync(target, original, { mode: 0o600 });
  const dir = tempDir();
  chmodSync(dir, 0o700);
  const path = join(dir, 'config.json');
  symlinkSync(link(target), path);
  return { dir, path, dotfiles, target };
}

const addProfile = (store: ProfileStore, name: string) =>
  store.update((data) => {
    data.profiles[name] = profile;
  });

const profilesIn = (file: string) => Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { profiles: object }).profiles).sort();

describe.runIf(POSIX)('a config.json that links to a file elsewhere', () => {
  it('is written through: the file it leads to is replaced, private, and the link stays', async () => {
    const { dir, path, dotfiles, target } = linked();
    const warnings: string[] = [];
    await addProfile(await openProfileStore(dir, { uid: UID, warn: (message) => warnings.push(message) }), 'b');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path)).toBe(target);
    expect(profilesIn(target)).toEqual(['a', 'b']);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    // No temporary file or lock is left beside the link or the file.
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(readdirSync(dotfiles)).toEqual(['config.json']);
    expect(warnings).toEqual([]);
  });

  it('follows a relative link, and a link to a link', async () => {
    const { dir, path, target } = linked((file) => {
      const hop = join(tempDir(), 'hop.json');
      symlinkSync(file, hop);
      return hop;
    });
    await addProfile(await openProfileStore(dir, { uid: UID }), 'b');
    expect(profilesIn(target)).toEqual(['a', 'b']);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);

    const relative = tempDir();
    chmodSync(relative, 0o700);
    writeFileSync(join(relative, 'real.json'), original, { mode: 0o600 });
    symlinkSync('real.json', join(relative, 'config.json'));
    await addProfile(await openProfileStore(relative, { uid: UID }), 'c');
    expect(readlinkSync(join(relative, 'config.json'))).toBe('real.json');
    expect(profilesIn(join(relative, 'real.json'))).toEqual(['a', 'c']);
    expect(readdirSync(relative).sort()).toEqual(['config.json', 'real.json']);
  });

  it('loses no profile when writers through the link and writers naming the file itself write at once', async () => {
    const { dir, path, dotfiles, target } = linked();
    const viaLink = await openProfileStore(dir, { uid: UID });
    const direct = await openProfileStore(dotfiles, { uid: UID });
    const names = Array.from({ length: 12 }, (_, index) => `p${String(index).padStart(2, '0')}`);
    await Promise.all(names.map((name, index) => addProfile(index % 2 ? viaLink : direct, name)));
    expect(profilesIn(target)).toEqual(['a', ...names]);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readdirSync(dotfiles)).toEqual(['config.json']);
  });

  it('refuses a link pointed elsewhere while cip waited for the lock, and writes nothing', async () => {
    const { dir, path, dotfiles, target } = linked();
    const other = join(dotfiles, 'other.json');
    writeFileSync(other, original, { mode: 0o600 });
    // Another cip holds the lock on the file the link leads to.
    const release = await lockfile.lock(target, { lockfilePath: `${target}.lock`, realpath: false });
    let waiting: () => void = () => undefined;
    const said = new Promise<void>((resolve) => (waiting = resolve));
    const store = await openProfileStore(dir, { uid: UID, warn: () => waiting() });
    const write = refusal(addProfile(store, 'b'));
    await Promise.race([said, write]);
    rmSync(path);
    symlinkSync(other, path);
    await release();
    const error = await write;
    expect(error.message).toBe(`the config file ${path} was pointed elsewhere while cip waited to write it; nothing was written`);
    expect(readFileSync(target, 'utf8')).toBe(original);
    expect(readFileSync(other, 'utf8')).toBe(original);
    expect(readdirSync(dotfiles).sort()).toEqual(['config.json', 'other.json']);
  });
});

describe.runIf(POSIX)('a config.json link that cannot be written through', () => {
  it('that leads nowhere is refused on every use, naming where it leads; nothing is created', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const gone = join(tempDir(), 'moved', 'config.json');
    symlinkSync(gone, path);
    const error = await refusal(() => openProfileStore(dir, { uid: UID }));
    expect(error.message).toBe(`the config file ${path} is a link to ${gone}, which does not exist`);
    expect(error.hint).toBe('restore that file, or remove the link');
    expect(existsSync(gone)).toBe(false);
    expect(readlinkSync(path)).toBe(gone);
  });

  it('that leads round in a loop is refused', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    symlinkSync(join(dir, 'loop.json'), path);
    symlinkSync(path, join(dir, 'loop.json'));
    const error = await refusal(() => openProfileStore(dir, { uid: UID }));
    expect(error.message).toBe(`the config file ${path} is a link that leads round in a loop`);
    expect(error.hint).toBe('remove the link, or point it at a file');
  });

  it("that leads to another user's file: read, with a warning, but never written", async () => {
    const { dir, path, target } = linked();
    const otherUid = (UID ?? 0) + 4242;
    const warnings: string[] = [];
    // The config folder is cip's own (so only the file's owner is in question).
    const store = await openProfileStore(dir, { ownFolder: true, uid: otherUid, warn: (message) => warnings.push(message) });
    const owner = statSync(target).uid;
    expect(warnings).toEqual([
      `the config file ${path} links to ${target}: it belongs to another user (uid ${owner}); cip will not store keys there`,
    ]);
    expect(store.read().activeProfile).toBe('a');
    const error = await refusal(addProfile(store, 'b'));
    expect(error.message).toBe(
      `refusing to store keys in ${target}, where the config file ${path} links: it belongs to another user (uid ${owner})`,
    );
    expect(error.hint).toBe('point the link at a file of your own in a folder only you can write to, or replace the link with a file');
    expect(readFileSync(target, 'utf8')).toBe(original);
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
  });

  it.each([0o777, 0o775, 0o1777].map((mode) => [mode.toString(8), mode]))(
    'that leads into a folder others can write to (mode %s) is refused',
    async (_name, mode) => {
      const { dir, path, dotfiles, target } = linked();
      chmodSync(dotfiles, mode);
      const warnings: string[] = [];
      const store = await openProfileStore(dir, { uid: UID, warn: (message) => warnings.push(message) });
      const problem = `its folder ${dotfiles} is not private: others can write to it (mode ${mode.toString(8)})`;
      expect(warnings).toEqual([`the config file ${path} links to ${target}: ${problem}; cip will not store keys there`]);
      const error = await refusal(addProfile(store, 'b'));
      expect(error.message).toBe(`refusing to store keys in ${target}, where the config file ${path} links: ${problem}`);
      expect(readFileSync(target, 'utf8')).toBe(original);
      expect(readdirSync(dotfiles)).toEqual(['config.json']);
    },
  );

  it('that leads to a FIFO is refused as before, and the FIFO never opened', async () => {
    const dir = tempDir();
    const fifo = join(tempDir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(dir, 'config.json'));
    const error = await refusal(() => openProfileStore(dir, { uid: UID }));
    expect(error.message).toBe(`the config file ${join(dir, 'config.json')} is not a regular file (a FIFO)`);
  });
});
