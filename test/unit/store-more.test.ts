// More of the profile store (src/config/store.ts): the folders of Windows and macOS, what a config file that is
// not a regular file is called, a file broken by someone else during an update, and what cip says when the
// lock, the folder or the disk fails. node:fs, node:os and proper-lockfile pass through to the real ones
// unless a test says otherwise: then the platform, a umask, a full disk or a lock that fails are simulated,
// which a test in a worker thread cannot arrange for real (no process.umask(), no full disk, root writes
// anywhere).
import * as fs from 'node:fs';
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configLocation, kindOf, openProfileStore, type Profile } from '../../src/config/store.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { caught } from '../helpers/errors.js';

const sim = vi.hoisted(() => ({
  platform: undefined as string | undefined,
  /** Bits a simulated umask takes from the folders cip creates. */
  umask: undefined as number | undefined,
  /** Simulated errors for the temporary file: at its creation, or while writing to it. */
  failTempOpen: undefined as string | undefined,
  failTempWrite: undefined as string | undefined,
  /** Descriptors opened and not yet closed, by path. */
  open: new Map<number, string>(),
  /** What was flushed to disk, by path. */
  synced: [] as string[],
  lock: undefined as ((path: string, options: { onCompromised: (error: Error) => void }) => Promise<() => Promise<void>>) | undefined,
}));

const errno = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });

vi.mock('node:os', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:os')>();
  const platform = () => (sim.platform ?? actual.platform()) as NodeJS.Platform;
  return { ...actual, platform, default: { ...actual, platform } };
});

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const wrapped = {
    mkdirSync: ((path: string, options?: fs.MakeDirectoryOptions) => {
      const made = actual.mkdirSync(path, options);
      if (sim.umask !== undefined) actual.chmodSync(path, Number(options?.mode ?? 0o777) & ~sim.umask & 0o777);
      return made;
    }) as typeof actual.mkdirSync,
    openSync: ((path: string, flags: fs.OpenMode, mode?: fs.Mode) => {
      if (sim.failTempOpen && String(path).endsWith('.tmp')) throw errno(sim.failTempOpen);
      const fd = actual.openSync(path, flags, mode);
      sim.open.set(fd, String(path));
      return fd;
    }) as typeof actual.openSync,
    fsyncSync: ((fd: number) => {
      actual.fsyncSync(fd);
      const path = sim.open.get(fd);
      if (path !== undefined) sim.synced.push(path);
    }) as typeof actual.fsyncSync,
    closeSync: ((fd: number) => {
      actual.closeSync(fd);
      sim.open.delete(fd);
    }) as typeof actual.closeSync,
    writeFileSync: ((file: fs.PathOrFileDescriptor, data: string, options?: fs.WriteFileOptions) => {
      if (sim.failTempWrite && typeof file === 'number' && sim.open.get(file)?.endsWith('.tmp')) throw errno(sim.failTempWrite);
      actual.writeFileSync(file, data, options);
    }) as typeof actual.writeFileSync,
  };
  return { ...actual, ...wrapped, default: { ...actual, ...wrapped } };
});

vi.mock('proper-lockfile', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof import('proper-lockfile') }>()).default;
  const lock = ((path: string, options: { onCompromised: (error: Error) => void }) =>
    sim.lock ? sim.lock(path, options) : actual.lock(path, options)) as typeof actual.lock;
  return { default: { ...actual, lock } };
});

afterEach(() => {
  sim.platform = undefined;
  sim.umask = undefined;
  sim.failTempOpen = undefined;
  sim.failTempWrite = undefined;
  sim.lock = undefined;
  sim.synced = [];
});

const POSIX = process.platform !== 'win32';

const profile: Profile = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'store-more-api-key-0123456789',
  subscriptionKey: 'store-more-sub-key-0123456789',
};
const original = JSON.stringify({ activeProfile: 'a', profiles: { a: profile } });

const refusal = (work: Promise<unknown> | (() => unknown)) => caught(work, ConfigError);

