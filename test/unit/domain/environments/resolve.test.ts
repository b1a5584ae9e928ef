// Edges of resolving ids or names to environments (src/domain/environments/resolve.ts), in-process against a list
// given directly: a name two environments share (one without an id), a match the list gives without an id,
// the not-found errors for one and for many arguments, and the spinner while the list is read.
import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import type { EnvironmentsApi } from '../../../../src/api/environments.js';
import { listForLookup, notFound, resolveIn, resolveOne } from '../../../../src/domain/environments/resolve.js';
import { ProtocolError, UsageError } from '../../../../src/errors.js';
import { fakeIO, testContext } from '../../../helpers/io.js';
import { it } from '../../../helpers/fixture.js';

const apiListing = (items: unknown[]) =>
  ({ list: () => Promise.resolve(items), read: () => Promise.resolve({ items, validator: undefined }) }) as unknown as EnvironmentsApi;

describe('resolveIn', () => {
  it('a name two environments share is refused with their ids, "(no id)" for one without', () => {
    let error: unknown;
    try {
      resolveIn([{ id: 'e1', name: 'twin' }, { name: 'twin' }], ['twin']);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe("'twin' matches 2 environments: e1, (no id)");
  });

  it('a match without an id cannot be addressed: a protocol error, not a request', () => {
    expect(() => resolveIn([{ id: 'e1', name: 'a' }, { name: 'b' }], ['a', 'b'])).toThrow(
      new ProtocolError("the environment 'b' has no id in the list, so cip cannot address it"),
    );
    expect(() => resolveIn([{ name: 'b' }], ['b'])).toThrow(ProtocolError);
  });

  it('finds by id first, then by name; the rest are missing in the order given', () => {
    const items = [
      { id: 'x', name: 'y' },
      { id: 'y', name: 'z' },
    ];
    expect(resolveIn(items, ['y', 'z', 'q', 'p'])).toEqual({
      found: [
        { argument: 'y', id: 'y', name: 'z', record: items[1] },
        { argument: 'z', id: 'y', name: 'z', record: items[1] },
      ],
      missing: ['q', 'p'],
    });
  });
});

describe('notFound', () => {
  it.each([
    [['a'], "no environment has the id or name 'a'"],
    [['a', 'b'], "no environment has these ids or names: 'a', 'b'"],
  ])('%j: %s (exit 5)', (missing, message) => {
    const error = notFound(missing);
    expect(error.message).toBe(message);
    expect(error.exitCode).toBe(5);
    expect(error.hint).toBe("nothing was sent; 'cip env list' shows the ids and names");
  });
});

describe('resolveOne', () => {
  it('one environment by id or name; none is not-found', async () => {
    const api = apiListing([{ id: 'e1', name: 'a' }]);
    const ctx = testContext(fakeIO());
    expect(await resolveOne(ctx, api, 'a')).toEqual({
      argument: 'a',
      id: 'e1',
      name: 'a',
      record: { id: 'e1', name: 'a' },
      validator: undefined,
    });
    await expect(resolveOne(ctx, api, 'b')).rejects.toThrow("no environment has the id or name 'b'");
  });
});

describe('listForLookup', () => {
  it('at a terminal, says what it is doing while the list is read', async () => {
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ctx = testContext(fakeIO({ stderr, stdoutIsTTY: true, stderrIsTTY: true, columns: 100, stderrColumns: 100 }), {
      PATH: process.env.PATH,
      TERM: 'xterm',
    });
    expect(await listForLookup(ctx, apiListing([{ id: 'e1' }]))).toEqual([{ id: 'e1' }]);
    expect(Buffer.concat(chunks).toString('utf8')).toContain('Looking up the environments');
  });
});
