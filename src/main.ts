// The entry: with load-cli.ts (which finds and loads the bundle), the only code that touches process.*. It
// builds the context from the real streams, environment and signals and hands it to run(). It loads
// nothing else up front, so `cip --version` costs little more than Node itself; everything else comes from
// dist/cli.cjs (load-cli.ts).
import { fstatSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Streams } from './terminal/io-streams.js';
import { VERSION } from './version.js';

/**
 * The argument that makes the single executable the keychain helper (config/keychain.ts runs the helper as
 * `<execPath> <helper>`: the helper's file for Node, this for the executable). Never a secret: those go on stdin.
 */
const SEA_KEYCHAIN_HELPER = '--cip-keychain-helper';

/**
 * Entry point for bin/cip.cjs, and for the single executable (scripts/package.mjs), which holds the rest of dist/
 * as its assets (load-cli.ts) and passes `seaBuild`: a hash of those assets, naming its own code cache.
 */
export async function main(seaBuild?: string): Promise<number> {
  const argv = process.argv.slice(2);
  const sea = seaBuild !== undefined;
  if (sea && argv.length === 1 && argv[0] === SEA_KEYCHAIN_HELPER) {
    // Writing out the addon past a file-size limit fails with EFBIG, as a full disk does, instead of killing
    // the helper (see SIGXFSZ below).
    if (process.platform !== 'win32') process.on('SIGXFSZ', () => undefined);
    const { runSeaKeychainHelper } = await import('./load-cli.js');
    runSeaKeychainHelper();
    return 0;
  }
  // The most frequent call in scripts needs no command tree.
  // A line that cannot be written at once (a pipe that is full, a full disk) goes the way every command's output
  // goes, which waits for a pipe and reports a failure as one error line and exit 11.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V') && writeVersion(`${VERSION}\n`)) return 0;
  // Loaded only past --version: it brings node:vm and node:os, which --version does without.
  const { loadCli, loadSeaCli } = await import('./load-cli.js');
  const { cli, saveCache, cacheNote, jqWorker } = sea ? loadSeaCli(argv, seaBuild) : { ...loadCli(argv), jqWorker: undefined };
  const { run, Context, InterruptedError, exitCode, outputFailed } = cli;
  const controller = new AbortController();
  const { stdout } = process;
  // A stream that fails never ends the work early: a reader that went away (`cip env list | head`,
  // `2>&1 | head -c0`) just gets nothing more, and the command finishes what it started, so its exit code
  // tells the truth. Output that could not be written (a full disk) makes a successful run fail.
  let outputError: NodeJS.ErrnoException | undefined;
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') outputError ??= error;
  });
  // process.stderr is made only when something is written to it or asks whether it is a terminal: making it
  // loads a stream's modules, and a run that succeeds in a script writes nothing there.
  let stderrStream: NodeJS.WriteStream | undefined;
  const stderr = (): NodeJS.WriteStream => {
    if (stderrStream) return stderrStream;
    stderrStream = process.stderr;
    stderrStream.on('error', () => undefined);
    return stderrStream;
  };
  // Node's types say boolean, but isTTY is undefined on a stream that is not a terminal.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion
  const stderrIsTTY = mayBeTerminal(2) && Boolean(stderr().isTTY);
  const streams: Streams = {
    stdout,
    get stderr() {
      return stderr();
    },
    // Made on first use (IOStreams reads it only then): process.stdin loads a stream's modules, which most
    // commands never need.
    get stdin() {
      return process.stdin;
    },
    // Node's types say boolean, but isTTY is undefined on a stream that is not a terminal.
    /* eslint-disable @typescript-eslint/no-unnecessary-type-conversion */
    stdoutIsTTY: Boolean(stdout.isTTY),
    stderrIsTTY,
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    /* eslint-enable @typescript-eslint/no-unnecessary-type-conversion */
    columns: stdout.isTTY ? (positive(stdout.columns) ?? positive(Number(process.env.COLUMNS)) ?? 80) : undefined,
    stderrColumns: stderrIsTTY ? positive(stderr().columns) : undefined,
  };
  // Ctrl-C and SIGTERM abort what is under way; the config file is replaced by a rename (config/store.ts's
  // writeFileAtomic: a temporary file, flushed, renamed over it), so leaving cannot leave a half-written file.
  // A command that does not stop within a moment is ended.
  const signals = { SIGINT: exitCode('interrupted'), SIGTERM: exitCode('terminated') };
  // The handler stays installed (`on`, not `once`): libraries that watch signals (proper-lockfile's
  // signal-exit; when-exit, which conf loads with its writer, unused) re-raise a signal nobody else handles,
  // which would kill the process before it can exit cleanly.
  for (const [signal, code] of Object.entries(signals)) {
    process.on(signal, () => {
      if (controller.signal.aborted) process.exit(code);
      process.exitCode = code;
      controller.abort(new InterruptedError());
      setTimeout(() => process.exit(code), 200).unref();
    });
  }

  // A write past the file-size limit (ulimit -f) must fail with EFBIG, which the store reports (the old file is
  // kept): Node restores the default action of SIGXFSZ (death) at start, and proper-lockfile's signal-exit
  // re-raises a signal nobody else listens to.
  if (process.platform !== 'win32') process.on('SIGXFSZ', () => undefined);

  const host = {
    uid: process.getuid?.(),
    gid: process.getgid?.(),
    cwd: workingFolder(),
    nodeVersion: process.version,
    execPath: process.execPath,
    keychainHelper: sea ? SEA_KEYCHAIN_HELPER : fileURLToPath(new URL('./keychain-helper.cjs', import.meta.url)),
    jqWorker: jqWorker ?? fileURLToPath(new URL('./jq-worker.cjs', import.meta.url)),
  };
  const ctx = new Context({ streams, env: process.env, version: VERSION, host, signal: controller.signal });
  const code = await run(argv, ctx);
  if (controller.signal.aborted) return process.exitCode as number;
  saveCache();
  // A cache that could not be used or written only cost time: said under --verbose, once.
  const note = cacheNote();
  if (note !== undefined && ctx.globals.verbose) stderr().write(`note: ${note}\n`);
  await flushed(stdout);
  if (outputError && code === 0) return outputFailed(ctx, outputError);
  return code;
}

/**
 * The version, written straight to file descriptor 1: making process.stdout loads Node's stream modules, which
 * cost `cip --version` a tenth of its run. Whatever that write cannot do at once (a pipe that would block,
 * a reader that went away, a full disk) goes through process.stdout as before, which reports it as before.
 */
function writeVersion(text: string): boolean {
  try {
    return writeSync(1, text) === Buffer.byteLength(text);
  } catch {
    return false;
  }
}

/**
 * Whether a file descriptor may be a terminal: a terminal is a character device, so a file, a pipe or a socket
 * is not, and that is known without making the stream. A character device (a terminal, /dev/null) is asked.
 */
function mayBeTerminal(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    // Closed (2>&-): Node's stream says then.
    return true;
  }
}

/** The working folder; undefined when it was removed under cip (process.cwd() throws ENOENT). */
function workingFolder(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/** A terminal width, or undefined for 0 (a pty without a size), NaN and other nonsense. */
function positive(columns: number | undefined): number | undefined {
  return columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : undefined;
}

/** Resolves once everything written to the stream has reached the OS or failed (and its error was emitted). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) return resolve();
    // A stream's write error is emitted on a later tick than the failed write's callback.
    stream.write('', () => setImmediate(resolve));
  });
}