/** A folder with cip's file in it, as cip wrote it. */
function configured(): { dir: string; path: string } {
  const dir = tempDir();
  chmodPrivate(dir);
  const path = join(dir, 'config.json');
  writeFileSync(path, original, { mode: 0o600 });
  return { dir, path };
}

function chmodPrivate(dir: string): void {
  if (POSIX) fs.chmodSync(dir, 0o700);
}

/** Descriptors still open on files in this folder. */
const openIn = (dir: string) => [...sim.open.values()].filter((path) => path.startsWith(dir));

describe('configLocation on Windows and macOS', () => {
  it.each([
    ['win32', { HOME: '/home/u', APPDATA: '/roaming' }, '/roaming/cip/Config'],
    ['win32', { HOME: '/home/u', APPDATA: ' ' }, '/home/u/AppData/Roaming/cip/Config'],
    ['win32', { HOME: '/home/u' }, '/home/u/AppData/Roaming/cip/Config'],
    ['darwin', { HOME: '/Users/u', XDG_CONFIG_HOME: '/x', APPDATA: '/roaming' }, '/Users/u/Library/Preferences/cip'],
    ['linux', { HOME: '/home/u', APPDATA: '/roaming' }, '/home/u/.config/cip'],
  ])('on %s with %j is %s, its own folder', (platform, env, dir) => {
    sim.platform = platform;
    expect(configLocation(env)).toEqual({ dir, isDefault: true });
  });

  it('is CIP_CONFIG_DIR on Windows too, and then not its own', () => {
    sim.platform = 'win32';
    expect(configLocation({ CIP_CONFIG_DIR: 'D:/cip', APPDATA: '/roaming' })).toEqual({ dir: 'D:/cip', isDefault: false });
  });

  it('on Windows never looks at POSIX modes: a folder others can write to is used, the file left as it is', async () => {
    sim.platform = 'win32';
    vi.resetModules();
    const windows = await import('../../src/config/store.js');
    const dir = tempDir();
    fs.chmodSync(dir, 0o777);
    const path = join(dir, 'config.json');
    writeFileSync(path, original);
    fs.chmodSync(path, 0o644);
    const warnings: string[] = [];
    const store = await windows.openProfileStore(dir, { ownFolder: false, uid: 4242, warn: (message) => warnings.push(message) });
    await store.update((data) => {
      data.activeProfile = 'a';
    });
    expect(warnings).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o777);
    expect(store.read()).toEqual(JSON.parse(original));
  });
});

describe('what a config file that is not a regular file is called', () => {
  const stats = (kind: string) =>
    ({
      isDirectory: () => kind === 'directory',
      isFIFO: () => kind === 'fifo',
      isSocket: () => kind === 'socket',
      isCharacterDevice: () => kind === 'char',
      isBlockDevice: () => kind === 'block',
    }) as unknown as Stats;

  it.each([
    ['directory', 'a directory'],
    ['fifo', 'a FIFO'],
    ['socket', 'a socket'],
    ['char', 'a character device'],
    ['block', 'a block device'],
    ['symlink', 'not a regular file'],
  ])('%s: %s', (kind, words) => {
    expect(kindOf(stats(kind))).toBe(words);
  });

  it.runIf(POSIX)('refuses a config file that leads to /dev/null, as a character device, and leaves it alone', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    symlinkSync('/dev/null', path);
    const error = await refusal(() => openProfileStore(dir));
    expect(error.message).toBe(`the config file ${path} is not a regular file (a character device)`);
    expect(error.hint).toBe('remove it; cip keeps its profiles in a regular file');
    expect(fs.readlinkSync(path)).toBe('/dev/null');
  });

  it.each([
    ['a string', 'x'],
    ['a number', 7],
    ['a list', []],
  ])('refuses a profile that is %s', async (_name, value) => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { ok: profile, a: value } }));
    const error = await refusal(async () => (await openProfileStore(dir)).read());
    // A list is an object to typeof: it has no enterpriseId.
    const what = Array.isArray(value) ? "profile 'a' has no enterpriseId" : "profile 'a' is not an object";
    expect(error.message).toBe(`the config file ${path} is not valid: ${what}`);
  });
});

