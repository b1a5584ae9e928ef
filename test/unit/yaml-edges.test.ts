// YAML (src/json/yaml.ts) at its edges: empty documents, values JSON cannot hold, and writing long strings and
// exact numbers back.
import { describe, expect, it } from 'vitest';
import { ExactNumber, stringifyExactJson } from '../../src/json/exact.js';
import { parseExactYaml, stringifyExactYaml, YamlError } from '../../src/json/yaml.js';

describe('parseExactYaml', () => {
  it.each([
    ['', null],
    ['# only a comment\n', null],
    ['a:\n', { a: null }],
    ['- \n- 1\n', [null, 1]],
  ])('%j is empty where nothing is written', (text, expected) => {
    expect(parseExactYaml(text)).toEqual(expected);
  });

  it.each([
    ['a: !!binary aGVsbG8=', "'aGVsbG8=' is not a value JSON can hold at line 1, column 13: 'a: !!binary aGVsbG8='"],
    [
      'b: 1\nc:\n  a: !!timestamp 2001-12-14',
      "'2001-12-14' is not a value JSON can hold at line 3, column 18: '  a: !!timestamp 2001-12-14'",
    ],
  ])('%j is refused, saying which value and where', (text, message) => {
    expect(() => parseExactYaml(text)).toThrow(new YamlError(message));
  });

  it.each([
    ['environments:\n  - name: a\n  name: b\n', "All mapping items must start at the same column at line 3, column 1: '  name: b'"],
    ['environments:\r\n  - name: a\r\n  - name: a\r\n    name: b\r\n', "Map keys must be unique at line 4, column 5: '    name: b'"],
    ['a: "x\n', 'Missing closing "quote at line 2, column 1 (the end of the text)'],
    [
      `a: 1\nb: [${'1, '.repeat(40)}\n`,
      'Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1 (the end of the text)',
    ],
    [
      `a: 1\nb: ${'x'.repeat(100)}\n  c: 2\n`,
      `Nested mappings are not allowed in compact mappings at line 2, column 4: 'b: ${'x'.repeat(57)}…'`,
    ],
  ])('a syntax error in %j says where, and the line', (text, message) => {
    expect(() => parseExactYaml(text)).toThrow(new YamlError(message));
  });

  it.each([
    ['a: 1.50', '{"a":1.50}'],
    ['a: -1.5E+3', '{"a":-1.5E+3}'],
    ['a: 1.0e-3', '{"a":1.0e-3}'],
    ['a: 12345678901234567890', '{"a":12345678901234567890}'],
    ['a: 1e3', '{"a":1e3}'],
    ['a: 10', '{"a":10}'],
    ['a: -10.25', '{"a":-10.25}'],
    ['a: 0.5', '{"a":0.5}'],
    ['a: 0o17', '{"a":15}'],
    ['a: .5', '{"a":0.5}'],
    ['a: +1', '{"a":1}'],
    ['a: 1.', '{"a":1}'],
    ['a: 007', '{"a":7}'],
    ['a: &n 2.50\nb: *n', '{"a":2.50,"b":2.50}'],
  ])('%s reads as %s', (text, json) => {
    expect(stringifyExactJson(parseExactYaml(text))).toBe(json);
  });
});

describe('stringifyExactYaml', () => {
  it('writes exact numbers with their digits, plain and in lists', () => {
    const text = stringifyExactYaml({ ratio: new ExactNumber('1.50'), ids: [new ExactNumber('12345678901234567890'), 3] });
    expect(text).toBe('ratio: 1.50\nids:\n  - 12345678901234567890\n  - 3\n');
    expect(stringifyExactJson(parseExactYaml(text))).toBe('{"ratio":1.50,"ids":[12345678901234567890,3]}');
  });

  it('keeps a long string on one line', () => {
    const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    expect(stringifyExactYaml({ description: long })).toBe(`description: ${long}\n`);
  });
});
