// Streams for running commands in-process: no terminal anywhere, everything captured.
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/context.js';

export function fakeIO(overrides: Partial<IO> = {}): IO {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
    ...overrides,
  };
}
