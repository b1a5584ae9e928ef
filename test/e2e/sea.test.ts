// The single executable (`npm run package`, scripts/package.mjs): one file that is the whole program and needs
// no Node. It is built once for this file, for this machine's platform, into a temporary folder outside the
// checkout (from this run's copy of dist/, test/helpers/global-setup.ts), and every run here has a PATH of an
// empty folder: no node, no npm, no dist/ or node_modules beside it. Linux x64 and arm64, as the package script;
// test/e2e/sea-arm64.test.ts runs the arm64 one on an x64 machine.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BUILD, ROOT, cip, expectOneErrorLine, loginArgs, readConfig, tempDir } from '../helpers/cli.js';
import { describeWithKeychain } from '../helpers/keychain.js';
import { credentialsOf, listAndCreate } from '../helpers/single-executable.js';

const PLATFORM = `${process.platform}-${process.arch}`;
const skipped =
  PLATFORM === 'linux-x64' || PLATFORM === 'linux-arm64'
    ? undefined
    : `the package script builds on Linux x64 and arm64, this is ${PLATFORM}`;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let executable: string;
/** A PATH with nothing on it: the executable must find nothing it needs there. */
let emptyPath: string;
/** XDG_CACHE_HOME for the runs: the code cache and the keychain's addon go to its cip/ folder. */
let xdg: string;
/** TMPDIR for the runs, which the executable needs only where it has no cache folder. */
let tmp: string;
let sandbox: Sandbox;

/** What the executable would be given by a CI job on a machine without Node: a bare environment. */
function runSea(
  args: string[],
  options: { env?: Record<string, string | undefined>; configDir?: string; input?: string; executable?: string; wrap?: string[] } = {},
): ResultPromise<{ reject: false }> {
  const home = tempDir('cip-sea-home-');
  const program = options.executable ?? executable;
  // A command that sets something up, then runs the executable in its place (`exec "$@"`).
  const [file, ...argv] = [...(options.wrap ?? []), program, ...args];
  return execa(file!, argv, {
    env: {
      HOME: home,
      CIP_CONFIG_DIR: options.configDir ?? tempDir(),
      CIP_CREDENTIAL_STORE: 'file',
      XDG_CACHE_HOME: xdg,
      TMPDIR: tmp,
      ...options.env,
      PATH: emptyPath,
    },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    input: options.input,
    stdin: options.input === undefined ? 'ignore' : undefined,
    cwd: home,
    timeout: 60_000,
  } as never);
}

const sandboxEnv = () => credentialsOf(sandbox);

if (skipped) it.skip(`the single executable (${skipped})`, () => undefined);

