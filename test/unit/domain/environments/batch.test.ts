// Edges of the batch runner that delete and apply share (src/domain/environments/batch.ts), in-process with a context
// over captured streams: what is said per item in a pipe and at a terminal (the live count, failures held until
// the spinner stops), an interrupt at each point (before an item, during one), an error that is no CipError,
// the interrupt report and exit codes of finishBatch, and the hint of a refused confirmation.
import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import { finishBatch, refuseUnconfirmed, runBatch, type ItemState } from '../../../../src/domain/environments/batch.js';
import type { Context } from '../../../../src/context.js';
import { CipError, InterruptedError } from '../../../../src/errors.js';
import { fakeIO, testContext } from '../../../helpers/io.js';
import { it } from '../../../helpers/fixture.js';

interface Captured {
  ctx: Context;
  stderr: () => string;
  abort: () => void;
}

/** A context whose stderr is captured; `terminal` makes stdout and stderr terminals 100 columns wide (a spinner). */
function context(terminal: boolean, streams: { stdinIsTTY?: boolean; stderrIsTTY?: boolean } = {}): Captured {
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const controller = new AbortController();
  const io = terminal
    ? fakeIO({ stderr, stdoutIsTTY: true, stderrIsTTY: true, columns: 100, stderrColumns: 100 })
    : fakeIO({ stderr, ...streams });
  const ctx = testContext(io, { PATH: process.env.PATH, TERM: 'xterm' }, '0.0.0', controller.signal);
  return { ctx, stderr: () => Buffer.concat(chunks).toString('utf8'), abort: () => controller.abort() };
}

const failure = (item: string) => new CipError('rejected', `could not delete ${item}`);

/** A batch over names: 'bad…' fails with a CipError, the others are done. */
function batch(
  items: string[],
  extra: Partial<{ concurrency: number; run: (item: string) => Promise<{ state: 'done'; line: string }> }> = {},
) {
  return {
    items,
    concurrency: extra.concurrency ?? 2,
    verb: 'Deleting',
    describe: (item: string) => `thing ${item}`,
    run:
      extra.run ??
      ((item: string) =>
        item.startsWith('bad') ? Promise.reject(failure(item)) : Promise.resolve({ state: 'done' as const, line: `Deleted ${item}.` })),
  };
}

const done = (name: string): ItemState => ({ state: 'done', line: `Deleted ${name}.` });

const finish = (states: ItemState[], interrupted: boolean) => ({
  names: states.map((_state, index) => `e${index}`),
  states,
  interrupted,
  doneWord: 'deleted',
  target: 'in profile p',
});

describe('runBatch in a pipe', () => {
  it('says each item as it ends: a success on one line, a failure as a warning; the states in item order', async () => {
    const { ctx, stderr } = context(false);
    const result = await runBatch(ctx, batch(['a', 'bad1', 'c']));
    expect(stderr()).toBe('Deleted a.\nwarning: could not delete bad1\nDeleted c.\n');
    expect(result).toEqual({
      interrupted: false,
      states: [
        { state: 'done', line: 'Deleted a.' },
        { state: 'failed', error: failure('bad1') },
        { state: 'done', line: 'Deleted c.' },
      ],
    });
  });

  it('says nothing of a single item that fails: its error is the command error', async () => {
    const { ctx, stderr } = context(false);
    const result = await runBatch(ctx, batch(['bad']));
    expect(stderr()).toBe('');
    expect(result.states).toEqual([{ state: 'failed', error: failure('bad') }]);
  });

  it('an error that is no CipError is not an item failure: it ends the batch', async () => {
    const { ctx } = context(false);
    const run = () => Promise.reject(new TypeError('a bug'));
    await expect(runBatch(ctx, batch(['a', 'b'], { run }))).rejects.toThrow(TypeError);
  });
});

describe('runBatch at a terminal', () => {
  it('counts on the spinner, prints no success lines, and lists the failures once it stops', async () => {
    const { ctx, stderr } = context(true);
    expect(ctx.io.spinnerEnabled).toBe(true);
    const result = await runBatch(ctx, batch(['a', 'bad1', 'c', 'bad2'], { concurrency: 1 }));
    const text = stderr();
    for (const count of ['0/4', '1/4', '2/4', '3/4', '4/4']) expect(text).toContain(`Deleting ${count}`);
    expect(text).not.toContain('thing');
    expect(text).not.toContain('Deleted');
    expect(text).not.toContain('-1/4');
    // The failures come after the last frame, in the order they happened.
    const held = text.slice(text.lastIndexOf('Deleting 4/4'));
    expect(held).toMatch(/^Deleting 4\/4[^\n]*warning: could not delete bad1\nwarning: could not delete bad2\n$/);
    expect(text.indexOf('could not delete')).toBe(text.indexOf('could not delete bad1', text.lastIndexOf('Deleting 4/4')));
    expect(result.states.map((state) => state.state)).toEqual(['done', 'failed', 'done', 'failed']);
  });

  it('names a single item on the spinner, with no count', async () => {
    const { ctx, stderr } = context(true);
    await runBatch(ctx, batch(['a']));
    const text = stderr();
    expect(text).toContain('Deleting thing a');
    expect(text).not.toContain('/1');
  });
});

