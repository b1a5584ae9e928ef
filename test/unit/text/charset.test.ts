// Reading an answer's bytes as text (text/charset.ts): the charset a Content-Type declares, however it is
// spelled; a byte-order mark first; and, when the text is not exactly what the server meant, why.
import { describe, expect, it } from 'vitest';
import { charsetsOf, decodeText } from '../../../src/text/charset.js';

describe('charsetsOf', () => {
  it.each([
    ['application/json; charset=utf-8', ['utf-8']],
    ['application/json;charset=UTF-8', ['utf-8']],
    ['application/json; Charset="ISO-8859-1"', ['iso-8859-1']],
    ['application/json; CHARSET = latin1 ', ['latin1']],
    ['application/json; odata.metadata=minimal; charset=utf-16', ['utf-16']],
    ['application/json; foo="a;charset=x"; charset=utf-8', ['utf-8']],
    ['application/json; charset="utf\\-8"', ['utf-8']],
    ['application/json; charset=utf-8; charset=iso-8859-1', ['utf-8', 'iso-8859-1']],
    ['application/json; charset=', []],
    ['application/json; charset=""', []],
    ['application/json', []],
    ['', []],
    [null, []],
  ])('%j names %j', (contentType, charsets) => {
    expect(charsetsOf(contentType)).toEqual(charsets);
  });
});

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decodeText', () => {
  it.each([
    ['UTF-8, no charset', Buffer.from('Muñoz'), 'application/json', 'Muñoz'],
    ['UTF-8 with its byte-order mark', Buffer.from('\ufeffMuñoz'), 'application/json; charset=utf-8', 'Muñoz'],
    ['a second byte-order mark is data', Buffer.from('\ufeff\ufeffx'), null, '\ufeffx'],
    ['ISO-8859-1', latin1('Muñoz'), 'application/json; charset=ISO-8859-1', 'Muñoz'],
    ['windows-1252, its euro sign', Buffer.from([0x80, 0x35]), 'text/plain; charset=windows-1252', '€5'],
    [
      'UTF-16 with a little-endian byte-order mark',
      Buffer.from('\ufeff{"a":"ñ"}', 'utf16le'),
      'application/json; charset=utf-16',
      '{"a":"ñ"}',
    ],
    [
      'UTF-16 without one, big-endian by its bytes',
      Buffer.from('{"a":"ñ"}', 'utf16le').swap16(),
      'application/json; charset=utf-16',
      '{"a":"ñ"}',
    ],
    ['UTF-16BE by name', Buffer.from('[1]', 'utf16le').swap16(), 'application/json; charset=utf-16be', '[1]'],
    ['a byte-order mark without a charset', Buffer.from('\ufeff[1]', 'utf16le').swap16(), null, '[1]'],
    ['Shift_JIS', Buffer.from([0x93, 0xfa, 0x96, 0x7b]), 'application/json; charset=shift_jis', '日本'],
    ['U+FFFD the server sent is data', Buffer.from('a\ufffdb'), null, 'a\ufffdb'],
  ])('%s: exact', (_what, bytes, contentType, text) => {
    expect(decodeText(bytes, contentType)).toEqual({ text, inexact: undefined });
  });

  it.each([
    [
      'Latin-1 without a charset',
      latin1('Muñoz'),
      'application/json',
      'Mu\ufffdoz',
      'it is not valid UTF-8, and its Content-Type names no charset',
    ],
    [
      'Latin-1 called UTF-8',
      latin1('Muñoz'),
      'application/json; charset=utf-8',
      'Mu\ufffdoz',
      "it is not valid 'utf-8', the charset its Content-Type names",
    ],
    [
      'Latin-1 called US-ASCII',
      latin1('Muñoz'),
      'application/json; charset=us-ascii',
      'Muñoz',
      "it is not valid 'us-ascii', the charset its Content-Type names",
    ],
    [
      'ISO-8859-1 with a byte windows-1252 reads otherwise',
      Buffer.from([0x80]),
      'application/json; charset=iso-8859-1',
      '€',
      "it holds bytes 0x80-0x9F, which 'iso-8859-1' and windows-1252 read as different characters",
    ],
    [
      'an unknown charset',
      Buffer.from('[1]'),
      'application/json; charset=utf-7',
      '[1]',
      "its Content-Type names a charset cip cannot read ('utf-7')",
    ],
    [
      'two charsets',
      Buffer.from('[1]'),
      'application/json; charset=utf-8; charset=latin1',
      '[1]',
      "its Content-Type names 2 charsets ('utf-8', 'latin1')",
    ],
    [
      'a multi-byte sequence cut off at the end',
      Buffer.from('ñ').subarray(0, 1),
      null,
      '\ufffd',
      'it is not valid UTF-8, and its Content-Type names no charset',
    ],
    [
      'a byte-order mark that contradicts the charset',
      Buffer.from('\ufeff[1]', 'utf16le'),
      'application/json; charset=iso-8859-1',
      '[1]',
      "its Content-Type says charset='iso-8859-1', but it starts with a UTF-16LE byte-order mark",
    ],
    [
      'bad bytes after a byte-order mark',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), latin1('ñ')]),
      null,
      '\ufffd',
      'it is not valid UTF-8, though it starts with that byte-order mark',
    ],
    [
      'a charset name with control characters',
      Buffer.from('[1]'),
      'application/json; charset=\u001b[31m',
      '[1]',
      "its Content-Type names a charset cip cannot read ('?[31m')",
    ],
  ])('%s: not exact, and why', (_what, bytes, contentType, text, inexact) => {
    expect(decodeText(bytes, contentType)).toEqual({ text, inexact });
  });
});
