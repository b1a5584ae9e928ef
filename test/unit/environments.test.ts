import { describe, expect, it } from 'vitest';
import { listsIn } from '../../src/api/environments.js';
import { buildPayload } from '../../src/domain/environments/payload.js';
import { UsageError } from '../../src/errors.js';

describe('listsIn', () => {
  const items = [{ id: 'a' }, { id: 'b' }];
  const cases: [string, unknown][] = [
    ['a bare array', items],
    ...['value', 'items', 'data', 'results', 'Value', 'Items', 'DATA', 'Results'].map((key): [string, unknown] => [
      `{"${key}": [...]}`,
      { [key]: items, count: 2 },
    ]),
  ];
  it.each(cases)('returns the list from %s', (_what, body) => {
    expect(listsIn(body).map((list) => list.items)).toEqual([items]);
  });

  it.each([
    ['an object without a list', { value: 'x', count: 2 }],
    ['a single record', { id: 'a', name: 'x' }],
    ['a string', 'list'],
    ['null', null],
  ])('finds no list in %s', (_what, body) => {
    expect(listsIn(body)).toEqual([]);
  });
});

describe('--data @file', () => {
  it('is not valid JSON, and the error points to --file', async () => {
    const error = await buildPayload({ data: '@env.json' }, async () => '').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).hint).toBe('use --file env.json to read a file');
  });
});
