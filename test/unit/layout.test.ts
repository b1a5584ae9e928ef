// Wrapping record values and resolving --columns names: the pieces of the terminal views.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkColumns, project } from '../../src/output/columns.js';
import { UsageError } from '../../src/errors.js';
import { displayWidth, loadUnicodeWidths, wrapText } from '../../src/output/table.js';

beforeAll(loadUnicodeWidths);

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

describe('checkColumns', () => {
  const rows = [{ Id: 1, name: 'a', displayName: 'A' }, { Id: 2, name: 'b', Extra: true, settings: { retention: 30 } }, 'not a record'];
  const names = (requested: string[]) => checkColumns(requested, rows).map((column) => column.name);

  it('keeps a name some row has as it is', () => {
    expect(names(['name'])).toEqual(['name']);
  });

  it('finds a field spelt in another letter case', () => {
    expect(names(['id', 'EXTRA'])).toEqual(['Id', 'Extra']);
  });

  it('prefers the exact spelling when some row has it', () => {
    expect(checkColumns(['id'], [{ Id: 1 }, { id: 2 }]).map((column) => column.name)).toEqual(['id']);
  });

  it('finds a field by its header label', () => {
    expect(names(['display name', 'DISPLAY NAME'])).toEqual(['displayName', 'displayName']);
  });

  it('follows a dotted path into nested objects', () => {
    expect(checkColumns(['Settings.Retention'], rows)).toEqual([{ name: 'settings.retention', path: ['settings', 'retention'] }]);
  });

  it('refuses a name no row has, naming the fields', () => {
    const error = (() => {
      try {
        return checkColumns(['missing', 'name', 'nope'], rows);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe("unknown columns 'missing', 'nope'; the fields are: Id, name, displayName, Extra, settings");
  });

  it('takes names as given when there are no rows to check against', () => {
    expect(checkColumns(['anything'], [])).toEqual([{ name: 'anything', path: ['anything'] }]);
  });
});

describe('project', () => {
  it('keeps only the columns, in their order, nested ones under their parents', () => {
    const row = { id: 'a', name: 'n', settings: { retention: 30, tier: 'x' }, other: 1 };
    // 'missing' is a field of another row: this row leaves it out rather than invent a null.
    const columns = checkColumns(['settings.retention', 'id', 'missing'], [row, { missing: 1 }]);
    expect(JSON.stringify(project(row, columns))).toBe('{"settings":{"retention":30},"id":"a"}');
  });
});
