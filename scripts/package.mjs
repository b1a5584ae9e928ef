// @ts-check
// `npm run package`: cip as one file that needs no Node, for Linux on x64 and on arm64, beside the npm tarball,
// into release/ (git-ignored):
//   release/cip-linux-x64, release/cip-linux-arm64   single executable applications, made by Node's own
//                           `node --build-sea` (Node 25.5 and later, no postject): the official Node binary of
//                           NODE_VERSION for each architecture, with cip's blob in it
//   release/cip-cli-<version>.tgz   the npm package (npm pack)
//   release/SHA256SUMS      all three, as sha256sum prints them (check with `sha256sum -c SHA256SUMS`)
// The executable runs dist/main.cjs as its main script; the rest of dist/ is in it as assets, under the same
// names, and src/sea.ts runs them from there: in an executable's main script, `require` loads only Node's
// built-in modules. @napi-rs/keyring's addon of the executable's platform is an asset too, written to a private
// file and loaded with process.dlopen the first time the keychain is used; the keychain helper is a mode of the
// executable (src/main.ts). Node's start-up snapshot is not used: tried with cli.cjs loaded into it (node
// --build-snapshot, Node 20.20, alternating runs), it saved about 3 ms of loading cli.cjs from its code cache but
// cost every run, --version included, about 9 ms more to deserialize its 5 MB (1.35x `node -e 0`, where the
// executable's --version is at 1.0x), Node warns that node:vm and node:child_process are not verified in a
// snapshot, and an executable takes either a snapshot or a code cache.
//
// Node comes from the npm registry (`npm pack node-linux-<arch>@NODE_VERSION`, scripts/sea-node.mjs: the official
// build, its binary bin/node in the package), and each platform's keyring addon likewise
// (`@napi-rs/keyring-linux-<arch>-gnu` at the version package-lock.json names), each checked against the
// integrity scripts/sea-node.mjs or the lock file holds before anything is taken out of it, and kept in
// node_modules/.cache/cip/package/ for the next build. The host's Node builds both. Neither holds V8's code cache
// of its main script (useCodeCache): it saved about 0.5 ms of `--version` (x64, alternating runs), can only be
// made for the host's platform, and made two builds of the same sources differ; without it they are the same
// bytes. Each executable answers --version before it is kept: the arm64 one through qemu-aarch64-static where
// that is installed (README, "One file").
//
// Options: --out <dir> (default release/), --dist <dir> (the built dist/ to pack, default dist/: `npm run package`
// builds it first), --target linux-x64|linux-arm64 (one executable; default both), --executable-only (no tarball
// and no SHA256SUMS: what the tests build).
//
// macOS and Windows are not built (README, "One file", says how one would be and what is untested).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NODE_INTEGRITY, NODE_VERSION } from './sea-node.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Each target: its Node's package's integrity, its keyring addon's package, and what runs it elsewhere. */
const TARGETS = {
  'linux-x64': {
    node: NODE_INTEGRITY['linux-x64'],
    keyring: '@napi-rs/keyring-linux-x64-gnu',
    /** What runs it on a machine of another architecture, to check it: none is looked for. */
    emulator: undefined,
  },
  'linux-arm64': {
    node: NODE_INTEGRITY['linux-arm64'],
    keyring: '@napi-rs/keyring-linux-arm64-gnu',
    emulator: 'qemu-aarch64-static',
  },
};
/** @typedef {keyof typeof TARGETS} Target */

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'release') },
    dist: { type: 'string', default: join(ROOT, 'dist') },
    target: { type: 'string', multiple: true },
    'executable-only': { type: 'boolean', default: false },
  },
});
const out = resolve(/** @type {string} */ (values.out));
const dist = resolve(/** @type {string} */ (values.dist));

/** @param {string} message @returns {never} */
function fail(message) {
  process.stderr.write(`package: ${message}\n`);
  process.exit(1);
}

/** @param {string} name @returns {name is Target} */
const isTarget = (name) => Object.hasOwn(TARGETS, name);
const host = `${process.platform}-${process.arch}`;
if (!isTarget(host)) fail(`builds on Linux x64 or arm64 (with that platform's Node); this is ${host}: README, "One file"`);
/** @type {Target[]} */
const targets = (values.target ?? Object.keys(TARGETS)).map((name) =>
  isTarget(name) ? name : fail(`--target ${name}: one of ${Object.keys(TARGETS).join(', ')}`),
);
if (!existsSync(join(dist, 'main.cjs'))) fail(`${dist} is not built: run \`npm run build\` (npm run package does)`);

const CACHE = join(ROOT, 'node_modules', '.cache', 'cip', 'package');
// What a build that was killed left (a Node package and binary, some 200 MB); a build that runs beside this one
// (the tests run two) is minutes old at most.
for (const name of existsSync(CACHE) ? readdirSync(CACHE) : []) {
  const path = join(CACHE, name);
  if (/^\.(fetch|build)-/.test(name) && Date.now() - statSync(path).mtimeMs > 3600_000) rmSync(path, { recursive: true, force: true });
}

/**
 * A temporary folder in CACHE, removed when this script is done with it and, at the latest, when it exits (fail()
 * exits without leaving the blocks that would remove it).
 * @param {string} prefix
 */
