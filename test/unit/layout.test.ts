// Wrapping record values and resolving --columns names: the pieces of the terminal views.
import { describe, expect, it } from 'vitest';
import { resolveColumns } from '../../src/output/columns.js';
import { displayWidth, wrapText } from '../../src/output/table.js';

describe('wrapText', () => {
  it.each([
    ['short', 10, ['short']],
    ['one two three', 7, ['one two', 'three']],
    ['one two three', 3, ['one', 'two', 'thr', 'ee']],
    ['abcdefghij', 4, ['abcd', 'efgh', 'ij']],
    ['ab abcdefgh', 4, ['ab', 'abcd', 'efgh']],
    ['', 5, ['']],
    ['exactly10!', 10, ['exactly10!']],
  ])('%j at %i cells is %j', (text, width, expected) => {
    expect(wrapText(text, width)).toEqual(expected);
  });

  it('measures wide characters in cells and never splits one', () => {
    const lines = wrapText('日本語のテキスト', 5);
    expect(lines.join('')).toBe('日本語のテキスト');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(5);
  });

  it('loses nothing: the lines joined again hold every character of a long word', () => {
    const word = 'x'.repeat(250);
    const lines = wrapText(`a ${word} b`, 60);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines.join('').replace(/ /g, '')).toBe(`a${word}b`);
    expect(lines).toHaveLength(6);
  });
});

describe('resolveColumns', () => {
  const rows = [{ Id: 1, name: 'a' }, { Id: 2, name: 'b', Extra: true }, 'not a record'];

  it('keeps a name some row has as it is', () => {
    expect(resolveColumns(['name'], rows)).toEqual(['name']);
  });

  it('finds a field spelt in another letter case', () => {
    expect(resolveColumns(['id', 'EXTRA'], rows)).toEqual(['Id', 'Extra']);
  });

  it('prefers the exact spelling when some row has it', () => {
    expect(resolveColumns(['id'], [{ Id: 1 }, { id: 2 }])).toEqual(['id']);
  });

  it('leaves a name no row has as given (an empty column)', () => {
    expect(resolveColumns(['missing'], rows)).toEqual(['missing']);
  });
});
