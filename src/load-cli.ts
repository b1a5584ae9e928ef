// Loads dist/cli.cjs (all of cip but the entry) with V8's code cache, so that a run does not compile again
// what the previous run compiled: on Node 20 this saves about a third of `cip --help`. Node >= 22.1 has its
// own cache (module.enableCompileCache); Node 20 gets one here, built on vm.Script's cachedData.
// Part of the process-facing entry, like main.ts.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { VERSION } from './version.js';

export type Cli = typeof import('./run.js');

export interface LoadedCli {
  cli: Cli;
  /** Writes the cache after a run, when there was none, V8 refused it, or it lacks this kind of command's code. */
  saveCache: () => void;
}

/**
 * A cache folder only this user can write: the cache holds compiled code that will be run, so one planted
 * by someone else must never be read. Undefined when no such folder can be had.
 */
function privateCacheDir(): string | undefined {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `cip-compile-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (process.platform !== 'win32' && (stat.mode & 0o077) !== 0)) {
      return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The words that name the command being run (`env list`, `auth login`): the first two that look like a
 * command's name. A value before them (`--profile prod env list`) may count as one; that only makes a few
 * more kinds of run.
 */
function commandOf(argv: readonly string[]): string {
  return argv
    .filter((word) => /^[a-z][a-z-]*$/.test(word))
    .slice(0, 2)
    .join(' ');
}

/** FNV-1a, 32 bits: the cache file names the commands it holds by this, not by the words. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return value;
}

/** Kinds of run a cache keeps track of; past them it is not written again. */
const MAX_COMMANDS = 64;

/**
 * A cache file: a 4-byte length, that many bytes of JSON (the hashes of the commands whose code it holds), then
 * V8's data. Undefined for anything else (a damaged file is then replaced).
 */
function readCache(file: string): { commands: number[]; data: Buffer } | undefined {
  try {
    const bytes = readFileSync(file);
    const length = bytes.readUInt32LE(0);
    const commands: unknown = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8'));
    if (!Array.isArray(commands) || !commands.every((item) => typeof item === 'number')) return undefined;
    return { commands, data: bytes.subarray(4 + length) };
  } catch {
    return undefined;
  }
}

/**
 * Loads the CLI. V8 compiles a function when it first runs, and a code cache holds what had been compiled when
 * it was made: the cache is written again after the first run of each kind of command (`argv` says which), so
 * that it holds the code of the commands this user runs, not only of the one that happened to run first.
 */
export function loadCli(argv: readonly string[] = []): LoadedCli {
  const path = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  const require = createRequire(path);
  const uncached = () => ({ cli: require(path) as Cli, saveCache: () => undefined });
  const { enableCompileCache } = module as typeof module & { enableCompileCache?: () => unknown };
  if (enableCompileCache) {
    enableCompileCache();
    return uncached();
  }
  // The same switch as Node's own cache.
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return uncached();
  const dir = privateCacheDir();
  if (!dir) return uncached();

  const source = readFileSync(path, 'utf8');
  const { mtimeMs } = statSync(path);
  const file = join(dir, `cli-${VERSION}-${process.version}-${process.arch}-${source.length}-${Math.trunc(mtimeMs)}.bin`);
  const { exports, saveCache } = runModule(source, path, require, { file, command: hash(commandOf(argv)) });
  return { cli: exports as Cli, saveCache };
}

// The single executable (scripts/package.mjs builds it; README, "One file"). Node runs dist/main.cjs as the
// executable's injected main script, whose `require` loads only Node's built-in modules. The rest of dist/ is
// in the executable as assets (node:sea's getAsset), under their names in dist/: cli.cjs and each vendor file run
// here from their text, with a require that serves `./vendor/...` from the assets and nothing from the disk.
// What must be a file is written once into a folder of the private cache folder, named for the executable:
// the --jq worker (a thread loads its script by path) and @napi-rs/keyring's addon (process.dlopen needs a file).

/** The executable's assets, as scripts/package.mjs names them. */
const SEA_ASSETS = {
  cli: 'cli.cjs',
  helper: 'keychain-helper.cjs',
  jqWorker: 'jq-worker.cjs',
  jq: 'vendor/jq-wasm-inline.cjs',
  keyring: 'keyring.node',
};

type SeaModule = typeof import('node:sea');

/**
 * A CommonJS module's text run as Node runs a file, with the given require; with a cache, compiled from it and
 * written again after the first run of each kind of command (`command`, hashed), so that it holds the code of
 * the commands this user runs, not only of the one that happened to run first.
 */
function runModule(source: string, filename: string, require: (id: string) => unknown, cache?: { file: string; command: number }) {
  const stored = cache === undefined ? undefined : readCache(cache.file);
  // V8 checks the cache against the source and its own version and flags, and refuses one that does not fit.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
    cachedData: stored?.data,
  });
  const cjs = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(cjs.exports, require, cjs, filename, dirname(filename));
  const saveCache = () => {
    if (cache === undefined) return;
    const kept = stored && !script.cachedDataRejected ? stored.commands : [];
    if (kept.includes(cache.command) || kept.length >= MAX_COMMANDS) return;
    try {
      const temp = `${cache.file}.${process.pid}.tmp`;
      const header = Buffer.from(JSON.stringify([...kept, cache.command]));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(header.length);
      // Made after the run: it holds what the cache brought and what this run compiled.
      writeFileSync(temp, Buffer.concat([length, header, script.createCachedData()]), { mode: 0o600 });
      renameSync(temp, cache.file);
    } catch {
      // A cache is an optimisation: a full disk or a read-only /tmp only costs speed.
    }
  };
  return { exports: cjs.exports, saveCache };
}

/**
 * The modules of the executable: each asset run once, on the first require. An asset's require loads Node's
 * built-in modules and the assets beside it; `@napi-rs/keyring` is its addon, from the assets.
 */
function seaModules(sea: SeaModule, files: () => string) {
  const builtin = createRequire(process.execPath);
  const loaded = new Map<string, unknown>();
  const requireFrom =
    (asset: string) =>
    (id: string): unknown => {
      if (module.isBuiltin(id)) return builtin(id);
      if (id === '@napi-rs/keyring') return loadAddon(sea, files);
      const name = id.startsWith('./') ? join(dirname(asset), id).replace(/\\/g, '/') : id;
      if (!loaded.has(name)) {
        const source = seaAsset(sea, name, `cannot find module '${id}'`);
        loaded.set(name, runModule(source, seaFilename(name), requireFrom(name)).exports);
      }
      return loaded.get(name);
    };
  return requireFrom;
}

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

/** @napi-rs/keyring, which is its native addon: written out once (files()) and loaded from there. */
function loadAddon(sea: SeaModule, files: () => string): unknown {
  let bytes: ArrayBuffer;
  try {
    bytes = sea.getAsset(SEA_ASSETS.keyring);
  } catch {
    throw new Error('this executable was built without it');
  }
  const path = join(files(), SEA_ASSETS.keyring);
  writeOnce(path, new Uint8Array(bytes));
  const addon = { exports: {} };
  process.dlopen(addon, path);
  return addon.exports;
}

/** Writes a file unless it is there: by a rename, so that a reader never sees half of it. */
function writeOnce(path: string, data: string | Uint8Array): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, path);
}

/**
 * The folder this executable writes its files to: in the private cache folder, named for the executable
 * (cip's version, its size and time), so that another build never uses them. Without a private cache folder,
 * a private temporary one, removed when the process exits.
 */
function seaFilesDir(cacheDir: string | undefined, key: string): string {
  if (cacheDir) return join(cacheDir, `sea-${key}`);
  const dir = mkdtempSync(join(tmpdir(), 'cip-sea-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What names this build of the executable: cip's version, Node's, and the executable's size and time. */
function seaKey(): string {
  const { size, mtimeMs } = statSync(process.execPath);
  return `${VERSION}-${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}`;
}

export interface LoadedSeaCli extends LoadedCli {
  /** The --jq worker's script, written out (with the jq module beside it) for the thread to load. */
  jqWorker: string;
}

/** Node's node:sea (Node >= 20.12), loaded only in the executable. */
function seaModule(): SeaModule {
  return createRequire(process.execPath)('node:sea') as SeaModule;
}

/** loadCli for the single executable: cli.cjs from the assets, with the same code cache. */
export function loadSeaCli(argv: readonly string[] = []): LoadedSeaCli {
  const sea = seaModule();
  const key = seaKey();
  const cacheDir = privateCacheDir();
  const files = seaFilesDir(cacheDir, key);
  const requireFrom = seaModules(sea, () => files);
  const source = seaAsset(sea, SEA_ASSETS.cli, 'this executable has no cli.cjs');
  // The same switch as Node's own cache.
  const cache =
    cacheDir && !process.env.NODE_DISABLE_COMPILE_CACHE
      ? { file: join(cacheDir, `cli-sea-${key}-${source.length}.bin`), command: hash(commandOf(argv)) }
      : undefined;
  const { exports, saveCache } = runModule(source, seaFilename(SEA_ASSETS.cli), requireFrom(SEA_ASSETS.cli), cache);
  // The worker is written before the first --jq can need it: the jq module first, so that the worker's file
  // being there means both are.
  const jqWorker = join(files, SEA_ASSETS.jqWorker);
  if (!existsSync(jqWorker)) {
    writeOnce(join(files, SEA_ASSETS.jq), seaAsset(sea, SEA_ASSETS.jq, 'this executable has no jq'));
    writeOnce(jqWorker, seaAsset(sea, SEA_ASSETS.jqWorker, 'this executable has no jq worker'));
  }
  return { cli: exports as Cli, saveCache, jqWorker };
}

/**
 * The keychain helper, as a mode of the executable (config/keychain.ts starts it with main.ts's
 * SEA_KEYCHAIN_HELPER): keychain-helper.cjs from the assets, its addon written out on the first use.
 */
export function runSeaKeychainHelper(): void {
  const sea = seaModule();
  let files: string | undefined;
  const requireFrom = seaModules(sea, () => (files ??= seaFilesDir(privateCacheDir(), seaKey())));
  const source = seaAsset(sea, SEA_ASSETS.helper, 'this executable has no keychain helper');
  runModule(source, seaFilename(SEA_ASSETS.helper), requireFrom(SEA_ASSETS.helper));
}
