// The pure parts of environments as code (src/domain/environments/plan.ts): how values compare (numbers by value,
// lists and objects in full), which records have a key, the file's errors, and the plan: what is created,
// updated and deleted, what is refused, and how it is counted, shown and given as data.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readInput } from '../../../../src/commands/io.js';
import { KEY_OPTIONS } from '../../../../src/commands/options.js';
import { keyFor, mergeDeclared } from '../../../../src/domain/environments/merge.js';
import {
  computePlan,
  fieldOf,
  keyOf,
  planData,
  planLines,
  planSize,
  readDesired,
  sameValue,
  type Plan,
} from '../../../../src/domain/environments/plan.js';
import { CipError, UsageError } from '../../../../src/errors.js';
import { ExactNumber } from '../../../../src/json/exact.js';
import { tempDir } from '../../../helpers/cli.js';
import { fakeIO, testContext } from '../../../helpers/io.js';

const exact = (text: string) => new ExactNumber(text);

describe('sameValue', () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['a number and its exact spelling with a fraction', 30, exact('30.0'), true],
    ['an exponent with a plus sign', exact('1e+2'), 100, true],
    ['leading zeros of a fraction', 0.001, exact('1e-3'), true],
    ['a fraction and its exponent form', exact('0.50'), exact('5e-1'), true],
    ['zero spelled two ways', exact('0.0'), 0, true],
    ['negative zero and zero', exact('-0.0'), exact('0e5'), true],
    ['different numbers', exact('1.5'), exact('1.50001'), false],
    ['a sign', -1, 1, false],
    ['NaN, which is no JSON number, as its text', Number.NaN, Number.NaN, true],
    ['a number and its text', '1', 1, false],
    ['a number and a string', 1, 'x', false],
    ['an exact number and its text', exact('1.0'), '1.0', false],
    ['equal lists', [1, 'a', { b: [2] }], [1, 'a', { b: [2] }], true],
    ['empty lists', [], [], true],
    ['a shorter list', [1], [1, 2], false],
    ['a longer list', [1, 2], [1], false],
    ['lists differing in the first item', [2, 1], [1, 1], false],
    ['lists differing in the last item', [1, 2], [1, 3], false],
    ['a list and its only item', ['x'], 'x', false],
    ['an item and a list of it', 'x', ['x'], false],
    ['a list and an object', [1], { 0: 1 }, false],
    ['equal objects in another key order', { a: 1, b: { c: 2 } }, { b: { c: 2 }, a: 1 }, true],
    ['empty objects', {}, {}, true],
    ['an object with a field more', { a: 1 }, { a: 1, b: 2 }, false],
    ['an object with a field less', { a: 1, b: 2 }, { a: 1 }, false],
    ['objects with other fields', { a: 1 }, { b: 1 }, false],
    ['objects with other fields, both unset', { a: undefined }, { b: undefined }, false],
    ['objects differing in a value', { a: 1 }, { a: 2 }, false],
    ['an object and null', {}, null, false],
    ['null and an object', null, {}, false],
    ['an object and a string spelled like it', { 0: 'x' }, 'x', false],
    ['equal strings', 'x', 'x', true],
    ['null and null', null, null, true],
    ['true and false', true, false, false],
  ])('%s', (_case, a, b, same) => {
    expect(sameValue(a, b)).toBe(same);
    expect(sameValue(b, a)).toBe(same);
  });
});

describe('keys and fields', () => {
  it('fieldOf finds a field in any letter case, and nothing for a field the record lacks', () => {
    expect(fieldOf({ Name: 'a' }, 'name')).toBe('a');
    expect(fieldOf({ undefined: 'a' }, 'name')).toBeUndefined();
  });

  it.each<[unknown, string | undefined]>([
    [{ name: 'a' }, 'a'],
    [{ NAME: 7 }, '7'],
    [{ name: exact('1.50') }, '1.50'],
    [{ name: '' }, undefined],
    [{ name: 'Stryker was here!' }, 'Stryker was here!'],
    [{ name: true }, undefined],
    [{}, undefined],
    [null, undefined],
    [['a'], undefined],
    ['abc', undefined],
  ])('keyOf(%j) is %j', (record, key) => {
    expect(keyOf(record, record !== null && Array.isArray(record) ? '0' : 'name')).toBe(key);
  });

  it('--key and --ignore-fields are trimmed; empty fields are dropped', () => {
    expect(KEY_OPTIONS.key.parse?.('  type ')).toBe('type');
    expect(KEY_OPTIONS.ignoreFields.parse?.(' id , ,createdAt,,')).toEqual(['id', 'createdAt']);
  });
});

