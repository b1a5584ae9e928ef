// The entry, dist/main.cjs: what bin/cip.cjs loads, and the single executable's main script. It answers what
// needs nothing else (--version; the executable's keychain helper mode), then loads dist/cli.cjs (load-cli.ts;
// in the executable, sea.ts) and hands the run over to it (run-process.ts). It is compiled afresh at every run,
// as Node compiles what it requires, so it holds only that: everything that can be is in cli.cjs, which is
// compiled from the code cache. With load-cli.ts, sea.ts and run-process.ts, the only code that touches process.*.
import { fstatSync, readFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exitCode, outputFailure } from './errors.js';
import { writeWhole } from './terminal/write-whole.js';
import { VERSION } from './version.js';

/**
 * The argument that makes the single executable the keychain helper (config/store/keychain.ts runs the helper as
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
  if (seaBuild === undefined && argv.length === 1 && HELP.has(argv[0]!)) {
    const code = writtenHelp(fileURLToPath(new URL(`./${HELP_FILE}`, import.meta.url)));
    if (code !== undefined) return code;
  }
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

/** The file beside main.cjs that holds `cip --help` as it is written into a file or a pipe (scripts/build.mjs). */
export const HELP_FILE = 'help.txt';
/** The arguments that print that help. */
const HELP = new Set(['--help', '-h', 'help']);

/**
 * `cip --help` into a file or a pipe, written from the file the build made by running the same command into a
 * pipe (help.txt), without loading cli.cjs: two thirds of the run. Help is laid out for the width of a terminal,
 * so a terminal (or another character device) gets it made as ever. Undefined when nothing was written (no such
 * file; a write that cannot be made at once): the run then goes on as any other, which reports a failure or waits
 * for the pipe. A failure part-way is what the same write from cli.cjs would say (run-process.ts): a reader that
 * went away is no failure; anything else is one error line and exit code 11.
 */
function writtenHelp(file: string): number | undefined {
  let regular: boolean;
  let text: Buffer;
  try {
    const stats = fstatSync(1);
    if (!(stats.isFile() || stats.isFIFO() || stats.isSocket())) return undefined;
    regular = stats.isFile();
    text = readFileSync(file);
  } catch {
    return undefined;
  }
  // Past a file-size limit (ulimit -f), EFBIG instead of death by SIGXFSZ, as in run-process.ts.
  if (regular && process.platform !== 'win32') process.on('SIGXFSZ', () => undefined);
  const written = writeWhole(1, text);
  if (written.ok || written.error.code === 'EPIPE') return 0;
  if (written.nothing) return undefined;
  try {
    writeSync(2, outputFailure(written.error));
  } catch {
    // stderr is gone too: the exit code says it.
  }
  return exitCode('output');
}
