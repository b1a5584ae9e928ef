// Exact JSON (src/json/exact.ts) where the fast scan and the exact parser meet: a number a double would change
// is found wherever it stands, and a text with only plain numbers is read the way JSON.parse reads it.
import { describe, expect, it } from 'vitest';
import { ExactNumber, parseExactJson, stringifyExactJson } from '../../src/json/exact.js';

describe('parseExactJson', () => {
  it.each([
    ['1.50', new ExactNumber('1.50')],
    ['[1.50]', [new ExactNumber('1.50')]],
    ['{"a":"x","b":2.0}', { a: 'x', b: new ExactNumber('2.0') }],
    ['[1e400]', [new ExactNumber('1e400')]],
    ['[-0, 10]', [new ExactNumber('-0'), 10]],
    ['[123456789012345, 9007199254740993]', [123456789012345, new ExactNumber('9007199254740993')]],
    ['[1E3]', [new ExactNumber('1E3')]],
    ['[0, 0.5, -7, 100]', [0, 0.5, -7, 100]],
  ])('%s keeps its digits', async (text, expected) => {
    const value = await parseExactJson(text);
    expect(value).toEqual(expected);
    expect(stringifyExactJson(value)).toBe(text.replace(/, /g, ','));
  });

  it('reads a key given twice as JSON.parse does, the last one winning', async () => {
    await expect(parseExactJson('{"a":1,"a":2}')).resolves.toEqual({ a: 2 });
    await expect(parseExactJson('{"name":"x","name":"y","n":[1,2]}')).resolves.toEqual({ name: 'y', n: [1, 2] });
  });
});

describe('parseExactJson with a key given twice', () => {
  // JSON.parse, jq and Python keep the last value of a repeated key; so does cip, whatever the numbers are.
  it.each([
    ['{"a":1,"a":2}', '{"a":2}'],
    ['{"a":1.50,"a":2}', '{"a":2}'],
    ['{"a":2,"a":1.50}', '{"a":1.50}'],
    ['{"a":1.50,"b":1,"a":"x"}', '{"a":"x","b":1}'],
    ['{"a":{"b":1.50},"a":{"b":2.50}}', '{"a":{"b":2.50}}'],
    ['[{"v":9007199254740993,"v":9007199254740995}]', '[{"v":9007199254740995}]'],
  ])('%s is %s', async (text, expected) => {
    expect(stringifyExactJson(await parseExactJson(text))).toBe(expected);
  });
});