describe('merge', () => {
  it('keyFor prefers the field spelled as asked, then any letter case', () => {
    expect(keyFor({ Name: 1, name: 2 }, 'name')).toBe('name');
    expect(keyFor({ Name: 1, name: 2 }, 'NAME')).toBe('Name');
    expect(keyFor({ type: 1 }, 'name')).toBeUndefined();
  });

  it('mergeDeclared merges objects field by field, and sets any other value whole', () => {
    const current = { id: '1', Settings: { a: 1, b: 2 }, tags: 'x', list: [1] };
    expect(mergeDeclared(current, { settings: { b: 3 }, tags: { t: 1 }, list: { c: 1 } })).toStrictEqual({
      id: '1',
      Settings: { a: 1, b: 3 },
      tags: { t: 1 },
      list: { c: 1 },
    });
    expect(mergeDeclared(current, { settings: 'off', new: true })).toStrictEqual({
      id: '1',
      Settings: 'off',
      tags: 'x',
      list: [1],
      new: true,
    });
  });
});

describe('readDesired', () => {
  // What the commands hand readDesired: the bounded reader of files and stdin.
  const source = (stdinText?: string) => {
    const stdin = new PassThrough();
    if (stdinText !== undefined) stdin.end(stdinText);
    const ctx = testContext(fakeIO({ stdin }));
    return (path: string) => readInput(ctx, path, '--file');
  };
  const write = (name: string, text: string) => {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  };
  async function refusal(path: string, stdinText?: string): Promise<{ message: string; hint: string | undefined }> {
    const error: unknown = await readDesired(source(stdinText), path, 'name').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UsageError);
    const { message, hint } = error as UsageError;
    return { message, hint };
  }

  it('reads a YAML file, a JSON file, and JSON or YAML on stdin', async () => {
    const records = [{ name: 'a', retention: exact('30.0') }];
    expect(await readDesired(source(), write('e.yaml', 'environments:\n  - name: a\n    retention: 30.0\n'), 'name')).toEqual(records);
    expect(await readDesired(source(), write('e.json', '{"environments":[{"name":"a","retention":30.0}]}'), 'name')).toEqual(records);
    expect(await readDesired(source(), write('e.json', '[{"name":"a"}]'), 'name')).toEqual([{ name: 'a' }]);
    expect(await readDesired(source('{"Environments":[{"name":"a"}]}'), '-', 'name')).toEqual([{ name: 'a' }]);
    expect(await readDesired(source('environments:\n  - name: a\n'), '-', 'name')).toEqual([{ name: 'a' }]);
  });

  it('a JSON file is read as JSON, whatever its content: YAML in it is not valid JSON', async () => {
    const { message } = await refusal(write('e.json', 'environments:\n  - name: a\n'));
    expect(message).toMatch(/^--file .*e\.json is not valid JSON: .+/);
  });

  it.each([
    ['YAML', 'e.yaml', 'environments: [a\n'],
    ['JSON', 'e.json', '{"environments": [}'],
  ])('a file that is not valid %s names the file and the parser error', async (kind, name, text) => {
    const path = write(name, text);
    const { message } = await refusal(path);
    expect(message.startsWith(`--file ${path} is not valid ${kind}: `)).toBe(true);
    expect(message.length).toBeGreaterThan(`--file ${path} is not valid ${kind}: `.length);
  });

  it('stdin is named as stdin', async () => {
    expect((await refusal('-', '{"environments": [}')).message).toMatch(/^--file stdin is not valid JSON: /);
    expect((await refusal('-', '{"environments": {}}')).message).toBe("--file stdin must hold 'environments:' with a list of environments");
  });

  it('a missing file names --file', async () => {
    const path = join(tempDir(), 'none.yaml');
    const error: unknown = await readDesired(source(), path, 'name').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CipError);
    expect((error as CipError).message).toContain(`--file ${path}`);
  });

  it.each([
    ['no list', 'environments: 3\n', "must hold 'environments:' with a list of environments", "'cip env export' writes one"],
    ['an item that is no object', 'environments:\n  - name: a\n  - 5\n', 'environments[1] is not an object', undefined],
    [
      'an item without the key',
      'environments:\n  - name: a\n  - type: Test\n',
      "environments[1] has no 'name'",
      'every environment needs the key field (--key)',
    ],
  ])('%s: says what is wrong, with a hint', async (_case, text, said, hint) => {
    const path = write('e.yaml', text);
    expect(await refusal(path)).toEqual({ message: `--file ${path}: ${said}`.replace(`${path}: must`, `${path} must`), hint });
  });
});