// One executable and one sandbox for the file, not the fixture's one a test: building the executable takes a minute,
// and its cases (each a spawn of it) leave the sandbox as they found it.
describe.skipIf(skipped !== undefined)('the single executable, with no Node on PATH', () => {
  beforeAll(async () => {
    const out = tempDir('cip-sea-');
    emptyPath = join(out, 'bin');
    mkdirSync(emptyPath);
    xdg = tempDir('cip-sea-cache-');
    tmp = tempDir('cip-sea-tmp-');
    // Once for the file; it reads dist/ from this run's copy, so a rebuild elsewhere changes nothing here.
    const built = await execa(
      process.execPath,
      [join(ROOT, 'scripts', 'package.mjs'), '--out', out, '--dist', join(BUILD, 'dist'), '--target', PLATFORM, '--executable-only'],
      {
        cwd: ROOT,
        reject: false,
        all: true,
      },
    );
    if (built.exitCode !== 0) throw new Error(`npm run package failed (exit ${built.exitCode}):\n${built.all}`);
    executable = join(out, `cip-${PLATFORM}`);
    expect(spawnSync('/bin/sh', ['-c', 'command -v node npm'], { env: { PATH: emptyPath } }).status).not.toBe(0);
    sandbox = await startSandbox({ seed: 3 });
  }, 300_000);
  afterAll(() => sandbox?.close());

  it('answers --version and --help', async () => {
    expect(await runSea(['--version'])).toMatchObject({ exitCode: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = await runSea(['--help']);
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: cip \[options\] \[command\]\n/);
  });

  it('lists, creates, updates and deletes against the sandbox, and filters with --jq', async () => {
    const env = sandboxEnv();
    const id = await listAndCreate(runSea, sandbox, 'from-sea');

    const updated = await runSea(['env', 'update', id, '--data', '{"name":"from-sea-2"}'], { env });
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(sandbox.environments.get(id)).toMatchObject({ name: 'from-sea-2' });

    // jq runs in a worker thread, from the file the executable wrote out.
    const names = await runSea(['env', 'list', '--jq', '.[].name'], { env });
    expect(names).toMatchObject({ exitCode: 0, stderr: '' });
    expect(names.stdout.split('\n')).toContain('from-sea-2');

    const removed = await runSea(['env', 'rm', 'from-sea-2', '--yes'], { env });
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual([{ given: 'from-sea-2', id, name: 'from-sea-2', result: 'deleted', error: null }]);
    expect(sandbox.environments.has(id)).toBe(false);
  });

  it('where the cache folder is not private, runs --jq all the same, and writes nothing there or in the temp folder', async () => {
    const own = tempDir('cip-sea-cache-');
    const ownTmp = tempDir('cip-sea-tmp-');
    // Another user's or a shared folder: never read, never written.
    const shared = join(own, 'cip');
    mkdirSync(shared, { mode: 0o755 });
    chmodSync(shared, 0o755);
    const names = await runSea(['env', 'list', '--jq', '.[].name'], { env: { ...sandboxEnv(), XDG_CACHE_HOME: own, TMPDIR: ownTmp } });
    expect(names).toMatchObject({ exitCode: 0, stderr: '' });
    expect(names.stdout).toContain('env-0001\n');
    expect(readdirSync(shared)).toEqual([]);
    expect(readdirSync(ownTmp)).toEqual([]);
  });

  it('a TMPDIR that is missing, a file, read-only or on a full disk changes nothing: every command works, with a cache folder or without', async () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, 'a file where the temp folder should be');
    const readOnly = readOnlyFolder();
    const cases: [string, { env: Record<string, string>; wrap?: string[] }][] = [
      ['missing', { env: { TMPDIR: join(tempDir(), 'missing') } }],
      ['a file', { env: { TMPDIR: file } }],
      ...(readOnly
        ? [[`read-only (${readOnly.how})`, { env: { TMPDIR: readOnly.path } }] as [string, { env: Record<string, string> }]]
        : []),
      // Every file write fails (EFBIG), in the cache folder too.
      ['on a full disk', { env: {}, wrap: FULL_DISK }],
    ];
    try {
      for (const [what, options] of cases) {
        for (const cache of ['a cache folder', 'no cache folder'] as const) {
          const env = { ...sandboxEnv(), ...options.env, ...(cache === 'no cache folder' ? { XDG_CACHE_HOME: file } : {}) };
          for (const args of [['--help'], ['env', 'list'], ['env', 'list', '--jq', '.[0].name']]) {
            const result = await runSea(args, { ...options, env });
            expect({ what, cache, args, exitCode: result.exitCode, stderr: result.stderr }).toEqual({
              what,
              cache,
              args,
              exitCode: 0,
              stderr: '',
            });
          }
        }
      }
      // Said once, under --verbose.
      const verbose = await runSea(['completion', 'bash', '--verbose'], { env: { TMPDIR: file, XDG_CACHE_HOME: file } });
      expect(verbose.exitCode).toBe(0);
      expect(verbose.stderr).toBe(`note: the cache folder ${join(file, 'cip')} is not used: it cannot be made (ENOTDIR)\n`);
    } finally {
      readOnly?.release();
    }
    // Two dozen runs of the executable, one after another: on a busy two-core machine that takes more than the
    // default 30 s.
  }, 180_000);

  it('a cleaner that removes files from the cache and temp folders between runs never breaks --jq: nothing of it is written out', async () => {
    const env = sandboxEnv();
    expect((await runSea(['env', 'list', '--jq', '.[0].name'], { env })).stdout).toBe('env-0001\n');
    // What a temp cleaner takes first: the largest file, the jq module, wherever it was written.
    const jqFiles = [xdg, tmp].flatMap(jqFilesUnder);
    for (const path of jqFiles) rmSync(path);
    expect((await runSea(['env', 'list', '--jq', '.[0].name'], { env })).stdout).toBe('env-0001\n');
    expect([xdg, tmp].flatMap(jqFilesUnder)).toEqual([]);
    // And everything: the code cache is written again.
    rmSync(join(xdg, 'cip'), { recursive: true });
    expect(await runSea(['env', 'list', '--jq', '.[0].name'], { env })).toMatchObject({ exitCode: 0, stdout: 'env-0001\n', stderr: '' });
    expect(readdirSync(join(xdg, 'cip')).length).toBeGreaterThan(0);
  });

  it("another build of the same version, size and time runs its own --jq thread, never this one's", async () => {
    // A copy that differs from this build only in its jq worker (one that throws at load), with the same size and
    // time: each must run its own worker, whichever ran first.
    const bytes = readFileSync(executable);
    const needle = Buffer.from('var jq=loadJq();');
    const at = bytes.indexOf(needle);
    expect(at).toBeGreaterThan(0);
    expect(bytes.indexOf(needle, at + 1)).toBe(-1);
    Buffer.from('throw"tampered";').copy(bytes, at);
    const other = join(tempDir('cip-sea-other-'), `cip-${PLATFORM}`);
    writeFileSync(other, bytes, { mode: 0o755 });
    // The same time to the second, as files from one release archive have.
    const time = Math.trunc(Date.now() / 1000) - 3600;
    for (const file of [executable, other]) utimesSync(file, time, time);
    expect(statSync(other)).toMatchObject({ size: statSync(executable).size, mtimeMs: statSync(executable).mtimeMs });

    const env = sandboxEnv();
    const args = ['env', 'list', '--jq', '.[0].name'];
    expect(await runSea(args, { env })).toMatchObject({ exitCode: 0, stdout: 'env-0001\n' });
    const tampered = await runSea(args, { env, executable: other });
    expect(tampered.exitCode).toBe(1);
    expect(tampered.stderr).toContain('tampered');
    expect(await runSea(args, { env })).toMatchObject({ exitCode: 0, stdout: 'env-0001\n' });
  });

  it('prints the same bash completion as the npm package', async () => {
    const fromSea = await runSea(['completion', 'bash']);
    expect(fromSea).toMatchObject({ exitCode: 0, stderr: '' });
    expect(fromSea.stdout).toContain('complete ');
    expect(fromSea.stdout).toBe((await cip(['completion', 'bash'])).stdout);
  });

  it('runs `cip sandbox`, which a second run of the executable uses, and stops on Ctrl-C', async () => {
    const server = runSea(['sandbox', '--count', '2']);
    const stdout = await new Promise<string>((resolve, reject) => {
      let text = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('CIP_ENTERPRISE_ID=')) resolve(text);
      });
      void server.then((result) => reject(new Error(`the sandbox exited: ${result.stderr as string}`)));
    });
    const env = Object.fromEntries([...stdout.matchAll(/^export (CIP_[A-Z_]+)=(.*)$/gm)].map(([, name, value]) => [name!, value!]));
    const list = await runSea(['env', 'list'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
    server.kill('SIGINT');
    expect((await server).exitCode).toBe(130);
  });

  describeWithKeychain('with a real keychain (Secret Service on a private bus)', (keychain) => {
    it('auth login keeps the keys in the keychain (the helper is the executable, the addon from inside it); list uses them', async () => {
      const configDir = tempDir();
      // The keychain's variables (its bus), the keychain as the default store; PATH stays empty (runSea).
      const env = { ...keychain().env, CIP_CREDENTIAL_STORE: undefined };
      const login = await runSea(loginArgs(sandbox, ['--profile', 'kc']), { configDir, env });
      expect(login.exitCode, login.stderr).toBe(0);
      expect(readConfig(configDir)).toMatchObject({ profiles: { kc: { keys: 'keychain' } } });
      const service = `cip:${new URL(sandbox.url).origin}`;
      expect(JSON.parse(keychain().lookup(service, 'kc')!)).toEqual({
        apiKey: sandbox.keys.apiKey,
        subscriptionKey: sandbox.keys.subscriptionKey,
      });

      // The addon came out of the executable into the private cache folder, named by its content's hash.
      const addon = join(xdg, 'cip', `keyring-${ADDON_SHA256}.node`);
      expect(createHash('sha256').update(readFileSync(addon)).digest('hex')).toBe(ADDON_SHA256);
      expect(statSync(addon).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(xdg, 'cip')).filter((name) => name.startsWith('keyring-'))).toEqual([basename(addon)]);

      sandbox.requests.length = 0;
      const list = await runSea(['env', 'list'], { configDir, env });
      expect(list.exitCode, list.stderr).toBe(0);
      expect(sandbox.requests.at(-1)!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);

      const logout = await runSea(['auth', 'logout'], { configDir, env });
      expect(logout.exitCode, logout.stderr).toBe(0);
      expect(keychain().lookup(service, 'kc')).toBeUndefined();
    });

    it('an addon removed or changed between runs (a cleaner, a disk error) is written again', async () => {
      const configDir = tempDir();
      const env = { ...keychain().env, CIP_CREDENTIAL_STORE: undefined };
      const own = tempDir('cip-sea-cache-');
      const addon = join(own, 'cip', `keyring-${ADDON_SHA256}.node`);
      const login = await runSea(loginArgs(sandbox, ['--profile', 'again']), { configDir, env: { ...env, XDG_CACHE_HOME: own } });
      expect(login.exitCode, login.stderr).toBe(0);
      for (const damage of [
        () => rmSync(addon),
        () => writeFileSync(addon, 'not a library'),
        () => writeFileSync(addon, readFileSync(addon).subarray(0, 4096)),
      ]) {
        damage();
        const list = await runSea(['env', 'list', '--profile', 'again'], { configDir, env: { ...env, XDG_CACHE_HOME: own } });
        expect(list.exitCode, list.stderr).toBe(0);
        expect(createHash('sha256').update(readFileSync(addon)).digest('hex')).toBe(ADDON_SHA256);
      }
    });

    it('an addon that cannot be loaded (its cache folder mounted noexec) refuses the keychain as a machine without one', async (test) => {
      const own = tempDir('cip-sea-cache-');
      const wrap = noexecMount(own);
      if (!wrap) return test.skip('needs root and unshare to mount a noexec tmpfs');
      const configDir = tempDir();
      const env = { ...keychain().env, CIP_CREDENTIAL_STORE: undefined, XDG_CACHE_HOME: own };
      const login = await runSea(loginArgs(sandbox), { configDir, env, wrap });
      expect(login.exitCode).toBe(2);
      expect(expectOneErrorLine(login.stderr)).toMatch(
        /^error: no usable keychain here: nothing was saved; use --insecure-storage or CIP_CREDENTIAL_STORE=file .* \(cause: the keychain module @napi-rs\/keyring cannot be loaded here \(.*keyring-[0-9a-f]{64}\.node.*\)\)$/,
      );
      expect(readConfig(configDir)).toBeUndefined();
    });

    it('with nowhere to write the addon (no cache folder, no temp folder), refuses the keychain as a machine without one', async () => {
      const file = join(tempDir(), 'file');
      writeFileSync(file, 'a file where a folder should be');
      const configDir = tempDir();
      const env = { ...keychain().env, CIP_CREDENTIAL_STORE: undefined, XDG_CACHE_HOME: file, TMPDIR: file };
      const login = await runSea(loginArgs(sandbox), { configDir, env });
      expect(login.exitCode).toBe(2);
      expect(expectOneErrorLine(login.stderr)).toMatch(
        /^error: no usable keychain here: nothing was saved; use --insecure-storage or CIP_CREDENTIAL_STORE=file .* \(cause: the keychain module @napi-rs\/keyring cannot be loaded here \(there is no folder to write it to \(ENOTDIR in the temp folder .+\)\)\)$/,
      );
      expect(readConfig(configDir)).toBeUndefined();
      const insecure = await runSea(loginArgs(sandbox, ['--insecure-storage']), { configDir, env });
      expect(insecure.exitCode, insecure.stderr).toBe(0);
      expect(readConfig(configDir)).toMatchObject({ profiles: { default: { keys: 'file' } } });
    });
  });
});

