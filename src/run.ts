// Runs the command tree with a context and maps whatever happened to one exit code: the one place where
// errors become exit codes and the `error:` line. Tests call run() in-process with fake streams.
import type { Context } from './context.js';
import { isTruthyEnv } from './env.js';
import { CipError, ExitOnly, InterruptedError, exitCode, outputFailure } from './errors.js';
import { buildProgram } from './program.js';

// What run-process.ts needs besides run(): it runs all of this in the process, as the entry of dist/cli.cjs.
export { Context, type Host } from './context.js';
export { InterruptedError, exitCode } from './errors.js';
// For scripts/docs.mjs, which documents every command (run-process.ts exports it from dist/cli.cjs).
export { COMMAND_TREE } from './program.js';
export { VERSION } from './version.js';

interface CommanderLike {
  code: string;
  exitCode: number;
}

function isCommanderError(error: unknown): error is CommanderLike & Error {
  return (
    error instanceof Error &&
    typeof (error as Partial<CommanderLike>).code === 'string' &&
    (error as Partial<CommanderLike>).code!.startsWith('commander.')
  );
}

/** Runs cip with argv (without node and script) and returns the exit code. Never throws. */
export async function run(argv: string[], ctx: Context): Promise<number> {
  try {
    await buildProgram(ctx).parseAsync(argv, { from: 'user' });
  } catch (error) {
    // A --jq filter that failed never hides the command's own failure: both are said, the command's code wins.
    const filter = ctx.io.jqFailure;
    if (filter && !ctx.signal.aborted && !(error instanceof InterruptedError)) {
      ctx.io.stderr.write(ctx.redact(`error: ${filter.message}\n`));
    }
    return report(error, ctx);
  }
  // The command did its work, and only the filter failed (after printing what it could): jq's exit 5 is cip's 12.
  return ctx.io.jqFailure ? report(ctx.io.jqFailure, ctx) : 0;
}

/** The exit code and error line for a run whose work succeeded but whose stdout could not be written. */
export function outputFailed(ctx: Context, error: NodeJS.ErrnoException): number {
  ctx.io.stderr.write(outputFailure(error));
  return exitCode('output');
}

function report(error: unknown, ctx: Context): number {
  if (isCommanderError(error)) {
    // commander has already printed its message (help, version, or a usage error).
    return error.exitCode === 0 ? 0 : exitCode('usage');
  }
  if (ctx.signal.aborted || error instanceof InterruptedError) return exitCode('interrupted');
  // Already said by the command: the code alone.
  if (error instanceof ExitOnly) return error.exitCode;
  const debug = isTruthyEnv(ctx.env.CIP_DEBUG);
  if (error instanceof CipError) {
    const hint = error.hint ? ` (${error.hint})` : '';
    ctx.io.stderr.write(ctx.redact(`error: ${error.message}${hint}\n`));
    if (debug && error.stack) ctx.io.stderr.write(ctx.redact(`${error.stack}\n`));
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.io.stderr.write(ctx.redact(`error: unexpected failure: ${message.split('\n')[0]} (this is a bug; set CIP_DEBUG=1 to see details)\n`));
  if (debug && error instanceof Error && error.stack) ctx.io.stderr.write(ctx.redact(`${error.stack}\n`));
  return exitCode('unexpected');
}
