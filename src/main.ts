// The only module that touches process.*: it builds the context from the real streams and environment and
// hands it to run(). It loads nothing else up front, so `cip --version` costs little more than Node itself;
// everything else comes from dist/cli.cjs (load-cli.ts).
import type { IO } from './context.js';
import { loadCli } from './load-cli.js';
import { VERSION } from './version.js';

/** Entry point for bin/cip.js. */
export async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  // The most frequent call in scripts needs no command tree.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const { cli, saveCache } = loadCli();
  const { run, Context, InterruptedError, exitCode } = cli;
  const controller = new AbortController();
  const { stdout, stderr, stdin } = process;
  const io: IO = {
    stdout,
    stderr,
    stdin,
    stdoutIsTTY: Boolean(stdout.isTTY),
    stderrIsTTY: Boolean(stderr.isTTY),
    stdinIsTTY: Boolean(stdin.isTTY),
    columns: stdout.isTTY ? stdout.columns || Number(process.env.COLUMNS) || 80 : undefined,
  };
  // A reader that went away (`cip env list | head`) is not an error: stop quietly.
  for (const stream of [stdout, stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  // Ctrl-C and SIGTERM abort what is under way; config writes are atomic renames, so leaving cannot
  // leave a half-written file. A command that does not stop within a moment is ended.
  const signals = { SIGINT: exitCode('interrupted'), SIGTERM: exitCode('terminated') };
  // The handler stays installed (`on`, not `once`): libraries that watch signals (conf's atomic writer)
  // re-raise a signal nobody else handles, which would kill the process before it can exit cleanly.
  for (const [signal, code] of Object.entries(signals)) {
    process.on(signal, () => {
      if (controller.signal.aborted) process.exit(code);
      process.exitCode = code;
      controller.abort(new InterruptedError());
      setTimeout(() => process.exit(code), 200).unref();
    });
  }

  const ctx = new Context(io, process.env, VERSION, controller.signal);
  const code = await run(argv, ctx);
  if (controller.signal.aborted) return process.exitCode as number;
  saveCache();
  return code;
}
