// @ts-check
// Bundles src/ into dist/ with esbuild, shaped for start-up time (see docs/performance.md):
//   dist/main.cjs         the entry bin/cip.cjs loads: answers --version, then loads the CLI with V8's
//                         code cache (src/main.ts, src/load-cli.ts, src/code-cache.ts; src/sea.ts in the single
//                         executable); CommonJS, as everything it loads
//   dist/cli.cjs          all of cip's own code and commander, as one CommonJS file whose entry is
//                         src/run-process.ts: one file to read, and a classic script, which src/load-cli.ts
//                         compiles from V8's code cache
//   dist/vendor/*.cjs     each other package in its own file, required only by the code that uses it
//   dist/sandbox.js       the sandbox as an ES module, for `npm run demo`, the benchmark and tests
//   dist/keychain-helper.cjs  the process that makes keychain calls (src/config/store/keychain.ts says why a process);
//                         @napi-rs/keyring stays outside the bundle: a native module is loaded from node_modules
//   dist/help.txt         `cip --help` as written into a pipe, which dist/main.cjs writes without cli.cjs
//   dist/jq-worker.cjs    the thread --jq runs in (src/output/jq.ts says why a thread); it requires
//                         dist/vendor/jq-wasm-inline.cjs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SUPPORTED, lowest } from './engines.mjs';
import { PACKAGES } from './packages.mjs';
import { PATCHES, patched } from './patches.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** Each package shipped in a file of its own, as it is imported (scripts/packages.mjs names them). */
const VENDORS = Object.entries(PACKAGES).flatMap(([name, { ship, entry }]) => (ship === 'vendor' ? [entry ?? name] : []));
const NATIVE = Object.entries(PACKAGES).flatMap(([name, { ship }]) => (ship === 'native' ? [name] : []));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  // The oldest Node cip supports (package.json engines): syntax it runs is left as written.
  target: `node${lowest(SUPPORTED)}`,
  // Less to parse at start-up; identifiers are kept so CIP_DEBUG stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __CIP_VERSION__: JSON.stringify(pkg.version) },
};

