import { describe, it, expect } from 'vitest';
import { PassThrough } from 'node:stream';
import { buildPayload, typedValue, type ReadSource } from '../../src/domain/environments/payload.js';
import { ExactNumber, stringifyExactJson } from '../../src/json/exact.js';
import { CipError, UsageError } from '../../src/errors.js';
import { run } from '../../src/run.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';

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

describe('cip env create: --field and --raw-field interleaved on the command line', () => {
  // The help promises "each --field and --raw-field in turn (later values win)": check it through the parser.
  it.each([
    [['-f', 'code=text', '-F', 'code=1'], 1],
    [['-F', 'code=1', '-f', 'code=text'], 'text'],
  ])('env create %j stores code %j', async (args, expected) => {
    const sandbox = await startSandbox();
    try {
      const stderr = new PassThrough();
      const io = fakeIO({ stderr });
      const ctx = testContext(
        io,
        {
          CIP_API_KEY: sandbox.keys.apiKey,
          CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
          CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
          CIP_CONFIG_DIR: '/nonexistent/cip-test-config',
        },
        '0.0.0',
      );
      const code = await run(['--base-url', sandbox.url, 'env', 'create', '-f', 'name=n', ...args], ctx);
      expect(code, drain(stderr)).toBe(0);
      const stored = [...sandbox.environments.values()];
      expect(stored).toHaveLength(1);
      expect(stored[0]!.code).toStrictEqual(expected);
    } finally {
      await sandbox.close();
    }
  });
});
