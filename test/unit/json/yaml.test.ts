// YAML (src/json/yaml.ts): exact numbers, empty documents, values JSON cannot hold, merge keys as PyYAML and
// ruamel.yaml read them, and what cip writes for YAML 1.1 readers too (long strings, exact numbers).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../../../src/commands/io.js';
import { stringifyExactJson, ExactNumber } from '../../../src/json/exact.js';
import { MAX_EXPANDED_BYTES, parseExactYaml, stringifyExactYaml, YamlError } from '../../../src/json/yaml.js';
import { awkwardString } from '../../helpers/yaml.js';

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
    // `n` is quoted as a key too: YAML 1.1 (Go's yaml.v2) reads a plain n as false.
    expect(stringifyExactYaml(data)).toContain('"n": "12"\n');
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

  it('bounds what aliases add, not how many there are: a million values are fine, a thousand more are refused', () => {
    const uses = (count: number) =>
      `a: &x [${Array<string>(999).fill('1').join(', ')}]\nb: [${Array<string>(count).fill('*x').join(', ')}]\n`;
    // Each use adds the list and its 999 numbers: 1,000 values.
    expect((parseExactYaml(uses(1000)) as { b: unknown[] }).b).toHaveLength(1000);
    expect(() => parseExactYaml(uses(1001))).toThrow(
      new YamlError('its aliases expand it too far: they add 1001000 values, more than the 1000000 allowed'),
    );
    const scalars = `a: &x 1\nb: [${Array<string>(20_000).fill('*x').join(', ')}]\n`;
    expect((parseExactYaml(scalars) as { b: unknown[] }).b).toHaveLength(20_000);
  });

  it('bounds the bytes aliases expand to by the input limit: 64 MiB of JSON', () => {
    const mib = 'x'.repeat(1024 * 1024);
    const uses = (count: number) => `a: &s "${mib}"\nb: [${Array<string>(count).fill('*s').join(', ')}]\n`;
    expect((parseExactYaml(uses(60)) as { b: string[] }).b[59]).toBe(mib);
    expect(() => parseExactYaml(uses(64))).toThrow(
      new YamlError('its aliases expand it too far: to about 66 MiB as JSON, more than the 64 MiB allowed'),
    );
    expect(MAX_EXPANDED_BYTES).toBe(MAX_INPUT_BYTES);
  });

  it('refuses a file of 500 aliases of a 50,000-item list before expanding it', () => {
    const text = `a: &a [${Array<string>(50_000).fill('1').join(', ')}]\nb: [${Array<string>(500).fill('*a').join(', ')}]\n`;
    expect(() => parseExactYaml(text)).toThrow('they add 25000500 values, more than the 1000000 allowed');
  });

  it.each([
    ['an alias inside its own anchor', 'a: &a [1, *a]\n', 'an alias refers to a node that holds it: the data would have no end'],
    ['an alias before its anchor', 'a: *x\nb: &x 1\n', 'the alias *x has no anchor &x before it'],
    ['an alias without an anchor', 'a: *nowhere\n', 'the alias *nowhere has no anchor &nowhere before it'],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseExactYaml(text)).toThrow(new YamlError(message));
  });

  it('takes the last anchor of a name before the alias, as YAML says', () => {
    expect(parseExactYaml('a: &x 1\nb: *x\nc: &x 2\nd: *x\n')).toEqual({ a: 1, b: 1, c: 2, d: 2 });
  });

  it('an alias counts as a level of nesting where it is used', () => {
    const deep = `a: &x ${'['.repeat(499)}${']'.repeat(499)}\nb: *x\n`;
    expect(() => parseExactYaml(deep)).toThrow('nested deeper than 500 levels');
  });
});

