// Column choice and --columns (src/output/columns.ts): which field is the id, what a cell shows (a list, a nested
// record), how a named column is found (exact, any case, header label, dotted path, four deep), the usage error
// for an unknown one, headers, and the rows as projected for JSON and as raw values for TSV.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
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
  headerText,
} from '../../../src/output/columns.js';

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

describe('chooseColumns', () => {
  it.each([
    [
      'id first, then name-like fields, then scalars, then nested',
      [{ settings: { a: 1 }, type: 'dev', displayName: 'Dev', tags: [1], id: 'x', name: 'dev', count: 3 }],
      ['id', 'displayName', 'name', 'type', 'count', 'settings', 'tags'],
    ],
    ['title and label are name-like', [{ a: 1, label: 'l', title: 't', id: 'i' }], ['id', 'label', 'title', 'a']],
    ['Id in any case counts as the id', [{ name: 'n', ID: 'x' }], ['ID', 'name']],
    ['an xxxId is the id when there is no id', [{ name: 'n', type: 't', environmentId: 'e' }], ['environmentId', 'name', 'type']],
    ['id wins over an xxxId', [{ ownerId: 'o', name: 'n', id: 'i' }], ['id', 'name', 'ownerId']],
    ['a nested xxxId is not used as the id', [{ refId: { a: 1 }, name: 'n' }], ['name', 'refId']],
    [
      'keys from every row, in first-seen order',
      [
        { id: 1, a: 1 },
        { id: 2, b: 2, name: 'n' },
      ],
      ['id', 'name', 'a', 'b'],
    ],
    [
      'a field nested in any row is nested',
      [
        { id: 1, x: 1 },
        { id: 2, x: [1] },
        { id: 3, y: 'y' },
      ],
      ['id', 'y', 'x'],
    ],
    ['a name-like field that is nested goes with the nested ones', [{ id: 1, names: ['a'], z: 1 }], ['id', 'z', 'names']],
  ])('%s', (_name, rows, expected) => {
    expect(chooseColumns(rows)).toStrictEqual(expected);
  });

  it.each([[['a', 'b']], [[1, 2, 3]], [[null]], [[['x'], ['y']]]])('uses a single value column for non-object rows %j', (rows) => {
    expect(chooseColumns(rows)).toStrictEqual([VALUE_COLUMN]);
    expect(VALUE_COLUMN).toBe('value');
  });

  it('returns no columns for no rows', () => {
    expect(chooseColumns([])).toStrictEqual([]);
  });
});

describe('cellText', () => {
  it.each([
    [null, ''],
    [undefined, ''],
    ['plain', 'plain'],
    [42, '42'],
    [-1.5, '-1.5'],
    [true, 'true'],
    [false, 'false'],
    [[], ''],
    [['a', 'b', 'c'], 'a, b, c'],
    [[1, 2, 3], '1, 2, 3'],
    [[{ a: 1 }, { b: 2 }, { c: 3 }], '[3 items]'],
    [[{ a: 1 }], '[1 item]'],
    [[1, null], '[2 items]'],
    [[['nested']], '[1 item]'],
    [Array.from({ length: 30 }, (_, i) => `item${i}`), '[30 items]'],
    [{ a: 1, b: 2 }, '{2 fields}'],
    [{ a: 1 }, '{1 field}'],
    [{}, '{0 fields}'],
    ['line1\nline2', 'line1\\nline2'],
    ['tab\there', 'tab\\there'],
    ['cr\rhere', 'cr\\rhere'],
    ['\u001b[31mred', '\\u001b[31mred'],
    ['bell\u0007', 'bell\\u0007'],
    ['c1\u009b', 'c1\\u009b'],
    [['a\nb'], 'a\\nb'],
  ])('%j → %j', (value, expected) => {
    expect(cellText(value)).toBe(expected);
  });

  it('never lets a raw control character into a cell', () => {
    expect(cellText('x\u0000\u001b\u007f\u2028y')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028]/);
  });
});

describe('cellsOf', () => {
  it('gives one cell per column, empty for missing fields', () => {
    expect(cellsOf({ id: 'a', n: 1, tags: ['x'] }, ['id', 'missing', 'n', 'tags'].map(topLevel))).toStrictEqual(['a', '', '1', 'x']);
  });

  it('puts a non-object row in the value column only', () => {
    expect(cellsOf('text', [topLevel(VALUE_COLUMN)])).toStrictEqual(['text']);
    expect(cellsOf(7, ['id', VALUE_COLUMN].map(topLevel))).toStrictEqual(['', '7']);
  });

  it('reads a record field that happens to be called value', () => {
    expect(cellsOf({ value: 'v' }, [topLevel(VALUE_COLUMN)])).toStrictEqual(['v']);
  });
});

describe('headerText', () => {
  it.each([
    ['id', 'ID'],
    ['name', 'NAME'],
    ['displayName', 'DISPLAY NAME'],
    ['is_active', 'IS ACTIVE'],
    ['created-at', 'CREATED AT'],
    ['environmentId', 'ENVIRONMENT ID'],
    ['v2Name', 'V2 NAME'],
    ['snake__double', 'SNAKE DOUBLE'],
  ])('%s → %s', (column, expected) => {
    expect(headerText(column)).toBe(expected);
  });

  it('escapes control characters', () => {
    expect(headerText('a\nb')).not.toContain('\n');
  });
});
