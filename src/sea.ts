// The single executable (scripts/package.mjs builds it; README, "One file"). Node runs dist/main.cjs as the
// executable's injected main script, whose `require` loads only Node's built-in modules. The rest of dist/ is
// in the executable as assets (node:sea's getAsset), under their names in dist/: cli.cjs and each vendor file run
// here from their text, with a require that serves `./vendor/...` from the assets and nothing from the disk, and
// the same code cache as load-cli.ts. The --jq thread runs its script and the jq module from the assets the same
// way, so nothing of it is written out. Only @napi-rs/keyring's addon must be a file (process.dlopen): it is
// written to the private cache folder, named by its content's hash. Part of the entry: main.ts loads this module
// only in the executable.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { CodeCache, STALE_MS, cacheNote, commandOf, errorCode, note, runModule, writeFileAtomic } from './code-cache.js';
import { nodeRequire, privateFolder, tempFolder, type Cli, type LoadedCli } from './load-cli.js';

/** The executable's assets, as scripts/package.mjs names them. */
const SEA_ASSETS = {
  cli: 'cli.cjs',
  helper: 'keychain-helper.cjs',
  jqWorker: 'jq-worker.cjs',
  keyring: 'keyring.node',
};

type SeaModule = typeof import('node:sea');

/** node:module, loaded only where it is needed: here. */
const nodeModule = () => nodeRequire('node:module') as typeof import('node:module');

/**
 * The modules of the executable: each asset run once, on the first require, compiled from the cache when one is
 * given. An asset's require loads Node's built-in modules and the assets beside it; `@napi-rs/keyring` is its
 * addon, from the assets.
 */
function seaModules(sea: SeaModule, cache?: CodeCache) {
  const module = nodeModule();
  const builtin = module.createRequire(process.execPath);
  const loaded = new Map<string, unknown>();
  const requireFrom =
    (asset: string) =>
    (id: string): unknown => {
      if (module.isBuiltin(id)) return builtin(id);
      if (id === '@napi-rs/keyring') return loadAddon(sea);
      const name = id.startsWith('./') ? join(dirname(asset), id).replace(/\\/g, '/') : id;
      if (!loaded.has(name)) {
        const source = seaAsset(sea, name, `cannot find module '${id}'`);
        loaded.set(name, runModule(source, seaFilename(name), requireFrom(name), cache, name));
      }
      return loaded.get(name);
    };
  return requireFrom;
}

/**
 * The --jq thread's code (for `new Worker(code, { eval: true })`): jq-worker.cjs and the jq module it requires,
 * run from the executable's assets as seaModules runs them, a thread's require serving only Node's modules. A
 * file written out could be removed (a temp cleaner), or be another build's.
 */
const SEA_JQ_THREAD = `"use strict";
const { isBuiltin } = require("node:module");
const { getAsset } = require("node:sea");
const { Script } = require("node:vm");
const { dirname, join, posix } = require("node:path");
const loaded = new Map();
const load = (name) => {
  if (!loaded.has(name)) {
    const module = { exports: {} };
    loaded.set(name, module);
    const filename = join(dirname(process.execPath), name);
    const source = getAsset(name, "utf8");
    new Script("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", { filename })
      .runInThisContext()(module.exports, (id) => (isBuiltin(id) ? require(id) : load(posix.join(posix.dirname(name), id)).exports), module, filename, dirname(filename));
  }
  return loaded.get(name);
};
load(${JSON.stringify(SEA_ASSETS.jqWorker)});
`;

/** Where an asset says it is in stack traces: beside the executable, under its name in dist/. */
function seaFilename(asset: string): string {
  return join(dirname(process.execPath), asset);
}

function seaAsset(sea: SeaModule, name: string, missing: string): string {
  try {
    return sea.getAsset(name, 'utf8');
  } catch {
    throw new Error(missing);
  }
}

/** @napi-rs/keyring, which is its native addon: loaded from a file of it (extracted()). */
function loadAddon(sea: SeaModule): unknown {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(sea.getAsset(SEA_ASSETS.keyring));
  } catch {
    throw new Error('this executable was built without it');
  }
  const addon = { exports: {} };
  process.dlopen(addon, extracted(bytes, 'keyring', '.node'));
  return addon.exports;
}

/**
 * A file holding these bytes, for what must be loaded from a file: in the private cache folder, named by their
 * SHA-256, so that two executables share a file only when theirs are the same byte for byte. One that is there
 * is used when it holds exactly these bytes; one that is missing, cut short or changed is written again (to a
 * temporary name, flushed, renamed into place). Without a private cache folder, or where it cannot be written
 * (full, read-only), a private temporary folder of this process's own; with neither, an error.
 */
