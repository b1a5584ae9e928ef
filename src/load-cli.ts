// Loads dist/cli.cjs (all of cip but the entry) with V8's code cache, so that a run does not compile again
// what an earlier run compiled: it saves about a fifth of the CPU time of `cip --help` and of an API command.
// Built on vm.Script's cachedData rather than Node's own cache (module.enableCompileCache), which keeps only
// what V8 compiled before a script ran: that measured 3 to 10 ms more CPU a command on Node 24 and 26
// (docs/performance.md). Part of the process-facing entry, like main.ts.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { privateCacheFolder, removeOldLayout, type CacheFolder } from './cache-folder.js';
import { VERSION } from './version.js';

export type Cli = typeof import('./run.js');

/**
 * The require of dist/main.cjs (this file is bundled into it), for Node's own modules and for cli.cjs by its
 * path: node:module's createRequire would make the same, and loading node:module costs every run a few tenths of
 * a millisecond. In the single executable it loads Node's modules only.
 */
const nodeRequire: NodeJS.Require = require;

/** node:module, loaded only where it is needed: in the single executable. */
const nodeModule = () => nodeRequire('node:module') as typeof import('node:module');

/**
 * The temporary folder, as os.tmpdir() finds it (without loading node:os, which costs every run a few tenths of
 * a millisecond): TMPDIR, TMP or TEMP, else /tmp, without a trailing slash. Windows asks node:os.
 */
function tempFolder(): string {
  if (process.platform === 'win32') return (nodeRequire('node:os') as typeof import('node:os')).tmpdir();
  const { TMPDIR, TMP, TEMP } = process.env;
  // An empty variable counts as unset, as it does to os.tmpdir().
  // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
  const path = TMPDIR || TMP || TEMP || '/tmp';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export interface LoadedCli {
  cli: Cli;
  /** Writes the cache after a run, when there was none, V8 refused it, or it lacks this kind of command's code. */
  saveCache: () => void;
  /** Why the run had to do without its cache, if it did (the first reason): said under --verbose. */
  cacheNote: () => string | undefined;
}

/** The first reason this run did without (part of) its cache. */
let firstNote: string | undefined;
function note(text: string): void {
  // A path in it may hold anything; nothing that could drive a terminal is said.
  // eslint-disable-next-line no-control-regex
  firstNote ??= text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

let cacheFolder: CacheFolder | undefined;

/**
 * The private cache folder (cache-folder.ts), looked for once a run. The run that makes it removes what earlier
 * versions kept in the temp folder.
 */
function privateFolder(): CacheFolder {
  if (cacheFolder) return cacheFolder;
  const uid = process.getuid?.();
  // Without HOME (a service), the home folder the system knows, as for the config folder.
  const env = process.env.HOME ? process.env : { ...process.env, HOME: systemHome() };
  cacheFolder = privateCacheFolder({ env, platform: process.platform, uid, gid: process.getgid?.() });
  if (cacheFolder.why) note(cacheFolder.why);
  if (cacheFolder.created) removeOldLayout(tempFolder(), { uid });
  return cacheFolder;
}

function systemHome(): string | undefined {
  try {
    return (nodeRequire('node:os') as typeof import('node:os')).homedir();
  } catch {
    return undefined;
  }
}

/**
 * The words that name the command being run (`env list`, `auth login`): the first two that look like a
 * command's name. A value of another option before them may count as one; that only makes a few more kinds of
 * run.
 */
function commandOf(argv: readonly string[]): string {
  const words: string[] = [];
  for (let index = 0; index < argv.length && words.length < 2; index++) {
    const word = argv[index]!;
    // The value of a global option that may look like a command's name (`--profile prod`, `-o table`) is not
    // one: each profile would make a kind of its own.
    if (VALUE_OPTIONS.has(word)) index++;
    else if (/^[a-z][a-z-]*$/.test(word)) words.push(word);
  }
  return words.join(' ');
}

/** The global options whose value may be a word like a command's name. */
const VALUE_OPTIONS = new Set(['-p', '--profile', '-o', '--output']);

/** FNV-1a, 32 bits: a cache file names the kind of run it is for by this, not by the words. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return value;
}

/** Kinds of run that get a cache file of their own; past them, a run makes do with the shared one. */
const MAX_KINDS = 32;

/** How old another build's files must be before a run that writes its own removes them. */
const STALE_MS = 7 * 24 * 3600 * 1000;

/** A cache file is a few MB; anything far larger is not one. */
const MAX_CACHE_FILE = 64 * 1024 * 1024;

/**
 * A regular file's bytes, up to `max`; undefined for anything else. Opened without blocking, so that a FIFO in
 * its place cannot hold the run.
 */
function readRegularFile(path: string, max: number): Buffer | undefined {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = fstatSync(fd);
      return stats.isFile() && stats.size <= max ? readFileSync(fd) : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Writes a file by a rename, private to its owner, so that a reader never sees half of it; `flush` makes it
 * reach the disk before the rename, for a file that nothing checks when it is read back. The error's code when
 * it fails (a full disk, a read-only folder); nothing is left behind then.
 */
function writeFileAtomic(path: string, data: Uint8Array, flush = false): string | undefined {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeFileSync(fd, data);
      if (flush) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    return undefined;
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Not made, or the folder went away.
    }
    return errorCode(error);
  }
}

/**
 * A cache file: a 4-byte length, that many bytes of JSON naming the scripts whose V8 data follows and its size
 * (`[["cli.cjs", 301234], ["vendor/ky.cjs", 20480]]`), then that data, in that order. Undefined for anything
 * else (a damaged file is then replaced).
 */
function readCacheFile(file: string): Map<string, Buffer> | undefined {
  try {
    const bytes = readRegularFile(file, MAX_CACHE_FILE);
    if (!bytes) return undefined;
    const length = bytes.readUInt32LE(0);
    const names: unknown = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8'));
    if (!Array.isArray(names)) return undefined;
    const stored = new Map<string, Buffer>();
    let offset = 4 + length;
    for (const entry of names as unknown[]) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Number.isSafeInteger(entry[1]) || (entry[1] as number) < 0) {
        return undefined;
      }
      const end = offset + (entry[1] as number);
      if (end > bytes.length) return undefined;
      stored.set(entry[0], bytes.subarray(offset, end));
      offset = end;
    }
    return stored;
  } catch {
    return undefined;
  }
}

