// The profile store (src/config/store.ts) at its edges: where the file lives, what is refused and with which
// words, which folders and files cip makes private, and what an update keeps.
import { chmodSync, closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES, configDir, configFilePath, configLocation, openProfileStore, type Profile } from '../../src/config/store.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';
import { caught } from '../helpers/errors.js';

const POSIX = process.platform !== 'win32';
const LINUX = process.platform === 'linux';
const UID = process.getuid?.();

const profile: Profile = {
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'store-edges-api-key-0123456789',
  subscriptionKey: 'store-edges-sub-key-0123456789',
};

const refusal = (work: Promise<unknown> | (() => unknown)) => caught(work, ConfigError);

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
