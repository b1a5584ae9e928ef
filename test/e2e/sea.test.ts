// The single executable (`npm run package`, scripts/package.mjs): one file that is the whole program and needs
// no Node. It is built once for this file, into a temporary folder outside the checkout (from this run's copy of
// dist/, test/helpers/global-setup.ts), and every run here has a PATH of an empty folder: no node, no npm, no
// dist/ or node_modules beside it. Linux x64 only, as the package script.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BUILD, ROOT, cip, expectOneErrorLine, loginArgs, readConfig, tempDir } from '../helpers/cli.js';
import { keychainMissing, startKeychain, type TestKeychain } from '../helpers/keychain.js';

const PLATFORM = `${process.platform}-${process.arch}`;
const skipped = PLATFORM === 'linux-x64' ? undefined : `the package script builds for linux-x64 only, this is ${PLATFORM}`;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let executable: string;
/** A PATH with nothing on it: the executable must find nothing it needs there. */
let emptyPath: string;
/** TMPDIR for the runs: the files the executable writes out (and its code cache) go with this file's temp folders. */
let tmp: string;
let sandbox: Sandbox;

/** What the executable would be given by a CI job on a machine without Node: a bare environment. */
function runSea(
  args: string[],
  options: { env?: Record<string, string | undefined>; configDir?: string; input?: string } = {},
): ResultPromise<{ reject: false }> {
  const home = tempDir('cip-sea-home-');
  return execa(executable, args, {
    env: {
      HOME: home,
      CIP_CONFIG_DIR: options.configDir ?? tempDir(),
      CIP_CREDENTIAL_STORE: 'file',
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

const sandboxEnv = () => ({
  CIP_BASE_URL: sandbox.url,
  CIP_API_KEY: sandbox.keys.apiKey,
  CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
  CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
});

if (skipped) it.skip(`the single executable (${skipped})`, () => undefined);

describe.skipIf(skipped !== undefined)('the single executable, with no Node on PATH', () => {
  beforeAll(async () => {
    const out = tempDir('cip-sea-');
    emptyPath = join(out, 'bin');
    mkdirSync(emptyPath);
    tmp = tempDir('cip-sea-tmp-');
    // Once for the file; it reads dist/ from this run's copy, so a rebuild elsewhere changes nothing here.
    const built = await execa(
      process.execPath,
      [join(ROOT, 'scripts', 'package.mjs'), '--out', out, '--dist', join(BUILD, 'dist'), '--executable-only'],
      {
        cwd: ROOT,
        reject: false,
        all: true,
      },
    );
    if (built.exitCode !== 0) throw new Error(`npm run package failed (exit ${built.exitCode}):\n${built.all}`);
    executable = join(out, 'cip-linux-x64');
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
    const list = await runSea(['env', 'list'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(sandbox.environments.size);

    const created = await runSea(['env', 'create', '-f', 'name=from-sea', '-F', 'size=12345678901234567890'], { env });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toContain('"size": 12345678901234567890');
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(sandbox.environments.get(id)).toMatchObject({ name: 'from-sea' });

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

  it('where the cache folder is not private, writes the --jq worker to a private temporary folder and removes it', async () => {
    const own = tempDir('cip-sea-tmp-');
    // Another user's or a shared folder: never read, never written.
    const shared = join(own, `cip-compile-cache-${process.getuid!()}`);
    mkdirSync(shared, { mode: 0o755 });
    chmodSync(shared, 0o755);
    const names = await runSea(['env', 'list', '--jq', '.[].name'], { env: { ...sandboxEnv(), TMPDIR: own } });
    expect(names).toMatchObject({ exitCode: 0, stderr: '' });
    expect(names.stdout).toContain('env-0001\n');
    expect(readdirSync(own)).toEqual([basename(shared)]);
    expect(readdirSync(shared)).toEqual([]);
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

  if (keychainMissing) it.skip(`auth login into a real keychain (${keychainMissing})`, () => undefined);

  describe.skipIf(keychainMissing !== undefined)('with a real keychain (Secret Service on a private bus)', () => {
    let keychain: TestKeychain;
    beforeAll(async () => {
      keychain = await startKeychain();
    });
    afterAll(() => keychain?.close());

    it('auth login keeps the keys in the keychain (the helper is the executable, the addon from inside it); list uses them', async () => {
      const configDir = tempDir();
      // The keychain's variables (its bus), the keychain as the default store; PATH stays empty (runSea).
      const env = { ...keychain.env, CIP_CREDENTIAL_STORE: undefined };
      const login = await runSea(loginArgs(sandbox, ['--profile', 'kc']), { configDir, env });
      expect(login.exitCode, login.stderr).toBe(0);
      expect(readConfig(configDir)).toMatchObject({ profiles: { kc: { keys: 'keychain' } } });
      const service = `cip:${new URL(sandbox.url).origin}`;
      expect(JSON.parse(keychain.lookup(service, 'kc')!)).toEqual({
        apiKey: sandbox.keys.apiKey,
        subscriptionKey: sandbox.keys.subscriptionKey,
      });

      // The addon came out of the executable, into its private folder.
      const cache = join(
        tmp,
        readdirSync(tmp).find((name) => name.startsWith('cip-compile-cache-'))!,
      );
      const sea = readdirSync(cache).filter((name) => name.startsWith('sea-'));
      expect(sea.filter((name) => existsSync(join(cache, name, 'keyring.node')))).toHaveLength(1);

      sandbox.requests.length = 0;
      const list = await runSea(['env', 'list'], { configDir, env });
      expect(list.exitCode, list.stderr).toBe(0);
      expect(sandbox.requests.at(-1)!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);

      const logout = await runSea(['auth', 'logout'], { configDir, env });
      expect(logout.exitCode, logout.stderr).toBe(0);
      expect(keychain.lookup(service, 'kc')).toBeUndefined();
    });

    it('an addon that cannot be loaded (as from a temp folder mounted noexec) refuses the keychain as a machine without one', async () => {
      // The executable writes its files into its folder of the private cache folder under TMPDIR; a file that
      // is not a library where the addon goes makes process.dlopen fail as it would on a noexec mount.
      const own = tempDir('cip-sea-tmp-');
      expect((await runSea(['--help'], { env: { TMPDIR: own } })).exitCode).toBe(0);
      const cache = join(
        own,
        readdirSync(own).find((name) => name.startsWith('cip-compile-cache-'))!,
      );
      const files = join(
        cache,
        readdirSync(cache).find((name) => name.startsWith('sea-'))!,
      );
      writeFileSync(join(files, 'keyring.node'), 'not a library');

      const configDir = tempDir();
      const env = { ...keychain.env, CIP_CREDENTIAL_STORE: undefined, TMPDIR: own };
      const login = await runSea(loginArgs(sandbox), { configDir, env });
      expect(login.exitCode).toBe(2);
      expect(expectOneErrorLine(login.stderr)).toMatch(
        /^error: no usable keychain here: nothing was saved; use --insecure-storage or CIP_CREDENTIAL_STORE=file .* \(cause: the keychain module @napi-rs\/keyring cannot be loaded here \(.+\)\)$/,
      );
      expect(readConfig(configDir)).toBeUndefined();
      const insecure = await runSea(loginArgs(sandbox, ['--insecure-storage']), { configDir, env });
      expect(insecure.exitCode, insecure.stderr).toBe(0);
      expect(readConfig(configDir)).toMatchObject({ profiles: { default: { keys: 'file' } } });
    });
  });
});
