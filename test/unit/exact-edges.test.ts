// Exact JSON (src/json/exact.ts) where the fast scan and the exact parser meet: a number a double would change
// is found wherever it stands, and a text with only plain numbers is read the way JSON.parse reads it.
import { describe, expect, it } from 'vitest';
import { ExactNumber, parseExactJson, stringifyExactJson } from '../../src/json/exact.js';

describe('parseExactJson', () => {
  it.each([
    ['1.50', new ExactNumber('1.50')],
    ['[1.50]', [new ExactNumber('1.50')]],
    ['{"a":"x","b":2.0}', { a: 'x', b: new ExactNumber('2.0') }],
    ['[1e400]', [new ExactNumber('1e400')]],
    ['[-0, 10]', [new ExactNumber('-0'), 10]],
    ['[123456789012345, 9007199254740993]', [123456789012345, new ExactNumber('9007199254740993')]],
    ['[1E3]', [new ExactNumber('1E3')]],
    ['[0, 0.5, -7, 100]', [0, 0.5, -7, 100]],
  ])('%s keeps its digits', (text, expected) => {
    const value = parseExactJson(text);
    expect(value).toEqual(expected);
    expect(stringifyExactJson(value)).toBe(text.replace(/, /g, ','));
  });

  it('reads a key given twice as JSON.parse does, the last one winning', () => {
    expect(parseExactJson('{"a":1,"a":2}')).toEqual({ a: 2 });
    expect(parseExactJson('{"name":"x","name":"y","n":[1,2]}')).toEqual({ name: 'y', n: [1, 2] });
  });
});

describe('parseExactJson with a key given twice', () => {
  // JSON.parse, jq and Python keep the last value of a repeated key; so does cip, whatever the numbers are.
  it.each([
    ['{"a":1,"a":2}', '{"a":2}'],
    ['{"a":1.50,"a":2}', '{"a":2}'],
    ['{"a":2,"a":1.50}', '{"a":1.50}'],
    ['{"a":1.50,"b":1,"a":"x"}', '{"a":"x","b":1}'],
    ['{"a":{"b":1.50},"a":{"b":2.50}}', '{"a":{"b":2.50}}'],
    ['[{"v":9007199254740993,"v":9007199254740995}]', '[{"v":9007199254740995}]'],
  ])('%s is %s', (text, expected) => {
    expect(stringifyExactJson(parseExactJson(text))).toBe(expected);
  });
});

describe('exact numbers through Node itself', () => {
  it('JSON.stringify writes an ExactNumber as its digits wherever it stands, with no wrapper to call', () => {
    const data = { id: new ExactNumber('12345678901234567890'), list: [new ExactNumber('1.50'), 'x'] };
    expect(JSON.stringify(data)).toBe('{"id":12345678901234567890,"list":[1.50,"x"]}');
    expect(JSON.stringify(data, null, 2)).toBe(stringifyExactJson(data, 2));
  });

  it('refuses to write an ExactNumber whose text is no JSON number, rather than write text that is not JSON', () => {
    expect(() => stringifyExactJson({ n: new ExactNumber('0x1F') })).toThrow(SyntaxError);
    expect(() => stringifyExactJson([new ExactNumber('1,"injected":2')])).toThrow(SyntaxError);
  });

  it('reads exact numbers as deep as JSON may nest, under arrays and objects', () => {
    const depth = 1000;
    const deepest = `${'[{"a":'.repeat(depth / 2)}9007199254740993${'}]'.repeat(depth / 2)}`;
    expect(stringifyExactJson(parseExactJson(deepest))).toBe(deepest);
  });

  it.each(['{"quota": 12345678901234567890,}', '{"a":1.50}x', '[1.50, tru]', '{"a": 2.0'])(
    '%s is refused with the reason JSON.parse gives, as a text without long numbers is',
    (text) => {
      let reason = '';
      try {
        JSON.parse(text);
      } catch (error) {
        reason = (error as SyntaxError).message;
      }
      expect(reason).not.toBe('');
      expect(() => parseExactJson(text)).toThrow(new SyntaxError(reason));
    },
  );

  it('keeps a __proto__ key as data beside exact numbers, as JSON.parse does', () => {
    const value = parseExactJson('{"__proto__":{"n":1.50},"m":2.0}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'm']);
    expect(stringifyExactJson(value)).toBe('{"__proto__":{"n":1.50},"m":2.0}');
  });
});
