// The payload builder (src/domain/environments/payload.ts): typed --field values, --raw-field, --data and --file
// (which files are read as YAML), the exact messages for text that does not parse or is not an object (the
// source named, the parser's reason, the @file hint), and, for input of any shape (fast-check), a payload or a
// usage error. json/exact.ts and json/yaml.ts are wrapped (their real functions by default) so that a test can
// make a parser fail as it never does on its own.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  buildPayload,
  looksLikeYaml,
  typedValue,
  type ReadSource,
  type FieldAssignment,
} from '../../../../src/domain/environments/payload.js';
import { CipError, UsageError } from '../../../../src/errors.js';
import { parseExactJson, ExactNumber, stringifyExactJson } from '../../../../src/json/exact.js';
import { parseExactYaml } from '../../../../src/json/yaml.js';
import {
  CONTROL,
  KEYS,
  holds,
  isJsonValue,
  isRecord,
  jsonNumberText,
  keyArb,
  nasty,
  usageOrAsync,
  viaJson,
} from '../../../helpers/arbitraries.js';

// The parsers as they are, but replaceable for one call: a failure that is not a SyntaxError (a bug, a stack
// overflow) must not be reported as the text's fault with a reason taken from it.
vi.mock(import('../../../../src/json/exact.js'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, parseExactJson: vi.fn(actual.parseExactJson) };
});
vi.mock(import('../../../../src/json/yaml.js'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, parseExactYaml: vi.fn(actual.parseExactYaml) };
});

const fromFile = (text: string) => async (): Promise<string> => text;
const noFile = async (path: string): Promise<string> => {
  throw new Error(`no file should be read (asked for ${path})`);
};

describe('looksLikeYaml', () => {
  it.each([
    // The name decides, whatever the text.
    ['env.yaml', '{"name":"x"}', true],
    ['env.yml', '{"name":"x"}', true],
    ['ENV.YML', '[1]', true],
    ['env.json', 'name: x', false],
    ['ENV.JSON', 'name: x', false],
    // Only the ending counts.
    ['env.yaml.json', '{"name":"x"}', false],
    ['env.yml.json', 'name: x', false],
    ['env.json.txt', 'name: x', true],
    ['env.json.txt', '{"name":"x"}', false],
    // Without a telling name (stdin, .txt), JSON is text that starts with { or [ after blanks or a BOM.
    ['-', '{"name":"x"}', false],
    ['-', '[1]', false],
    ['-', '  \n\t{"name":"x"}', false],
    ['-', ' [1]', false],
    ['-', '\uFEFF{"name":"x"}', false],
    ['-', 'name: x', true],
    ['-', 'tags: [a, b]', true],
    ['-', 'config: {a: 1}', true],
    ['-', '', true],
    ['-', 'x{', true],
  ])('%j with %j: %s', (path, text, yaml) => {
    expect(looksLikeYaml(path, text)).toBe(yaml);
  });
});

