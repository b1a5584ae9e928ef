// Runs cip as this process: the context built from the real streams, environment and signals, the run, and what
// follows it (the code cache written, stdout flushed, the exit code). With main.ts, load-cli.ts and sea.ts, the
// only code that touches process.*. It is the entry of dist/cli.cjs, so that it is compiled from the code cache
// with the rest of cip; main.ts (dist/main.cjs) only finds and loads that file.
import { fstatSync } from 'node:fs';
import type { Streams } from './terminal/io-streams.js';
import { FileStdout } from './terminal/file-stdout.js';
import { Context, InterruptedError, exitCode, outputFailed, run, type Host } from './run.js';
import { VERSION } from './version.js';

// For scripts/docs.mjs, which documents every command with the cip in dist/.
export { COMMAND_TREE, Context, VERSION, run } from './run.js';

/** What main.ts hands over with the loaded CLI. */
export interface ProcessInputs {
  /** Writes the code cache after a run, if this kind of run needs it written. */
  saveCache: () => void;
  /** Why the run had to do without its cache, if it did: said under --verbose. */
  cacheNote: () => string | undefined;
  /** The keychain helper: dist/keychain-helper.cjs, or the single executable's helper mode. */
  keychainHelper: NonNullable<Host['keychainHelper']>;
  /** The thread --jq runs in: dist/jq-worker.cjs, or the single executable's code of it. */
  jqWorker: Host['jqWorker'];
}

/** Runs cip with argv (without node and script) as this process, and gives the exit code. */
export async function runProcess(argv: string[], { saveCache, cacheNote, keychainHelper, jqWorker }: ProcessInputs): Promise<number> {
  const controller = new AbortController();
  const stdout = regularFile(1) ? (new FileStdout(1, (run) => process.nextTick(run)) as unknown as NodeJS.WriteStream) : process.stdout;
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
    keychainHelper,
    jqWorker,
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

/** Whether a file descriptor is a regular file (`> out.json`), which FileStdout writes to. */
function regularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
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
