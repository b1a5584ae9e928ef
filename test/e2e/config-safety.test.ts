// The profile store under pressure: parallel writers, stale locks, wide permissions, a hostile umask, and
// interrupts; plus the other places a key could leak (argv, CI logs). Each test reports what a user would see.
import { execa, execaSync } from 'execa';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import {
  CIP,
  cip as cipSpawned,
  expectOneErrorLine,
  loginArgs,
  readConfig,
  sandboxEnv,
  sandboxOutput,
  spawnCip,
  tempDir,
  TEST_CREDENTIAL_STORE,
  noVerifyLoginArgs,
} from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';
import { sandboxProfile } from '../helpers/stored-profiles.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 1 } });

/** Login arguments for the sandbox, into this profile. */
function loginTo(sandbox: Sandbox, profile: string, extra: string[] = []): string[] {
  return loginArgs(sandbox, ['--profile', profile, ...extra]);
}

describe('parallel writers', () => {
  it('30 logins at once to 30 profiles leave 30 profiles, each waiting its turn', async ({ sandbox }) => {
    const configDir = tempDir();
    const names = Array.from({ length: 30 }, (_, index) => `p${String(index).padStart(2, '0')}`);
    // Separate processes, as in a CI matrix: the lock must hold across them, and the wait outlast the queue.
    const results = await Promise.all(names.map((name) => cipSpawned(loginTo(sandbox, name, ['--no-verify']), { configDir })));
    expect(results.map((result) => result.exitCode)).toEqual(names.map(() => 0));
    const waiting = `warning: another cip is writing the config file ${join(configDir, 'config.json')}; waiting for it (up to 3 minutes)`;
    for (const { stderr } of results) {
      // A login that waited says so once.
      expect(stderr.split('\n').filter((line) => line === waiting).length).toBeLessThanOrEqual(1);
      expect(stderr).not.toContain('error:');
    }
    const config = readConfig(configDir) as { activeProfile: string; profiles: Record<string, unknown> };
    const kept = Object.keys(config.profiles).sort();
    expect(kept).toEqual(names);
    expect(names).toContain(config.activeProfile);
    expect(readdirSync(configDir).sort()).toEqual(['config.json']);
  }, 240_000);

  it('logins through a linked config.json and logins naming its file lose nothing, and the link stays', async ({ sandbox }) => {
    const { folder: dotfiles, configDir: linkDir } = linkedConfig(0o700);
    const names = Array.from({ length: 10 }, (_, index) => `p${String(index)}`);
    const results = await Promise.all(
      names.map((name, index) => cipSpawned(loginTo(sandbox, name, ['--no-verify']), { configDir: index % 2 ? linkDir : dotfiles })),
    );
    expect(results.map((result) => result.exitCode)).toEqual(names.map(() => 0));
    expect(Object.keys((readConfig(dotfiles) as { profiles: object }).profiles).sort()).toEqual(names);
    expect(lstatSync(join(linkDir, 'config.json')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dotfiles)).toEqual(['config.json']);
  }, 120_000);

  it('a lock left behind by a crashed cip is taken over once stale', async ({ sandbox }) => {
    const configDir = tempDir();
    const lock = join(configDir, 'config.json.lock');
    mkdirSync(lock, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    const result = await cip(loginTo(sandbox, 'default', ['--no-verify']), { configDir });
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock its holder left a moment ago (a crash mid-write) blocks the next writer only until it is stale', async ({ sandbox }) => {
    const configDir = tempDir();
    const lock = join(configDir, 'config.json.lock');
    mkdirSync(lock);
    // Left 10 s ago: stale 10 s from now (20 s without a refresh), a wait well past the 1 s after which the
    // note comes, without making the suite sit out all 20 s.
    const leftAt = new Date(Date.now() - 10_000);
    utimesSync(lock, leftAt, leftAt);
    const result = await cip(loginTo(sandbox, 'default', ['--no-verify']), { configDir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`warning: another cip is writing the config file ${join(configDir, 'config.json')}; waiting for it`);
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
    expect(readdirSync(configDir)).toEqual(['config.json']);
  }, 60_000);
});

/** A config folder whose config.json links to an empty profile store in a folder of the given mode. */
function linkedConfig(folderMode: number): { folder: string; target: string; configDir: string } {
  const folder = tempDir();
  chmodSync(folder, folderMode);
  const target = join(folder, 'config.json');
  writeFileSync(target, '{"profiles":{}}', { mode: 0o600 });
  const configDir = tempDir();
  chmodSync(configDir, 0o700);
  symlinkSync(target, join(configDir, 'config.json'));
  return { folder, target, configDir };
}

describe('a config.json that is a link', () => {
  it('into a folder others can write to: login is exit 2 with one error line, and the file is left as it was', async ({ sandbox }) => {
    const { folder: shared, target, configDir } = linkedConfig(0o777);
    const result = await cip(loginTo(sandbox, 'default', ['--no-verify']), { configDir });
    expect(result.exitCode).toBe(2);
    const problem = `its folder ${shared} is not private: others can write to it (mode 777)`;
    expect(result.stderr).toBe(
      `warning: the config file ${join(configDir, 'config.json')} links to ${target}: ${problem}; cip will not store keys there\n` +
        `error: refusing to store keys in ${target}, where the config file ${join(configDir, 'config.json')} links: ${problem} ` +
        '(point the link at a file of your own in a folder only you can write to, or replace the link with a file)\n',
    );
    expect(readFileSync(target, 'utf8')).toBe('{"profiles":{}}');
  });
});

describe('a folder cip cannot write to', () => {
  // Root writes anywhere, so as root the run drops to the user nobody (util-linux setpriv).
  const asRoot = process.getuid?.() === 0;
  const canDrop = !asRoot || existsSync('/usr/bin/setpriv');
  it.runIf(canDrop)('is named as not writable, not blamed on another cip (as root, needs setpriv from util-linux)', async ({ sandbox }) => {
    const configDir = join(tempDir(), 'read-only');
    mkdirSync(configDir);
    chmodSync(join(configDir, '..'), 0o755);
    chmodSync(configDir, 0o555);
    if (asRoot) chownSync(configDir, 65534, 65534);
    const keys = tempDir();
    chmodSync(keys, 0o755);
    for (const name of ['api', 'sub']) writeFileSync(join(keys, name), `${sandbox.keys.apiKey}\n`, { mode: 0o644 });
    const args = noVerifyLoginArgs(sandbox.keys.enterpriseId, join(keys, 'api'), join(keys, 'sub'));
    // The Node under test by its path: setpriv would look `node` up on PATH as nobody, and skip a folder nobody
    // cannot read for the next node on PATH.
    const [command, prefix] = asRoot
      ? ['/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath]]
      : [process.execPath, []];
    const result = await execa(command, [...prefix, CIP, ...args], {
      env: { PATH: process.env.PATH, HOME: keys, CIP_CONFIG_DIR: configDir, NODE_DISABLE_COMPILE_CACHE: '1', ...TEST_CREDENTIAL_STORE },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot write the config file ${join(configDir, 'config.json')}: the folder ${configDir} is not writable (EACCES) (check its permissions, or set CIP_CONFIG_DIR to a folder you can write to)`,
    );
    expect(readdirSync(configDir)).toEqual([]);
  });
});

describe('writes are atomic whatever the environment', () => {
  it.for<[string, Record<string, string>]>([
    ['through conf', {}],
    ['with SNAP set (snap-installed Node), where conf would write in place', { SNAP: '/snap/node/current' }],
  ])('%s, with no room to write, the old config survives byte for byte', async ([_what, snap], { sandbox }) => {
    const configDir = tempDir();
    const profile = sandboxProfile(sandbox);
    // Padded to 100 bytes under a 4 KiB file-size limit: the next profile cannot fit.
    const unpadded = JSON.stringify({ activeProfile: 'p0', profiles: { p0: profile }, note: '' }, null, '\t');
    const before = JSON.stringify(
      { activeProfile: 'p0', profiles: { p0: profile }, note: 'x'.repeat(4096 - 100 - unpadded.length) },
      null,
      '\t',
    );
    expect(before.length).toBe(3996);
    writeFileSync(join(configDir, 'config.json'), before, { mode: 0o600 });
    // bash counts ulimit -f in KiB; a write past the limit fails with EFBIG, as on a full disk (cip itself
    // keeps SIGXFSZ from killing it).
    const command = `ulimit -f 4; exec node ${CIP} ${loginTo(sandbox, 'one-more', ['--no-verify'])
      .map((arg) => `'${arg}'`)
      .join(' ')}`;
    const result = await execa('bash', ['-c', command], {
      env: {
        PATH: process.env.PATH,
        HOME: tempDir(),
        CIP_CONFIG_DIR: configDir,
        ...snap,
        NODE_DISABLE_COMPILE_CACHE: '1',
        ...TEST_CREDENTIAL_STORE,
      },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: cannot write the config file .*config\.json: no room left \(EFBIG\); the file was left as it was$/,
    );
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    expect(readdirSync(configDir)).toEqual(['config.json']);
  });
});

describe('nothing but a regular file is read', () => {
  const mkfifo = (path: string) => execaSync('mkfifo', [path]);

  it('a FIFO as config.json is exit 2 at once, not a hang', async () => {
    const configDir = tempDir();
    mkfifo(join(configDir, 'config.json'));
    const result = await cip(['env', 'list'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: the config file ${join(configDir, 'config.json')} is not a regular file (a FIFO) (remove it; cip keeps its profiles in a regular file)`,
    );
    // Tab completion reads the file too: silently nothing.
    const completion = await cip(['__complete', 'profiles'], { configDir });
    expect(completion).toMatchObject({ exitCode: 0, stdout: '' });
  });

  // A FIFO as an input is read (test/e2e/pipes.test.ts); /dev/zero ends at the input limit.
  it.for<[string, (dir: string) => string, (path: string) => string]>([
    ['/dev/zero', () => '/dev/zero', (path: string) => `error: --file ${path}: input too large: more than 64 MiB`],
    [
      'a directory',
      (dir: string) => dir,
      (path: string) => `error: cannot read --file ${path}: it is a directory, not a regular file or a pipe`,
    ],
  ])('%s as --file or a key file is exit 2 at once, and nothing is sent', async ([_what, make, message], { sandbox }) => {
    const path = make(tempDir());
    const asPayload = await cip(['env', 'create', '--file', path], { env: sandboxEnv(sandbox) });
    expect(asPayload.exitCode).toBe(2);
    expect(expectOneErrorLine(asPayload.stderr)).toBe(message(path));
    const asKey = await cip(noVerifyLoginArgs(sandbox.keys.enterpriseId, path, path), { configDir: tempDir() });
    expect(asKey.exitCode).toBe(2);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('input larger than 64 MiB is exit 2, from a file or from stdin', async ({ sandbox }) => {
    const big = join(tempDir(), 'big.json');
    // A sparse file: 65 MiB long, no disk used.
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 65 * 1024 * 1024);
    closeSync(fd);
    const fromFile = await cip(['env', 'create', '--file', big], { env: sandboxEnv(sandbox) });
    expect(fromFile.exitCode).toBe(2);
    expect(expectOneErrorLine(fromFile.stderr)).toBe(`error: --file ${big}: input too large: more than 64 MiB`);
    const fromStdin = await cip(['env', 'create', '--file', '-'], {
      env: sandboxEnv(sandbox),
      input: `{"name":"${'x'.repeat(65 * 1024 * 1024)}"}`,
    });
    expect(fromStdin.exitCode).toBe(2);
    expect(expectOneErrorLine(fromStdin.stderr)).toBe('error: --file - (stdin): input too large: more than 64 MiB');
    expect(sandbox.requests).toHaveLength(0);
  });

  it('Ctrl-C while reading stdin that never ends exits 130', async ({ sandbox }) => {
    const child = execa('node', [CIP, 'env', 'create', '--file', '-'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...sandboxEnv(sandbox) },
      extendEnv: false,
      reject: false,
      stdin: 'pipe',
      timeout: 30_000,
    });
    // More than a pipe holds: the write completes only once cip has read most of it, so cip is reading.
    await new Promise<void>((resolve) => child.stdin.write(`${' '.repeat(1024 * 1024)}{"name":`, () => resolve()));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('permissions', () => {
  it("cip's own folder (the default location) and file found readable by others are made private, and said so", async ({ sandbox }) => {
    const home = tempDir();
    const configDir = join(home, '.config', 'cip');
    const env = { XDG_CONFIG_HOME: join(home, '.config'), CIP_CONFIG_DIR: undefined };
    expect((await cip(loginTo(sandbox, 'default', ['--no-verify']), { env })).exitCode).toBe(0);
    const file = join(configDir, 'config.json');
    expect(existsSync(file)).toBe(true);
    chmodSync(file, 0o644);
    chmodSync(configDir, 0o755);
    const status = await cip(['auth', 'status'], { env });
    expect(status.exitCode).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(status.stderr).toContain(`warning: ${file} was readable by others (mode 644); cip made it private (600)`);
    expect(status.stderr).toContain(`warning: ${configDir} was readable by others (mode 755); cip made it private (700)`);
  });

  it.for<[string, number, string]>([
    ['a world-writable sticky folder like /var/tmp', 0o1777, 'others can write to it (mode 1777)'],
    ['a setgid team folder', 0o2770, 'others can write to it (mode 2770)'],
  ])(
    '%s named by CIP_CONFIG_DIR keeps its mode; cip warns, reads, and refuses to store keys in it',
    async ([_what, mode, problem], { sandbox }) => {
      const configDir = join(tempDir(), 'shared');
      mkdirSync(configDir);
      chmodSync(configDir, mode);
      const status = await cip(['auth', 'status'], { configDir, env: sandboxEnv(sandbox) });
      expect(status.exitCode).toBe(0);
      expect(status.stderr).toContain(
        `warning: the config folder ${configDir} is not private: ${problem}; cip will not store keys in it\n`,
      );
      const login = await cip(loginTo(sandbox, 'default', ['--no-verify']), { configDir });
      expect(login.exitCode).toBe(2);
      expect(expectOneErrorLine(login.stderr)).toBe(
        `error: refusing to store keys in ${configDir}: ${problem} (set CIP_CONFIG_DIR to a folder only you can write to, or make this one private (chmod 700 ${configDir}))`,
      );
      expect(statSync(configDir).mode & 0o7777).toBe(mode);
      expect(readdirSync(configDir)).toEqual([]);
    },
  );

  it('auth status on a folder that does not exist creates nothing', async ({ sandbox }) => {
    const configDir = join(tempDir(), 'not-yet');
    const status = await cip(['auth', 'status'], { configDir, env: sandboxEnv(sandbox) });
    expect(status.exitCode).toBe(0);
    expect(existsSync(configDir)).toBe(false);
  });

  it('file 0600 and folder 0700 even under umask 000', async ({ sandbox }) => {
    const configDir = join(tempDir(), 'nested', 'cip');
    const command = `umask 000; exec node ${CIP} ${loginTo(sandbox, 'default', ['--no-verify'])
      .map((arg) => `'${arg}'`)
      .join(' ')}`;
    const result = await execa('bash', ['-c', command], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: configDir, ...TEST_CREDENTIAL_STORE },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
  });
});

describe('interrupts', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while login checks the keys exits ${code} and saves nothing`, async ({ sandbox }) => {
      const configDir = tempDir();
      sandbox.inject({ fault: { kind: 'delay', ms: 20_000 } });
      const child = spawnCip(loginTo(sandbox, 'default'), { configDir });
      await sandbox.waitForRequest(() => true);
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(code);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(readConfig(configDir)).toBeUndefined();
      sandbox.clearFaults();
    });
  }
});

describe('keys outside the config', () => {
  it('never appear in the process arguments (what ps shows)', async ({ sandbox }) => {
    sandbox.inject({ fault: { kind: 'delay', ms: 20_000 } });
    const child = spawnCip(['env', 'list'], { env: sandboxEnv(sandbox) });
    await sandbox.waitForRequest(() => true);
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').join(' ');
    child.kill('SIGINT');
    await child;
    sandbox.clearFaults();
    expect(cmdline).toContain('env list');
    expect(cmdline).not.toContain(sandbox.keys.apiKey);
    expect(cmdline).not.toContain(sandbox.keys.subscriptionKey);
  });

  it('under GitHub Actions, the sandbox declares its keys as masks before printing them', async ({ sandbox }) => {
    const server = spawnCip(['sandbox'], { env: { GITHUB_ACTIONS: 'true' } });
    const stdout = await sandboxOutput(server);
    server.kill('SIGINT');
    await server;
    const lines = stdout.split('\n');
    for (const key of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
      const mask = lines.indexOf(`::add-mask::${key}`);
      const shown = lines.findIndex((line) => line.endsWith(`=${key}`));
      expect(mask).toBeGreaterThanOrEqual(0);
      expect(mask).toBeLessThan(shown);
    }
    const plain = await cip(['sandbox', '--port', 'x']);
    expect(plain.stdout).not.toContain('::add-mask::');
  });
});

describe('base URLs', () => {
  it('a same-origin redirect is not followed either: one request, exit 7', async ({ sandbox }) => {
    sandbox.inject({ fault: { kind: 'status', status: 307, headers: { location: `${sandbox.url}/Environments?page=2` } } });
    const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toMatch(/redirect \(HTTP 307\)/);
    expect(sandbox.requests).toHaveLength(1);
  });

  // An IPv4-mapped IPv6 address of this machine: not on cip's loopback list, yet the traffic stays on loopback.
  const ipv6 = Object.values(networkInterfaces())
    .flat()
    .some((address) => address?.address === '::1');
  it.skipIf(!ipv6)('http:// to another host is refused, and allowed with CIP_ALLOW_HTTP=1', async ({ sandbox }) => {
    const url = sandbox.url.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    const refused = await cip(['env', 'list', '--base-url', url], { env: sandboxEnv(sandbox) });
    expect(refused.exitCode).toBe(2);
    expect(expectOneErrorLine(refused.stderr)).toMatch(/cleartext.*CIP_ALLOW_HTTP=1/);
    expect(sandbox.requests).toHaveLength(0);
    const allowed = await cip(['env', 'list', '--base-url', url], { env: sandboxEnv(sandbox, { CIP_ALLOW_HTTP: '1' }) });
    expect(allowed.exitCode).toBe(0);
    expect(sandbox.requests).toHaveLength(1);
  });

  for (const url of ['not a url', 'ftp://127.0.0.1/ms', 'https://user:pass@api.example.com/ms', 'http://api.example.com/ms']) {
    it(`refuses ${url} (exit 2, nothing sent)`, async ({ sandbox }) => {
      const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { CIP_BASE_URL: url }) });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: CIP_BASE_URL /);
      expect(sandbox.requests).toHaveLength(0);
    });
  }
});
