// A key given twice in one JSON object (src/json/repeated-key.ts): found as JSON.parse reads the key, at any
// depth, and only in one object (the same key in two objects, or as a value, is no repetition).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repeatedKey } from '../../../src/json/repeated-key.js';

describe('repeatedKey', () => {
  it.each([
    ['{"profile":"staging","profile":"prod"}', 'profile'],
    ['{"profile":"staging","pro\\u0066ile":"prod"}', 'profile'],
    ['{"pro\\u0066ile":"staging","profile":"prod"}', 'profile'],
    ['{ "a" : 1 ,\n\t"a"\r\n: 2 }', 'a'],
    ['{"__proto__":{},"__proto__":{"profile":"prod"}}', '__proto__'],
    ['{"profile":{"a":1,"a":2}}', 'a'],
    ['[{"x":[{"deep":1,"deep":2}]}]', 'deep'],
    ['{"a\\"b":1,"a\\u0022b":2}', 'a"b'],
    ['{"\\\\":1,"\\u005c":2}', '\\'],
    ['{"":1,"":2}', ''],
  ])('%s gives %j twice', (text, key) => {
    expect(repeatedKey(text)).toBe(key);
  });

  it.each([
    '{"profile":"prod"}',
    '{"profile":"profile"}',
    '{"a":{"a":{"a":1}}}',
    '[{"a":1},{"a":2}]',
    '{"a":{"b":1},"b":{"b":2}}',
    '{"Profile":"a","profile":"b"}',
    '{"a":"\\":\\"","b":"{\\"a\\":1,\\"a\\":2}"}',
    '["a","a"]',
    '"a"',
    '42',
  ])('%s gives no key twice', (text) => {
    expect(repeatedKey(text)).toBeUndefined();
  });

  it('finds a repeat exactly when one object of any JSON gives one key twice, in whatever spelling', () => {
    // A key's spellings: as it is, \u-escaped, or with an escaped quote or backslash; drawn from a small set, so
    // that repeats are common.
    const spellings = fc.constantFrom('a', '\\u0061', 'b', 'a\\"', 'a\\u0022', '\\\\', '\\u005c', 'x:y');
    interface Node {
      text: string;
      repeated: Set<string>;
    }
    const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('1', '"a"', '"x\\":y"', 'null', '{}', '[]').map((text) => ({ text, repeated: new Set<string>() })),
        fc.array(tie('node'), { maxLength: 3 }).map((items) => ({
          text: ` [ ${items.map((item) => item.text).join(' , ')} ] `,
          repeated: new Set(items.flatMap((item) => [...item.repeated])),
        })),
        fc.array(fc.tuple(spellings, tie('node')), { maxLength: 4 }).map((pairs) => {
          const names = pairs.map(([spelling]) => JSON.parse(`"${spelling}"`) as string);
          const repeated = new Set([
            ...names.filter((name, at) => names.indexOf(name) !== at),
            ...pairs.flatMap(([, value]) => [...value.repeated]),
          ]);
          return { text: `{${pairs.map(([spelling, value]) => `\n"${spelling}"\t:${value.text}`).join(',')}}`, repeated };
        }),
      ),
    })).node;
    fc.assert(
      fc.property(node, ({ text, repeated }) => {
        JSON.parse(text);
        const found = repeatedKey(text);
        if (repeated.size === 0) expect(found).toBeUndefined();
        else expect(repeated).toContain(found);
      }),
      { numRuns: 500 },
    );
  });
});
