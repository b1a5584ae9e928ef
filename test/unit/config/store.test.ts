// The profile store (src/config/store.ts): where the file lives (also on Windows and macOS), what is refused and
// with which words (a file that is not one cip wrote, or not a regular file), which folders and files cip makes
// private, what an update keeps (writers at once, a file broken by someone else during an update), a
// config.json that is a symbolic link as dotfile managers make them (written through and kept; refused when it
// leads nowhere, round in a loop, or to a file that is not safely the user's), and what cip says when the lock,
// the folder or the disk fails. node:fs, node:os and proper-lockfile pass through to the real ones unless a test
// says otherwise: then the platform, a umask, a full disk or a lock that fails are simulated, which a test in a
// worker thread cannot arrange for real (no process.umask(), no full disk, root writes anywhere). The lock's
// waits and conf's first load mock other modules, each in a file of its own (store-lock-wait, store-lock-load).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
  type Stats,
  chmodSync,
  closeSync,
  ftruncateSync,
  openSync,
  existsSync,
  lstatSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  configLocation,
  kindOf,
  openProfileStore,
  type Profile,
  MAX_CONFIG_BYTES,
  configDir,
  configFilePath,
  type ProfileStore,
} from '../../../src/config/store.js';
import { ConfigError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { caught } from '../../helpers/errors.js';

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
    const windows = await import('../../../src/config/store.js');
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

const LINUX = process.platform === 'linux';
const UID = process.getuid?.();

describe('configLocation', () => {
  it("is CIP_CONFIG_DIR when set, and then not cip's own folder", () => {
    expect(configLocation({ CIP_CONFIG_DIR: '/srv/cip', HOME: '/home/u' })).toEqual({ dir: '/srv/cip', isDefault: false });
    expect(configDir({ CIP_CONFIG_DIR: '/srv/cip' })).toBe('/srv/cip');
  });

  it.runIf(LINUX)("is XDG_CONFIG_HOME/cip, else HOME/.config/cip, else the user's home folder's", () => {
    expect(configLocation({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/u' })).toEqual({ dir: '/x/conf/cip', isDefault: true });
    expect(configLocation({ HOME: '/home/u' })).toEqual({ dir: '/home/u/.config/cip', isDefault: true });
    expect(configLocation({ HOME: '/home/u', XDG_CONFIG_HOME: '  ', CIP_CONFIG_DIR: '' })).toEqual({
      dir: '/home/u/.config/cip',
      isDefault: true,
    });
    expect(configLocation({ HOME: ' ' })).toEqual({ dir: join(homedir(), '.config', 'cip'), isDefault: true });
  });

  it('keeps the profiles in config.json in that folder', () => {
    expect(configFilePath('/srv/cip')).toBe('/srv/cip/config.json');
  });
});

describe('a config file that is not one cip wrote', () => {
  it.each([
    ['profiles as a string', { profiles: 'x' }, '"profiles" is not an object'],
    ['a profile that is null', { profiles: { a: null } }, "profile 'a' is not an object"],
    ['a profile without enterpriseId', { profiles: { a: { ...profile, enterpriseId: undefined } } }, "profile 'a' has no enterpriseId"],
    ['a profile without apiKey', { profiles: { a: { ...profile, apiKey: 7 } } }, "profile 'a' has no apiKey"],
    ['a profile without subscriptionKey', { profiles: { a: { ...profile, subscriptionKey: null } } }, "profile 'a' has no subscriptionKey"],
    ['a profile with a numeric baseUrl', { profiles: { b: { ...profile, baseUrl: 1 } } }, "profile 'b' has a bad baseUrl"],
    ['an activeProfile that is not text', { activeProfile: ['a'], profiles: {} }, '"activeProfile" is not a string'],
    ['a top-level array', [], 'expected a JSON object'],
  ])('names what is wrong with %s', async (_name, content, what) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(content));
    const error = await refusal(async () => (await openProfileStore(dir)).read());
    expect(error.message).toBe(`the config file ${join(dir, 'config.json')} is not valid: ${what}`);
    expect(error.hint).toBe('fix or remove it by hand; cip will not overwrite it');
  });

  const token = { kind: 'token', token: 'store-edges-token-0123456789', subscriptionKey: 'store-edges-sub-key-0123456789' };
  it.each([
    [
      'a kind cip does not know',
      { profiles: { a: { ...profile, kind: 'cert' } } },
      `profile 'a' has a bad "kind" (expected "api-key" or "token")`,
    ],
    [
      'a token profile with an enterpriseId',
      { profiles: { t: { ...token, enterpriseId: profile.enterpriseId } } },
      "profile 't' holds a token but has an enterpriseId",
    ],
    [
      'a token profile with an apiKey',
      { profiles: { t: { ...token, apiKey: profile.apiKey } } },
      "profile 't' holds a token but has apiKey",
    ],
    [
      'an API key profile with a token',
      { profiles: { a: { ...profile, token: token.token } } },
      "profile 'a' holds an API key but has token",
    ],
    ['a token profile without its token', { profiles: { t: { ...token, token: undefined } } }, "profile 't' has no token"],
    [
      'a keychain token profile with its token in the file',
      { profiles: { t: { kind: 'token', keys: 'keychain', token: token.token } } },
      "profile 't' keeps its keys in the keychain but has token",
    ],
  ])('names what is wrong with %s', async (_name, content, what) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(content));
    const error = await refusal(async () => (await openProfileStore(dir)).read());
    expect(error.message).toBe(`the config file ${join(dir, 'config.json')} is not valid: ${what}`);
  });

  it('reads a token profile, in the file or the keychain, and a profile that says it holds an API key', async () => {
    const dir = tempDir();
    const profiles = { t: token, k: { kind: 'token', keys: 'keychain' }, a: { ...profile, kind: 'api-key' } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }));
    expect((await openProfileStore(dir)).read()).toEqual({ profiles });
  });

  it('says a file that does not parse is not valid JSON', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":');
    const error = await refusal(async () => (await openProfileStore(dir)).read());
    expect(error.message).toBe(`the config file ${join(dir, 'config.json')} is not valid JSON`);
    expect(error.hint).toBe('fix or remove it by hand; cip will not overwrite it');
  });

  it('reads a file without "profiles" as no profiles, and a profile with a text baseUrl', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'a' }));
    expect((await openProfileStore(dir)).read()).toEqual({ activeProfile: 'a', profiles: {} });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { a: { ...profile, baseUrl: 'https://x.example/ms' } } }));
    expect((await openProfileStore(dir)).read().profiles.a?.baseUrl).toBe('https://x.example/ms');
  });

  it('keeps what it does not know about across an update', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { a: profile }, addedLater: { x: 1 } }));
    await (
      await openProfileStore(dir)
    ).update((data) => {
      data.activeProfile = 'a';
    });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      activeProfile: 'a',
      profiles: { a: profile },
      addedLater: { x: 1 },
    });
  });

  it('refuses a file larger than 16 MiB, but reads up to that size', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, MAX_CONFIG_BYTES + 1);
    closeSync(fd);
    expect(MAX_CONFIG_BYTES).toBe(16 * 1024 * 1024);
    const tooLarge = await refusal(async () => (await openProfileStore(dir)).read());
    expect(tooLarge.message).toBe(`the config file ${path} is too large (${MAX_CONFIG_BYTES + 1} bytes)`);
    expect(tooLarge.hint).toBe('fix or remove it by hand; cip will not overwrite it');
    // At the limit the file is read (and here found not to be JSON).
    const fd2 = openSync(path, 'r+');
    ftruncateSync(fd2, MAX_CONFIG_BYTES);
    closeSync(fd2);
    const read = await refusal(async () => (await openProfileStore(dir)).read());
    expect(read.message).toBe(`the config file ${path} is not valid JSON`);
  });

  it.runIf(POSIX)('refuses a config file that is a folder or a socket, naming what it is', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'config.json'));
    const folder = await refusal(() => openProfileStore(dir));
    expect(folder.message).toBe(`the config file ${join(dir, 'config.json')} is not a regular file (a directory)`);
    expect(folder.hint).toBe('remove it; cip keeps its profiles in a regular file');

    const socketDir = tempDir();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(socketDir, 'config.json'), resolve));
    try {
      const socket = await refusal(() => openProfileStore(socketDir));
      expect(socket.message).toBe(`the config file ${join(socketDir, 'config.json')} is not a regular file (a socket)`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.runIf(POSIX)('says at once that a config folder that is a file cannot be used', async () => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    const store = await openProfileStore(file);
    let readError: unknown;
    try {
      store.read();
    } catch (caught) {
      readError = caught;
    }
    expect((readError as Error).message).toBe(`cannot use the config folder ${file}: it is not a folder`);
    const error = await refusal(
      store.update((data) => {
        data.profiles.a = profile;
      }),
    );
    // It used to wait for the lock's retries (12 seconds), then say only ENOTDIR.
    expect(error.message).toBe(`cannot use the config folder ${file}: it is not a folder`);
    expect(error.hint).toBe('set CIP_CONFIG_DIR to a folder');
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});

describe('folders and files cip makes private', () => {
  it.runIf(POSIX)('makes its own folder private, keeping the sticky and set-id bits, and says so', async () => {
    const dir = join(tempDir(), 'own');
    mkdirSync(dir);
    chmodSync(dir, 0o1750);
    const warnings: string[] = [];
    await openProfileStore(dir, { ownFolder: true, uid: UID, warn: (message) => warnings.push(message) });
    expect(statSync(dir).mode & 0o7777).toBe(0o1700);
    expect(warnings).toEqual([`${dir} was readable by others (mode 1750); cip made it private (700)`]);
  });

  it.runIf(POSIX)('leaves its own private folder, and its own private file, as they are, without a word', async () => {
    const dir = join(tempDir(), 'own');
    mkdirSync(dir);
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, 'config.json'), '{"profiles":{}}', { mode: 0o600 });
    const warnings: string[] = [];
    await openProfileStore(dir, { ownFolder: true, uid: UID, warn: (message) => warnings.push(message) });
    expect(statSync(dir).mode & 0o7777).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it.runIf(POSIX)('makes its own file private again when it was opened up, and says so', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles":{}}');
    chmodSync(path, 0o640);
    const warnings: string[] = [];
    await openProfileStore(dir, { uid: UID, warn: (message) => warnings.push(message) });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([`${path} was readable by others (mode 640); cip made it private (600)`]);
  });

  it.runIf(POSIX)('never changes a file that belongs to someone else', async () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles":{}}');
    chmodSync(path, 0o644);
    const warnings: string[] = [];
    await openProfileStore(dir, { uid: (UID ?? 0) + 4242, warn: (message) => warnings.push(message) });
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(warnings.some((message) => message.includes('made it private (600)'))).toBe(false);
  });

  it.runIf(POSIX)('refuses to store keys in a folder someone else owns, or that its group can write to', async () => {
    const owned = tempDir();
    chmodSync(owned, 0o700);
    const otherUid = (UID ?? 0) + 4242;
    const warnings: string[] = [];
    const store = await openProfileStore(owned, { uid: otherUid, warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([
      `the config folder ${owned} is not private: it belongs to another user (uid ${statSync(owned).uid}); cip will not store keys in it`,
    ]);
    const error = await refusal(
      store.update((data) => {
        data.profiles.a = profile;
      }),
    );
    expect(error.message).toBe(`refusing to store keys in ${owned}: it belongs to another user (uid ${statSync(owned).uid})`);
    expect(error.hint).toBe(`set CIP_CONFIG_DIR to a folder only you can write to, or make this one private (chmod 700 ${owned})`);

    const groupWritable = tempDir();
    chmodSync(groupWritable, 0o770);
    const refused = await refusal(
      (await openProfileStore(groupWritable, { uid: UID })).update((data) => {
        data.profiles.a = profile;
      }),
    );
    expect(refused.message).toBe(`refusing to store keys in ${groupWritable}: others can write to it (mode 770)`);
  });

  it.runIf(POSIX)('stores keys in a folder that others may read but not write, without changing it', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const warnings: string[] = [];
    await (
      await openProfileStore(dir, { uid: UID, warn: (message) => warnings.push(message) })
    ).update((data) => {
      data.profiles.a = profile;
    });
    expect(warnings).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('writes the file with tabs, and leaves no temporary or lock file behind', async () => {
    const dir = tempDir();
    await (
      await openProfileStore(dir)
    ).update((data) => {
      data.profiles.a = profile;
    });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(JSON.stringify({ profiles: { a: profile } }, null, '\t'));
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('writers at once', () => {
  it('40 writers, each with its own store, all write: 40 profiles, no lock or temporary file left', async () => {
    const dir = tempDir();
    if (POSIX) chmodSync(dir, 0o700);
    const names = Array.from({ length: 40 }, (_, index) => `w${String(index).padStart(2, '0')}`);
    const stores = await Promise.all(names.map(() => openProfileStore(dir, { uid: UID })));
    await Promise.all(
      stores.map((store, index) =>
        store.update((data) => {
          data.profiles[names[index]!] = profile;
        }),
      ),
    );
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: object };
    expect(Object.keys(saved.profiles).sort()).toEqual(names);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 60_000);
});

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
