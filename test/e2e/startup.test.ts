// Structural facts behind start-up speed (timings live in `npm run bench`, not here): the bundle exists, and
// each command loads only the code it needs. A loader hook records every module a real run loads.
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect } from 'vitest';
import { BUILD, CIP, ROOT, loginArgs, sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 2 } });

const DIST = join(BUILD, 'dist');
const TRACE = join(ROOT, 'test', 'helpers', 'trace-imports.mjs');
// Strings that occur only in one package's code, to tell which chunk holds it.
const MARKERS = {
  conf: 'Config schema violation',
  ora: 'isSpinning',
  ky: 'option cannot be greater than',
  commander: 'commander.unknownOption',
  cliTable3: 'truncateWidth',
  properLockfile: 'Lock file is already being held',
  gracefulFs: 'graceful-fs.queue',
};
type Package = keyof typeof MARKERS;
// Node's own modules are not files: process.moduleLoadList names each one the process loaded. This preload
// writes that list when the process exits.
const MODULE_LIST_PRELOAD =
  "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULE_LIST_FILE, process.moduleLoadList.join('\\n')));\n";
/** Node's internal copy of undici (fetch, Request, Response, Headers), as process.moduleLoadList names it. */
const UNDICI = 'NativeModule internal/deps/undici/undici';

/** The entries of process.moduleLoadList of `node ...args` when it exited. */
async function moduleLoadList(args: string[], env: Record<string, string | undefined> = {}) {
  const dir = tempDir();
  const file = join(dir, 'modules');
  writeFileSync(join(dir, 'preload.cjs'), MODULE_LIST_PRELOAD);
  const result = await execa('node', ['--require', join(dir, 'preload.cjs'), ...args], {
    env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), MODULE_LIST_FILE: file, ...env },
    extendEnv: false,
    reject: false,
  });
  return { exitCode: result.exitCode, stderr: result.stderr, modules: existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [] };
}

/** The packages whose code a run of cip loaded, and how many of cip's files it read. */
async function loads(args: string[], env: Record<string, string | undefined> = {}, input?: string, stdoutFile?: string) {
  const file = join(tempDir(), 'trace');
  // Into a file, by a shell's `> file` (execa's { file } would pipe the output through itself).
  const [command, ...argv] = [
    ...(stdoutFile === undefined ? [] : ['sh', '-c', 'exec "$@" > "$OUT_FILE"', 'sh']),
    'node',
    '--import',
    TRACE,
    CIP,
    ...args,
  ];
  const result = await execa(command!, argv, {
    env: {
      PATH: process.env.PATH,
      HOME: tempDir(),
      CIP_CONFIG_DIR: tempDir(),
      TRACE_IMPORTS_FILE: file,
      NODE_DISABLE_COMPILE_CACHE: '1',
      OUT_FILE: stdoutFile,
      ...env,
    },
    extendEnv: false,
    reject: false,
    ...(input === undefined ? {} : { input }),
  });
  const urls = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
  const ours = urls.filter((url) => url.includes('/dist/')).map((url) => new URL(url).pathname);
  const packages = new Set<Package>();
  for (const path of ours) {
    const code = readFileSync(path, 'utf8');
    for (const [name, marker] of Object.entries(MARKERS)) if (code.includes(marker)) packages.add(name as Package);
  }
  return {
    exitCode: result.exitCode,
    files: ours.length,
    packages,
    nodeModules: urls.filter((url) => url.includes('/node_modules/')),
    keychain: urls.filter((url) => url.includes('keychain-helper') || url.includes('@napi-rs/keyring')),
    jq: ours.filter((path) => path.includes('jq-wasm')),
    builtins: new Set(urls.filter((url) => url.startsWith('node:'))),
    stdin: urls.includes('process.stdin'),
    stdout: urls.includes('process.stdout'),
  };
}

