// Reading files and stdin for commands, with errors a user can act on. Every read is bounded, and none can
// keep Ctrl-C waiting. A regular file is read at once; a FIFO or pipe (`<(pass show cip/key)`, /dev/stdin in
// a pipe) is read as the stream it is, as long as its writer takes, and an interrupt ends the wait; a
// character device is read without waiting, so /dev/zero ends at the size limit and a terminal is refused.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Context } from '../context.js';
import { CipError, InterruptedError, UsageError } from '../errors.js';
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
  EAGAIN: 'it has nothing to read now, and cip does not wait on a device',
  // A socket cannot be opened by path; /dev/stdin is one when a program (Node's child_process) started cip.
  ENXIO: "it is a socket (to read stdin, give '-')",
};

function readError(error: unknown, what: string): CipError {
  if (error instanceof CipError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return new UsageError(`cannot read ${what}: ${REASONS[code] ?? (code || String(error))}`);
}

function tooLarge(what: string): UsageError {
  return new UsageError(`${what}: input too large: more than ${MAX_INPUT_BYTES / (1024 * 1024)} MiB`);
}

/**
 * Input as text: UTF-8, or refused (exit 2). Read otherwise, each byte cip could not read would become U+FFFD,
 * and be sent to the API in place of what the file said. A byte-order mark is kept, as it was.
 */
function utf8(bytes: Buffer, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `${what} is not valid UTF-8, and cip reads its input as UTF-8`,
      'convert it first (iconv -f LATIN1 -t UTF-8 FILE, naming the charset it is in)',
    );
  }
}

/** Hands a promise the input as text, or the error that it is not UTF-8. */
function settleText(bytes: Buffer, what: string, resolve: (text: string) => void, reject: (error: Error) => void): void {
  try {
    resolve(utf8(bytes, what));
  } catch (error) {
    reject(readError(error, what));
  }
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
      } else {
        settleText(Buffer.concat(chunks, size), what, resolve, reject);
      }
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

/** Reads a descriptor to its end, no further than the limit: a regular file, or a device that never waits. */
function readToEnd(fd: number, what: string): string {
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
  return utf8(Buffer.concat(chunks, size), what);
}

/**
 * A FIFO or pipe read as a stream, to its end (every writer gone), no further than the limit. Opened without
 * blocking, the read waits for a writer in the event loop, so an interrupt ends it at once. The stream owns
 * the descriptor from here on and closes it.
 */
async function readPipe(ctx: Context, fd: number, what: string): Promise<string> {
  const { Socket } = await import('node:net');
  let pipe: InstanceType<typeof Socket>;
  try {
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    closeSync(fd);
    throw readError(error, what);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      ctx.signal.removeEventListener('abort', onAbort);
      pipe.destroy();
      if (error) reject(error);
      else {
        settleText(Buffer.concat(chunks, size), what, resolve, reject);
      }
    };
    const onAbort = () => finish(new InterruptedError());
    pipe.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_INPUT_BYTES) finish(tooLarge(what));
      else chunks.push(chunk);
    });
    pipe.once('end', () => finish());
    pipe.on('error', (error) => finish(readError(error, what)));
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A path's contents, up to the limit. It is opened without blocking (a FIFO without a writer too) and its
 * kind is checked on the descriptor that is then read, so nothing can swap it in between.
 */
async function readPath(ctx: Context, path: string, what: string): Promise<string> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw readError(error, what);
  }
  let kept = false;
  try {
    const stats = fstatSync(fd);
    if (stats.isFIFO()) {
      kept = true;
      return await readPipe(ctx, fd, what);
    }
    if (stats.isCharacterDevice() && (await import('node:tty')).isatty(fd)) {
      throw new UsageError(`cannot read ${what}: it is a terminal; pipe the input in`);
    }
    if (!stats.isFile() && !stats.isCharacterDevice()) {
      throw new UsageError(`cannot read ${what}: it is ${kindOf(stats)}, not a regular file or a pipe`);
    }
    if (stats.size > MAX_INPUT_BYTES) throw tooLarge(what);
    return readToEnd(fd, what);
  } catch (error) {
    throw readError(error, what);
  } finally {
    if (!kept) closeSync(fd);
  }
}

/** Reads a path, or stdin for '-'; flag names the option in errors. */
export async function readInput(ctx: Context, path: string, flag: string): Promise<string> {
  if (path === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError(`${flag} - reads stdin, but stdin is a terminal; pipe the input in`);
    return readStdin(ctx, `${flag} - (stdin)`);
  }
  return readPath(ctx, path, `${flag} ${printable(path)}`);
}
