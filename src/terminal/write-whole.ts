// Writes bytes to a file descriptor at once, with writeSync: stdout when it is a regular file (file-stdout.ts),
// and what is answered without loading cli.cjs (main.ts: `cip --help` into a file or a pipe). A write may be cut
// short (a file-size limit, a pipe that is full and does not wait): the rest is written in turn, after a pause
// while the pipe is full.
import { writeSync } from 'node:fs';

/** What writing came to: all of it written, nothing written (and why), or part written before `error`. */
export type Written = { ok: true } | { ok: false; nothing: boolean; error: NodeJS.ErrnoException };

export function writeWhole(
  fd: number,
  bytes: Uint8Array,
  write: (fd: number, bytes: Uint8Array, offset: number) => number = writeSync,
  pause: (ms: number) => void = sleep,
): Written {
  let written = 0;
  let waits = 0;
  while (written < bytes.byteLength) {
    try {
      written += write(fd, bytes, written);
      waits = 0;
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      // A full pipe whose reader is still there: it takes the rest once it has read (as Node's stream waits).
      if (failure.code === 'EAGAIN' && written > 0) pause(Math.min(2 ** waits++, 50));
      else return { ok: false, nothing: written === 0, error: failure };
    }
  }
  return { ok: true };
}

/** Waits ms milliseconds, holding the thread (nothing else runs before the answer is written). */
const sleep = (ms: number) => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
