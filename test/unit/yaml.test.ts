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

describe('YAML edges', () => {
  it('writes exact numbers with their own digits, not as objects or marked strings', () => {
    expect(stringifyExactYaml(parseExactYaml('a: 12345678901234567890\nb: 1.50\n'))).toBe('a: 12345678901234567890\nb: 1.50\n');
  });

  it.each([
    ['-12345678901234567890', '-12345678901234567890'],
    ['12345678901234567890.5', '12345678901234567890.5'],
    ['1.2345678901234567890e5', '1.2345678901234567890e5'],
    ['2.50E-3', '2.50E-3'],
    ['1e400', '1e400'],
    ['1E+400', '1E+400'],
    ['10', '10'],
  ])('keeps %s as written', (text, json) => {
    expect(stringifyExactJson(parseExactYaml(`n: ${text}`))).toBe(`{"n":${json}}`);
  });

  it.each([['.inf'], ['-.inf'], ['.nan']])('refuses %s, which JSON cannot hold', (text) => {
    expect(() => parseExactYaml(`n: ${text}`)).toThrow(`'${text}' is not a number JSON can hold`);
  });

  it('reads an empty document and ~ as null', () => {
    expect(parseExactYaml('')).toBeNull();
    expect(parseExactYaml('~')).toBeNull();
    expect(parseExactYaml('a: ~\nb:\n')).toEqual({ a: null, b: null });
  });

  it('turns plain keys into strings and refuses a list as a key', () => {
    expect(parseExactYaml('1: a\ntrue: b\n~: c\n')).toEqual({ '1': 'a', true: 'b', null: 'c' });
    expect(() => parseExactYaml('? [a]\n: x\n')).toThrow('a key must be a plain value, not a list or a map');
  });

  it('says why broken YAML is broken, on one line', () => {
    expect(() => parseExactYaml('a: [1, 2\n')).toThrow(/^.*(flow|Missing|collection).*$/);
  });

  it('allows 500 levels of nesting, lists or maps, and refuses one more; deeper still is the same error', () => {
    const lists = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(() => parseExactYaml(lists(500))).not.toThrow();
    expect(() => parseExactYaml(lists(501))).toThrow('nested deeper than 500 levels');
    expect(() => parseExactYaml(lists(5000))).toThrow('nested deeper than 500 levels');
    const maps = (depth: number) => `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(() => parseExactYaml(maps(499))).not.toThrow();
    expect(() => parseExactYaml(maps(501))).toThrow('nested deeper than 500 levels');
  });

  it('counts aliases: 1000 uses are fine, one more is refused', () => {
    const uses = (count: number) => `a: &x 1\nb: [${Array<string>(count).fill('*x').join(', ')}]\n`;
    expect((parseExactYaml(uses(1000)) as { b: unknown[] }).b).toHaveLength(1000);
    expect(() => parseExactYaml(uses(1001))).toThrow('more than 1000 aliases');
  });

  it('an alias counts as a level of nesting where it is used', () => {
    const deep = `a: &x ${'['.repeat(499)}${']'.repeat(499)}\nb: *x\n`;
    expect(() => parseExactYaml(deep)).toThrow('nested deeper than 500 levels');
  });
});
