import { Writable } from 'node:stream';
import { beforeAll, describe, it, expect } from 'vitest';
import { parseExactJson } from '../../src/json/exact.js';
import { VALUE_COLUMN, cellText, cellsOf, chooseColumns, headerText, topLevel } from '../../src/output/columns.js';
import { displayWidth, fitWidth, layoutColumns, loadUnicodeWidths, renderTable } from '../../src/output/table.js';
import { writeList, type Output } from '../../src/output/writer.js';
import { writerOutput } from '../helpers/io.js';

const lines = (text: string) => text.replace(/\n$/, '').split('\n');

// displayWidth and fitWidth are called directly here, on text beyond ASCII.
beforeAll(loadUnicodeWidths);

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

describe('displayWidth and fitWidth', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['日本', 4],
    ['日本語abc', 9],
    ['😀', 2],
    ['é', 1],
    ['e\u0301', 1],
  ])('displayWidth(%j) is %i', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it.each([
    ['abc', 5, 'abc  '],
    ['abc', 3, 'abc'],
    ['abcdef', 4, 'abc…'],
    ['abcdef', 1, '…'],
  ])('fitWidth(%j, %i) is %j', (text, width, expected) => {
    expect(fitWidth(text, width)).toBe(expected);
  });

  it.each([
    ['日本語テキスト', 5],
    ['日本語テキスト', 6],
    ['😀😀😀😀', 5],
    ['a日b本c語', 4],
  ])('cuts wide text %j to exactly %i cells, ending with …', (text, width) => {
    const fitted = fitWidth(text, width);
    expect(fitted.trimEnd().endsWith('…')).toBe(true);
    expect(displayWidth(fitted)).toBe(width);
  });

  it('pads wide text that fits to the width', () => {
    expect(fitWidth('日本', 6)).toBe('日本  ');
  });
});

describe('renderTable without maxWidth', () => {
  const headers = ['ID', 'NAME', 'DESCRIPTION'];
  const rows = [
    ['1', 'alpha', 'short'],
    ['22', 'b', 'x'.repeat(200)],
  ];

  it('pads each column to its widest cell with two spaces between and nothing trailing', async () => {
    const { text, hiddenColumns } = await renderTable(headers, rows);
    expect(text).toBe(['ID  NAME   DESCRIPTION', '1   alpha  short', `22  b      ${'x'.repeat(200)}`].join('\n') + '\n');
    expect(hiddenColumns).toStrictEqual([]);
  });

  it('never truncates, however long a cell is', async () => {
    const { text } = await renderTable(headers, rows);
    expect(text).not.toContain('…');
    expect(text).toContain('x'.repeat(200));
  });

  it('leaves no trailing spaces when the last cell is short or empty', async () => {
    const { text } = await renderTable(
      ['A', 'B'],
      [
        ['x', ''],
        ['y', 'long value'],
      ],
    );
    for (const line of lines(text)) expect(line).toBe(line.trimEnd());
  });

  it('aligns wide characters by display width', async () => {
    const { text } = await renderTable(
      ['NAME', 'X'],
      [
        ['日本', '1'],
        ['ab', '2'],
      ],
    );
    const [header, first, second] = lines(text);
    expect(header).toBe('NAME  X');
    expect(first).toBe('日本  1');
    expect(second).toBe('ab    2');
  });

  it('applies styleHeader to the header line only', async () => {
    const { text } = await renderTable(['A'], [['x']], { styleHeader: (h) => `<${h}>` });
    expect(lines(text)).toStrictEqual(['<A>', 'x']);
  });

  it('renders just the header for no rows', async () => {
    expect((await renderTable(['ID', 'NAME'], [])).text).toBe('ID  NAME\n');
  });
});

describe('renderTable with maxWidth', () => {
  const guid = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
  const headers = ['ID', 'NAME', 'TYPE', 'DESCRIPTION', 'OWNER', 'REGION'];
  const rows = [
    [guid, 'production-environment-with-a-long-name', 'prod', 'd'.repeat(120), 'someone@example.com', 'westeurope'],
    ['0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34', '日本語の環境名日本語の環境名日本語の環境名', 'dev', '😀'.repeat(40), 'x', 'y'],
  ];

  it.each([200, 120, 100, 80, 60, 50, 45, 40, 38])('every line fits in %i cells (ids are 36 wide)', async (maxWidth) => {
    const { text } = await renderTable(headers, rows, { maxWidth, keyColumns: [0] });
    for (const line of lines(text)) expect(displayWidth(line)).toBeLessThanOrEqual(maxWidth);
  });

  it.each([200, 80, 50, 40, 20, 10])('never cuts or hides the protected id column (maxWidth %i)', async (maxWidth) => {
    const { text, hiddenColumns } = await renderTable(headers, rows, { maxWidth, keyColumns: [0] });
    const [, first, second] = lines(text);
    expect(first!.startsWith(guid)).toBe(true);
    expect(second!.startsWith('0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34')).toBe(true);
    expect(hiddenColumns).not.toContain(0);
  });

  it('protects a column that is not the first one', async () => {
    const { text, hiddenColumns } = await renderTable(['NAME', 'ID', 'OTHER'], [['n'.repeat(60), guid, 'o'.repeat(60)]], {
      maxWidth: 30,
      keyColumns: [1],
    });
    expect(text).toContain(guid);
    expect(hiddenColumns).not.toContain(1);
  });

  it('reports the hidden columns, and hides from the right', async () => {
    const { text, hiddenColumns } = await renderTable(headers, rows, { maxWidth: 60, keyColumns: [0] });
    expect(hiddenColumns.length).toBeGreaterThan(0);
    const header = lines(text)[0]!;
    for (const index of hiddenColumns) expect(header).not.toContain(headers[index]!);
    const shown = headers.map((_, index) => index).filter((index) => !hiddenColumns.includes(index));
    // the shown columns are the leftmost ones
    expect(shown).toStrictEqual(shown.map((_, position) => position));
    for (const index of shown) expect(header).toContain(headers[index]!.slice(0, 3));
  });

  it('hides nothing and cuts nothing when the table already fits', async () => {
    const plain = await renderTable(headers, rows);
    const wide = await renderTable(headers, rows, { maxWidth: 10_000, keyColumns: [0] });
    expect(wide).toStrictEqual(plain);
  });

  it('marks a cut cell with …', async () => {
    const { text } = await renderTable(['ID', 'NAME'], [['1', 'n'.repeat(100)]], { maxWidth: 30, keyColumns: [0] });
    expect(text).toContain('…');
    for (const line of lines(text)) expect(displayWidth(line)).toBeLessThanOrEqual(30);
  });
});