/** Writes a cache file. A cache is an optimisation: a failure only costs speed, and is said under --verbose. */
function writeCacheFile(file: string, scripts: ReadonlyMap<string, Buffer>): void {
  const header = Buffer.from(JSON.stringify([...scripts].map(([name, data]) => [name, data.length])));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const failure = writeFileAtomic(file, Buffer.concat([length, header, ...scripts.values()]));
  if (failure) note(`the code cache cannot be written in ${dirname(file)} (${failure}): the next run compiles cip again`);
}

/**
 * V8's code cache for the scripts one kind of run loads (`env list`, `--help`): cli.cjs and the vendor files, in a
 * file of that kind's own. A cache holds what V8 had compiled when it was made, and V8 reads all of it before the
 * script runs: one cache shared by every command made each run pay for all of them (`--help` read 510 KB where
 * its own code is 310 KB). The first run of a kind, which has no file yet, starts from the shared file that the
 * very first run wrote.
 */
class CodeCache {
  private readonly ownFile: string;
  private readonly sharedFile: string;
  private readonly stored: Map<string, Buffer>;
  /** Whether this kind of run had its own file. */
  private readonly own: boolean;
  private readonly compiled = new Map<string, Script>();

  /** `prefix` names this build of cli.cjs (the vendor files are built with it); `kind` the kind of run. */
  constructor(
    private readonly dir: string,
    private readonly prefix: string,
    kind: string,
  ) {
    this.ownFile = join(dir, `${prefix}-${hash(kind).toString(16)}.bin`);
    this.sharedFile = join(dir, `${prefix}-shared.bin`);
    const own = readCacheFile(this.ownFile);
    this.own = own !== undefined;
    const shared = own ? undefined : readCacheFile(this.sharedFile);
    this.sharedBroken = !own && !shared && existsSync(this.sharedFile);
    this.stored = own ?? shared ?? new Map<string, Buffer>();
  }

  /** The shared file is there but is no cache (damaged, or cut short): it is written again. */
  private readonly sharedBroken: boolean;

  /** A CommonJS module's text, compiled as Node compiles a file: from its cache, when V8 finds that it fits. */
  compile(name: string, source: string, filename: string): Script {
    // V8 checks the cache against the source and its own version and flags, and refuses one that does not fit.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename,
      cachedData: this.stored.get(name),
    });
    this.compiled.set(name, script);
    return script;
  }

  /**
   * After the run: writes this kind's file when it had none, or when a script was compiled without a cache (V8
   * refused it, or this kind loaded the script for the first time). Made after the run, the file holds what the
   * cache brought and what the run compiled.
   */
  save(): void {
    const fresh = [...this.compiled].filter(([name, script]) => !this.stored.has(name) || script.cachedDataRejected);
    if (this.own && fresh.length === 0) return;
    const scripts = new Map<string, Buffer>();
    // What other runs of this kind loaded and this one did not is kept.
    if (this.own) for (const [name, data] of this.stored) if (!this.compiled.has(name)) scripts.set(name, data);
    for (const [name, script] of this.compiled) scripts.set(name, script.createCachedData());
    if (this.sharedBroken || !existsSync(this.sharedFile)) writeCacheFile(this.sharedFile, scripts);
    if (this.own || this.kinds() < MAX_KINDS) writeCacheFile(this.ownFile, scripts);
  }

  /**
   * How many kinds of run of this build have a file. On the way, other builds' files older than a week are
   * removed (each version of cip and of Node, and each install, leaves its own), and temporary files as old.
   */
  private kinds(): number {
    let count = 0;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return count;
    }
    const now = Date.now();
    for (const name of names) {
      const ours = name.startsWith(`${this.prefix}-`);
      if (ours && name.endsWith('.bin')) {
        if (name !== `${this.prefix}-shared.bin`) count++;
      } else if (/^cli-.*\.bin$/.test(name) || /^cli-.*\.bin\.\d+\.tmp$/.test(name)) {
        // Another build's file, or a temporary file a run that crashed left (a live one is milliseconds old).
        try {
          const path = join(this.dir, name);
          if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
        } catch {
          // Removed meanwhile by another run.
        }
      }
    }
    return count;
  }
}

