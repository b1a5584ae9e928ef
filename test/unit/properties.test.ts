// Property-based tests (fast-check) for the pieces that take arbitrary input: payload building, error bodies,
// tables, user-typed settings, text sanitising, and `cip env create` end to end against the sandbox.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../../src/json/exact.js';
import { run } from '../../src/run.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { CONTROL, holds, isRecord, jsonNumberText, keyArb, nasty, viaJson } from '../helpers/arbitraries.js';
import { drain, testContext } from '../helpers/io.js';

describe('cip env end to end (in-process, sandbox)', () => {
  // One sandbox for the describe, not the fixture's one a test: a property runs its generated cases inside one test,
  // and each case checks only the requests it sent and the records it wrote.
  let sandbox: Sandbox;
  let configDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    configDir = await mkdtemp(join(tmpdir(), 'cip-props-'));
  });

  afterAll(async () => {
    await sandbox.close();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  type Effect =
    | { kind: 'data'; value: Record<string, unknown> }
    | { kind: 'set'; key: string; value: unknown }
    | { kind: 'usage' }
    | { kind: 'unknown' }
    | { kind: 'stray' };
  interface Step {
    args: string[];
    effect: Effect;
    isData: boolean;
  }

  const fieldForms = (flag: 'F' | 'f', text: string): fc.Arbitrary<string[]> => {
    const long = flag === 'F' ? '--field' : '--raw-field';
    // `-F` with nothing attached would take the next argument as its value, so the attached form needs text.
    const forms: string[][] = [[`-${flag}`, text], [`${long}=${text}`], [long, text]];
    if (text !== '') forms.push([`-${flag}${text}`]);
    return fc.constantFrom(...forms);
  };
  const goodKey = fc.oneof(
    fc.constantFrom('name', 'code', 'isActive', '__proto__', 'constructor'),
    nasty.filter((k) => k.length > 0 && !k.includes('=')),
  );
  const typedJson = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'number'),
    fc.maxSafeInteger(),
  );
  const splitEffect = (text: string, value: (v: string) => Effect): Effect => {
    const at = text.indexOf('=');
    return at <= 0 ? { kind: 'usage' } : value(text.slice(at + 1));
  };

  const step: fc.Arbitrary<Step> = fc.oneof(
    // -f name=<non-blank>: most runs should reach the server and succeed.
    {
      weight: 3,
      arbitrary: fc
        .string({ minLength: 1, maxLength: 20 })
        .filter((s) => s.trim() !== '')
        .chain((name) =>
          fieldForms('f', `name=${name}`).map((args) => ({
            args,
            isData: false,
            effect: { kind: 'set', key: 'name', value: name } satisfies Effect,
          })),
        ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(goodKey, typedJson).chain(([key, value]) =>
        fieldForms('F', `${key}=${JSON.stringify(value)}`).map((args) => ({
          args,
          isData: false,
          effect: { kind: 'set', key, value: viaJson(value) } satisfies Effect,
        })),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(goodKey, nasty)
        .chain(([key, value]) =>
          fieldForms('f', `${key}=${value}`).map((args) => ({ args, isData: false, effect: { kind: 'set', key, value } satisfies Effect })),
        ),
    },
    {
      weight: 1,
      arbitrary: nasty.chain((text) =>
        fieldForms('F', text).map((args) => ({ args, isData: false, effect: splitEffect(text, () => ({ kind: 'unknown' })) })),
      ),
    },
    {
      weight: 1,
      arbitrary: nasty.chain((text) =>
        fieldForms('f', text).map((args) => ({
          args,
          isData: false,
          effect: splitEffect(text, (v) => ({ kind: 'set', key: text.slice(0, text.indexOf('=')), value: v })),
        })),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.dictionary(keyArb, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }).map((o) => JSON.stringify(o)),
          nasty,
        )
        .chain((text) => {
          let effect: Effect = { kind: 'usage' };
          try {
            const parsed: unknown = JSON.parse(text);
            if (isRecord(parsed)) effect = { kind: 'data', value: parsed };
          } catch {
            // not JSON: a usage error
          }
          return fc.constantFrom<string[]>(['--data', text], [`--data=${text}`]).map((args) => ({ args, isData: true, effect }));
        }),
    },
    // A stray unknown option (a typo): commander's own error must also be one clean line.
    { weight: 1, arbitrary: nasty.map((text) => ({ args: [`--zz${text}`], isData: false, effect: { kind: 'stray' } satisfies Effect })) },
  );

  it('exits 0, 2 or 6; 2 sends nothing; failures are one clean error: line; the body sent is the model payload', async () => {
    await holds(
      fc.asyncProperty(fc.array(step, { maxLength: 5 }), async (steps) => {
        const before = sandbox.requests.length;
        const { code, stderr: errText } = await runCip(['env', 'create', ...steps.flatMap((s) => s.args)]);
        expect([0, 2, 6]).toContain(code);
        if (code === 2) expect(sandbox.requests.length).toBe(before);
        if (code !== 0) {
          expect(errText).toMatch(/^error: [^\n]*\n$/);
          expect(errText.slice(0, -1)).not.toMatch(CONTROL);
        }

        // The model: one --data at most (a second is refused); fields apply in order after it; later values win.
        const dataSteps = steps.filter((s) => s.isData);
        if (steps.some((s) => s.effect.kind === 'stray') || dataSteps.length > 1) {
          expect(code).toBe(2);
          return;
        }
        const fields = steps.filter((s) => !s.isData);
        const data = dataSteps[0];
        const effects = [...(data ? [data.effect] : []), ...fields.map((s) => s.effect)];
        if (effects.length === 0 || effects.some((e) => e.kind === 'usage')) {
          expect(code).toBe(2);
          return;
        }
        if (effects.some((e) => e.kind === 'unknown')) return;
        const expected: Record<string, unknown> = {};
        const define = (k: string, v: unknown) =>
          Object.defineProperty(expected, k, { value: v, enumerable: true, writable: true, configurable: true });
        for (const effect of effects) {
          if (effect.kind === 'data') for (const [k, v] of Object.entries(effect.value)) define(k, v);
          if (effect.kind === 'set') define(effect.key, effect.value);
        }
        const name = Object.hasOwn(expected, 'name') ? expected.name : undefined;
        expect(code).toBe(typeof name === 'string' && name.trim() !== '' ? 0 : 6);
        expect(sandbox.requests.length).toBe(before + 1);
        const sent = sandbox.requests[before]!;
        expect(sent.method).toBe('POST');
        expect(JSON.stringify(JSON.parse(sent.body))).toBe(JSON.stringify(expected));
      }),
      120,
    );
  });

  async function runCip(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const stdin = new PassThrough();
    stdin.end(input ?? '');
    const io: Streams = { stdout, stderr, stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: undefined };
    const ctx = testContext(
      io,
      {
        CIP_BASE_URL: sandbox.url,
        CIP_API_KEY: sandbox.keys.apiKey,
        CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
        CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
        CIP_CONFIG_DIR: configDir,
      },
      '0.0.0',
    );
    const code = await run(args, ctx);
    return { code, stdout: drain(stdout), stderr: drain(stderr) };
  }

  // Numbers of every size through create, list (JSON and table) and update.
  it('what is sent, printed and sent back holds exactly the digits written', async () => {
    await holds(
      fc.asyncProperty(fc.array(jsonNumberText, { minLength: 1, maxLength: 4 }), async (numbers) => {
        const fields = numbers.map((text, index) => `"n${index}":${text}`).join(',');
        const data = `{"name":"numbers",${fields},"nested":{"list":[${numbers.join(',')}]}}`;
        const before = sandbox.requests.length;

        const created = await runCip(['env', 'create', '--data', data]);
        expect(created.code).toBe(0);
        expect(sandbox.requests[before]!.body).toBe(data);
        const record = (await parseExactJson(created.stdout)) as Record<string, unknown>;
        const id = String(record.id);
        expect(stringifyExactJson(record)).toContain(`${fields},"nested":{"list":[${numbers.join(',')}]}`);

        const listed = await runCip(['env', 'list', '--json']);
        const item = ((await parseExactJson(listed.stdout)) as Record<string, unknown>[]).find((candidate) => String(candidate.id) === id)!;
        expect(stringifyExactJson(item)).toBe(stringifyExactJson(record));

        const columns = numbers.map((_, index) => `n${index}`);
        const table = await runCip(['env', 'list', '-o', 'table', '--columns', ['id', ...columns].join(',')]);
        const row = table.stdout.split('\n').find((line) => line.startsWith(id))!;
        expect(row.split(/\s+/).slice(1)).toEqual(numbers);

        const updated = await runCip(['env', 'update', id, '--file', '-'], stringifyExactJson(item, 2));
        expect(updated.code).toBe(0);
        expect(sandbox.requests.at(-1)!.body).toBe(stringifyExactJson(item));
        expect((await runCip(['env', 'delete', id, '--yes'])).code).toBe(0);
      }),
      60,
    );
  });
});
