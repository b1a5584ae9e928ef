// Bytes written at once to a file descriptor (src/terminal/write-whole.ts), as `cip --help` into a file or a
// pipe is: a write cut short is continued, a full pipe is waited for, and a failure says whether anything was
// written (nothing: the run can still go the usual way; part: it is an error).
import { describe, expect, it } from 'vitest';
import { writeWhole } from '../../../src/terminal/write-whole.js';

const failure = (code: string) => Object.assign(new Error(code), { code });

/** A write that takes at most `step` bytes a call, or fails as `script` says for each call in turn. */
function scripted(script: (number | string)[]) {
  const got: number[] = [];
  const pauses: number[] = [];
  const write = (_fd: number, bytes: Uint8Array, offset: number) => {
    const next = script.shift() ?? bytes.byteLength - offset;
    if (typeof next === 'string') throw failure(next);
    const taken = Math.min(next, bytes.byteLength - offset);
    got.push(...bytes.subarray(offset, offset + taken));
    return taken;
  };
  return { write, pause: (ms: number) => pauses.push(ms), got, pauses };
}

const BYTES = Uint8Array.from({ length: 10 }, (_, i) => i);

describe('writeWhole', () => {
  it('writes everything, continuing a write that was cut short', () => {
    const { write, pause, got } = scripted([3, 4]);
    expect(writeWhole(1, BYTES, write, pause)).toStrictEqual({ ok: true });
    expect(got).toStrictEqual([...BYTES]);
  });

  it('waits while a pipe it has begun is full, longer each time up to 50 ms, and goes on', () => {
    const { write, pause, got, pauses } = scripted([4, ...Array<string>(8).fill('EAGAIN'), 2]);
    expect(writeWhole(1, BYTES, write, pause)).toStrictEqual({ ok: true });
    expect(got).toStrictEqual([...BYTES]);
    expect(pauses).toStrictEqual([1, 2, 4, 8, 16, 32, 50, 50]);
  });

  it('fails having written nothing when the first write fails, a full pipe too: the caller may still write it another way', () => {
    for (const code of ['EAGAIN', 'EPIPE', 'EFBIG']) {
      const { write, pause, got, pauses } = scripted([code]);
      expect(writeWhole(1, BYTES, write, pause)).toMatchObject({ ok: false, nothing: true, error: { code } });
      expect(got).toStrictEqual([]);
      expect(pauses).toStrictEqual([]);
    }
  });

  it('fails, having written part, at the first error after a write that was cut short', () => {
    const { write, pause, got } = scripted([4, 'EFBIG']);
    expect(writeWhole(1, BYTES, write, pause)).toMatchObject({ ok: false, nothing: false, error: { code: 'EFBIG' } });
    expect(got).toStrictEqual([0, 1, 2, 3]);
  });
});