describe('the bundle', () => {
  it('is built: bin/cip.js loads dist/main.js, and each package lives in the bundle, not node_modules', async () => {
    expect(existsSync(join(DIST, 'main.cjs'))).toBe(true);
    const all = ['cli.cjs', ...readdirSync(join(DIST, 'vendor')).map((name) => join('vendor', name))]
      .map((name) => readFileSync(join(DIST, name), 'utf8'))
      .join('\n');
    for (const [name, marker] of Object.entries(MARKERS)) if (name !== 'gracefulFs') expect(all).toContain(marker);
    // proper-lockfile is built with Node's fs (scripts/build.mjs).
    expect(all).not.toContain(MARKERS.gracefulFs);
    const run = await loads(['--help']);
    expect(run.exitCode).toBe(0);
    expect(run.nodeModules).toEqual([]);
  });
});

describe('what each command loads', () => {
  it('--version is answered by bin/cip.cjs: it reads no file of dist/ and no package at all', async () => {
    const run = await loads(['--version']);
    expect(run.exitCode).toBe(0);
    expect(run.packages).toEqual(new Set());
    expect(run.files).toBe(0);
    // So that the check can fail: -V with another argument goes through dist/main.cjs.
    expect((await loads(['-V', '--help'])).files).toBeGreaterThan(0);
  });

  it('--version without a package.json beside bin/ (a copy of the files) is answered by dist/main.cjs, the same', async () => {
    const copy = tempDir();
    cpSync(join(BUILD, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(BUILD, 'bin'), join(copy, 'bin'), { recursive: true });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await execa('node', [join(copy, 'bin', 'cip.cjs'), '--version'], { reject: false });
    expect(result).toMatchObject({ exitCode: 0, stdout: version, stderr: '' });
  });

  it('--version writes its line without making the process.stdout stream (and loading its modules); env --help makes it', async () => {
    const run = await loads(['--version']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(false);
    expect((await loads(['env', '--help'])).stdout).toBe(true);
  });

  it('--help, -h and help into a pipe or a file are written from dist/help.txt by dist/main.cjs, without cli.cjs, and are what cli.cjs writes', async () => {
    // cli.cjs's own: a copy of dist/ without help.txt.
    const copy = tempDir();
    cpSync(join(BUILD, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(BUILD, 'bin'), join(copy, 'bin'), { recursive: true });
    rmSync(join(copy, 'dist', 'help.txt'));
    // In an environment unlike the build's (which had only PATH): help that came to depend on any of this (or on
    // the folder it runs in) could not be written from a copy made once, and this fails.
    const cwd = tempDir();
    writeFileSync(join(cwd, '.cip.json'), '{"profile": "prod"}');
    const env = {
      PATH: process.env.PATH,
      HOME: tempDir(),
      NODE_DISABLE_COMPILE_CACHE: '1',
      CIP_PROFILE: 'other',
      CIP_OUTPUT: 'yaml',
      CIP_BASE_URL: 'https://example.test/ms',
      CIP_TIMEOUT: '5',
      COLUMNS: '50',
      NO_COLOR: '1',
      LANG: 'de_DE.UTF-8',
    };
    const made = await execa('node', [join(copy, 'bin', 'cip.cjs'), '--help'], { cwd, env, extendEnv: false, stripFinalNewline: false });
    expect(made).toMatchObject({ exitCode: 0, stderr: '' });
    expect(readFileSync(join(DIST, 'help.txt'), 'utf8')).toBe(made.stdout);
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await loads(args);
      expect(run).toMatchObject({ exitCode: 0, files: 1, packages: new Set(), stdout: false });
      const file = join(tempDir(), 'help.txt');
      expect(await loads(args, {}, undefined, file)).toMatchObject({ exitCode: 0, files: 1 });
      expect(readFileSync(file, 'utf8')).toBe(made.stdout);
    }
    // So that the check can fail: help for a command goes through cli.cjs.
    expect((await loads(['help', 'env'])).files).toBeGreaterThan(1);
  });

  it('--help into a file past a file-size limit fails as any output does: the part that fits, one error line, exit 11', async () => {
    const file = join(tempDir(), 'help.txt');
    const result = await execa('bash', ['-c', 'ulimit -f 2 && exec node "$CIP" --help > "$OUT_FILE"'], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP, OUT_FILE: file },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toBe('error: cannot write the output to stdout: EFBIG (file too large)');
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(DIST, 'help.txt'), 'utf8').slice(0, 2048));
  });

  it('--help into a file writes the same help without making process.stdout (and loading its modules)', async () => {
    const file = join(tempDir(), 'help.txt');
    const run = await loads(['--help'], {}, undefined, file);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(false);
    expect(run.builtins.has('node:stream')).toBe(false);
    const piped = await execa('node', [CIP, '--help'], { env: { PATH: process.env.PATH, HOME: tempDir() }, extendEnv: false });
    expect(readFileSync(file, 'utf8')).toBe(`${piped.stdout}\n`);
  });

  it('help made by cli.cjs (env --help) loads commander and nothing heavier', async () => {
    const run = await loads(['env', '--help']);
    expect(run.packages).toEqual(new Set(['commander']));
  });

  it("help made by cli.cjs (env --help) loads none of Node's modules that only some commands use, and never makes process.stdin", async () => {
    const run = await loads(['env', '--help']);
    expect(run.exitCode).toBe(0);
    const some = ['child_process', 'crypto', 'http', 'https', 'net', 'readline', 'stream', 'tls', 'worker_threads', 'zlib'];
    expect(some.filter((name) => run.builtins.has(`node:${name}`))).toEqual([]);
    expect(run.stdin).toBe(false);
  });

  it('a command that reads nothing from stdin never makes process.stdin; one that reads it does (so the check can fail)', async ({
    sandbox,
  }) => {
    const list = await loads(['env', 'list', '--json'], sandboxEnv(sandbox));
    expect(list.exitCode).toBe(0);
    expect(list.stdin).toBe(false);
    expect(list.builtins.has('node:http')).toBe(true);
    const create = await loads(['env', 'create', '--file', '-'], sandboxEnv(sandbox), '{"name":"from-stdin"}');
    expect(create.exitCode).toBe(0);
    expect(create.stdin).toBe(true);
  });

  it('the CI path (all credentials in the environment) never loads the profile store or spinner code', async ({ sandbox }) => {
    const run = await loads(['env', 'list'], sandboxEnv(sandbox, { CI: 'true' }));
    expect(run.exitCode).toBe(0);
    expect(run.packages).toEqual(new Set(['commander', 'ky']));
    const table = await loads(['env', 'list', '-o', 'table'], sandboxEnv(sandbox, { CI: 'true' }));
    expect(table.packages.has('conf')).toBe(false);
    expect(table.packages.has('ora')).toBe(false);
  });

  // NODE_OPTIONS carries the trace hook into every process cip starts, so the keychain helper's loads show too.
  const traceChildren = { NODE_OPTIONS: `--import=${TRACE}` };

  it('environment-variable credentials never start the keychain helper or load @napi-rs/keyring', async ({ sandbox }) => {
    const run = await loads(['env', 'list'], sandboxEnv(sandbox, { CI: 'true', ...traceChildren }));
    expect(run.exitCode).toBe(0);
    expect(run.keychain).toEqual([]);
    // Nor does a profile that keeps its keys in the file.
    const configDir = tempDir();
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: sandbox.url, ...sandbox.keys } } }), {
      mode: 0o600,
    });
    const file = await loads(['env', 'list'], { CIP_CONFIG_DIR: configDir, ...traceChildren });
    expect(file.exitCode).toBe(0);
    expect(file.keychain).toEqual([]);
  });

  it('a profile whose keys are in the keychain starts the helper, which loads @napi-rs/keyring (so the check above can fail)', async ({
    sandbox,
  }) => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ profiles: { default: { baseUrl: sandbox.url, enterpriseId: sandbox.keys.enterpriseId, keys: 'keychain' } } }),
      { mode: 0o600 },
    );
    // No session bus here, so the keychain cannot be reached: exit 3, but only after the helper tried.
    const run = await loads(['env', 'list'], { CIP_CONFIG_DIR: configDir, ...traceChildren });
    expect(run.exitCode).toBe(3);
    expect(run.keychain.some((url) => url.endsWith('/dist/keychain-helper.cjs'))).toBe(true);
    if (existsSync(join(ROOT, 'node_modules', '@napi-rs', 'keyring'))) {
      expect(run.keychain.some((url) => url.includes('/node_modules/@napi-rs/keyring'))).toBe(true);
    }
  });

  it('commands without --jq load no jq, and commands other than doctor none of its network probes', async ({ sandbox }) => {
    const run = await loads(['env', 'list', '--json'], sandboxEnv(sandbox));
    expect(run.exitCode).toBe(0);
    expect(run.jq).toEqual([]);
    for (const probe of ['node:net', 'node:tls', 'node:dns/promises']) expect(run.builtins.has(probe), probe).toBe(false);
    // So that the checks above can fail: --jq loads jq, doctor opens a TCP connection itself.
    const filtered = await loads(['env', 'list', '--jq', '.[].id'], sandboxEnv(sandbox));
    expect(filtered.exitCode).toBe(0);
    expect(filtered.jq.length).toBeGreaterThan(0);
    const doctor = await loads(['doctor', '--json'], sandboxEnv(sandbox));
    expect(doctor.exitCode).toBe(0);
    expect(doctor.builtins.has('node:net')).toBe(true);
  });

  it('reading a profile loads no package; storing one loads conf (so the checks above can fail)', async ({ sandbox }) => {
    const configDir = tempDir();
    // Keys in the file: this test is about conf, not the keychain.
    const login = await loads(loginArgs(sandbox, ['--no-verify']), { CIP_CONFIG_DIR: configDir, CIP_CREDENTIAL_STORE: 'file' });
    expect(login.exitCode).toBe(0);
    expect(login.packages.has('conf')).toBe(true);
    expect(login.packages.has('ky')).toBe(false);
    const status = await loads(['auth', 'status'], { CIP_CONFIG_DIR: configDir });
    expect(status.exitCode).toBe(0);
    expect(status.packages).toEqual(new Set(['commander']));
    const list = await loads(['env', 'list'], { CIP_CONFIG_DIR: configDir });
    expect(list.exitCode).toBe(0);
    expect(list.packages).toEqual(new Set(['commander', 'ky']));
  });

  it("a write's journal takes its free lock at once, without proper-lockfile; a profile's write loads it, without graceful-fs", async ({
    sandbox,
  }) => {
    const run = await loads(['env', 'create', '-f', 'name=locked'], sandboxEnv(sandbox));
    expect(run.exitCode).toBe(0);
    expect(run.packages.has('properLockfile')).toBe(false);
    // graceful-fs's load cost every write ~7 ms of CPU.
    const login = await loads(loginArgs(sandbox, ['--no-verify']), { CIP_CONFIG_DIR: tempDir(), CIP_CREDENTIAL_STORE: 'file' });
    expect(login.exitCode).toBe(0);
    expect(login.packages.has('properLockfile')).toBe(true);
    expect(login.packages.has('gracefulFs')).toBe(false);
  });

  it("an API command over node:http never loads Node's internal undici: ky and the request path use cip's own web classes", async ({
    sandbox,
  }) => {
    // So that the check can fail: naming the real Request loads undici.
    expect((await moduleLoadList(['-e', 'globalThis.Request'])).modules).toContain(UNDICI);
    for (const args of [
      ['env', 'list', '-o', 'json'],
      ['env', 'create', '-f', 'name=web', '-o', 'json'],
      ['env', 'delete', 'web', '--yes'],
      ['api', '-i', '/environments'],
    ]) {
      const run = await moduleLoadList([CIP, ...args], sandboxEnv(sandbox));
      expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.modules.length, args.join(' ')).toBeGreaterThan(0);
      expect(run.modules, args.join(' ')).not.toContain(UNDICI);
    }
  });

  it('the record view after create loads cli-table3; JSON output does not', async ({ sandbox }) => {
    const table = await loads(['env', 'create', '-f', 'name=t', '-o', 'table'], sandboxEnv(sandbox));
    expect(table.packages.has('cliTable3')).toBe(true);
    const json = await loads(['env', 'create', '-f', 'name=j'], sandboxEnv(sandbox));
    expect(json.packages.has('cliTable3')).toBe(false);
  });
});
