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
    ['a: !!binary aGVsbG8=', "'aGVsbG8=' is not a value JSON can hold"],
    ['a: !!timestamp 2001-12-14', "'2001-12-14' is not a value JSON can hold"],
  ])('%s is refused, saying which value', (text, message) => {
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