describe('buildPayload: a file', () => {
  it('reads YAML from a .yaml file and JSON from stdin', async () => {
    expect(await buildPayload({ file: 'env.yaml' }, fromFile('name: staging\nisActive: true\n'))).toStrictEqual({
      name: 'staging',
      isActive: true,
    });
    expect(await buildPayload({ file: '-' }, fromFile(' {"name":"piped"}'))).toStrictEqual({ name: 'piped' });
  });

  it.each([
    ['env.yaml', 'a: 1\na: 2\n', "--file env.yaml is not valid YAML: Map keys must be unique at line 2, column 1: 'a: 2'"],
    ['-', 'a: 1\na: 2\n', "the YAML on stdin is not valid YAML: Map keys must be unique at line 2, column 1: 'a: 2'"],
    ['-', '- a\n- b\n', 'the YAML on stdin must be a JSON object, not an array'],
    ['-', 'plain words', 'the YAML on stdin must be a JSON object, not a string'],
    ['-', '[1]', 'the JSON on stdin must be a JSON object, not an array'],
    ['env.json', '12', '--file env.json must be a JSON object, not a number'],
    ['env.json', 'true', '--file env.json must be a JSON object, not a boolean'],
    ['env.json', 'null', '--file env.json must be a JSON object, not null'],
  ])('%j holding %j: %s', async (file, text, message) => {
    const error = await usageError(() => buildPayload({ file }, fromFile(text)));
    expect(error.message).toBe(message);
    expect(error.hint).toBeUndefined();
  });

  it('names stdin as JSON and gives the parser reason for JSON that does not parse, with no hint', async () => {
    const error = await usageError(() => buildPayload({ file: '-' }, fromFile('{bad')));
    expect(error.message).toMatch(/^the JSON on stdin is not valid JSON: \S/);
    expect(error.hint).toBeUndefined();
  });

  it('a file that starts with @ gets no --file hint: only --data does', async () => {
    const error = await usageError(() => buildPayload({ file: 'env.json' }, fromFile('@other.json')));
    expect(error.message).toMatch(/^--file env\.json is not valid JSON: \S/);
    expect(error.hint).toBeUndefined();
  });

  it('a YAML parser failure that is not a SyntaxError gives no reason', async () => {
    vi.mocked(parseExactYaml).mockImplementationOnce(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const error = await usageError(() => buildPayload({ file: 'env.yaml' }, fromFile('name: x\n')));
    expect(error.message).toBe('--file env.yaml is not valid YAML');
  });
});

describe('buildPayload: --data', () => {
  it.each([
    ['"staging"', '--data must be a JSON object, not a string'],
    ['false', '--data must be a JSON object, not a boolean'],
    ['1.5', '--data must be a JSON object, not a number'],
    ['12345678901234567890', '--data must be a JSON object, not a number'],
    ['[]', '--data must be a JSON object, not an array'],
  ])('%s: %s', async (data, message) => {
    expect((await usageError(() => buildPayload({ data }, noFile))).message).toBe(message);
  });

  it('names the parser reason, and suggests --file only for text that starts with @', async () => {
    const plain = await usageError(() => buildPayload({ data: '{bad' }, noFile));
    expect(plain.message).toMatch(/^--data is not valid JSON: \S/);
    expect(plain.hint).toBeUndefined();
    const file = await usageError(() => buildPayload({ data: '@env.json' }, noFile));
    expect(file.message).toMatch(/^--data is not valid JSON: \S/);
    expect(file.hint).toBe('use --file env.json to read a file');
  });

  it('a JSON parser failure that is not a SyntaxError gives no reason', async () => {
    vi.mocked(parseExactJson).mockImplementationOnce(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const error = await usageError(() => buildPayload({ data: '{"name":"x"}' }, noFile));
    expect(error.message).toBe('--data is not valid JSON');
  });
});

describe('typedValue', () => {
  it.each([['a[1'], ['x{y'], ['say "hi"'], ['-[1]']])('%j only contains a JSON opening character: the text itself', async (raw) => {
    expect(await typedValue(raw, 'k')).toBe(raw);
  });
});

/** A readSource that serves files from a map and records every path asked for. */
function fakeFiles(files: Record<string, string>): ReadSource & { calls: string[] } {
  const calls: string[] = [];
  const read = (async (path: string) => {
    calls.push(path);
    const text = files[path];
    if (text === undefined) throw new UsageError(`cannot read --file ${path}: no such file`);
    return text;
  }) as ReadSource & { calls: string[] };
  read.calls = calls;
  return read;
}

const noFiles: ReadSource = async (path) => {
  throw new Error(`readSource must not be called (asked for ${path})`);
};

/** Runs fn, expects a UsageError with exit code 2, returns it. */
async function usageError(fn: () => unknown): Promise<UsageError> {
  let caught: unknown;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a UsageError').toBeInstanceOf(UsageError);
  expect((caught as CipError).exitCode).toBe(2);
  return caught as UsageError;
}

describe('typedValue', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['0', 0],
    ['42', 42],
    ['-7', -7],
    ['3.14', 3.14],
    ['-0.5', -0.5],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['[1,2]', [1, 2]],
    ['[]', []],
    ['{"a":1,"b":[true]}', { a: 1, b: [true] }],
    ['{}', {}],
    ['"quoted"', 'quoted'],
    ['"true"', 'true'],
  ])('%s → %j', async (raw, expected) => {
    expect(await typedValue(raw, 'k')).toStrictEqual(expected);
  });

  it.each([
    ['9007199254740993'],
    ['12345678901234567890'],
    ['-9007199254740993'],
    ['1e3'],
    ['2.5E-2'],
    ['-1e+2'],
    ['1e400'],
    ['1.50'],
    ['-0'],
    ['0.1000000000000000055511151231257827'],
  ])('keeps the number %s with exactly its digits (a number in what is sent, not a string)', async (raw) => {
    const value = await typedValue(raw, 'k');
    expect(value).toBeInstanceOf(ExactNumber);
    expect(stringifyExactJson({ k: value })).toBe(`{"k":${raw}}`);
  });

  it('keeps exact digits inside JSON literals too', async () => {
    expect(stringifyExactJson(await typedValue('[9007199254740993,1.0,{"a":1e400}]', 'k'))).toBe('[9007199254740993,1.0,{"a":1e400}]');
  });

  it.each([['staging'], ['True'], ['NULL'], ['01'], ['1.'], ['.5'], ['+1'], ['0x10'], ['1,000'], [''], ['hello world']])(
    'leaves %j as the text itself',
    async (raw) => {
      expect(await typedValue(raw, 'k')).toBe(raw);
    },
  );

  it.each([['[1,'], ['{'], ['{"a":}'], ['"unterminated'], ['[abc]'], ['{a:1}']])(
    'rejects %j, which looks like JSON but is not, with a UsageError naming the key',
    async (raw) => {
      const error = await usageError(() => typedValue(raw, 'config'));
      expect(error.message).toContain('config');
      expect(error.message).toContain('--raw-field');
    },
  );
});