describe('layoutColumns', () => {
  it('keeps natural widths when everything fits', () => {
    expect(layoutColumns([10, 20, 30], 64, [0])).toStrictEqual({ shown: [0, 1, 2], widths: [10, 20, 30] });
    expect(layoutColumns([10, 20, 30], undefined, [0])).toStrictEqual({ shown: [0, 1, 2], widths: [10, 20, 30] });
  });

  it.each([
    [[36, 50, 50, 50], 80, 0],
    [[36, 50, 50, 50], 40, 0],
    [[10, 36, 50], 30, 1],
    [[36, 100], 45, 0],
  ])('natural %j in %i with column %i protected', (natural, maxWidth, protectedIndex) => {
    const { shown, widths } = layoutColumns(natural, maxWidth, [protectedIndex]);
    expect(shown).toContain(protectedIndex);
    expect(widths[protectedIndex]).toBe(natural[protectedIndex]);
    const total = shown.reduce((sum, index) => sum + widths[index]!, 0) + 2 * (shown.length - 1);
    if (natural[protectedIndex]! <= maxWidth) expect(total).toBeLessThanOrEqual(maxWidth);
  });
});

describe('JSON lists', () => {
  const output = (stdoutIsTTY: boolean) => writerOutput({ stdoutIsTTY });

  it.each([0, 1, 499, 500, 501, 1000, 1234])('%i rows: the bytes JSON.stringify writes, a slice at a time', async (count) => {
    const rows = Array.from({ length: count }, (_, index) => ({ id: `e${index}`, n: index, nested: { list: [index, 'x'] } }));
    const { io, writes } = output(false);
    await writeList(io, rows, { emptyMessage: '' });
    expect(writes.join('')).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    expect(writes).toHaveLength(Math.max(1, Math.ceil(count / 500)));
  });

  it('numbers stay exact and a terminal gets escapes, across slices', async () => {
    const text = `[${Array.from({ length: 1001 }, (_, index) => `{"id":${index === 700 ? '9007199254740993' : index},"name":"a\\u202eb"}`).join(',')}]`;
    const rows = (await parseExactJson(text)) as unknown[];
    const pipe = output(false);
    await writeList(pipe.io, rows, { emptyMessage: '' });
    const printed = pipe.writes.join('');
    expect(printed).toContain('"id": 9007199254740993,');
    expect(printed.replace('9007199254740993', '700')).toBe(
      `${JSON.stringify(JSON.parse(text.replace('9007199254740993', '700')), null, 2)}\n`,
    );
    const terminal = output(true);
    await writeList(terminal.io, rows, { emptyMessage: '' });
    expect(printed).toContain('a\u202eb');
    expect(terminal.writes.join('')).not.toContain('\u202e');
    expect(terminal.writes.join('')).toContain('a\\u202eb');
  });
});

describe('JSON lists and a slow or absent reader', () => {
  const rows = Array.from({ length: 2000 }, (_, index) => ({ id: `e${index}`, name: 'x'.repeat(50) }));
  const ioFor = (stdout: Writable): Output => writerOutput({ stdout }).io;

  it('waits for the reader between slices instead of queueing the whole output', async () => {
    let queuedMost = 0;
    const chunks: string[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        queuedMost = Math.max(queuedMost, slow.writableLength);
        chunks.push(chunk.toString('utf8'));
        setTimeout(done, 1);
      },
    });
    await writeList(ioFor(slow), rows, { emptyMessage: '' });
    expect(chunks.join('')).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    // One slice at most was waiting: the whole output is four.
    expect(queuedMost).toBeLessThan(chunks.join('').length / 3);
  });

  it('finishes when the reader has gone (a closed pipe never drains)', async () => {
    const gone = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, done) {
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    gone.on('error', () => undefined);
    await writeList(ioFor(gone), rows, { emptyMessage: '' });
    expect(gone.destroyed).toBe(true);
  });
});