/** Runs the executable where every file write fails (EFBIG), as on a full disk: the shell's limit on file sizes. */
const FULL_DISK = ['/bin/sh', '-c', 'ulimit -f 0; exec "$@"', 'sh'];

/**
 * Runs the executable with a folder mounted noexec (a tmpfs, in a mount namespace of its own, gone when it
 * exits); undefined where that cannot be done (not root, no unshare).
 */
function noexecMount(folder: string): string[] | undefined {
  // By their paths: the executable's PATH is empty.
  const [unshare, mount] = ['unshare', 'mount'].map((name) =>
    spawnSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim(),
  );
  if (!unshare || !mount) return undefined;
  const wrap = [unshare, '-m', '/bin/sh', '-c', `${mount} -t tmpfs -o noexec,mode=0700 tmpfs "$0" && exec "$@"`, folder];
  return spawnSync(wrap[0]!, [...wrap.slice(1), '/bin/true']).status === 0 ? wrap : undefined;
}

/**
 * The SHA-256 of the keyring's addon the executable holds: scripts/package.mjs takes it from the package of the
 * version package-lock.json names, which npm installed in node_modules too.
 */
const ADDON_SHA256 = (() => {
  try {
    const keyring = createRequire(createRequire(join(ROOT, 'package.json')).resolve('@napi-rs/keyring'));
    const platform = `${PLATFORM}-gnu`;
    const addon = join(dirname(keyring.resolve(`@napi-rs/keyring-${platform}/package.json`)), `keyring.${platform}.node`);
    return createHash('sha256').update(readFileSync(addon)).digest('hex');
  } catch {
    return 'none';
  }
})();

/** Every file under a folder, by its path. */
/**
 * The files under root that are jq's, by their path inside root: root's own name is mkdtemp's, whose random letters
 * may spell "jq" and would make every file under it one.
 */
function jqFilesUnder(root: string): string[] {
  return filesUnder(root).filter((path) => /jq/.test(relative(root, path)));
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * A folder nobody may write to, this user included: made immutable (chattr +i) where that works, which holds
 * for root too; else, for a user who is not root, one without write permission. Undefined where neither can
 * be had (root without chattr), said in the case's name otherwise.
 */
function readOnlyFolder(): { path: string; how: string; release: () => void } | undefined {
  const path = tempDir('cip-sea-readonly-');
  if (spawnSync('chattr', ['+i', path]).status === 0) {
    return { path, how: 'chattr +i', release: () => spawnSync('chattr', ['-i', path]) };
  }
  if (process.getuid?.() === 0) return undefined;
  chmodSync(path, 0o555);
  return { path, how: 'mode 555', release: () => chmodSync(path, 0o755) };
}
