// Loads dist/cli.cjs (all of cip but the entry) with V8's code cache (code-cache.ts), kept in the private cache
// folder (cache-folder.ts), so that a run does not compile again what an earlier run of its kind compiled. The
// single executable loads it from its assets instead (sea.ts). Part of the process-facing entry, like main.ts.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateCacheFolder, removeOldLayout, type CacheFolder } from './cache-folder.js';
import { CodeCache, cacheNote, commandOf, note, runModule } from './code-cache.js';
import { VERSION } from './version.js';

/** What cli.cjs exports (run-process.ts). */
export type Cli = typeof import('./run-process.js');

/**
 * The require of dist/main.cjs (this file is bundled into it), for Node's own modules and for cli.cjs by its
 * path: node:module's createRequire would make the same, and loading node:module costs every run a few tenths of
 * a millisecond. In the single executable it loads Node's modules only.
 */
export const nodeRequire: NodeJS.Require = require;

/**
 * The temporary folder, as os.tmpdir() finds it (without loading node:os, which costs every run a few tenths of
 * a millisecond): TMPDIR, TMP or TEMP, else /tmp, without a trailing slash. Windows asks node:os.
 */
export function tempFolder(): string {
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

let cacheFolder: CacheFolder | undefined;

/**
 * The private cache folder (cache-folder.ts), looked for once a run. The run that makes it removes what earlier
 * versions kept in the temp folder.
 */
export function privateFolder(): CacheFolder {
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
 * Loads the CLI, compiled from the code cache of this kind of run (`argv` says which) when there is one, with a
 * require that compiles the vendor files it loads from the same cache.
 */
export function loadCli(argv: readonly string[] = []): LoadedCli {
  const path = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  const uncached = () => ({ cli: nodeRequire(path) as Cli, saveCache: () => undefined, cacheNote });
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
  return { cli, saveCache: () => cache.save(), cacheNote };
}
