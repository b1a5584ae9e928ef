// The entry, dist/main.cjs: what bin/cip.cjs loads, and the single executable's main script. It answers what
// needs nothing else (--version; the executable's keychain helper mode), then loads dist/cli.cjs (load-cli.ts;
// in the executable, sea.ts) and hands the run over to it (run-process.ts). It is compiled afresh at every run,
// as Node compiles what it requires, so it holds only that: everything that can be is in cli.cjs, which is
// compiled from the code cache. With load-cli.ts, sea.ts and run-process.ts, the only code that touches process.*.
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VERSION } from './version.js';

/**
 * The argument that makes the single executable the keychain helper (config/keychain.ts runs the helper as
 * `<execPath> <helper>`: the helper's file for Node, this for the executable). Never a secret: those go on stdin.
 */
const SEA_KEYCHAIN_HELPER = '--cip-keychain-helper';

/**
 * Entry point for bin/cip.cjs, and for the single executable (scripts/package.mjs), which holds the rest of dist/
 * as its assets (sea.ts) and passes `seaBuild`: a hash of those assets, naming its own code cache.
 */
export async function main(seaBuild?: string): Promise<number> {
  const argv = process.argv.slice(2);
  if (seaBuild !== undefined && argv.length === 1 && argv[0] === SEA_KEYCHAIN_HELPER) {
    // Writing out the addon past a file-size limit fails with EFBIG, as a full disk does, instead of killing the
    // helper (see SIGXFSZ in run-process.ts).
    if (process.platform !== 'win32') process.on('SIGXFSZ', () => undefined);
    (await import('./sea.js')).runSeaKeychainHelper();
    return 0;
  }
  if (isVersion(argv)) return 0;
  if (seaBuild !== undefined) {
    const { cli, saveCache, cacheNote, jqWorker } = (await import('./sea.js')).loadSeaCli(argv, seaBuild);
    return cli.runProcess(argv, { saveCache, cacheNote, jqWorker, keychainHelper: SEA_KEYCHAIN_HELPER });
  }
  // Loaded only past --version: it brings node:vm, which --version does without.
  const { loadCli } = await import('./load-cli.js');
  const { cli, saveCache, cacheNote } = loadCli(argv);
  const beside = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
  return cli.runProcess(argv, { saveCache, cacheNote, keychainHelper: beside('keychain-helper.cjs'), jqWorker: beside('jq-worker.cjs') });
}

/**
 * `cip --version`, the most frequent call in scripts, answered without a command tree: the version, written
 * straight to file descriptor 1 (making process.stdout loads Node's stream modules, which cost `cip --version` a
 * tenth of its run). False for other arguments, and when that write cannot be made at once (a pipe that is
 * full, a reader that went away, a full disk): the line then goes the way every command's output goes, which
 * waits for a pipe and reports a failure as one error line and exit 11.
 */
function isVersion(argv: readonly string[]): boolean {
  if (!(argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))) return false;
  const text = `${VERSION}\n`;
  try {
    return writeSync(1, text) === Buffer.byteLength(text);
  } catch {
    return false;
  }
}