describe('files it opens', () => {
  it('closes the config file after each read and each update', async () => {
    const { dir } = configured();
    const store = await openProfileStore(dir);
    for (let index = 0; index < 3; index++) expect(store.read().activeProfile).toBe('a');
    expect(openIn(dir)).toEqual([]);
    await store.update((data) => {
      data.activeProfile = undefined;
    });
    expect(openIn(dir)).toEqual([]);
  });

  it('closes a file it found to be too large or not regular, before refusing it', async () => {
    const dir = tempDir();
    const store = await openProfileStore(dir);
    // Made a folder after the store was opened: the read checks the open file.
    mkdirSync(join(dir, 'config.json'));
    const error = await refusal(() => store.read());
    expect(error.message).toContain('is not a regular file (a directory)');
    expect(openIn(dir)).toEqual([]);
  });
});

describe('a write', () => {
  it('flushes the new file, then its folder, so that the rename too reaches the disk', async () => {
    const { dir, path } = configured();
    await (
      await openProfileStore(dir)
    ).update((data) => {
      data.profiles.b = profile;
    });
    expect(sim.synced).toHaveLength(2);
    const [temp, folder] = sim.synced;
    expect(temp?.startsWith(`${path}.`) && temp.endsWith('.tmp'), temp).toBe(true);
    expect(folder).toBe(dir);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ activeProfile: 'a', profiles: { a: profile, b: profile } });
  });
});