const typed = (...texts: string[]) => texts.map((text) => ({ raw: false, text }));
const raw = (...texts: string[]) => texts.map((text) => ({ raw: true, text }));

describe('buildPayload', () => {
  it('merges --file, then --data, then --field and --raw-field, later values winning', async () => {
    const read = fakeFiles({ 'env.json': '{"name":"from-file","a":"file","b":"file","c":"file","d":"file"}' });
    const payload = await buildPayload(
      {
        file: 'env.json',
        data: '{"b":"data","c":"data","d":"data"}',
        fields: [...typed('c=1'), ...raw('d=raw')],
      },
      read,
    );
    expect(payload).toStrictEqual({ name: 'from-file', a: 'file', b: 'data', c: 1, d: 'raw' });
    expect(read.calls).toStrictEqual(['env.json']);
  });

  it('applies repeated --field in order, the last one winning', async () => {
    expect(await buildPayload({ fields: typed('n=1', 'n=2', 'n=3') }, noFiles)).toStrictEqual({ n: 3 });
  });

  it('applies repeated --raw-field in order, the last one winning', async () => {
    expect(await buildPayload({ fields: raw('n=a', 'n=b') }, noFiles)).toStrictEqual({ n: 'b' });
  });

  it('--data overrides keys from --file but keeps the others', async () => {
    const payload = await buildPayload({ file: 'f', data: '{"x":2}' }, fakeFiles({ f: '{"x":1,"y":1}' }));
    expect(payload).toStrictEqual({ x: 2, y: 1 });
  });

  it('types --field values', async () => {
    const payload = await buildPayload(
      {
        fields: typed(
          'on=true',
          'off=false',
          'none=null',
          'n=-12',
          'f=1.5',
          'e=1e2',
          'big=9007199254740993',
          'tags=["a","b"]',
          'o={"k":1}',
          's="x"',
          'name=prod',
        ),
      },
      noFiles,
    );
    expect(stringifyExactJson(payload)).toBe(
      '{"on":true,"off":false,"none":null,"n":-12,"f":1.5,"e":1e2,"big":9007199254740993,"tags":["a","b"],"o":{"k":1},"s":"x","name":"prod"}',
    );
  });

  it('keeps every --raw-field value a string', async () => {
    const payload = await buildPayload({ fields: raw('t=true', 'one=1', 'brace={', 'nul=null', 'arr=[1]', 'empty=') }, noFiles);
    expect(payload).toStrictEqual({ t: 'true', one: '1', brace: '{', nul: 'null', arr: '[1]', empty: '' });
  });

  it('splits key=value at the first = only', async () => {
    expect(await buildPayload({ fields: raw('url=https://x/?a=b=c') }, noFiles)).toStrictEqual({ url: 'https://x/?a=b=c' });
    expect(await buildPayload({ fields: typed('expr=a==b') }, noFiles)).toStrictEqual({ expr: 'a==b' });
  });

  it.each([
    [{ fields: typed('novalue') }, '--field'],
    [{ fields: typed('=1') }, '--field'],
    [{ fields: raw('novalue') }, '--raw-field'],
    [{ fields: raw('=x') }, '--raw-field'],
  ])('rejects %j: missing = or empty key, naming %s', async (options, flag) => {
    const error = await usageError(() => buildPayload(options, noFiles));
    expect(error.message).toContain(flag);
    expect(error.message).toContain('key=value');
  });

  it('rejects everything when one --field is bad, even after good ones', async () => {
    await usageError(() => buildPayload({ fields: typed('a=1', 'b=[oops') }, noFiles));
  });

  it.each([[{}], [{ fields: [] }]])('rejects %j: nothing to send', async (options) => {
    const error = await usageError(() => buildPayload(options, noFiles));
    expect(error.message).toMatch(/nothing to send/);
  });

  it.each([
    ['[1,2]', 'an array'],
    ['null', 'null'],
    ['42', 'a number'],
    ['"text"', 'a string'],
    ['true', 'a boolean'],
  ])('rejects --data %s, saying it is %s and not an object', async (data, kind) => {
    const error = await usageError(() => buildPayload({ data }, noFiles));
    expect(error.message).toContain('--data');
    expect(error.message).toContain('must be a JSON object');
    expect(error.message).toContain(kind);
  });

  it('rejects a --file whose JSON is not an object, naming the file', async () => {
    const error = await usageError(() => buildPayload({ file: 'list.json' }, fakeFiles({ 'list.json': '[]' })));
    expect(error.message).toContain('--file list.json');
    expect(error.message).toContain('an array');
  });

  it.each([['{not json'], [''], ['{"a":1,}']])('rejects invalid JSON in --data (%j), naming --data', async (data) => {
    const error = await usageError(() => buildPayload({ data }, noFiles));
    expect(error.message).toContain('--data is not valid JSON');
  });

  it('rejects invalid JSON in --file, naming the file', async () => {
    const error = await usageError(() => buildPayload({ file: 'bad.json' }, fakeFiles({ 'bad.json': '{"a":' })));
    expect(error.message).toContain('--file bad.json is not valid JSON');
  });

  it('names stdin when --file - holds invalid JSON', async () => {
    const read = fakeFiles({ '-': 'nope' });
    const error = await usageError(() => buildPayload({ file: '-' }, read));
    expect(error.message).toContain('stdin');
    expect(read.calls).toStrictEqual(['-']);
  });

  it('calls readSource with the --file path, exactly once', async () => {
    const read = fakeFiles({ './dir/env one.json': '{"name":"x"}' });
    expect(await buildPayload({ file: './dir/env one.json' }, read)).toStrictEqual({ name: 'x' });
    expect(read.calls).toStrictEqual(['./dir/env one.json']);
  });

  it('does not call readSource without --file', async () => {
    const read = fakeFiles({});
    await buildPayload({ data: '{"a":1}' }, read);
    expect(read.calls).toStrictEqual([]);
  });

  it('lets the readSource error through unchanged', async () => {
    const failure = new UsageError('cannot read --file missing.json: no such file');
    const error = await usageError(() =>
      buildPayload({ file: 'missing.json' }, async () => {
        throw failure;
      }),
    );
    expect(error).toBe(failure);
  });

  it('keeps control characters out of error messages', async () => {
    const error = await usageError(() => buildPayload({ fields: typed('\u001b[31mred') }, noFiles));
    expect(error.message).not.toContain('\u001b');
  });
});

