// How help text is reflowed to a width (cli/help.ts): prose joined and wrapped, list items and two-column lines
// wrapped under their own text, examples continued with a backslash outside quotes.
import { describe, expect, it } from 'vitest';
import { wrapExample, wrapHelp } from '../../../src/cli/help.js';

describe('wrapHelp', () => {
  it.each([
    ['prose broken anywhere is joined and wrapped', 'one two\nthree four five', 14, 'one two three\nfour five'],
    ['a line break after a sentence is kept', 'One two.\nThree: four', 40, 'One two.\nThree: four'],
    ['a heading keeps its items below it', 'Examples:\n  a b', 40, 'Examples:\n  a b'],
    ['a blank line stays', 'a\n\nb', 40, 'a\n\nb'],
    [
      'a list item wraps under its text, its continuation joined',
      '  1. aaaa bbbb\n     cccc dddd eeee ffff',
      30,
      '  1. aaaa bbbb cccc dddd eeee\n     ffff',
    ],
    [
      'a two-column line wraps under its second column',
      '  KEY    one two three four five',
      30,
      '  KEY    one two three four\n         five',
    ],
    ['too narrow for the column: two spaces in', '  KEY    one two three', 12, '  KEY    one\n    two\n    three'],
    ['a word wider than the line stays whole', 'a https://example.com/long', 10, 'a\nhttps://example.com/long'],
  ])('%s', (_, text, width, expected) => {
    expect(wrapHelp(text, width)).toBe(expected);
  });
});

describe('wrapExample', () => {
  it('fits as it is: indented two spaces', () => {
    expect(wrapExample('cip env list', 80)).toBe('  cip env list');
  });

  it('continues with \\ outside quotes, and joins a continuation the source had', () => {
    expect(wrapExample("cip x --a 'b c d' \\\n  --e f", 22)).toBe("  cip x --a 'b c d' \\\n      --e f");
  });
});
