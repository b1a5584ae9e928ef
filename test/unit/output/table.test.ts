// List tables (src/output/table.ts): the exact text at given widths (cuts, wide characters, a bold header or
// none), how columns give way to a narrow terminal, wrapping, the Unicode tables loaded only for text beyond
// ASCII, the chunks a long table is written in, and, for rows of any shape (fast-check), a table that fits and
// carries no control character.
import fc from 'fast-check';
import { describe, expect, it, vi, beforeAll } from 'vitest';
import { cellText, cellsOf, chooseColumns, headerText, topLevel, VALUE_COLUMN } from '../../../src/output/columns.js';
import { displayWidth, loadUnicodeWidths, wrapText, fitWidth, layoutColumns, renderTable, streamTable } from '../../../src/output/table.js';
import { escapeControls } from '../../../src/text/sanitize.js';
import { CONTROL, cellString, holds, isRecord, rowsArb } from '../../helpers/arbitraries.js';

type Table = typeof import('../../../src/output/table.js');

/** A fresh copy of the module, with its Unicode tables not loaded yet (they are loaded once per module). */
async function freshTable(): Promise<Table> {
  vi.resetModules();
  return import('../../../src/output/table.js');
}

async function loadedTable(): Promise<Table> {
  const table = await freshTable();
  await table.loadUnicodeWidths();
  return table;
}

const BOLD = (text: string) => `\x1b[1m${text}\x1b[22m`;

