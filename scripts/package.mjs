// @ts-check
// `npm run package`: cip as one file that needs no Node, beside the npm tarball, into release/ (git-ignored):
//   release/cip-linux-x64   a single executable application (Node's own: --experimental-sea-config, the blob
//                           injected into a copy of the node binary running this script with postject)
//   release/cip-cli-<version>.tgz   the npm package (npm pack)
//   release/SHA256SUMS      both, as sha256sum prints them (check with `sha256sum -c SHA256SUMS`)
// The executable runs dist/main.cjs as its main script (with Node's code cache of it); the rest of dist/ is in it
// as assets, under the same names, and src/load-cli.ts runs them from there: in an executable's main script,
// `require` loads only Node's built-in modules. @napi-rs/keyring's addon is an asset too, written to a private
// file and loaded with process.dlopen the first time the keychain is used; the keychain helper is a mode of the
// executable (src/main.ts). Node's start-up snapshot is not used: tried with cli.cjs loaded into it (node
// --build-snapshot, Node 20.20, alternating runs), it saved about 3 ms of loading cli.cjs from its code cache but
// cost every run, --version included, about 9 ms more to deserialize its 5 MB (1.35x `node -e 0`, where the
// executable's --version is at 1.0x), Node warns that node:vm and node:child_process are not verified in a
// snapshot, and an executable takes either a snapshot or a code cache.
//
// Options: --out <dir> (default release/), --dist <dir> (the built dist/ to pack, default dist/: `npm run package`
// builds it first), --executable-only (no tarball and no SHA256SUMS: what the tests build).
//
// It builds for the machine it runs on, linux-x64 only (README, "One file"): macOS needs the blob injected into
// its own segment and the binary signed again (codesign), Windows a .exe and signtool; neither is tested here.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The sentinel Node looks for to know it carries a blob (Node's documentation of single executables). */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const TARGET = 'linux-x64';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'release') },
    dist: { type: 'string', default: join(ROOT, 'dist') },
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

if (`${process.platform}-${process.arch}` !== TARGET) {
  fail(`builds the ${TARGET} executable only, on ${TARGET} (this is ${process.platform}-${process.arch}): README, "One file"`);
}
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 12)) fail(`needs Node 20.12 or later (single-executable assets); this is ${process.version}`);
if (!existsSync(join(dist, 'main.cjs'))) fail(`${dist} is not built: run \`npm run build\` (npm run package does)`);

const require = createRequire(import.meta.url);
/** postject: the tool Node's documentation names for putting the blob into the binary (a devDependency). */
const postject = (() => {
  try {
    return require.resolve('postject');
  } catch {
    return fail('postject is not installed: run `npm install` (it is a devDependency)');
  }
})();

/** The assets: every file of dist/ the executable runs, by its name there. */
const assets = Object.fromEntries(
  ['cli.cjs', 'keychain-helper.cjs', 'jq-worker.cjs', ...readdirSync(join(dist, 'vendor')).map((name) => `vendor/${name}`)].map((name) => [
    name,
    join(dist, name),
  ]),
);
// The keyring's addon for this platform, from the optional dependency; without it the executable has no keychain
// (and says so, as cip does on a machine without one).
try {
  const keyring = createRequire(require.resolve('@napi-rs/keyring'));
  const addon = join(dirname(keyring.resolve('@napi-rs/keyring-linux-x64-gnu/package.json')), 'keyring.linux-x64-gnu.node');
  if (existsSync(addon)) assets['keyring.node'] = addon;
} catch {
  // Said below.
}
if (!assets['keyring.node'])
  process.stderr.write('package: warning: @napi-rs/keyring is not installed: the executable will have no keychain\n');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'cip-package-'));
try {
  mkdirSync(out, { recursive: true });
  // The main script: dist/main.cjs, and the call bin/cip.cjs makes, with what names this build: a hash of the
  // assets, each name and its bytes (src/load-cli.ts keeps its code cache under it, so another build's is never
  // read, even one of the same version and size).
  const build = createHash('sha256');
  for (const [name, file] of Object.entries(assets).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const bytes = readFileSync(file);
    build.update(`${name}\0${bytes.length}\0`).update(bytes);
  }
  const main = join(work, 'main.cjs');
  writeFileSync(
    main,
    `${readFileSync(join(dist, 'main.cjs'), 'utf8')}\nmodule.exports.main(${JSON.stringify(build.digest('hex').slice(0, 32))}).then((code) => { process.exitCode = code; });\n`,
  );
  const blob = join(work, 'sea.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, useSnapshot: false, assets }, null, 2),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

  const executable = join(out, `cip-${TARGET}`);
  rmSync(executable, { force: true });
  copyFileSync(process.execPath, executable);
  chmodSync(executable, 0o755);
  // In a process of its own: postject's WebAssembly prints a warning for each ELF note it cannot name, which
  // says nothing about the result; anything else it says is passed on.
  const inject = spawnSync(
    process.execPath,
    [
      '-e',
      'require(process.argv[1]).inject(process.argv[2], "NODE_SEA_BLOB", require("node:fs").readFileSync(process.argv[3]), { sentinelFuse: process.argv[4] })',
      postject,
      executable,
      blob,
      FUSE,
    ],
    { encoding: 'utf8' },
  );
  const said = `${inject.stdout}${inject.stderr}`
    .split('\n')
    .filter((line) => line && !/^warning: Can't find string offset for section name/.test(line));
  if (said.length) process.stderr.write(`${said.join('\n')}\n`);
  if (inject.status !== 0) fail(`postject failed (exit ${inject.status ?? inject.signal})`);

  // The executable must run by itself: asked its version with no Node on PATH, it answers.
  const version = spawnSync(executable, ['--version'], { env: { PATH: '/nonexistent' }, encoding: 'utf8' });
  if (version.stdout !== `${pkg.version}\n`) fail(`the executable does not run: ${version.stderr || version.stdout || version.status}`);
  process.stderr.write(`package: ${executable}\n`);

  if (!values['executable-only']) {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8' }),
    );
    const tarball = join(out, packed[0].filename);
    const sums = [executable, tarball].map(
      (file) => `${createHash('sha256').update(readFileSync(file)).digest('hex')}  ${basename(file)}\n`,
    );
    writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
    process.stderr.write(`package: ${tarball}\npackage: ${join(out, 'SHA256SUMS')}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
