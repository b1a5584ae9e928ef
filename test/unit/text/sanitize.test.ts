// Text cleaning (src/text/sanitize.ts): control characters escaped, one line, cut to a width, printable, a URL
// shown without its credentials; and, for text of any kind (fast-check), nothing that can move a terminal's
// cursor or hide text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeControls, escapeJsonForTerminal, oneLine, printable, truncate, hideCredentials } from '../../../src/text/sanitize.js';
import { CONTROL, UNSAFE, holds, huge, nasty } from '../../helpers/arbitraries.js';

describe('text cleaning', () => {
  it('oneLine: tabs and line separators become single spaces, other controls a ?', () => {
    expect(oneLine(' a\tb\u2028c\u2029d\r\ne ')).toBe('a b c d e');
    expect(oneLine('a\u0007b\u009bc\u202ed\u200be\ufeff')).toBe('a?b?c?d?e?');
    expect(oneLine('a   b')).toBe('a b');
    expect(oneLine('a\u200cb\u200dc')).toBe('a\u200cb\u200dc');
  });

  it('escapeControls writes each control as an escape a reader can tell apart', () => {
    expect(escapeControls('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(escapeControls('\u0001\u001b\u007f\u009b\u202e\u2066\ufeff')).toBe('\\u0001\\u001b\\u007f\\u009b\\u202e\\u2066\\ufeff');
    expect(escapeControls('plain ü')).toBe('plain ü');
  });

  it('escapeJsonForTerminal escapes what JSON.stringify leaves raw, and nothing else', () => {
    expect(escapeJsonForTerminal('{\n  "a": "x\u009by\u200bz\u2028"\n}')).toBe('{\n  "a": "x\\u009by\\u200bz\\u2028"\n}');
    expect(escapeJsonForTerminal('"\u0061\u00e9"')).toBe('"aé"');
  });

  it('truncate keeps text up to the limit and ends cut text with one ellipsis', () => {
    expect(truncate('abcde', 5)).toBe('abcde');
    expect(truncate('abcdef', 5)).toBe('abcd…');
    expect(truncate('abc', 1)).toBe('…');
    expect(truncate('abc', 0)).toBe('…');
  });

  it('printable replaces controls with ? and cuts at 80 characters unless told', () => {
    expect(printable('a\nb\tc')).toBe('a?b?c');
    expect(printable('x'.repeat(80))).toBe('x'.repeat(80));
    expect(printable('x'.repeat(81))).toBe(`${'x'.repeat(79)}…`);
    expect(printable('abcdef', 3)).toBe('ab…');
  });
});

describe('hideCredentials', () => {
  it.each([
    ['https://user:secret@host/ms', 'https://***@host/ms'],
    ['https://user@host/ms', 'https://***@host/ms'],
    ['https://:secret@host/ms', 'https://***@host/ms'],
    ['http:user:secret@host/x', 'http://***@host/x'],
    ['https://host/ms?to=a@b', 'https://host/ms?to=a@b'],
    ['https://host/ms', 'https://host/ms'],
    ['https://u:p@[bad/x@y', 'https://***@[bad/x@y'],
    ['https://a@b:c@[bad', 'https://***@[bad'],
    ['not a url, mail me@example.com', 'not a url, mail me@example.com'],
  ])('%s → %s', (url, shown) => {
    expect(hideCredentials(url)).toBe(shown);
  });
});

describe('oneLine', () => {
  it.each([
    ['plain', 'plain'],
    ['a\nb', 'a b'],
    ['a\r\nb', 'a b'],
    ['a\tb', 'a b'],
    ['a\u2028b\u2029c', 'a b c'],
    ['  padded  ', 'padded'],
    ['many    spaces', 'many spaces'],
    ['\u001b[31mred', '?[31mred'],
    ['bell\u0007', 'bell?'],
    ['del\u007f', 'del?'],
    ['c1\u009b', 'c1?'],
    ['日本 😀', '日本 😀'],
  ])('%j → %j', (text, expected) => {
    expect(oneLine(text)).toBe(expected);
  });
});

describe('escapeControls', () => {
  it.each([
    ['plain', 'plain'],
    ['a\nb', 'a\\nb'],
    ['a\rb', 'a\\rb'],
    ['a\tb', 'a\\tb'],
    ['\u001b[0m', '\\u001b[0m'],
    ['\u0000', '\\u0000'],
    ['\u007f', '\\u007f'],
    ['\u0085', '\\u0085'],
    ['\u2028', '\\u2028'],
    ['日本', '日本'],
  ])('%j → %j', (text, expected) => {
    expect(escapeControls(text)).toBe(expected);
  });
});

describe('truncate', () => {
  it.each([
    ['abc', 5, 'abc'],
    ['abcde', 5, 'abcde'],
    ['abcdef', 5, 'abcd…'],
    ['abcdef', 1, '…'],
    ['', 3, ''],
  ])('truncate(%j, %i) → %j', (text, max, expected) => {
    expect(truncate(text, max)).toBe(expected);
  });

  it('never returns more than max characters', () => {
    for (const max of [1, 2, 10, 80]) expect(truncate('x'.repeat(200), max).length).toBeLessThanOrEqual(max);
  });
});

describe('printable', () => {
  it('replaces control characters with ?', () => {
    expect(printable('a\u001b[31mb\nc')).toBe('a?[31mb?c');
  });

  it('shortens to 80 characters by default, or to max', () => {
    expect(printable('x'.repeat(200))).toHaveLength(80);
    expect(printable('x'.repeat(200)).endsWith('…')).toBe(true);
    expect(printable('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(printable('short')).toBe('short');
  });
});

describe('sanitize', () => {
  const text = fc.oneof(nasty, huge, fc.string({ unit: 'binary' }));
  const controlChar = fc
    .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029))
    .map((code) => String.fromCharCode(code));

  it('oneLine: no control characters, no double spaces, trimmed, idempotent', async () => {
    await holds(
      fc.property(text, (s) => {
        const out = oneLine(s);
        expect(out).not.toMatch(CONTROL);
        expect(out).not.toContain('  ');
        expect(out).toBe(out.trim());
        expect(oneLine(out)).toBe(out);
      }),
      600,
    );
  });

  it('escapeControls: no control characters; text without controls is unchanged', async () => {
    await holds(
      fc.property(text, (s) => {
        const out = escapeControls(s);
        expect(out).not.toMatch(UNSAFE);
        if (!UNSAFE.test(s)) expect(out).toBe(s);
      }),
      600,
    );
  });

  it('escapeControls: distinct control characters (and strings of them) escape differently', async () => {
    await holds(
      fc.property(fc.array(controlChar, { maxLength: 6 }), fc.array(controlChar, { maxLength: 6 }), (a, b) => {
        const [x, y] = [a.join(''), b.join('')];
        if (x !== y) expect(escapeControls(x)).not.toBe(escapeControls(y));
        if (a.length === 1 && b.length === 1 && x !== y) expect(escapeControls(a[0]!)).not.toBe(escapeControls(b[0]!));
      }),
      600,
    );
  });

  it('escapeJsonForTerminal: the same data, with nothing a terminal would obey or hide', async () => {
    await holds(
      fc.property(
        fc.jsonValue(),
        fc.oneof(text, fc.constantFrom('\u009b31m', '\u009d0;x\u009c', 'a\u202eb', 'z\u200bw', '\ufeff', '\u2028')),
        (value, extra) => {
          const data = [value, extra];
          const out = escapeJsonForTerminal(JSON.stringify(data, null, 2));
          expect(out.replace(/\n/g, '')).not.toMatch(UNSAFE);
          expect(JSON.parse(out)).toStrictEqual(JSON.parse(JSON.stringify(data)));
        },
      ),
      600,
    );
  });

  it('printable(s, n): at most n+1 characters, no control characters, unchanged when short and clean', async () => {
    await holds(
      fc.property(text, fc.integer({ min: 0, max: 200 }), (s, n) => {
        const out = printable(s, n);
        expect(out.length).toBeLessThanOrEqual(n + 1);
        expect(out).not.toMatch(UNSAFE);
        if (!UNSAFE.test(s) && s.length <= n) expect(out).toBe(s);
      }),
      600,
    );
  });
});