// A module of Node's that plain `node` has not loaded by the time cip starts costs a few milliseconds to load
// (child_process brings net, dgram and streams; crypto its many parts), and cli.cjs names a dozen of them at
// its top, most used by one command or none (commander's child_process is for executable subcommands, which cip
// does not have). Each is given a stand-in with the same export names, whose getters require the real module
// the first time one is read: `cip --help` loads none of them, and a command loads those it uses.
const LAZY_BUILTINS = [
  'child_process',
  'crypto',
  'dns/promises',
  'http',
  'https',
  'net',
  'os',
  'readline',
  'stream',
  'tls',
  'tty',
  'worker_threads',
  'zlib',
];
/** @type {import('esbuild').Plugin} */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(builder) {
    const names = LAZY_BUILTINS.map((name) => name.replace('/', '\\/')).join('|');
    builder.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, ({ path, namespace }) =>
      // The stand-in's own require is of the real module.
      namespace === 'lazy-builtin' ? { path, external: true } : { path: path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async ({ path: name }) => {
      const keys = Object.keys(await import(`node:${name}`)).filter((key) => key !== 'default' && /^[A-Za-z_$][\w$]*$/.test(key));
      // The getters are on the stand-in's prototype, not on the stand-in: esbuild's import of a CommonJS module
      // (__toESM) copies each own property of it into a new object with the same prototype, which for a module
      // with a hundred names (crypto) cost every run a few tenths of a millisecond; it copies none now.
      return {
        contents: [
          `let real; const load = () => (real ??= require('node:${name}'));`,
          `module.exports = Object.create({`,
          ...keys.map((key) => `  get ${key}() { return load().${key}; },`),
          '});',
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

// node:process is the process object, but requiring it loads a module of Node's (commander does, at start).
/** @type {import('esbuild').Plugin} */
const processObject = {
  name: 'process-object',
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-object' }));
    builder.onLoad({ filter: /.*/, namespace: 'process-object' }, () => ({ contents: 'module.exports = process;', loader: 'js' }));
  },
};

// commander imports Node's fs, path, child_process and process by their default export (`import fs from
// 'node:fs'`), which esbuild turns into a copy of each module: a getter defined for each of its names (fs has a
// hundred, process eighty), 0.4 ms of every run. Each is given instead a module whose default export is the
// module itself (process: the process object; child_process: its lazy stand-in above).
const DEFAULT_IMPORTED = ['child_process', 'fs', 'path', 'process'];
/** @type {import('esbuild').Plugin} */
const defaultImports = {
  name: 'default-imports',
  setup(builder) {
    builder.onResolve({ filter: new RegExp(`^node:(${DEFAULT_IMPORTED.join('|')})$`) }, ({ path, importer }) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(importer) ? { path, namespace: 'default-import' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'default-import' }, ({ path }) => ({
      contents: path === 'node:process' ? 'export default process;' : `export default require('${path}');`,
      loader: 'js',
    }));
  },
};

// Third-party code changed as it is bundled, each change for a cost measured at every run (scripts/patches.mjs).
/** @type {import('esbuild').Plugin} */
const patches = {
  name: 'patches',
  setup(builder) {
    for (const { file } of PATCHES) {
      builder.onLoad({ filter: file }, async ({ path }) => ({ contents: patched(path, await readFile(path, 'utf8')), loader: 'js' }));
    }
  },
};

// proper-lockfile takes its fs from graceful-fs, whose load (it requires assert and the stream modules, and
// copies and wraps fs) cost every write command about 7 ms of CPU, more than the lock itself. What graceful-fs
// adds is a queue that retries opening files past the limit of open files (EMFILE); the lock opens none
// (mkdir, stat, utimes, rmdir), so the vendor file gets Node's fs.
/** @type {import('esbuild').Plugin} */
const plainFs = {
  name: 'plain-fs',
  setup(builder) {
    builder.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'node:fs', external: true }));
  },
};

// In cli.cjs, `await import('ky')` becomes a require of dist/vendor/ky.cjs at that moment, not at start-up.
// The stand-in module is ESM and re-exports each name, so the import sees the package's own default and
// named exports (an import of CommonJS from a "type": "module" package would wrap them once more).
/** @type {Record<string, string[]>} */
const exportNames = Object.fromEntries(
  await Promise.all(
    VENDORS.map(async (name) => [
      name,
      Object.keys(/** @type {object} */ (await import(name))).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key)),
    ]),
  ),
);
/** The vendor file of a package: `jq-wasm/inline` is `vendor/jq-wasm-inline.cjs`. @param {string} name */
const vendorFile = (name) => `vendor/${name.replace(/\//g, '-')}.cjs`;
/** @param {string} name */
const named = (name) => (exportNames[name] ?? []).filter((key) => key !== 'default');
/** @param {string} name */
const hasDefault = (name) => (exportNames[name] ?? []).includes('default');
/** @type {import('esbuild').Plugin} */
const vendorFiles = {
  name: 'vendor-files',
  setup(builder) {
    builder.onResolve({ filter: new RegExp(`^(${VENDORS.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'vendor' }));
    builder.onLoad({ filter: /.*/, namespace: 'vendor' }, ({ path: name }) => ({
      contents: [
        `const vendor = require('./${vendorFile(name)}');`,
        ...(hasDefault(name) ? ['export default vendor.default;'] : []),
        ...named(name).map((key) => `export const ${key} = vendor.${key};`),
      ].join('\n'),
      loader: 'js',
    }));
    builder.onResolve({ filter: /^\.\/vendor\// }, (args) => ({ path: args.path, external: true }));
  },
};

// ky names the web classes Request, Response and Headers (at load: it builds a Request to learn whether request
// streams work; and for every call), and FormData and ReadableStream at load. In Node each of the first four is
// Node's internal undici, whose load was about a third of every API command. ky.cjs gets cip's own small
// classes instead (src/api/web.ts, bundled into it), and no FormData or ReadableStream: ky then neither probes
// request streams nor offers its progress options, which cip does not use.
/** @type {Partial<import('esbuild').BuildOptions>} */
const kyWeb = {
  define: {
    ...common.define,
    ...Object.fromEntries(
      ['Request', 'Response', 'Headers'].flatMap((name) => [
        [name, `Web${name}`],
        [`globalThis.${name}`, `Web${name}`],
      ]),
    ),
    'globalThis.FormData': 'undefined',
    'globalThis.ReadableStream': 'undefined',
  },
  inject: ['src/api/web.ts'],
};

await Promise.all([
  build({
    ...common,
    entryPoints: { main: 'src/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // load-cli.ts finds cli.cjs beside itself through import.meta.url, which CommonJS spells differently.
    define: { ...common.define, 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  build({ ...common, entryPoints: { sandbox: 'src/sandbox/index.ts' }, outdir: 'dist', format: 'esm' }),
  build({
    ...common,
    entryPoints: { 'keychain-helper': 'src/keychain-helper.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // An optional dependency with a .node file per platform: required from node_modules at run time, if there.
    external: NATIVE,
    // import() becomes a require, which the single executable (src/sea.ts) serves from its assets.
    supported: { 'dynamic-import': false },
  }),
  build({
    ...common,
    entryPoints: { 'jq-worker': 'src/output/jq-worker.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    plugins: [vendorFiles],
  }),
  build({
    ...common,
    entryPoints: { cli: 'src/run-process.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // cli.cjs runs as a classic script (for the code cache), where import() is not available: make every
    // remaining import(), such as of node:readline, a require at the moment it runs.
    supported: { 'dynamic-import': false },
    plugins: [patches, defaultImports, lazyBuiltins, processObject, vendorFiles],
  }),
  ...VENDORS.map((name) =>
    build({
      ...common,
      ...(name === 'ky' ? kyWeb : {}),
      plugins: [plainFs],
      // An ES module package becomes CommonJS with its default and named exports; a CommonJS one stays as it is.
      stdin: {
        contents: `export * from '${name}';${hasDefault(name) ? ` export { default } from '${name}';` : ''}`,
        resolveDir: '.',
        loader: 'js',
      },
      outfile: `dist/${vendorFile(name)}`,
      format: 'cjs',
    }),
  ),
]);

// `cip --help` into a file or a pipe is written from dist/help.txt by dist/main.cjs, without loading cli.cjs
// (src/main.ts). It is made here by the same command into a pipe, before the file exists, so it is that run's
// output byte for byte (help into a pipe is laid out 80 columns wide and reads nothing from the environment).
writeFileSync(
  new URL('../dist/help.txt', import.meta.url),
  execFileSync(process.execPath, [fileURLToPath(new URL('../bin/cip.cjs', import.meta.url)), '--help'], {
    env: { PATH: process.env.PATH, NODE_DISABLE_COMPILE_CACHE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