/** A CommonJS module's text run as Node runs a file, with the given require; compiled from the cache when one is given. */
function runModule(source: string, filename: string, require: (id: string) => unknown, cache?: CodeCache, name = filename): unknown {
  const script =
    cache?.compile(name, source, filename) ??
    new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename });
  const cjs = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(cjs.exports, require, cjs, filename, dirname(filename));
  return cjs.exports;
}

/**
 * Loads the CLI, compiled from the code cache of this kind of run (`argv` says which) when there is one, with a
 * require that compiles the vendor files it loads from the same cache.
 */
export function loadCli(argv: readonly string[] = []): LoadedCli {
  const path = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  const uncached = () => ({ cli: nodeRequire(path) as Cli, saveCache: () => undefined, cacheNote: () => firstNote });
  // The same switch as Node's own cache.
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return uncached();
  const { dir } = privateFolder();
  if (!dir) return uncached();

  const source = readFileSync(path, 'utf8');
  const { mtimeMs } = statSync(path);
  const build = `cli-${VERSION}-${process.version}-${process.arch}-${source.length}-${Math.trunc(mtimeMs)}`;
  const cache = new CodeCache(dir, build, commandOf(argv));
  const folder = dirname(path);
  const vendors = new Map<string, unknown>();
  // cli.cjs requires Node's modules, and its vendor files (`./vendor/ky.cjs`) when a command first needs one:
  // each vendor file is run once, compiled from the cache, with Node's require for what it requires.
  const cachedRequire = (id: string): unknown => {
    if (!id.startsWith('./vendor/')) return nodeRequire(id);
    const name = id.slice(2);
    if (!vendors.has(name)) {
      const file = join(folder, name);
      const source = readFileSync(file, 'utf8');
      // Named with its own time too: V8 checks a cache against its source's length only, and a vendor file
      // changed apart from cli.cjs (by hand) must not run another's compiled code.
      const { mtimeMs } = statSync(file);
      vendors.set(name, runModule(source, file, nodeRequire, cache, `${name}@${Math.trunc(mtimeMs)}`));
    }
    return vendors.get(name);
  };
  const cli = runModule(source, path, cachedRequire, cache, 'cli.cjs') as Cli;
  return { cli, saveCache: () => cache.save(), cacheNote: () => firstNote };
}

// The single executable (scripts/package.mjs builds it; README, "One file"). Node runs dist/main.cjs as the
// executable's injected main script, whose `require` loads only Node's built-in modules. The rest of dist/ is
// in the executable as assets (node:sea's getAsset), under their names in dist/: cli.cjs and each vendor file run
// here from their text, with a require that serves `./vendor/...` from the assets and nothing from the disk. The
// --jq thread runs its script and the jq module from the assets the same way, so nothing of it is written out.
// Only @napi-rs/keyring's addon must be a file (process.dlopen): it is written to the private cache folder,
// named by its content's hash.

/** The executable's assets, as scripts/package.mjs names them. */
const SEA_ASSETS = {
  cli: 'cli.cjs',
  helper: 'keychain-helper.cjs',
  jqWorker: 'jq-worker.cjs',
  keyring: 'keyring.node',
};

type SeaModule = typeof import('node:sea');

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
  return { cli, saveCache: () => cache?.save(), cacheNote: () => firstNote, jqWorker: { code: SEA_JQ_THREAD } };
}

/**
 * The keychain helper, as a mode of the executable (config/keychain.ts starts it with main.ts's
 * SEA_KEYCHAIN_HELPER): keychain-helper.cjs from the assets, its addon written out on the first use.
 */
export function runSeaKeychainHelper(): void {
  const sea = seaModule();
  const requireFrom = seaModules(sea);
  const source = seaAsset(sea, SEA_ASSETS.helper, 'this executable has no keychain helper');
  runModule(source, seaFilename(SEA_ASSETS.helper), requireFrom(SEA_ASSETS.helper));
}
