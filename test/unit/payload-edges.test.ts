// Edges of the payload builder (domain/environments/payload.ts): which files are read as YAML, the exact messages for
// text that does not parse or is not an object (the source named, the parser's reason, the @file hint), and
// --field values that only contain JSON's opening characters.
import { describe, expect, it, vi } from 'vitest';
import { buildPayload, looksLikeYaml, typedValue } from '../../src/domain/environments/payload.js';
import { CipError, UsageError } from '../../src/errors.js';
import { parseExactJson } from '../../src/json/exact.js';
import { parseExactYaml } from '../../src/json/yaml.js';

// The parsers as they are, but replaceable for one call: a failure that is not a SyntaxError (a bug, a stack
// overflow) must not be reported as the text's fault with a reason taken from it.
vi.mock(import('../../src/json/exact.js'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, parseExactJson: vi.fn(actual.parseExactJson) };
});
vi.mock(import('../../src/json/yaml.js'), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, parseExactYaml: vi.fn(actual.parseExactYaml) };
});

/** The UsageError (exit 2) that building the payload throws. */
async function usageError(build: () => Promise<unknown>): Promise<UsageError> {
  const error = await build().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as CipError).exitCode).toBe(2);
  return error as UsageError;
}

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
