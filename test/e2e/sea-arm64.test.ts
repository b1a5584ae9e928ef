// The single executable for Linux arm64 (`npm run package` builds it beside the x64 one), run on this x64 machine
// by qemu's user-mode emulator: Debian's qemu-user-static, with the arm64 C libraries (libc6:arm64,
// libstdc++6:arm64, libatomic1:arm64, after `dpkg --add-architecture arm64`), which .ci/run installs. Built once
// for this file, from this run's copy of dist/, and run with a PATH of an empty folder. Each run takes seconds
// under emulation, so this checks what differs from the x64 executable (test/e2e/sea.test.ts checks the rest):
// that it starts, works against the API, and loads and uses its own platform's keychain addon.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BUILD, ROOT, tempDir } from '../helpers/cli.js';
import { describeWithKeychain } from '../helpers/keychain.js';
import { credentialsOf, listAndCreate } from '../helpers/single-executable.js';

const PLATFORM = `${process.platform}-${process.arch}`;
const QEMU = spawnSync('/bin/sh', ['-c', 'command -v qemu-aarch64-static'], { encoding: 'utf8' }).stdout.trim();
const INSTALL =
  'dpkg --add-architecture arm64; apt-get update; apt-get install qemu-user-static libc6:arm64 libstdc++6:arm64 libatomic1:arm64';
const skipped =
  PLATFORM !== 'linux-x64'
    ? `runs the arm64 executable through qemu on linux-x64 (this is ${PLATFORM}; test/e2e/sea.test.ts runs this platform's)`
    : !QEMU
      ? `qemu-aarch64-static is not installed (${INSTALL})`
      : !existsSync('/lib/ld-linux-aarch64.so.1')
        ? `the arm64 C libraries are not installed (${INSTALL})`
        : undefined;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Emulated runs are slow, the more so on a loaded machine: the limit is for hangs. */
const SLOW = 180_000;

let executable: string;
let emptyPath: string;
let xdg: string;
let sandbox: Sandbox;

/** The executable under qemu, in a bare environment (as sea.test.ts runs the x64 one). */
function runArm64(args: string[], options: { env?: Record<string, string | undefined>; configDir?: string } = {}) {
  const home = tempDir('cip-arm64-home-');
  return execa(QEMU, [executable, ...args], {
    env: {
      HOME: home,
      CIP_CONFIG_DIR: options.configDir ?? tempDir(),
      CIP_CREDENTIAL_STORE: 'file',
      XDG_CACHE_HOME: xdg,
      TMPDIR: tempDir('cip-arm64-tmp-'),
      ...options.env,
      PATH: emptyPath,
    },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    cwd: home,
    timeout: SLOW,
  });
}

const sandboxEnv = () => credentialsOf(sandbox);

if (skipped) it.skip(`the arm64 single executable (${skipped})`, () => undefined);

// One executable and one sandbox for the file, not the fixture's one a test: building the executable and starting
// it under qemu are slow, and its cases leave the sandbox as they found it.
describe.skipIf(skipped !== undefined)('the arm64 single executable, under qemu', () => {
  beforeAll(async () => {
    const out = tempDir('cip-arm64-');
    emptyPath = join(out, 'bin');
    mkdirSync(emptyPath);
    xdg = tempDir('cip-arm64-cache-');
    const built = await execa(
      process.execPath,
      [join(ROOT, 'scripts', 'package.mjs'), '--out', out, '--dist', join(BUILD, 'dist'), '--target', 'linux-arm64', '--executable-only'],
      { cwd: ROOT, reject: false, all: true },
    );
    if (built.exitCode !== 0) throw new Error(`npm run package failed (exit ${built.exitCode}):\n${built.all}`);
    executable = join(out, 'cip-linux-arm64');
    sandbox = await startSandbox({ seed: 3 });
  }, 600_000);
  afterAll(() => sandbox?.close());

  it(
    'is an arm64 program that answers --version',
    async () => {
      expect(elfMachine(executable)).toBe('aarch64');
      expect(await runArm64(['--version'])).toMatchObject({ exitCode: 0, stdout: VERSION, stderr: '' });
    },
    SLOW,
  );

  it(
    'lists, creates and deletes against the sandbox',
    async () => {
      const env = sandboxEnv();
      const id = await listAndCreate(runArm64, sandbox, 'from-arm64');

      const removed = await runArm64(['env', 'delete', 'from-arm64', '--yes'], { env });
      expect(removed.exitCode, removed.stderr).toBe(0);
      expect(JSON.parse(removed.stdout)).toEqual([{ given: 'from-arm64', id, name: 'from-arm64', result: 'deleted', error: null }]);
      expect(sandbox.environments.has(id)).toBe(false);
    },
    SLOW,
  );

  describeWithKeychain('with a real keychain (Secret Service on a private bus)', (keychain) => {
    // cip starts the helper as `<the executable> --cip-keychain-helper`, which only runs under qemu where the kernel
    // hands arm64 programs to it (binfmt_misc, a setting of the whole machine, not made here): so the helper is
    // started by hand, as cip would, with the request cip would send on stdin.
    it(
      'the keychain helper keeps a key in the keychain and reads it back, through the arm64 keyring addon it carries',
      async () => {
        const service = 'cip:https://arm64.example';
        const request = {
          ops: [
            { op: 'set', service, account: 'arm', secret: 'arm64-secret' },
            { op: 'get', service, account: 'arm' },
          ],
        };
        const helper = await execa(QEMU, [executable, '--cip-keychain-helper'], {
          env: { ...keychain().env, XDG_CACHE_HOME: xdg, PATH: emptyPath },
          extendEnv: false,
          reject: false,
          input: JSON.stringify(request),
          timeout: SLOW,
        });
        expect(helper.exitCode, helper.stderr).toBe(0);
        expect(JSON.parse(helper.stdout)).toEqual({ results: [{ ok: true }, { ok: true, value: 'arm64-secret' }] });
        expect(keychain().lookup(service, 'arm')).toBe('arm64-secret');
        const addons = readdirSync(join(xdg, 'cip')).filter((name) => /^keyring-[0-9a-f]{64}\.node$/.test(name));
        expect(addons.map((name) => elfMachine(join(xdg, 'cip', name)))).toEqual(['aarch64']);
      },
      SLOW,
    );
  });
});

/** The machine an ELF file is for, from its header (e_machine). */
function elfMachine(file: string): string {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1', 1, 4) !== 'ELF') return 'not ELF';
  const machine = header.readUInt16LE(18);
  return machine === 0xb7 ? 'aarch64' : machine === 0x3e ? 'x86-64' : `machine ${machine}`;
}