const plan = (desired: Record<string, unknown>[], server: unknown[], prune = false, key = 'name') =>
  computePlan(desired, server, { key, ignored: ['id', 'createdAt', 'updatedAt'], prune, redact: (text) => text });

function refused(run: () => unknown): { message: string; hint: string | undefined } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { message: (error as UsageError).message, hint: (error as UsageError).hint };
  }
  throw new Error('not refused');
}

describe('computePlan', () => {
  it('compares declared objects field by field, and a value that changes kind as a whole', () => {
    const server = [
      { id: '1', name: 'a', settings: { retention: 7, keep: true }, tags: 'x' },
      { id: '2', name: 'b', settings: 'none' },
    ];
    const result = plan(
      [
        { name: 'a', settings: { retention: 7.0, region: 'eu' }, tags: { list: 'x' } },
        { name: 'b', settings: { retention: 1 } },
      ],
      server,
    );
    expect(result.update.map(({ key, changes }) => ({ key, changes }))).toEqual([
      { key: 'a', changes: { 'settings.region': { new: 'eu' }, tags: { old: 'x', new: { list: 'x' } } } },
      { key: 'b', changes: { settings: { old: 'none', new: { retention: 1 } } } },
    ]);
    expect(result.update[0]!.merged).toEqual({
      id: '1',
      name: 'a',
      settings: { retention: 7.0, keep: true, region: 'eu' },
      tags: { list: 'x' },
    });
  });

  it('a declared object over a server value that is no object replaces it', () => {
    const result = plan([{ name: 'a', settings: 'off' }], [{ id: '1', name: 'a', settings: { on: true } }]);
    expect(result.update[0]!.changes).toEqual({ settings: { old: { on: true }, new: 'off' } });
  });

  it('the same key twice in the file is refused, naming both places', () => {
    expect(refused(() => plan([{ name: 'a' }, { name: 'b' }, { name: 'a' }], []))).toEqual({
      message: "the file declares name 'a' 2 times (environments[0], environments[2])",
      hint: 'nothing was changed; each environment must appear once',
    });
  });

  it('the same key twice on the server is refused only when it matters: declared, or with --prune', () => {
    const server = [{ id: '1', name: 'twin' }, { name: 'twin' }, { id: '3', name: 'c' }];
    expect(plan([{ name: 'c', type: 'T' }], server).update.map(({ key }) => key)).toEqual(['c']);
    const expected = {
      message: "2 environments on the server have name 'twin': 1, (no id)",
      hint: 'nothing was changed; give them distinct values, or choose another --key',
    };
    expect(refused(() => plan([{ name: 'twin' }], server))).toEqual(expected);
    expect(refused(() => plan([{ name: 'c' }], server, true))).toEqual(expected);
  });

  it('records without the key are never matched, counted as twins, or pruned; nor are records without an id pruned', () => {
    const server = [{ id: '1', type: 'T' }, { id: '2' }, { name: 'noid' }, 'junk', { id: '4', name: 'gone' }, { id: '5', name: 'kept' }];
    const result = plan([{ name: 'kept' }], server, true);
    expect(result).toEqual({ create: [], update: [], delete: [{ key: 'gone', id: '4', name: 'gone' }], kept: [], unlisted: [] });
    // Without --prune, the same records are the unlisted ones, left alone.
    expect(plan([{ name: 'kept' }], server).unlisted).toEqual([{ key: 'gone', id: '4', name: 'gone' }]);
  });

  it('a change to an environment the server lists without an id is refused', () => {
    expect(refused(() => plan([{ name: 'a', type: 'New' }], [{ name: 'a', type: 'Old' }]))).toEqual({
      message: "the environment with name 'a' has no id on the server",
      hint: undefined,
    });
  });
});

