// Reading files and stdin for commands, with errors a user can act on. Every read is bounded, and nothing
// but a regular file (or '-' for stdin) is read: a FIFO would block cip, and Ctrl-C with it, until someone
// writes to it; /dev/zero would never end.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { kindOf } from '../config/store.js';
import { printable } from '../text/sanitize.js';

/** The largest input cip reads from a file or stdin (a payload, a key). */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
};

function tooLarge(what: string): UsageError {
  return new UsageError(`${what}: input too large: more than ${MAX_INPUT_BYTES / (1024 * 1024)} MiB`);
}

/** Reads stdin to its end, no further than the limit, and stops at once when the user interrupts. */
function readStdin(ctx: Context, what: string): Promise<string> {
  const { stdin } = ctx.io;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      ctx.signal.removeEventListener('abort', onAbort);
      if (error) {
        stdin.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > MAX_INPUT_BYTES) {
        finish(tooLarge(what));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(new UsageError(`cannot read ${what}: ${error.message}`));
    const onAbort = () => finish(new InterruptedError());
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
    stdin.resume();
  });
}

/**
 * A regular file's contents, up to the limit. It is opened without blocking and checked on the descriptor
 * that is then read, so nothing can swap it for a FIFO in between.
 */
function readRegularFile(path: string, what: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`cannot read ${what}: ${REASONS[code] ?? code}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UsageError(`cannot read ${what}: it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > MAX_INPUT_BYTES) throw tooLarge(what);
    // Read to the end, which may lie past what fstat said if the file grows, but never past the limit.
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, MAX_INPUT_BYTES + 1 - size));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      size += read;
      if (size > MAX_INPUT_BYTES) throw tooLarge(what);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`cannot read ${what}: ${REASONS[code] ?? (code || String(error))}`);
  } finally {
    closeSync(fd);
  }
}

/** Reads a path, or stdin for '-'; flag names the option in errors. */
export async function readInput(ctx: Context, path: string, flag: string): Promise<string> {
  if (path === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError(`${flag} - reads stdin, but stdin is a terminal; pipe the input in`);
    return readStdin(ctx, `${flag} - (stdin)`);
  }
  return readRegularFile(path, `${flag} ${printable(path)}`);
}
