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
  /** Writes the cache after a run, when there was none (or V8 refused it), so it holds every function used. */
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

export function loadCli(): LoadedCli {
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
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // V8 checks the cache against the source and its own version and flags, and refuses one that does not fit.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: path, cachedData });
  const cjs = { exports: {} as Cli };
  (script.runInThisContext() as (...args: unknown[]) => void)(cjs.exports, require, cjs, path, dirname(path));
  return {
    cli: cjs.exports,
    saveCache() {
      if (cachedData && !script.cachedDataRejected) return;
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        renameSync(temp, cacheFile);
      } catch {
        // A cache is an optimisation: a full disk or a read-only /tmp only costs speed.
      }
    },
  };
}