describe('the plan shown', () => {
  const shown: Plan = {
    create: [{ key: 'n', record: { name: 'n' }, file: { name: 'n' } }],
    update: [
      {
        key: 'a',
        id: '1',
        changes: { region: { new: 'eu' }, type: { old: 'T', new: 'P' } },
        current: {},
        merged: {},
        declared: {},
        file: {},
      },
    ],
    delete: [
      { key: 'g', id: '4', name: 'gone' },
      { key: '7', id: '5', name: undefined },
    ],
    kept: [],
    unlisted: [{ key: 'x', id: '9', name: undefined }],
  };

  it('counts every change', () => {
    expect(planSize(shown)).toBe(4);
    expect(planSize({ create: [], update: [], delete: [shown.delete[0]!], kept: [], unlisted: shown.unlisted })).toBe(1);
  });

  it('as data: a delete has its name only when it has one', () => {
    expect(planData(shown)).toStrictEqual({
      create: [{ name: 'n' }],
      update: [{ key: 'a', id: '1', changes: { region: { new: 'eu' }, type: { old: 'T', new: 'P' } } }],
      delete: [
        { key: 'g', id: '4', name: 'gone' },
        { key: '7', id: '5' },
      ],
      unlisted: [{ key: 'x', id: '9' }],
    });
  });

  it('for people: a field the server lacks is "(not set)"', () => {
    const plain = { add: (text: string) => text, change: (text: string) => text, remove: (text: string) => text };
    expect(planLines(shown, 'name', plain, { redact: (text) => text })).toEqual([
      "+ create name 'n'",
      '    name: "n"',
      "~ update name 'a' (1)",
      '    region: (not set) → "eu"',
      '    type: "T" → "P"',
      "- delete name 'g' (4)",
      "- delete name '7' (5)",
    ]);
  });
});

describe('values the file shows masked (as env export writes them)', () => {
  const KEY = 'the-subscription-key-0123456789';
  const redact = (text: string) => text.split(KEY).join('***');
  const masked = (desired: Record<string, unknown>[], server: unknown[]) =>
    computePlan(desired, server, { key: 'name', ignored: ['id'], prune: false, redact });
  const stored = {
    id: '1',
    name: 'a',
    description: 'old',
    connection: `Endpoint=x;Key=${KEY}`,
    settings: { secret: KEY, retention: 7 },
    tags: ['plain', `k=${KEY}`],
  };

  it('are kept as the server holds them, and said so; only the edited field changes', () => {
    const result = masked(
      [
        {
          name: 'a',
          description: 'new',
          connection: 'Endpoint=x;Key=***',
          settings: { secret: '***', retention: 7 },
          tags: ['plain', 'k=***'],
        },
      ],
      [stored],
    );
    expect(result.update.map(({ changes }) => changes)).toEqual([{ description: { old: 'old', new: 'new' } }]);
    expect(result.update[0]!.merged).toEqual({ ...stored, description: 'new' });
    expect(result.kept).toEqual([{ key: 'a', fields: ['connection', 'settings.secret', 'tags[1]'] }]);
  });

  it('a list whose items moved finds the stored item that prints as the masked one', () => {
    const result = masked([{ name: 'a', tags: ['k=***', 'plain', 'new'] }], [stored]);
    expect(result.update[0]!.merged.tags).toEqual([`k=${KEY}`, 'plain', 'new']);
    expect(result.kept).toEqual([{ key: 'a', fields: ['tags[0]'] }]);
  });

  it('a *** that does not stand for a stored value is sent as the file says', () => {
    const result = masked([{ name: 'a', connection: 'Endpoint=y;Key=***', description: '***' }], [stored]);
    expect(result.update[0]!.changes).toEqual({
      connection: { old: `Endpoint=x;Key=${KEY}`, new: 'Endpoint=y;Key=***' },
      description: { old: 'old', new: '***' },
    });
    expect(result.kept).toEqual([]);
  });

  it('a file that only masks what the server holds changes nothing', () => {
    const result = masked([{ name: 'a', connection: 'Endpoint=x;Key=***' }], [stored]);
    expect(planSize(result)).toBe(0);
    expect(result.kept).toEqual([{ key: 'a', fields: ['connection'] }]);
  });
});