function temporaryFolder(prefix) {
  mkdirSync(CACHE, { recursive: true });
  const dir = mkdtempSync(join(CACHE, prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A file of an npm package: fetched with `npm pack` (which keeps the tarball in npm's own cache), checked against
 * the integrity given before anything is taken out of it, and kept in CACHE under the package, its version and
 * its integrity, so that another build takes it from there.
 * @param {string} name @param {string} version @param {string} integrity @param {string} file path in the package
 */
function fromPackage(name, version, integrity, file) {
  const kept = join(CACHE, `${name.replace('/', '+')}-${version}-${createHash('sha256').update(integrity).digest('hex').slice(0, 16)}`);
  const path = join(kept, basename(file));
  if (existsSync(path)) return path;
  const work = temporaryFolder('.fetch-');
  try {
    process.stderr.write(`package: fetching ${name}@${version}\n`);
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--prefer-offline', '--pack-destination', work], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const tarball = join(work, packed.filename);
    const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== integrity) fail(`${name}@${version} from the registry is not the package expected: ${actual}, not ${integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work, `package/${file}`]);
    mkdirSync(kept, { recursive: true });
    // Into place by a rename: a build that runs beside this one sees the whole file or none.
    renameSync(join(work, 'package', file), path);
    return path;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The official Node binary of NODE_VERSION for a target. @param {Target} target */
const nodeFor = (target) => fromPackage(`node-${target}`, NODE_VERSION, TARGETS[target].node, 'bin/node');

/**
 * The keyring's addon for a target, from @napi-rs/keyring's package for that platform at the version and
 * integrity package-lock.json holds; undefined (and said) where the lock file has none.
 * @param {Target} target
 */
function keyringFor(target) {
  const name = TARGETS[target].keyring;
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry?.version || !entry.integrity) {
    process.stderr.write(`package: warning: package-lock.json has no ${name}: the ${target} executable will have no keychain\n`);
    return undefined;
  }
  return fromPackage(name, entry.version, entry.integrity, `keyring.${name.split('keyring-')[1]}.node`);
}

/** How this machine runs a target's executable: directly, through an emulator, or (undefined) not at all. @param {Target} target */
function runnerFor(target) {
  if (target === host) return [];
  const emulator = TARGETS[target].emulator;
  if (!emulator) return undefined;
  const found = spawnSync('/bin/sh', ['-c', `command -v ${emulator}`], { encoding: 'utf8' }).stdout.trim();
  return found ? [found] : undefined;
}

/** The assets every executable holds: each file of dist/ it runs, by its name there. */
const scripts = Object.fromEntries(
  ['cli.cjs', 'keychain-helper.cjs', 'jq-worker.cjs', ...readdirSync(join(dist, 'vendor')).map((name) => `vendor/${name}`)].map((name) => [
    name,
    join(dist, name),
  ]),
);

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const builder = nodeFor(/** @type {Target} */ (host));
const work = temporaryFolder('.build-');
try {
  mkdirSync(out, { recursive: true });
  /** @type {string[]} */
  const built = [];
  for (const target of targets) {
    const keyring = keyringFor(target);
    /** @type {Record<string, string>} */
    const assets = { ...scripts, ...(keyring ? { 'keyring.node': keyring } : {}) };
    // The main script: dist/main.cjs, and the call bin/cip.cjs makes, with what names this build: a hash of the
    // assets, each name and its bytes (src/sea.ts keeps its code cache under it, so another build's is never
    // read, even one of the same version and size).
    const build = createHash('sha256');
    for (const [name, file] of Object.entries(assets).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const bytes = readFileSync(file);
      build.update(`${name}\0${bytes.length}\0`).update(bytes);
    }
    // Named relative to the folder --build-sea runs in, so that the executable holds no path of the machine that
    // built it (the blob keeps the main script's name).
    const main = `cip-${target}.cjs`;
    writeFileSync(
      join(work, main),
      `${readFileSync(join(dist, 'main.cjs'), 'utf8')}\nmodule.exports.main(${JSON.stringify(build.digest('hex').slice(0, 32))}).then((code) => { process.exitCode = code; });\n`,
    );
    const executable = join(out, `cip-${target}`);
    rmSync(executable, { force: true });
    const config = join(work, `sea-${target}.json`);
    const sea = {
      main,
      mainFormat: 'commonjs',
      executable: nodeFor(target),
      output: executable,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets,
    };
    writeFileSync(config, JSON.stringify(sea, null, 2));
    const made = spawnSync(builder, ['--build-sea', config], { cwd: work, encoding: 'utf8' });
    if (made.status !== 0)
      fail(`node --build-sea failed for ${target} (exit ${made.status ?? made.signal}):\n${made.stdout}${made.stderr}`);

    // The executable must run by itself: asked its version with no Node on PATH, it answers.
    const runner = runnerFor(target);
    if (runner) {
      const [file, ...args] = [...runner, executable, '--version'];
      const version = spawnSync(/** @type {string} */ (file), args, { env: { PATH: '/nonexistent' }, encoding: 'utf8' });
      if (version.stdout !== `${pkg.version}\n`) {
        fail(
          `${basename(executable)} does not run${runner.length ? ` under ${basename(runner[0] ?? '')}` : ''}: ${version.stderr || version.stdout || version.status || version.error}` +
            (runner.length ? ' (it needs the arm64 C libraries: libc6:arm64 libstdc++6:arm64 libatomic1:arm64)' : ''),
        );
      }
    } else {
      process.stderr.write(
        `package: warning: ${basename(executable)} was not run (no ${TARGETS[target].emulator ?? 'way to run it'} here)\n`,
      );
    }
    process.stderr.write(`package: ${executable}\n`);
    built.push(executable);
  }

  if (!values['executable-only']) {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8' }),
    );
    const tarball = join(out, packed[0].filename);
    const sums = [...built, tarball].map((file) => `${createHash('sha256').update(readFileSync(file)).digest('hex')}  ${basename(file)}\n`);
    writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
    process.stderr.write(`package: ${tarball}\npackage: ${join(out, 'SHA256SUMS')}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
