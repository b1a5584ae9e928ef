// Column choice and --columns (src/output/columns.ts) at their edges: which field is the id, what a cell
// shows for a list, how a named column is found (exact, any case, header label, dotted path, four deep), the
// usage error for an unknown one, and the rows as projected for JSON and as raw values for TSV.
import { describe, expect, it } from 'vitest';
import {
  cellText,
  cellsOf,
  checkColumns,
  chooseColumns,
  project,
  topLevel,
  valuesOf,
  VALUE_COLUMN,
  type Column,
} from '../../src/output/columns.js';
import { UsageError } from '../../src/errors.js';

const path = (name: string): Column => ({ name, path: name.split('.') });

describe('chooseColumns', () => {
  it.each([
    ['a null field is a scalar, in field order', [{ id: 1, note: null, size: 2 }], ['id', 'note', 'size']],
    ['only a whole field ending in id is an id', [{ name: 'web', identity: 'x', ownerId: 'u-1' }], ['ownerId', 'name', 'identity']],
    ['no id-like field: names first', [{ size: 1, identity: 'x', title: 't' }], ['title', 'size', 'identity']],
  ])('%s', (_, rows, expected) => {
    expect(chooseColumns(rows)).toEqual(expected);
  });
});

describe('cellText for a list', () => {
  it.each([
    [[], ''],
    [['a'.repeat(18), 'b'.repeat(20)], `${'a'.repeat(18)}, ${'b'.repeat(20)}`],
    [['a'.repeat(18), 'b'.repeat(21)], '[2 items]'],
    [[null, 'x'], '[2 items]'],
    [[{ a: 1 }], '[1 item]'],
  ])('%j shows %j', (value, expected) => {
    expect(cellText(value)).toBe(expected);
  });
});

describe('checkColumns', () => {
  const rows = [
    {
      id: 'env-1',
      userName: 'ana',
      displayName: 'Web',
      straße_name: 'Hauptstraße',
      tag: 'abc',
      note: null,
      settings: { retention: 7, a: { b: { c: { d: 'deep' } } } },
    },
  ];

  it.each([
    ['USERNAME', 'userName', 'another letter case'],
    ['username', 'userName', 'lower case'],
    ['display name', 'displayName', 'the header label'],
    ['  Display   NAME ', 'displayName', 'the header label, spaces squashed'],
    ['straße name', 'straße_name', 'a label whose upper case is longer (ß is SS)'],
    ['settings.a.b.c', 'settings.a.b.c', 'a path four deep'],
    ['SETTINGS.RETENTION', 'settings.retention', 'a path in another case'],
  ])('finds %j as %j (%s)', (wanted, name) => {
    const [column] = checkColumns([wanted], rows);
    expect(column).toEqual({ name, path: name.split('.') });
  });

  it.each([
    ['settings.a.b.c.d', 'five deep is beyond the walk'],
    ['tag.0', 'a string has no fields'],
    ['note.x', 'null has no fields'],
    ['dis playname', 'a label with its space moved'],
    ['displayname x', 'a label with more words'],
  ])('does not find %j (%s)', (wanted) => {
    expect(() => checkColumns([wanted], rows)).toThrow(UsageError);
  });

  it('names the unknown columns, one or several, lists the top-level fields, and hints at dots and case', () => {
    const fields = 'id, userName, displayName, straße_name, tag, note, settings';
    const one = (() => {
      try {
        checkColumns(['id', 'nope'], rows);
      } catch (error) {
        return error;
      }
    })();
    expect(one).toBeInstanceOf(UsageError);
    expect((one as UsageError).message).toBe(`unknown column 'nope'; the fields are: ${fields}`);
    expect((one as UsageError).hint).toBe('nested fields are named with dots (settings.retention); names match in any letter case');
    expect(() => checkColumns(['nope', 'zip\u001b[31m'], rows)).toThrow(
      `unknown columns 'nope', 'zip\\u001b[31m'; the fields are: ${fields}`,
    );
  });
});

describe('project, valuesOf, cellsOf', () => {
  const row = { id: 'env-1', settings: { retention: 7, region: 'eu' }, tags: ['a', 'b'] };

  it('project keeps only the named fields that exist, nested under one parent', () => {
    expect(
      project(row, [path('settings.retention'), path('settings.region'), topLevel('id'), topLevel('missing'), path('settings.nope')]),
    ).toStrictEqual({
      settings: { retention: 7, region: 'eu' },
      id: 'env-1',
    });
    expect(project({}, [path('a.b')])).toStrictEqual({});
    expect(project(Object.create({ inherited: 1 }) as object, [topLevel('inherited')])).toStrictEqual({});
  });

  it('project leaves a row that is not a record as it is', () => {
    expect(project('plain', [topLevel(VALUE_COLUMN)])).toBe('plain');
    expect(project([1, 2], [topLevel('0')])).toStrictEqual([1, 2]);
    expect(project(null, [topLevel('id')])).toBeNull();
  });

  it('valuesOf gives the raw values (undefined where a row has none); a non-record fills only the value column', () => {
    expect(
      valuesOf(row, [topLevel('id'), path('settings.retention'), topLevel('tags'), topLevel('missing'), path('id.length')]),
    ).toStrictEqual(['env-1', 7, ['a', 'b'], undefined, undefined]);
    expect(valuesOf(42, [topLevel(VALUE_COLUMN), topLevel('id')])).toStrictEqual([42, undefined]);
    expect(valuesOf(null, [topLevel(VALUE_COLUMN)])).toStrictEqual([null]);
    expect(valuesOf('x', [topLevel('id')])).toStrictEqual([undefined]);
  });

  it('cellsOf gives the cell text of the same values', () => {
    expect(cellsOf(row, [topLevel('id'), path('settings.retention'), topLevel('tags'), topLevel('missing')])).toEqual([
      'env-1',
      '7',
      'a, b',
      '',
    ]);
    expect(cellsOf(42, [topLevel(VALUE_COLUMN), topLevel('id')])).toEqual(['42', '']);
  });
});
