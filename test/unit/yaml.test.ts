import { describe, expect, it } from 'vitest';
import { stringifyExactJson } from '../../src/json/exact.js';
import { parseExactYaml, stringifyExactYaml, YamlError } from '../../src/json/yaml.js';

describe('YAML with exact numbers', () => {
  it('reads numbers with the digits they were written with', () => {
    const data = parseExactYaml('a: 12345678901234567890\nb: 1.50\nc: -0\nd: [1, 2.0e3]\ne: "12"\nf: 0x1F\ng: null\nh: true\n');
    expect(stringifyExactJson(data)).toBe('{"a":12345678901234567890,"b":1.50,"c":-0,"d":[1,2.0e3],"e":"12","f":31,"g":null,"h":true}');
  });

  it('writes them back the same way, and round-trips', () => {
    const json = '{"environments":[{"name":"a b","quota":12345678901234567890,"ratio":1.50,"tags":[],"settings":{},"n":"12","t":"true"}]}';
    const data = JSON.parse(json) as unknown;
    const exact = parseExactYaml(stringifyExactYaml(parseExactYaml(json)));
    expect(stringifyExactJson(exact)).toBe(json);
    expect(stringifyExactYaml(data)).toContain('n: "12"\n');
  });

  it.each([
    ['.inf', 'a: .inf'],
    ['a tag', 'a: !!binary aGVsbG8='],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['broken syntax', 'a: [1, 2\n'],
    ['a map as a key', '? {a: 1}\n: x\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseExactYaml(text)).toThrow(YamlError);
  });

  it('refuses an alias bomb', () => {
    const lines = ['a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]'];
    for (let level = 0; level < 9; level++)
      lines.push(
        `${'bcdefghij'[level]!}: &${'bcdefghij'[level]!} [${Array(10)
          .fill(`*${level === 0 ? 'a' : 'bcdefghij'[level - 1]!}`)
          .join(', ')}]`,
      );
    expect(() => parseExactYaml(lines.join('\n'))).toThrow(/aliases/);
  });
});