describe('the Unicode tables, loaded only for text beyond printable ASCII', () => {
  it('measures and cuts ASCII without them, and refuses to guess the width of other text', async () => {
    const { canMeasure, displayWidth, fitWidth, loadUnicodeWidths } = await freshTable();
    expect([canMeasure(''), canMeasure('env-1 ~prod'), canMeasure('日本'), canMeasure('é'), canMeasure('a\tb')]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(displayWidth('env-1')).toBe(5);
    expect(fitWidth('abcdef', 4)).toBe('abc…');
    expect(() => displayWidth('日本')).toThrow(new Error('loadUnicodeWidths() must come first for text beyond printable ASCII'));
    await loadUnicodeWidths();
    expect([canMeasure('日本'), canMeasure('abc')]).toEqual([true, true]);
    expect(displayWidth('日本')).toBe(4);
  });

  it('a table of plain ASCII leaves them unloaded, even with a wide cell beyond the last header', async () => {
    const { canMeasure, renderTable } = await freshTable();
    const { text, hiddenColumns } = await renderTable(
      ['ID', 'NAME'],
      [
        ['env-1', 'web'],
        ['env-22', 'db', '日本語'],
      ],
    );
    expect(text).toBe('ID      NAME\nenv-1   web\nenv-22  db\n');
    expect(hiddenColumns).toEqual([]);
    expect(canMeasure('日本')).toBe(false);
  });

  it.each([
    [['ID', '名前'], [['env-1', 'web']], 'ID     名前\nenv-1  web\n'],
    [['名前', 'ID'], [['web', 'env-1']], '名前  ID\nweb   env-1\n'],
    [['ID', 'NAME'], [['env-1', '日本語']], 'ID     NAME\nenv-1  日本語\n'],
    [
      ['ID', 'NAME'],
      [
        ['env-1', 'web'],
        ['env-2', 'café ☕'],
      ],
      'ID     NAME\nenv-1  web\nenv-2  café ☕\n',
    ],
  ])('loads them for a header or a cell beyond ASCII: %j %j', async (headers, rows, expected) => {
    const { canMeasure, renderTable } = await freshTable();
    expect((await renderTable(headers, rows)).text).toBe(expected);
    expect(canMeasure('日本')).toBe(true);
  });
});

describe('fitWidth and wrapText on wide characters', () => {
  it.each([
    ['日本語テキスト', 7, '日本語…'],
    ['日本語テキスト', 6, '日本… '],
    ['a日b本c語', 4, 'a日…'],
    ['😀😀😀', 4, '😀… '],
    ['日本', 1, '…'],
    ['日本', 4, '日本'],
    ['日本', 5, '日本 '],
    ['abcdef', 6, 'abcdef'],
    ['abcdef', 5, 'abcd…'],
  ])('fitWidth(%j, %i) is %j', async (text, width, expected) => {
    const { displayWidth, fitWidth } = await loadedTable();
    expect(fitWidth(text, width)).toBe(expected);
    expect(displayWidth(fitWidth(text, width))).toBe(width);
  });

  it.each([
    ['日本', 1, ['日', '本']],
    ['日本語 ab', 3, ['日', '本', '語', 'ab']],
    ['abcdefgh ij', 3, ['abc', 'def', 'gh', 'ij']],
    ['status: provisioning now', 12, ['status:', 'provisioning', 'now']],
  ])('wrapText(%j, %i) is %j', async (text, width, expected) => {
    const { wrapText } = await loadedTable();
    expect(wrapText(text, width)).toEqual(expected);
  });
});

describe('renderTable: the exact text', () => {
  const headers = ['ID', 'NAME', 'STATUS'];
  const rows = [
    ['env-1', 'checkout-service-production-eu-west-with-a-long-name', 'ready'],
    ['env-22', '日本語の環境', 'provisioning'],
  ];

  it('at full width (a pipe), with the header plain or bold', async () => {
    const { renderTable } = await freshTable();
    const plain = await renderTable(headers, rows);
    expect(plain.text).toBe(
      [
        'ID      NAME                                                  STATUS',
        'env-1   checkout-service-production-eu-west-with-a-long-name  ready',
        'env-22  日本語の環境                                          provisioning',
        '',
      ].join('\n'),
    );
    const bold = await renderTable(headers, rows, { styleHeader: BOLD });
    expect(bold.text).toBe(plain.text.replace(/^.*/, (header) => BOLD(header)));
  });

  it.each([
    [
      62,
      'the long name is cut to 40 cells and every column stays',
      [
        BOLD('ID      NAME                                      STATUS'),
        'env-1   checkout-service-production-eu-west-wit…  ready',
        'env-22  日本語の環境                              provisioning',
      ],
      [],
    ],
    [
      60,
      'STATUS is hidden rather than NAME cut further',
      [BOLD('ID      NAME'), 'env-1   checkout-service-production-eu-west-wit…', 'env-22  日本語の環境'],
      [2],
    ],
    [30, 'NAME takes what is left', [BOLD('ID      NAME'), 'env-1   checkout-service-prod…', 'env-22  日本語の環境'], [2]],
    [20, 'the wide name fits exactly', [BOLD('ID      NAME'), 'env-1   checkout-se…', 'env-22  日本語の環境'], [2]],
    [12, 'NAME at its narrowest, 4: wide text cut between characters', [BOLD('ID      NAME'), 'env-1   che…', 'env-22  日…'], [2]],
  ])('at %i columns: %s', async (maxWidth, _, lines, hidden) => {
    const { renderTable } = await freshTable();
    const { text, hiddenColumns } = await renderTable(headers, rows, { maxWidth, keyColumns: [0, 1], styleHeader: BOLD });
    expect(text).toBe(`${lines.join('\n')}\n`);
    expect(hiddenColumns).toEqual(hidden);
  });

  it('leaves the cells a short row lacks empty, at the header widths', async () => {
    const { renderTable } = await freshTable();
    const { text } = await renderTable(headers, [['env-1'], ['env-2', 'web']]);
    expect(text).toBe('ID     NAME  STATUS\nenv-1\nenv-2  web\n');
  });
});

describe('layoutColumns', () => {
  it.each([
    ['an exact fit keeps every width', [2, 50], 54, [0], { shown: [0, 1], widths: [2, 50] }],
    ['long columns narrow to 40 first, and then all three fit', [2, 50, 50], 90, [0], { shown: [0, 1, 2], widths: [2, 40, 40] }],
    ['narrowed to 40, all three fit exactly', [2, 50, 50], 86, [0], { shown: [0, 1, 2], widths: [2, 40, 40] }],
    ['one cell more than fits cuts the last column by one', [2, 50, 50], 85, [0], { shown: [0, 1, 2], widths: [2, 40, 39] }],
    ['long cells are cut before a column is hidden', [10, 40, 40, 40], 60, [0], { shown: [0, 1, 2, 3], widths: [10, 15, 15, 14] }],
    ['a column is cut to 12 cells, no narrower', [10, 20], 24, [0], { shown: [0, 1], widths: [10, 12] }],
    ['below that it is hidden', [10, 20], 23, [0], { shown: [0], widths: [10, 20] }],
    ['a header wider than 12 is as narrow as it is cut', [10, 30], 25, [0], { shown: [0, 1], widths: [10, 13] }],
    ['the least important (rightmost) columns are hidden first', [10, 30, 30, 30], 40, [0], { shown: [0, 1, 2], widths: [10, 13, 13, 30] }],
    ['a narrow column is not widened when the rest fits exactly', [10, 2, 50], 14, [0], { shown: [0, 1], widths: [10, 2, 50] }],
    ['the key columns are never hidden, wherever they are', [50, 36, 20], 40, [1, 0], { shown: [0, 1], widths: [29, 9, 20] }],
    ['the id alone is never cut', [50, 36], 30, [1], { shown: [1], widths: [50, 36] }],
    ['the id is cut (to 9 at least) to make room for the name', [50, 36], 30, [1, 0], { shown: [0, 1], widths: [19, 9] }],
    ['a short name keeps its width; the id gives the rest', [8, 36], 40, [1, 0], { shown: [0, 1], widths: [8, 30] }],
  ])('%s: %j in %i', async (_, natural, maxWidth, keys, expected) => {
    const { layoutColumns } = await freshTable();
    expect(layoutColumns(natural, maxWidth, keys, [0, 0, 13, 0])).toStrictEqual(expected);
  });

  it.each([
    // Without an order, the rightmost goes first (above); with one, the least important, wherever it is.
    [
      'the column least important by priority is hidden first',
      [10, 30, 30, 30],
      40,
      { priority: [0, 2, 3] },
      { shown: [0, 2, 3], widths: [10, 30, 13, 13] },
    ],
    [
      'unlisted columns go before listed ones, the rightmost first',
      [10, 20, 20, 20],
      40,
      { priority: [0, 3] },
      { shown: [0, 1, 3], widths: [10, 13, 20, 13] },
    ],
    ['a whole column is never cut: it fits whole or is hidden', [10, 24, 30], 40, { whole: [1] }, { shown: [0, 1], widths: [10, 24, 30] }],
    ['a whole column keeps its width while others are cut', [10, 24, 30], 50, { whole: [1] }, { shown: [0, 1, 2], widths: [10, 24, 12] }],
    ['a whole column wider than 40 is not narrowed to 40', [10, 44], 60, { whole: [1] }, { shown: [0, 1], widths: [10, 44] }],
    ['a whole column that cannot fit is hidden, not cut', [10, 44], 50, { whole: [1] }, { shown: [0], widths: [10, 44] }],
  ])('%s: %j in %i', async (_, natural, maxWidth, order, expected) => {
    const { layoutColumns } = await freshTable();
    expect(layoutColumns(natural, maxWidth, [0], [], order)).toStrictEqual(expected);
  });
});

describe('streamTable: the chunks written', () => {
  async function chunkLengths(rowCount: number): Promise<number[]> {
    const { streamTable } = await freshTable();
    const chunks: string[] = [];
    await streamTable(
      ['ID'],
      rowCount,
      (row) => [`env-${String(row).padStart(11, '0')}`],
      (chunk) => chunks.push(chunk),
    );
    expect(chunks.join('')).toBe(`ID\n${Array.from({ length: rowCount }, (_, row) => `env-${String(row).padStart(11, '0')}\n`).join('')}`);
    return chunks.map((chunk) => chunk.length);
  }

  it.each([
    [0, [3]],
    [10, [3, 160]],
    [4095, [3, 65520]],
    [4096, [3, 65536]],
    [4097, [3, 65536, 16]],
    [8193, [3, 65536, 65536, 16]],
  ])('%i rows of 16 characters: the header, then chunks of 64 KiB at least: %j', async (rowCount, lengths) => {
    expect(await chunkLengths(rowCount)).toEqual(lengths);
  });
});

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

const lines = (text: string) => text.replace(/\n$/, '').split('\n');

// displayWidth and fitWidth are called directly here, on text beyond ASCII.
beforeAll(loadUnicodeWidths);

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

// displayWidth and fitWidth are called directly here, on text of every kind.
beforeAll(loadUnicodeWidths);

describe('columns and tables', () => {
  function tableOf(rows: unknown[]) {
    const columns = chooseColumns(rows);
    const headers = columns.map(headerText);
    const cells = rows.map((row) => cellsOf(row, columns.map(topLevel)));
    const idIndex = columns.findIndex((column) => column.toLowerCase() === 'id');
    return { columns, headers, cells, protectedIndex: idIndex >= 0 ? idIndex : 0 };
  }

  function linesOf(text: string, rowCount: number): string[] {
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(rowCount + 1);
    for (const line of lines) {
      expect(line).not.toMatch(CONTROL);
      expect(line).not.toContain('\u001b');
    }
    return lines;
  }

  it('chooseColumns: no duplicates, every key shown, an id key first when any row has one', async () => {
    await holds(
      fc.property(rowsArb, (rows) => {
        const columns = chooseColumns(rows);
        expect(new Set(columns).size).toBe(columns.length);
        const keys = new Set(rows.filter(isRecord).flatMap((row) => Object.keys(row)));
        for (const key of keys) expect(columns).toContain(key);
        if (keys.size === 0) expect(columns).toStrictEqual(rows.length && rows.some((r) => !isRecord(r)) ? [VALUE_COLUMN] : []);
        if ([...keys].some((key) => key.toLowerCase() === 'id')) expect(columns[0]!.toLowerCase()).toBe('id');
      }),
      500,
    );
  });

  it('cells and headers are single lines without control characters', async () => {
    await holds(
      fc.property(rowsArb, (rows) => {
        const { headers, cells, columns } = tableOf(rows);
        expect(headers).toHaveLength(columns.length);
        for (const text of [...headers, ...cells.flat()]) {
          expect(typeof text).toBe('string');
          expect(text).not.toMatch(CONTROL);
        }
        for (const row of cells) expect(row).toHaveLength(columns.length);
      }),
      400,
    );
  });

  it("a record's cell shows only its own field: a missing field is an empty cell", async () => {
    await holds(
      fc.property(rowsArb, (rows) => {
        const { columns, cells } = tableOf(rows);
        rows.forEach((row, r) => {
          if (!isRecord(row)) return;
          columns.forEach((column, c) => {
            expect(cells[r]![c]).toBe(cellText(Object.hasOwn(row, column) ? row[column] : undefined));
          });
        });
      }),
      400,
    );
  });

  it('renderTable without maxWidth: one header + one line per row, every cell in full, no controls', async () => {
    await holds(
      fc.asyncProperty(rowsArb, async (rows) => {
        const { headers, cells } = tableOf(rows);
        const { text, hiddenColumns } = await renderTable(headers, cells);
        expect(hiddenColumns).toStrictEqual([]);
        const lines = linesOf(text, rows.length);
        // Lines are trimEnd()ed, so a cell's trailing whitespace at the end of a line is (intentionally) dropped.
        headers.forEach((header) => expect(lines[0]).toContain(header.trimEnd()));
        cells.forEach((row, r) => row.forEach((cell) => expect(lines[r + 1]).toContain(cell.trimEnd())));
      }),
      150,
    );
  });

  it('renderTable text equals the concatenated streamTable chunks', async () => {
    await holds(
      fc.asyncProperty(rowsArb, fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }), async (rows, maxWidth) => {
        const { headers, cells, protectedIndex } = tableOf(rows);
        const options = { maxWidth, keyColumns: [protectedIndex] };
        const chunks: string[] = [];
        const { hiddenColumns: hidden } = await streamTable(
          headers,
          cells.length,
          (r) => [...cells[r]!],
          (chunk) => chunks.push(chunk),
          options,
        );
        const rendered = await renderTable(headers, cells, options);
        expect(chunks.join('')).toBe(rendered.text);
        expect(hidden).toStrictEqual(rendered.hiddenColumns);
        linesOf(rendered.text, rows.length);
      }),
      150,
    );
  });

  it('with maxWidth >= id width + 10: every line fits and the id column is shown uncut', async () => {
    await holds(
      fc.asyncProperty(rowsArb, fc.integer({ min: 0, max: 120 }), async (rows, extra) => {
        const { headers, cells, protectedIndex } = tableOf(rows);
        const idWidth = headers.length
          ? Math.max(displayWidth(headers[protectedIndex]!), ...cells.map((row) => displayWidth(row[protectedIndex]!)))
          : 0;
        const maxWidth = idWidth + 10 + extra;
        const { text, hiddenColumns } = await renderTable(headers, cells, { maxWidth, keyColumns: [protectedIndex] });
        const lines = linesOf(text, rows.length);
        for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(maxWidth);
        if (!headers.length) return;
        expect(hiddenColumns).not.toContain(protectedIndex);
        cells.forEach((row, r) => expect(lines[r + 1]).toContain(row[protectedIndex]!.trimEnd()));
      }),
      150,
    );
  });

  it('fitWidth(text, w) is never wider than w cells', async () => {
    const text = fc.oneof(cellString, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme-composite' }));
    await holds(
      fc.property(text.map(escapeControls), fc.integer({ min: 1, max: 80 }), (cell, width) => {
        expect(displayWidth(fitWidth(cell, width))).toBeLessThanOrEqual(width);
      }),
      800,
    );
  });

  it('layoutColumns: with room for the protected column + 10, the shown columns fit and it keeps full width', async () => {
    await holds(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.integer({ min: 0, max: 200 }),
        (natural, pick, extra) => {
          const protectedIndex = pick % natural.length;
          const maxWidth = natural[protectedIndex]! + 10 + extra;
          const { shown, widths } = layoutColumns(natural, maxWidth, [protectedIndex]);
          expect(shown).toContain(protectedIndex);
          expect(widths[protectedIndex]).toBe(natural[protectedIndex]);
          expect([...shown].sort((a, b) => a - b)).toStrictEqual(shown);
          const total = shown.reduce((sum, i) => sum + widths[i]!, 0) + 2 * Math.max(0, shown.length - 1);
          expect(total).toBeLessThanOrEqual(maxWidth);
        },
      ),
      1000,
    );
  });
});
