// V8's code cache for cip's scripts (vm.Script's cachedData), kept in the private cache folder: a run compiles
// from it what an earlier run of the same kind compiled, which saves about a fifth of the CPU time of `cip --help`
// and of an API command. Built on vm.Script rather than Node's own cache (module.enableCompileCache), which keeps
// only what V8 compiled before a script ran: that measured 3 to 10 ms more CPU a command on Node 24 and 26
// (docs/performance.md). Part of the entry: load-cli.ts and sea.ts use it.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The first reason this run did without (part of) its cache. */
let firstNote: string | undefined;

/** Keeps the first reason this run did without (part of) its cache or an extracted file, for --verbose. */
export function note(text: string): void {
  // A path in it may hold anything; nothing that could drive a terminal is said.
  // eslint-disable-next-line no-control-regex
  firstNote ??= text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** Why the run had to do without its cache, if it did (the first reason): said under --verbose. */
export const cacheNote = (): string | undefined => firstNote;

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/**
 * The words that name the command being run (`env list`, `auth login`): the first two that look like a
 * command's name. A value of another option before them may count as one; that only makes a few more kinds of
 * run.
 */
export function commandOf(argv: readonly string[]): string {
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
export const STALE_MS = 7 * 24 * 3600 * 1000;

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
export function writeFileAtomic(path: string, data: Uint8Array, flush = false): string | undefined {
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
export class CodeCache {
  private readonly ownFile: string;
  private readonly sharedFile: string;
  private readonly stored: Map<string, Buffer>;
  /** Whether this kind of run had its own file. */
  private readonly own: boolean;
  /** The shared file is there but is no cache (damaged, or cut short): it is written again. */
  private readonly sharedBroken: boolean;
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

  /** A CommonJS module's text, compiled as Node compiles a file: from its cache, when V8 finds that it fits. */
  compile(name: string, source: string, filename: string): Script {
    // V8 checks the cache against the source and its own version and flags, and refuses one that does not fit.
    const script = new Script(wrapped(source), { filename, cachedData: this.stored.get(name) });
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

/** A CommonJS module's text as Node wraps it. */
const wrapped = (source: string) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

/** A CommonJS module's text run as Node runs a file, with the given require; compiled from the cache when one is given. */
export function runModule(source: string, filename: string, require: (id: string) => unknown, cache?: CodeCache, name = filename): unknown {
  const script = cache?.compile(name, source, filename) ?? new Script(wrapped(source), { filename });
  const cjs = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(cjs.exports, require, cjs, filename, dirname(filename));
  return cjs.exports;
}
