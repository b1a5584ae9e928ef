// The one-record view (src/output/record.ts) that create, update and get show on a terminal: a FIELD/VALUE
// table whose keys are styled after layout, nested values as compact JSON, long values wrapped within the
// width beside their field, and the id never wrapped.
import { describe, expect, it } from 'vitest';
import { ExactNumber } from '../../../src/json/exact.js';
import { renderRecord } from '../../../src/output/record.js';

/** Marks what the writer would make bold, so that the tests see which text is a key. */
const mark = (text: string) => `<${text}>`;

describe('renderRecord', () => {
  it('shows nothing for a record without fields', async () => {
    expect(await renderRecord({}, 80, mark)).toBe('');
  });

  it('sets each value beside its field, keys padded to the longest, nested values as compact JSON', async () => {
    const record = {
      id: '7d1c',
      name: 'web',
      tags: { a: 1, b: [1, 'x'] },
      list: [1, 2],
      big: new ExactNumber('12345678901234567890.50'),
      none: null,
      count: 3,
      ok: false,
      'k\u001b': 'v\u0007',
    };
    expect(await renderRecord(record, undefined, mark)).toBe(
      [
        '<id     >  7d1c',
        '<name   >  web',
        '<tags   >  {"a":1,"b":[1,"x"]}',
        '<list   >  [1,2]',
        '<big    >  12345678901234567890.50',
        '<none>',
        '<count  >  3',
        '<ok     >  false',
        '<k\\u001b>  v\\u0007',
        '',
      ].join('\n'),
    );
  });

  it.each([
    [
      'wraps values at spaces within the width left beside the keys, and never the id, whatever its case',
      { name: 'aaaaaaaaaaaa bbb', description: 'one two three four five six seven', ID: 'an-id-that-is-longer-than-the-line' },
      30,
      [
        '<name       >  aaaaaaaaaaaa bbb',
        '<description>  one two three',
        '             four five six',
        '             seven',
        '<ID         >  an-id-that-is-longer-than-the-line',
      ],
    ],
    [
      'leaves a value the width of the field and a gap of two spaces',
      { name: 'aaaaaaaaaaaa bbb' },
      20,
      ['<name>  aaaaaaaaaaaa', '      bbb'],
    ],
    [
      'keeps ten cells for a value on the narrowest terminal, and breaks a longer word without losing any of it',
      { name: 'aaaaaaaaaaaa bbb ccccccccccc' },
      5,
      ['<name>  aaaaaaaaaa', '      aa bbb', '      cccccccccc', '      c'],
    ],
    [
      'does not wrap without a width (a pipe)',
      { name: 'aaaaaaaaaaaa bbb ccccccccccc', id: 'x' },
      undefined,
      ['<name>  aaaaaaaaaaaa bbb ccccccccccc', '<id  >  x'],
    ],
  ])('%s', async (_what, record, width, lines) => {
    expect(await renderRecord(record, width, mark)).toBe(`${lines.join('\n')}\n`);
  });
});