describe('a file someone else breaks during an update', () => {
  it.each([
    ['with text that is not JSON', '{"profiles":', 'is not valid JSON'],
    ['with JSON of another shape', '[]', 'is not valid: expected a JSON object'],
    ['with a profile without keys', JSON.stringify({ profiles: { b: { enterpriseId: 'x' } } }), "is not valid: profile 'b' has no apiKey"],
  ])('%s is refused and left as it is', async (_name, broken, what) => {
    const { dir, path } = configured();
    const store = await openProfileStore(dir);
    const error = await refusal(
      store.update((data) => {
        data.profiles.b = profile;
        // Another program (an editor that ignores the lock) writes between cip's read and its write.
        writeFileSync(path, broken);
      }),
    );
    expect(error.message).toBe(`the config file ${path} ${what}`);
    expect(readFileSync(path, 'utf8')).toBe(broken);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('a folder cip creates', () => {
  it.runIf(POSIX)('is private (700) whatever the umask, and the file in it 600', async () => {
    for (const umask of [0o277, 0o022, 0o000]) {
      sim.umask = umask;
      const dir = join(tempDir(), 'made', 'cip');
      await (
        await openProfileStore(dir)
      ).update((data) => {
        data.profiles.a = profile;
      });
      expect(statSync(dir).mode & 0o7777, `umask ${umask.toString(8)}`).toBe(0o700);
      expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ profiles: { a: profile } });
    }
  });
});

describe('a write that fails', () => {
  it.each([
    ['creating the temporary file', 'failTempOpen', 'ENOSPC'],
    ['writing the temporary file', 'failTempWrite', 'EDQUOT'],
  ] as const)('while %s leaves the file as it was, no temporary file, nothing open', async (_name, where, code) => {
    const { dir, path } = configured();
    const store = await openProfileStore(dir);
    sim[where] = code;
    const error = await refusal(
      store.update((data) => {
        data.profiles.b = profile;
      }),
    );
    expect(error.message).toBe(`cannot write the config file ${path}: no room left (${code}); the file was left as it was`);
    expect(error.hint).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(openIn(dir)).toEqual([]);
    if (POSIX) expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('a lock that fails', () => {
  it('writes nothing when the lock is lost before the write, and releases it', async () => {
    const { dir, path } = configured();
    const store = await openProfileStore(dir);
    let released = 0;
    sim.lock = (_path, options) => {
      options.onCompromised(new Error('the lock was taken over'));
      return Promise.resolve(() => {
        released++;
        return Promise.resolve();
      });
    };
    let changed = false;
    const error = await refusal(
      store.update((data) => {
        changed = true;
        data.profiles.b = profile;
      }),
    );
    expect(changed).toBe(true);
    expect(error.message).toBe(`lost the lock on the config file ${path}; nothing was written`);
    expect(error.hint).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(released).toBe(1);
  });

  it('locks the config file through config.json.lock, and leaves no lock behind', async () => {
    const { dir, path } = configured();
    const seen: string[] = [];
    const real = (await vi.importActual<{ default: typeof import('proper-lockfile') }>('proper-lockfile')).default;
    sim.lock = async (file, options) => {
      seen.push(file);
      const release = await real.lock(file, options);
      seen.push(...readdirSync(dir).sort());
      return release;
    };
    await (
      await openProfileStore(dir)
    ).update((data) => {
      data.profiles.b = profile;
    });
    expect(seen).toEqual([path, 'config.json', 'config.json.lock']);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  const cases: [string, unknown, (path: string, dir: string) => [string, string | undefined]][] = [
    [
      'ELOCKED',
      errno('ELOCKED'),
      (p) => [`cannot lock the config file ${p}: another cip is writing it (ELOCKED)`, `if none is running, remove ${p}.lock`],
    ],
    ...['EACCES', 'EPERM', 'EROFS'].map((code): [string, unknown, (path: string, dir: string) => [string, string | undefined]] => [
      code,
      errno(code),
      (p, d) => [
        `cannot write the config file ${p}: the folder ${d} is not writable (${code})`,
        'check its permissions, or set CIP_CONFIG_DIR to a folder you can write to',
      ],
    ]),
    ...['ENOSPC', 'EDQUOT', 'EFBIG'].map((code): [string, unknown, (path: string, dir: string) => [string, string | undefined]] => [
      code,
      errno(code),
      (p) => [`cannot write the config file ${p}: no room left (${code}); the file was left as it was`, undefined],
    ]),
    ['ENOTDIR', errno('ENOTDIR'), (_p, d) => [`cannot use the config folder ${d}: it is not a folder`, 'set CIP_CONFIG_DIR to a folder']],
    ['another code', errno('EIO'), (p) => [`cannot use the config file ${p}: EIO`, undefined]],
    [
      'an error without a code',
      new Error('the lock library broke'),
      (p) => [`cannot use the config file ${p}: the lock library broke`, undefined],
    ],
    ['a thrown string', 'not an error', (p) => [`cannot use the config file ${p}: not an error`, undefined]],
    ['a thrown undefined', undefined, (p) => [`cannot use the config file ${p}: undefined`, undefined]],
  ];

  it.each(cases)('says what failed: %s, and writes nothing', async (_name, thrown, expected) => {
    const { dir, path } = configured();
    const store = await openProfileStore(dir);
    sim.lock = () => Promise.reject(thrown as Error);
    const error = await refusal(
      store.update((data) => {
        data.profiles.b = profile;
      }),
    );
    const [message, hint] = expected(path, dir);
    expect(error.message).toBe(message);
    expect(error.hint).toBe(hint);
    expect(readFileSync(path, 'utf8')).toBe(original);
  });

  it.runIf(POSIX).each([
    ['is a file', (file: string) => file],
    ['is under a file', (file: string) => join(file, 'cip')],
  ])('is not tried for a config folder that %s: cip says at once that it is not a folder', async (_name, folderOf) => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'mine');
    const dir = folderOf(file);
    let tried = 0;
    sim.lock = () => {
      tried++;
      return Promise.reject(errno('ENOTDIR'));
    };
    const error = await refusal(
      (await openProfileStore(dir)).update((data) => {
        data.profiles.a = profile;
      }),
    );
    expect(error.message).toBe(`cannot use the config folder ${dir}: it is not a folder`);
    expect(error.hint).toBe('set CIP_CONFIG_DIR to a folder');
    expect(tried).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  it('passes on its own errors as they are', async () => {
    const { dir } = configured();
    const own = new ConfigError('already said', 'a hint');
    sim.lock = () => Promise.reject(own);
    const error = await refusal((await openProfileStore(dir)).update(() => undefined));
    expect(error).toBe(own);
  });
});
