// Reading files and stdin for commands, with errors a user can act on.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
};

/** Reads a path, or stdin for '-'; flag names the option in errors. */
export async function readInput(ctx: Context, path: string, flag: string): Promise<string> {
  if (path === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError(`${flag} - reads stdin, but stdin is a terminal; pipe the input in`);
    return readStream(ctx.io.stdin);
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`cannot read ${flag} ${printable(path)}: ${REASONS[code] ?? code}`);
  }
}