describe('runBatch interrupted', () => {
  it('an interrupt between items: nothing more is started; the rest are not attempted', async () => {
    const { ctx, abort } = context(false);
    const started: string[] = [];
    const run = (item: string) => {
      started.push(item);
      abort();
      return Promise.resolve({ state: 'done' as const, line: `Deleted ${item}.` });
    };
    const result = await runBatch(ctx, batch(['a', 'b', 'c'], { concurrency: 1, run }));
    expect(started).toEqual(['a']);
    expect(result).toEqual({
      interrupted: true,
      states: [{ state: 'done', line: 'Deleted a.' }, { state: 'not-attempted' }, { state: 'not-attempted' }],
    });
  });

  it('an interrupt that ends a request (InterruptedError, or any failure once aborted) leaves it under way', async () => {
    for (const how of ['InterruptedError', 'aborted'] as const) {
      const { ctx, stderr, abort } = context(false);
      const started: string[] = [];
      const run = (item: string) => {
        started.push(item);
        if (how === 'aborted') abort();
        return Promise.reject(how === 'aborted' ? failure(item) : new InterruptedError());
      };
      const result = await runBatch(ctx, batch(['a', 'b'], { concurrency: 1, run }));
      expect(started, how).toEqual(['a']);
      expect(result, how).toEqual({ interrupted: true, states: [{ state: 'under-way' }, { state: 'not-attempted' }] });
      expect(stderr(), how).toBe('');
    }
  });
});

describe('finishBatch', () => {
  it.each<[string, ItemState[], string]>([
    [
      'one done, one under way, one not attempted',
      [done('e0'), { state: 'under-way' }, { state: 'not-attempted' }],
      'warning: interrupted: deleted e0; e1 may or may not have been deleted (its request was under way); not attempted: e2\n',
    ],
    ['none done', [{ state: 'not-attempted' }, { state: 'not-attempted' }], 'warning: interrupted: deleted none; not attempted: e0, e1\n'],
    ['all done', [done('e0'), done('e1')], 'warning: interrupted: deleted e0, e1; not attempted: none\n'],
  ])('after an interrupt (%s): says what became of each, and exits as interrupted', (_case, states, said) => {
    const { ctx, stderr } = context(false);
    expect(() => finishBatch(ctx, finish(states, true))).toThrow(InterruptedError);
    expect(stderr()).toBe(said);
  });

  it('after an interrupt, the command that finishes the job comes last: the items failed, under way or not attempted', () => {
    const states: ItemState[] = [done('e0'), { state: 'failed', error: failure('e1') }, { state: 'under-way' }, { state: 'not-attempted' }];
    const left: (readonly number[])[] = [];
    const resume = (indexes: readonly number[]) => {
      left.push(indexes);
      return `cip env delete ${indexes.map((index) => `e${index}`).join(' ')}`;
    };
    const log = context(false);
    expect(() => finishBatch(log.ctx, { ...finish(states, true), resume })).toThrow(InterruptedError);
    expect(log.stderr()).toBe(
      'warning: interrupted: deleted e0; failed: e1; e2 may or may not have been deleted (its request was under way); ' +
        'not attempted: e3; to finish: cip env delete e1 e2 e3\n',
    );
    const terminal = context(true);
    expect(() => finishBatch(terminal.ctx, { ...finish(states, true), resume })).toThrow(InterruptedError);
    expect(terminal.stderr()).toBe(
      [
        'warning: interrupted: 1 deleted, 1 failed, 1 under way (may or may not have been deleted), 1 not attempted',
        '  deleted: e0',
        '  failed: e1',
        '  under way: e2',
        '  not attempted: e3',
        'To finish (the one under way may be deleted already): cip env delete e1 e2 e3',
        '',
      ].join('\n'),
    );
    expect(left).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  it('after an interrupt with nothing left (every one done meanwhile), no command', () => {
    const { ctx, stderr } = context(false);
    const resume = () => 'cip env delete';
    expect(() => finishBatch(ctx, { ...finish([done('e0'), done('e1')], true), resume })).toThrow(InterruptedError);
    expect(stderr()).toBe('warning: interrupted: deleted e0, e1; not attempted: none\n');
  });

  it('after an interrupt of a single item: no report, only the interrupt', () => {
    const { ctx, stderr } = context(false);
    expect(() => finishBatch(ctx, finish([{ state: 'under-way' }], true))).toThrow(InterruptedError);
    expect(stderr()).toBe('');
  });
});

describe('refuseUnconfirmed', () => {
  it.each([
    [true, true, 'prompts are off under --quiet; pass --yes to confirm'],
    [true, false, 'pass --yes to confirm'],
    [false, true, 'pass --yes to confirm'],
    [false, false, 'pass --yes to confirm'],
  ])('stdin a terminal: %s, stderr a terminal: %s → the hint %j', (stdinIsTTY, stderrIsTTY, hint) => {
    const { ctx } = context(false, { stdinIsTTY, stderrIsTTY });
    const error = refuseUnconfirmed(ctx, 'delete 2 environments');
    expect(error.message).toBe('refusing to delete 2 environments without confirmation');
    expect(error.hint).toBe(hint);
  });
});
