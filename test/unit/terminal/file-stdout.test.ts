// stdout as a regular file (src/terminal/file-stdout.ts): written at once, in order, and failing as Node's own
// stream for a file fails (SyncWriteStream): the error, then 'close', and nothing taken after it.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStdout } from '../../../src/terminal/file-stdout.js';
import { tempDir } from '../../helpers/cli.js';

/** A FileStdout on a new file (or on `fd`), and what it emitted. */
function fileStdout(fd?: number) {
  const path = join(tempDir(), 'out');
  const descriptor = fd ?? openSync(path, 'w');
  opened.push(descriptor);
  const stream = new FileStdout(descriptor, process.nextTick);
  const events: string[] = [];
  stream.on('error', (error: NodeJS.ErrnoException) => events.push(`error ${error.code}`));
  stream.on('close', () => events.push('close'));
  return { stream, path, events };
}

const opened: number[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

/** Resolves after callbacks deferred with process.nextTick have run. */
const ticked = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('FileStdout', () => {
  it('writes each chunk at once, in order, strings and bytes alike, and calls back later', async () => {
    const { stream, path } = fileStdout();
    const called: number[] = [];
    expect(stream.write('héllo ', () => called.push(1))).toBe(true);
    expect(stream.write(Buffer.from('wörld\n'), () => called.push(2))).toBe(true);
    expect(stream.write('', () => called.push(3))).toBe(true);
    // On the disk before any callback ran, as writeSync puts it.
    expect(readFileSync(path, 'utf8')).toBe('héllo wörld\n');
    expect(called).toEqual([]);
    await ticked();
    expect(called).toEqual([1, 2, 3]);
    expect(stream).toMatchObject({ isTTY: false, columns: undefined, destroyed: false, writableEnded: false });
  });

  it('a write that fails: the callback gets its error, then the stream emits it and closes, and takes nothing more', async () => {
    // A file opened for reading: every write fails (EBADF), as a full disk fails every write.
    const path = join(tempDir(), 'in');
    closeSync(openSync(path, 'w'));
    const { stream, events } = fileStdout(openSync(path, 'r'));
    const errors: (string | undefined)[] = [];
    expect(stream.write('lost\n', (error) => errors.push((error as NodeJS.ErrnoException | undefined)?.code))).toBe(false);
    // Destroyed once the error is emitted, as Node's stream is: whoever waits for the stream sees the error first.
    expect(stream.destroyed).toBe(false);
    await ticked();
    expect(stream.destroyed).toBe(true);
    expect(errors).toEqual(['EBADF']);
    expect(events).toEqual(['error EBADF', 'close']);
    expect(stream.write('later\n', (error) => errors.push((error as NodeJS.ErrnoException | undefined)?.code))).toBe(false);
    await ticked();
    // Refused as Node refuses a write to a destroyed stream: by its callback, with no second 'error'.
    expect(errors).toEqual(['EBADF', 'ERR_STREAM_DESTROYED']);
    expect(events).toEqual(['error EBADF', 'close']);
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});