function extracted(bytes: Uint8Array, stem: string, extension: string): string {
  const { createHash } = nodeRequire('node:crypto') as typeof import('node:crypto');
  const name = `${stem}-${createHash('sha256').update(bytes).digest('hex')}${extension}`;
  const { dir } = privateFolder();
  if (dir) {
    const path = join(dir, name);
    if (holds(path, bytes)) return path;
    const failure = writeFileAtomic(path, bytes, true);
    if (!failure) {
      removeOtherBuilds(dir, new RegExp(`^${stem}-[0-9a-f]{64}\\${extension}(?:\\.\\d+\\.tmp)?$`), name);
      return path;
    }
    note(`${name} cannot be written in ${dir} (${failure}): it is written to a temporary folder each time`);
  }
  let temp: string;
  try {
    temp = privateTempFolder();
  } catch (error) {
    throw new Error(`there is no folder to write it to (${errorCode(error)} in the temp folder ${tempFolder()})`);
  }
  const path = join(temp, name);
  const failure = writeFileAtomic(path, bytes, true);
  if (failure) throw new Error(`it cannot be written to the temp folder ${tempFolder()} (${failure})`);
  return path;
}

/**
 * Whether the file holds exactly these bytes (a regular file, not a link). One in use is touched once a day, so
 * that another build's clean-up never takes it for left behind.
 */
function holds(path: string, bytes: Uint8Array): boolean {
  let stats: Stats;
  try {
    stats = lstatSync(path);
    if (!stats.isFile() || stats.size !== bytes.byteLength) return false;
    if (!readFileSync(path).equals(bytes)) return false;
  } catch {
    return false;
  }
  const now = Date.now();
  if (now - stats.mtimeMs > 24 * 3600 * 1000) {
    try {
      utimesSync(path, now / 1000, now / 1000);
    } catch {
      // A read-only folder: the file is good all the same.
    }
  }
  return true;
}

/** Removes other builds' extracted files of this kind (and temporary files) that are a week old. */
function removeOtherBuilds(dir: string, pattern: RegExp, keep: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (name === keep || !pattern.test(name)) continue;
      try {
        const path = join(dir, name);
        if (now - lstatSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
      } catch {
        // Removed meanwhile by another run.
      }
    }
  } catch {
    // Nothing to clean where nothing can be read.
  }
}

let tempFiles: string | undefined;

/** A private temporary folder (mkdtemp makes it 0700, under a name nobody can guess), removed when the process exits. */
function privateTempFolder(): string {
  if (tempFiles) return tempFiles;
  const dir = mkdtempSync(join(tempFolder(), 'cip-sea-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  tempFiles = dir;
  return dir;
}

export interface LoadedSeaCli extends LoadedCli {
  /** The --jq thread, as code: it runs from the assets. */
  jqWorker: { code: string };
}

/** Node's node:sea (Node >= 20.12), loaded only in the executable. */
function seaModule(): SeaModule {
  return nodeModule().createRequire(process.execPath)('node:sea') as SeaModule;
}

/**
 * loadCli for the single executable: cli.cjs from the assets, with the same code cache. `build` names what the
 * executable holds (scripts/package.mjs: a hash of its assets), so that another build's cache is never read.
 */
export function loadSeaCli(argv: readonly string[], build: string): LoadedSeaCli {
  const sea = seaModule();
  const source = seaAsset(sea, SEA_ASSETS.cli, 'this executable has no cli.cjs');
  // The same switch as Node's own cache.
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : privateFolder().dir;
  const cache = dir ? new CodeCache(dir, `cli-sea-${build}-${process.version}-${process.arch}`, commandOf(argv)) : undefined;
  const requireFrom = seaModules(sea, cache);
  const cli = runModule(source, seaFilename(SEA_ASSETS.cli), requireFrom(SEA_ASSETS.cli), cache, SEA_ASSETS.cli) as Cli;
  return { cli, saveCache: () => cache?.save(), cacheNote, jqWorker: { code: SEA_JQ_THREAD } };
}

/**
 * The keychain helper, as a mode of the executable (config/store/keychain.ts starts it with main.ts's
 * SEA_KEYCHAIN_HELPER): keychain-helper.cjs from the assets, its addon written out on the first use.
 */
export function runSeaKeychainHelper(): void {
  const sea = seaModule();
  const requireFrom = seaModules(sea);
  const source = seaAsset(sea, SEA_ASSETS.helper, 'this executable has no keychain helper');
  runModule(source, seaFilename(SEA_ASSETS.helper), requireFrom(SEA_ASSETS.helper));
}
