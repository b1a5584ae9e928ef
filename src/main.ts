// The only module that touches process.*: it builds the context from the real streams and environment,
// runs the program and maps whatever happened to one exit code.
import { Context, isTruthyEnv, type IO } from './context.js';
import { CipError, InterruptedError, exitCode } from './errors.js';
import { VERSION } from './version.js';

type CommanderLike = { code: string; exitCode: number };

function isCommanderError(error: unknown): error is CommanderLike & Error {
  return error instanceof Error && typeof (error as Partial<CommanderLike>).code === 'string'
    && (error as Partial<CommanderLike>).code!.startsWith('commander.');
}

/** Runs cip with argv (without node and script) and returns the exit code. Never throws. */
export async function run(argv: string[], ctx: Context): Promise<number> {
  try {
    const { buildProgram } = await import('./program.js');
    await buildProgram(ctx).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return report(error, ctx);
  }
}

function report(error: unknown, ctx: Context): number {
  if (isCommanderError(error)) {
    // commander has already printed its message (help, version, or a usage error).
    return error.exitCode === 0 ? 0 : exitCode('usage');
  }
  if (ctx.signal.aborted || error instanceof InterruptedError) return exitCode('interrupted');
  const debug = isTruthyEnv(ctx.env.CIP_DEBUG);
  if (error instanceof CipError) {
    const hint = error.hint ? ` (${error.hint})` : '';
    ctx.io.stderr.write(`error: ${error.message}${hint}\n`);
    if (debug && error.stack) ctx.io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.io.stderr.write(`error: unexpected failure: ${message.split('\n')[0]} (this is a bug; set CIP_DEBUG=1 to see details)\n`);
  if (debug && error instanceof Error && error.stack) ctx.io.stderr.write(`${error.stack}\n`);
  return exitCode('unexpected');
}

/** Entry point for bin/cip.js. */
export async function main(): Promise<number> {
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
  for (const [signal, code] of Object.entries(signals)) {
    process.once(signal, () => {
      process.exitCode = code;
      controller.abort(new InterruptedError());
      setTimeout(() => process.exit(code), 200).unref();
    });
  }

  const ctx = new Context(io, process.env, VERSION, controller.signal);
  const code = await run(process.argv.slice(2), ctx);
  if (controller.signal.aborted) return process.exitCode as number;
  return code;
}
