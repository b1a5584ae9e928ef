// Loads dist/cli.cjs (all of cip but the entry) with V8's code cache, so that a run does not compile again
// what the previous run compiled: on Node 20 this saves about a third of `cip --help`. Node >= 22.1 has its
// own cache (module.enableCompileCache); Node 20 gets one here, built on vm.Script's cachedData.
// Part of the process-facing entry, like main.ts.
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
  const cacheFile = join(dir, `cli-${VERSION}-${process.version}-${process.arch}-${source.length}-${Math.trunc(mtimeMs)}.bin`);
  const cache = readCache(cacheFile);
  const cachedData = cache?.data;
  const command = hash(commandOf(argv));
  // V8 checks the cache against the source and its own version and flags, and refuses one that does not fit.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: path, cachedData });
  const cjs = { exports: {} as Cli };
  (script.runInThisContext() as (...args: unknown[]) => void)(cjs.exports, require, cjs, path, dirname(path));
  return {
    cli: cjs.exports,
    saveCache() {
      const kept = cache && !script.cachedDataRejected ? cache.commands : [];
      if (kept.includes(command) || kept.length >= MAX_COMMANDS) return;
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        const header = Buffer.from(JSON.stringify([...kept, command]));
        const length = Buffer.alloc(4);
        length.writeUInt32LE(header.length);
        // Made after the run: it holds what the cache brought and what this run compiled.
        writeFileSync(temp, Buffer.concat([length, header, script.createCachedData()]), { mode: 0o600 });
        renameSync(temp, cacheFile);
      } catch {
        // A cache is an optimisation: a full disk or a read-only /tmp only costs speed.
      }
    },
  };
}
