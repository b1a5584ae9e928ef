// List tables (src/output/table.ts) at their edges: the exact text at given widths (cuts, wide characters, a
// bold header or none), how columns give way to a narrow terminal, the Unicode tables loaded only for text
// beyond ASCII, and the chunks a long table is written in.
import { describe, expect, it, vi } from 'vitest';

type Table = typeof import('../../src/output/table.js');

/** A fresh copy of the module, with its Unicode tables not loaded yet (they are loaded once per module). */
async function freshTable(): Promise<Table> {
  vi.resetModules();
  return import('../../src/output/table.js');
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
