// Exact JSON (src/json/exact.ts): a number a double would change keeps its digits, found wherever it stands by the
// fast scan; a text with only plain numbers is read the way JSON.parse reads it; a key given twice; nesting
// bounded; and, for number texts of every size and shape (fast-check), a round trip that changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ExactNumber,
  parseExactJson,
  stringifyExactJson,
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  isExactNumber,
  numberFromText,
  scanJson,
} from '../../../src/json/exact.js';
import { isRecord } from '../../../src/json/record.js';
import { holds, jsonNumberText, keyArb, nasty } from '../../helpers/arbitraries.js';

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

describe('exact numbers', () => {
  it('an ExactNumber reads as its digits in text and as the nearest double in arithmetic', () => {
    const huge = new ExactNumber('9007199254740993');
    expect(`${huge}`).toBe('9007199254740993');
    expect(String(huge)).toBe('9007199254740993');
    expect(+huge).toBe(9007199254740992);
    expect(Number(new ExactNumber('1e400'))).toBe(Infinity);
    expect(isExactNumber(huge)).toBe(true);
    expect(isExactNumber(9007199254740992)).toBe(false);
    expect(isExactNumber({ text: '1' })).toBe(false);
  });

  it('numberFromText keeps a plain number plain and anything else exact', () => {
    expect(numberFromText('42')).toBe(42);
    expect(numberFromText('-0.5')).toBe(-0.5);
    expect(numberFromText('1.50')).toEqual(new ExactNumber('1.50'));
    expect(numberFromText('1E3')).toEqual(new ExactNumber('1E3'));
    expect(numberFromText('-0')).toEqual(new ExactNumber('-0'));
  });

  it('parses JSON nested exactly as deep as allowed, and refuses one level more', () => {
    expect(MAX_JSON_DEPTH).toBe(1000);
    const deepest = `${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(scanJson(deepest).depth).toBe(MAX_JSON_DEPTH);
    expect(parseExactJson(deepest)).toBeDefined();
    const tooDeep = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseExactJson(tooDeep)).toThrow(new JsonTooDeepError());
    expect(new JsonTooDeepError().message).toBe('JSON nested deeper than 1000 levels');
    expect(new JsonTooDeepError()).toBeInstanceOf(SyntaxError);
  });

  it('counts depth as the deepest nesting, not the number of brackets', () => {
    expect(scanJson('[[1],[2],[3]]').depth).toBe(2);
    expect(scanJson('{"a":[{}],"b":{"c":[]}}').depth).toBe(3);
    expect(scanJson('"[[[[" ').depth).toBe(0);
    expect(scanJson('[]').depth).toBe(1);
  });

  it('skips brackets and digits inside strings, escaped quotes included', () => {
    expect(scanJson(String.raw`["a\"[[[", 1]`)).toEqual({ plainNumbers: true, depth: 1 });
    expect(scanJson(String.raw`["a\\", 1.50]`)).toEqual({ plainNumbers: false, depth: 1 });
    expect(scanJson(String.raw`["a\\\"1.50", 2]`)).toEqual({ plainNumbers: true, depth: 1 });
    expect(scanJson('{"9007199254740993": 1}')).toEqual({ plainNumbers: true, depth: 1 });
  });

  it('stops at an unterminated string with what it has seen', () => {
    expect(scanJson('[[1.50, "open')).toEqual({ plainNumbers: false, depth: 2 });
  });

  it.each([
    ['123456789012345', true],
    ['1234567890123456', true],
    ['9007199254740993', false],
    ['-5', true],
    ['-0', false],
    ['0', true],
    ['1.5', true],
    ['1.50', false],
    ['1e5', false],
    ['1E5', false],
    ['1e+5', false],
    ['1e-7', true],
    ['2.5e-7', true],
    ['1e21', false],
    ['1e+21', true],
    ['123.0', false],
  ])('the number %s is plain: %s', (number, plain) => {
    expect(scanJson(`[${number}]`).plainNumbers).toBe(plain);
    expect(scanJson(`{"k":${number}}`).plainNumbers).toBe(plain);
  });

  it('parses with JSON.parse when every number is plain and exactly otherwise', () => {
    expect(parseExactJson('{"a":[1,2.5,-3]}')).toEqual({ a: [1, 2.5, -3] });
    const value = parseExactJson('{"id":9007199254740993,"n":1}') as Record<string, unknown>;
    expect(value.id).toEqual(new ExactNumber('9007199254740993'));
    expect(value.n).toBe(1);
    expect(() => parseExactJson('{"a":')).toThrow(SyntaxError);
  });

  it('writes every ExactNumber with its digits, once or many times, indented or not', () => {
    const a = new ExactNumber('9007199254740993');
    const b = new ExactNumber('1.50');
    expect(stringifyExactJson({ a, b, c: [b, 'text', a] })).toBe('{"a":9007199254740993,"b":1.50,"c":[1.50,"text",9007199254740993]}');
    expect(stringifyExactJson([a], 2)).toBe('[\n  9007199254740993\n]');
    expect(stringifyExactJson({ plain: 1, s: 'x' })).toBe('{"plain":1,"s":"x"}');
    expect(stringifyExactJson(undefined)).toBeUndefined();
  });

  it('isRecord: an object, not null, an array or an exact number', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord(new ExactNumber('1.0'))).toBe(false);
    expect(isRecord('x')).toBe(false);
  });
});

/** Compact JSON text (as JSON.stringify writes it) whose numbers are of every size and shape. */
const { jsonText } = fc.letrec<{ jsonText: string }>((tie) => ({
  jsonText: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    jsonNumberText,
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    nasty.map((text) => JSON.stringify(text)),
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('jsonText'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      // Keys that look like array indexes are put first by every JavaScript object, so order is not compared for them.
      .uniqueArray(
        fc.tuple(
          keyArb.filter((key) => !/^(0|[1-9]\d{0,8})$/.test(key)),
          tie('jsonText'),
        ),
        { maxLength: 5, selector: ([key]) => key },
      )
      .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
  ),
}));

describe('exact JSON', () => {
  it('parse then stringify gives back the very text, every number digit for digit', async () => {
    await holds(
      fc.asyncProperty(jsonText, async (text) => {
        expect(stringifyExactJson(await parseExactJson(text))).toBe(text);
      }),
      2000,
    );
  });

  it('the fast path is taken exactly when JSON.parse would keep every number', async () => {
    await holds(
      fc.property(jsonText, (text) => {
        expect(scanJson(text).plainNumbers).toBe(JSON.stringify(JSON.parse(text)) === text);
      }),
      2000,
    );
  });

  it('indented output holds the same digits as compact output', async () => {
    await holds(
      fc.asyncProperty(jsonText, async (text) => {
        const value = await parseExactJson(text);
        expect(stringifyExactJson(await parseExactJson(stringifyExactJson(value, 2)))).toBe(text);
      }),
      500,
    );
  });
});