describe('payload: typedValue and buildPayload', () => {
  const anyText = fc.oneof(
    nasty,
    fc.string({ unit: 'binary' }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  );

  it('typedValue returns a JSON value or throws UsageError(2), for any text', async () => {
    await holds(
      fc.asyncProperty(anyText, nasty, async (raw, key) => {
        const result = await usageOrAsync(() => typedValue(raw, key));
        if (result.ok) expect(isJsonValue(result.value)).toBe(true);
        else expect(result.error.message).not.toMatch(CONTROL);
      }),
      1000,
    );
  });

  it('-F of any JSON text sends exactly that text', async () => {
    await holds(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((value) => JSON.stringify(value)),
          jsonNumberText,
        ),
        async (text) => {
          expect(stringifyExactJson(await typedValue(text, 'k'))).toBe(text);
        },
      ),
      1000,
    );
  });

  it('-F of a safe integer, boolean, null, string, array or object gives the plain JavaScript value', async () => {
    const safe = fc.oneof(
      fc.jsonValue().filter((v) => typeof v !== 'number'),
      fc.maxSafeInteger(),
    );
    await holds(
      fc.asyncProperty(safe, async (value) => {
        expect(await typedValue(JSON.stringify(value), 'k')).toStrictEqual(viaJson(value));
      }),
      500,
    );
  });

  it('a raw field is the text after the first =, whatever it holds', async () => {
    await holds(
      fc.asyncProperty(
        nasty.filter((k) => k.length > 0 && !k.includes('=')),
        fc.string({ unit: 'binary' }),
        async (key, value) => {
          const payload = await buildPayload({ fields: [{ raw: true, text: `${key}=${value}` }] }, noFiles);
          expect(Object.keys(payload)).toStrictEqual([key]);
          expect(Object.getOwnPropertyDescriptor(payload, key)?.value).toBe(value);
        },
      ),
      500,
    );
  });

  it('keys are split at the first =: no key contains =; no = or a leading = is a UsageError', async () => {
    const assignment = fc.record({ raw: fc.boolean(), text: nasty });
    await holds(
      fc.asyncProperty(fc.array(assignment, { minLength: 1, maxLength: 6 }), async (fields) => {
        const result = await usageOrAsync(() => buildPayload({ fields }, noFiles));
        const malformed = fields.some(({ text }) => text.indexOf('=') <= 0);
        if (malformed) expect(result.ok).toBe(false);
        if (!result.ok) return;
        for (const key of Object.keys(result.value)) expect(key).not.toContain('=');
        for (const { raw, text } of fields) {
          const key = text.slice(0, text.indexOf('='));
          expect(Object.hasOwn(result.value, key)).toBe(true);
          if (raw && fields.filter((f) => f.text.startsWith(`${key}=`)).at(-1)!.text === text) {
            expect(result.value[key]).toBe(text.slice(key.length + 1));
          }
        }
      }),
      500,
    );
  });

  it('for any sequence of -F/-f assignments the last one per key wins', async () => {
    const key = fc.oneof(
      fc.constantFrom('a', 'b', 'name', 'Name', '__proto__'),
      nasty.filter((k) => k.length > 0 && !k.includes('=')),
    );
    const typed = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'number'),
      fc.maxSafeInteger(),
    );
    const step = fc.oneof(
      fc.record({ raw: fc.constant(true as const), key, value: fc.string({ unit: 'binary' }) }),
      fc.record({ raw: fc.constant(false as const), key, value: typed }),
    );
    await holds(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const fields: FieldAssignment[] = steps.map((s) => ({
          raw: s.raw,
          text: `${s.key}=${s.raw ? s.value : JSON.stringify(s.value)}`,
        }));
        const payload = await buildPayload({ fields }, noFiles);
        const expected = new Map<string, unknown>();
        for (const s of steps) expected.set(s.key, s.raw ? s.value : viaJson(s.value));
        expect(Object.keys(payload).sort()).toStrictEqual([...expected.keys()].sort());
        for (const [k, v] of expected) expect(Object.getOwnPropertyDescriptor(payload, k)?.value).toStrictEqual(v);
      }),
      500,
    );
  });

  it('buildPayload with arbitrary --data returns a plain object or throws UsageError(2)', async () => {
    const data = fc.oneof(
      nasty,
      fc.string({ unit: 'binary' }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
    );
    const fields = fc.array(fc.record({ raw: fc.boolean(), text: nasty }), { maxLength: 3 });
    await holds(
      fc.asyncProperty(data, fields, async (text, assignments) => {
        const result = await usageOrAsync(() => buildPayload({ data: text, fields: assignments }, noFiles));
        if (!result.ok) {
          expect(result.error.message).not.toMatch(CONTROL);
          return;
        }
        expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
        expect(isJsonValue(result.value)).toBe(true);
      }),
      800,
    );
  });

  it('--data JSON.stringify(obj) plus fields gives exactly obj merged with the fields (what goes on the wire)', async () => {
    const obj = fc.dictionary(keyArb, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });
    const field = fc.record({
      raw: fc.constant(true),
      key: fc.oneof(
        fc.constantFrom(...KEYS),
        nasty.filter((k) => k.length > 0 && !k.includes('=')),
      ),
      value: nasty,
    });
    await holds(
      fc.asyncProperty(obj, fc.array(field, { maxLength: 4 }), async (object, steps) => {
        const payload = await buildPayload(
          { data: JSON.stringify(object), fields: steps.map((s) => ({ raw: true, text: `${s.key}=${s.value}` })) },
          noFiles,
        );
        // The model: own data properties, defined (not assigned) in order, so every key is an ordinary key.
        const expected: Record<string, unknown> = {};
        const define = (k: string, v: unknown) =>
          Object.defineProperty(expected, k, { value: v, enumerable: true, writable: true, configurable: true });
        for (const [k, v] of Object.entries(viaJson(object) as Record<string, unknown>)) define(k, v);
        for (const s of steps) define(s.key, s.value);
        expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
        expect(JSON.stringify(payload)).toBe(JSON.stringify(expected));
      }),
      500,
    );
  });

  it('--file goes through readSource; whatever the file holds, the result is an object or a UsageError', async () => {
    await holds(
      fc.asyncProperty(
        fc.oneof(
          nasty,
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        nasty,
        async (content, path) => {
          const read: ReadSource = async () => content;
          const result = await usageOrAsync(() => buildPayload({ file: path }, read));
          if (result.ok) expect(isRecord(result.value)).toBe(true);
          else expect(result.error.message).not.toMatch(CONTROL);
        },
      ),
      300,
    );
  });
});