describe('YAML merge keys, as PyYAML and ruamel.yaml read them', () => {
  const read = (text: string) => stringifyExactJson(parseExactYaml(text));

  it('merges a map: its own keys win wherever they stand, numbers keep their digits', () => {
    const text = 'base: &base {type: Test, quota: 12345678901234567890, retention: 30}\nx:\n  retention: 7\n  <<: *base\n  name: x\n';
    expect(read(text)).toBe(
      '{"base":{"type":"Test","quota":12345678901234567890,"retention":30},"x":{"retention":7,"type":"Test","quota":12345678901234567890,"name":"x"}}',
    );
  });

  it('merges a list of maps: the earlier map wins', () => {
    expect(read('a: &a {k: a, x: 1}\nb: &b {k: b, y: 2}\nm:\n  <<: [*a, *b]\n')).toBe(
      '{"a":{"k":"a","x":1},"b":{"k":"b","y":2},"m":{"k":"a","x":1,"y":2}}',
    );
  });

  it('merges maps written in place, and merges inside what is merged', () => {
    expect(read('m:\n  <<: {a: 1, <<: {b: 2}}\n')).toBe('{"m":{"a":1,"b":2}}');
  });

  it("keeps a quoted '<<' as a field", () => {
    expect(read('m:\n  "<<": {a: 1}\n')).toBe('{"m":{"<<":{"a":1}}}');
  });

  it.each([
    ['a number', 'm:\n  <<: 1\n', "'<<' (a merge key) takes a map or a list of maps"],
    ['a list holding a number', 'a: &a {x: 1}\nm:\n  <<: [*a, 2]\n', "'<<' (a merge key) takes a map or a list of maps"],
    [
      'two merge keys in one map (ruamel.yaml refuses them, PyYAML reads them)',
      'm:\n  <<: {a: 1}\n  <<: {b: 2}\n',
      "a map has two '<<' merge keys: merge a list instead, as <<: [*a, *b]",
    ],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parseExactYaml(text)).toThrow(new YamlError(message));
  });

  it('counts what a merge adds against the bound on aliases', () => {
    const text = `a: &a {${Array.from({ length: 999 }, (_, index) => `k${index}: 1`).join(', ')}}\nl:\n${'  - <<: *a\n'.repeat(600)}`;
    expect(() => parseExactYaml(text)).toThrow(/they add \d+ values, more than the 1000000 allowed/);
  });

  it('refuses one key written twice, as 1 and "1"', () => {
    expect(() => parseExactYaml('1: a\n"1": b\n')).toThrow(new YamlError("the key '1' is given twice at line 2, column 1: '\"1\": b'"));
  });
});

describe('YAML written for YAML 1.1 readers too (PyYAML, ruamel.yaml)', () => {
  it.each([
    ['DEL', 'a\x7fb', '"a\\x7fb"'],
    ['a C1 control', '\x80', '"\\x80"'],
    ['NEL', 'a\x85b', '"a\\x85b"'],
    ['LS and PS', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['a BOM', '\ufeffa', '"\\ufeffa"'],
    ['U+FFFE', '\ufffe', '"\\ufffe"'],
    ['a lone surrogate', 'a\ud800', '"a\\ud800"'],
    ['a tab', 'a\tb', '"a\\tb"'],
    ['a tab and a newline', 'a\tb\nc', '"a\\tb\\nc"'],
    ['a NUL and an escape', '\0\x1b', '"\\0\\x1b"'],
    ['yes', 'yes', '"yes"'],
    ['No', 'No', '"No"'],
    ['on', 'on', '"on"'],
    ['OFF', 'OFF', '"OFF"'],
    ['y', 'y', '"y"'],
    ['~', '~', '"~"'],
    ['<<', '<<', '"<<"'],
    ['=', '=', '"="'],
    ['a base-60 number', '12:30', '"12:30"'],
    ['a number with _', '1_000', '"1_000"'],
    ['a date', '2001-12-14', '"2001-12-14"'],
    ['leading and trailing spaces', ' a ', '" a "'],
    ['a plain string', 'staging', 'staging'],
    ['an emoji', 'ok 😀', 'ok 😀'],
  ])('quotes %s', (_what, value, written) => {
    expect(stringifyExactYaml({ v: value })).toBe(`v: ${written}\n`);
    expect(parseExactYaml(stringifyExactYaml({ v: value }))).toEqual({ v: value });
  });

  it('quotes such keys the same way', () => {
    expect(stringifyExactYaml({ '<<': 1, yes: 2, 'a\tb': 3, '\x7f': 4 })).toBe('"<<": 1\n"yes": 2\n"a\\tb": 3\n"\\x7f": 4\n');
  });

  it('writes a string of lines at the top level quoted (PyYAML refuses a block scalar without indentation)', () => {
    expect(stringifyExactYaml('a\nb')).toBe('"a\\nb"\n');
    expect(stringifyExactYaml({ v: 'a\nb' })).toBe('v: |-\n  a\n  b\n');
  });

  it('reads back whatever strings it wrote, as keys and values, at any depth', () => {
    const text = awkwardString('binary');
    const data = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(text, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(data, (value) => {
        expect(parseExactYaml(stringifyExactYaml(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});

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
