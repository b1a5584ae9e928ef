// readInput (src/commands/io.ts): what a command reads for --file and the key files, and the errors a user sees
// when that cannot be done. Files, FIFOs and stdin, each bounded.
import { execFileSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { closeSync, mkdirSync, openSync, readdirSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, readInput } from '../../../src/commands/io.js';
import { InterruptedError, UsageError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { fakeIO, testContext } from '../../helpers/io.js';

function contextWith(stdin: PassThrough, options: { stdinIsTTY?: boolean; signal?: AbortSignal } = {}) {
  return testContext(fakeIO({ stdin, stdinIsTTY: options.stdinIsTTY ?? false }), {}, '0.0.0', options.signal);
}

function fileContext() {
  const stdin = new PassThrough();
  stdin.end();
  return contextWith(stdin);
}

/** A file of `size` bytes that takes no room: its size is all fstat and the limit look at. */
function sparseFile(size: number): string {
  const path = join(tempDir(), 'big.json');
  const fd = openSync(path, 'w');
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

describe('readInput from a file', () => {
  it('reads a regular file whole, as UTF-8', async () => {
    const path = join(tempDir(), 'payload.json');
    writeFileSync(path, '{"name":"Zürich"}\n');
    await expect(readInput(fileContext(), path, '--file')).resolves.toBe('{"name":"Zürich"}\n');
  });

  it('reads a file of more than one read-sized chunk (1 MiB) to its end', async () => {
    const path = join(tempDir(), 'two-chunks.txt');
    const text = `${'a'.repeat(1 << 20)}${'b'.repeat(1000)}`;
    writeFileSync(path, text);
    const read = await readInput(fileContext(), path, '--file');
    expect(read).toHaveLength(text.length);
    expect(read.endsWith('b'.repeat(1000))).toBe(true);
  });

  it('reads an empty file as empty text', async () => {
    const path = join(tempDir(), 'empty.json');
    writeFileSync(path, '');
    await expect(readInput(fileContext(), path, '--file')).resolves.toBe('');
  });

  it('accepts a file of exactly the limit and refuses one byte more, naming the limit in MiB', async () => {
    expect(MAX_INPUT_BYTES).toBe(64 * 1024 * 1024);
    const atLimit = await readInput(fileContext(), sparseFile(MAX_INPUT_BYTES), '--file');
    expect(atLimit).toHaveLength(MAX_INPUT_BYTES);
    const path = sparseFile(MAX_INPUT_BYTES + 1);
    await expect(readInput(fileContext(), path, '--file')).rejects.toThrow(
      new UsageError(`--file ${path}: input too large: more than 64 MiB`),
    );
  });

  it('refuses a directory, saying it is one', async () => {
    const dir = tempDir();
    await expect(readInput(fileContext(), dir, '--file')).rejects.toThrow(
      new UsageError(`cannot read --file ${dir}: it is a directory, not a regular file or a pipe`),
    );
  });

  it('reads /dev/null as empty, and refuses /dev/zero at the limit instead of reading forever', async () => {
    await expect(readInput(fileContext(), '/dev/null', '--file')).resolves.toBe('');
    await expect(readInput(fileContext(), '/dev/zero', '--file')).rejects.toThrow(
      new UsageError('--file /dev/zero: input too large: more than 64 MiB'),
    );
  });

  it('says why a path cannot be opened, in words', async () => {
    const dir = tempDir();
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
    symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
    const ctx = fileContext();
    await expect(readInput(ctx, join(dir, 'missing'), '--file')).rejects.toThrow(
      new UsageError(`cannot read --file ${join(dir, 'missing')}: no such file`),
    );
    await expect(readInput(ctx, join(file, 'inside'), '--file')).rejects.toThrow(
      new UsageError(`cannot read --file ${join(file, 'inside')}: a part of the path is not a directory`),
    );
    await expect(readInput(ctx, join(dir, 'loop-a'), '--file')).rejects.toThrow(
      new UsageError(`cannot read --file ${join(dir, 'loop-a')}: too many symbolic links`),
    );
  });

  it('names an error it has no words for by its code', async () => {
    const path = join(tempDir(), 'x'.repeat(300));
    await expect(readInput(fileContext(), path, '--file')).rejects.toThrow(/^cannot read --file .*: ENAMETOOLONG$/);
  });

  it.runIf(process.platform === 'linux')('names a read error by its code (EIO)', async () => {
    // A regular file whose first byte cannot be read: the process's own memory at address 0.
    await expect(readInput(fileContext(), '/proc/self/mem', '--file')).rejects.toThrow(
      new UsageError('cannot read --file /proc/self/mem: EIO'),
    );
  });

  it('shows a path with control characters cleaned', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    await expect(readInput(fileContext(), join(dir, 'sub', 'a\u001b[2Jb'), '--file')).rejects.toThrow(
      new UsageError(`cannot read --file ${join(dir, 'sub', 'a?[2Jb')}: no such file`),
    );
  });

  it('closes every file it opens, whether the read succeeds or fails', async () => {
    const path = join(tempDir(), 'small.json');
    writeFileSync(path, '{}');
    const dir = tempDir();
    const ctx = fileContext();
    const before = readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 40; i++) {
      await readInput(ctx, path, '--file');
      await readInput(ctx, dir, '--file').catch(() => undefined);
    }
    expect(readdirSync('/proc/self/fd').length - before).toBeLessThan(40);
  });
});

describe('readInput from stdin (-)', () => {
  it('reads stdin to its end', async () => {
    const stdin = new PassThrough();
    const reading = readInput(contextWith(stdin), '-', '--file');
    stdin.write('{"a":');
    stdin.end('1}');
    await expect(reading).resolves.toBe('{"a":1}');
  });

  it('reads stdin that an earlier prompt paused', async () => {
    const stdin = new PassThrough();
    stdin.pause();
    stdin.end('key-from-a-pipe');
    await expect(readInput(contextWith(stdin), '-', '--api-key-file')).resolves.toBe('key-from-a-pipe');
  });

  it('reads stdin that delivers text rather than bytes, counting its bytes', async () => {
    const stdin = new PassThrough();
    stdin.setEncoding('utf8');
    stdin.end('ü€ text');
    await expect(readInput(contextWith(stdin), '-', '--file')).resolves.toBe('ü€ text');
  });

  it('refuses stdin that is a terminal: nothing would ever arrive', async () => {
    await expect(readInput(contextWith(new PassThrough(), { stdinIsTTY: true }), '-', '--file')).rejects.toThrow(
      new UsageError('--file - reads stdin, but stdin is a terminal; pipe the input in'),
    );
  });

  it('accepts exactly the limit from stdin and refuses more, then stops reading', async () => {
    const exact = new PassThrough();
    const reading = readInput(contextWith(exact), '-', '--file');
    exact.write(Buffer.alloc(MAX_INPUT_BYTES - 1, 0x61));
    exact.end('b');
    const text = await reading;
    expect(text).toHaveLength(MAX_INPUT_BYTES);
    expect(text.endsWith('ab')).toBe(true);

    const over = new PassThrough();
    const refused = readInput(contextWith(over), '-', '--file');
    over.write(Buffer.alloc(MAX_INPUT_BYTES, 0x61));
    over.write('b');
    await expect(refused).rejects.toThrow(new UsageError('--file - (stdin): input too large: more than 64 MiB'));
    expect(over.isPaused()).toBe(true);
    expect(over.listenerCount('data')).toBe(0);
  });

  it('turns a stream error into an error line that names stdin', async () => {
    const stdin = new PassThrough();
    const reading = readInput(contextWith(stdin), '-', '--subscription-key-file');
    stdin.destroy(new Error('EIO: i/o error, read'));
    await expect(reading).rejects.toThrow(new UsageError('cannot read --subscription-key-file - (stdin): EIO: i/o error, read'));
  });

  it('stops at once when the user interrupts, before or during the read', async () => {
    const before = new AbortController();
    before.abort();
    await expect(readInput(contextWith(new PassThrough(), { signal: before.signal }), '-', '--file')).rejects.toBeInstanceOf(
      InterruptedError,
    );

    const during = new AbortController();
    const stdin = new PassThrough();
    const reading = readInput(contextWith(stdin, { signal: during.signal }), '-', '--file');
    stdin.write('half of it');
    during.abort();
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
    expect(stdin.listenerCount('data')).toBe(0);
    expect(stdin.listenerCount('end')).toBe(0);
    expect(stdin.listenerCount('error')).toBe(0);
  });

  it('leaves no listener behind on the interrupt signal or stdin once the read is over', async () => {
    const controller = new AbortController();
    const stdin = new PassThrough();
    const reading = readInput(contextWith(stdin, { signal: controller.signal }), '-', '--file');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    stdin.end('done');
    await expect(reading).resolves.toBe('done');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(stdin.listenerCount('data') + stdin.listenerCount('end') + stdin.listenerCount('error')).toBe(0);
  });
});

describe('readInput from a FIFO (process substitution, a named pipe)', () => {
  function fifo(): string {
    const path = join(tempDir(), 'fifo');
    execFileSync('mkfifo', [path]);
    return path;
  }

  it('reads what its writer writes, to the end, however long the writer takes to come', async () => {
    const path = fifo();
    const reading = readInput(fileContext(), path, '--api-key-file');
    // Opening a FIFO for writing waits for a reader: once it returns, cip has it open and is waiting.
    const writer = await open(path, 'w');
    await writer.write('key-from-');
    await writer.write('pass\n');
    await writer.close();
    await expect(reading).resolves.toBe('key-from-pass\n');
  });

  it('refuses more than the limit from a FIFO', async () => {
    const path = fifo();
    const reading = readInput(fileContext(), path, '--file');
    const writer = await open(path, 'w');
    // Whether the last bytes land before the reader goes is a race; the write's outcome is not the point.
    const writing = writer.write(Buffer.alloc(MAX_INPUT_BYTES + 1, 0x61)).then(
      () => undefined,
      () => undefined,
    );
    await expect(reading).rejects.toThrow(new UsageError(`--file ${path}: input too large: more than 64 MiB`));
    await writing;
    await writer.close();
  });

  it('stops at once when the user interrupts a wait on a FIFO nobody writes to', async () => {
    const path = fifo();
    const controller = new AbortController();
    const stdin = new PassThrough();
    stdin.end();
    const reading = readInput(contextWith(stdin, { signal: controller.signal }), path, '--api-key-file');
    const writer = await open(path, 'w');
    let settled = false;
    void reading.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    controller.abort();
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await writer.close();
  });

  it('an interrupt before the read ends it at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const stdin = new PassThrough();
    stdin.end();
    await expect(readInput(contextWith(stdin, { signal: controller.signal }), fifo(), '--file')).rejects.toBeInstanceOf(InterruptedError);
  });
});
