// The factory (src/context.ts) before argv is parsed: a new context holds the default global options, so
// anything that asks before (or without) the preAction hook acts as a run with no options would.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GLOBALS } from '../../src/cli/globals.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';

describe('a new Context', () => {
  it('holds the default global options, in a copy of its own', () => {
    const ctx = testContext();
    expect(ctx.globals).toEqual(DEFAULT_GLOBALS);
    expect(ctx.globals).not.toBe(DEFAULT_GLOBALS);
  });

  it('talks as with no options: colour, spinners and a table on a terminal, notes not silenced', () => {
    const stderr = new PassThrough();
    const ctx = testContext(fakeIO({ stderr, stdoutIsTTY: true, stderrIsTTY: true, columns: 80, stderrColumns: 80 }), { TERM: 'xterm' });
    expect(ctx.io.colorLevel(true)).toBe(2);
    expect(ctx.io.outputFormat).toBe('table');
    expect(ctx.io.spinnerEnabled).toBe(true);
    ctx.io.info('a note');
    expect(drain(stderr)).toBe('a note\n');
  });
});
