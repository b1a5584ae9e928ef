// Property-based tests (fast-check) for the pieces that take arbitrary input: payload building, error bodies,
// tables, user-typed settings, text sanitising, and `cip env create` end to end against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPayload, typedValue, type FieldAssignment, type ReadSource } from '../../src/domain/environments/payload.js';
import { errorMessageFromBody } from '../../src/api/error-body.js';
import { cellText, cellsOf, chooseColumns, headerText, topLevel, VALUE_COLUMN } from '../../src/output/columns.js';
import { displayWidth, fitWidth, layoutColumns, loadUnicodeWidths, renderTable, streamTable } from '../../src/output/table.js';
import { checkBaseUrl, checkEnterpriseId, checkProfileName, isGuid, isLoopbackHost } from '../../src/config/validate.js';
import { escapeControls, escapeJsonForTerminal, oneLine, printable } from '../../src/text/sanitize.js';
import { UsageError } from '../../src/errors.js';
import { ExactNumber, parseExactJson, scanJson, stringifyExactJson } from '../../src/json/exact.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { drain, testContext } from '../helpers/io.js';
import { run } from '../../src/run.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

async function holds<Ts>(property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>, numRuns: number): Promise<void> {
  await fc.assert(property, { numRuns });
}

// displayWidth and fitWidth are called directly here, on text of every kind.
beforeAll(loadUnicodeWidths);

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers and arbitraries

// C0, DEL, C1 (includes ESC \u001b, BEL \u0007, CSI \u009b), and the Unicode line/paragraph separators.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** CONTROL plus what could reorder or hide text at a terminal: bidi controls and invisible characters. */

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls fn; a throw must be a UsageError with exit code 2 (and a clean message). Returns ok/value. */
function usageOr<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: UsageError } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return { ok: false, error: error as UsageError };
  }
}

async function usageOrAsync<T>(fn: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: UsageError }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return { ok: false, error: error as UsageError };
  }
}

/** A value that survives JSON unchanged: null, booleans, finite numbers, strings, arrays and plain objects of them. */
function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || value instanceof ExactNumber) return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (isRecord(value)) return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isJsonValue);
  return false;
}

/** What the value looks like after a trip through JSON (-0 becomes 0, and so on). */
function viaJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** JSON number texts of every size and shape: long integers, long fractions, exponents, -0, trailing zeros. */
const jsonNumberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.string({ unit: fc.constantFrom(...Array.from('0123456789')), maxLength: 40 }))
        .map(([first, rest]) => `${first}${rest}`),
    ),
    fc.option(fc.string({ unit: fc.constantFrom(...Array.from('0123456789')), minLength: 1, maxLength: 30 }), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 999 })), { nil: undefined }),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`}`,
  );

const SPECIALS = [
  '\u001b[31m',
  '\u001b[0m',
  '\u001b]0;title\u0007',
  '\u009b31m',
  '\u0007',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u009f',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u000b',
  '\u2028',
  '\u2029',
  '\u200d',
  '\u200b',
  '\ufeff',
  '\u202e',
  '\u00a0',
  '❤️',
  '1️⃣',
  '☀️',
  '👨‍👩‍👧',
  '👍🏽',
  '🇺🇸',
  '漢字',
  'e\u0301',
  '\u0301',
  '\u1100\u1161',
  '\ud800',
  '\udc00',
  ' ',
  '  ',
  '=',
  '==',
  '"',
  '{',
  '[',
  '\\',
  '…',
  '.',
  ':',
  'id',
  'null',
  'true',
  '-1',
  '1e400',
  '12345678901234567890',
];
const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 12 }), fc.constantFrom(...SPECIALS));
/** Short strings full of control characters, escapes, wide and zero-width characters and lone surrogates. */
const nasty = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const repeated = fc.tuple(piece, fc.integer({ min: 2, max: 60 })).map(([part, count]) => part.repeat(count));
const huge = fc
  .tuple(nasty, fc.integer({ min: 1_000, max: 10_000 }))
  .map(([text, size]) => (text || 'x').repeat(Math.ceil(size / Math.max(1, text.length))).slice(0, size));
const cellString = fc.oneof({ weight: 6, arbitrary: nasty }, { weight: 2, arbitrary: repeated }, { weight: 1, arbitrary: huge });

const KEYS = [
  'id',
  'ID',
  'Id',
  'name',
  'displayName',
  'title',
  'label',
  'envId',
  'status',
  'description',
  'created_at',
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'value',
];
const keyArb = fc.oneof(fc.constantFrom(...KEYS), nasty);

const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 8 },
    cellString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 5 }),
    fc.dictionary(keyArb, tie('json'), { maxKeys: 6 }),
  ),
}));
/** Rows as the CLI gets them: whatever JSON.parse makes of a server's answer. */
const rowsArb = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.dictionary(keyArb, json, { maxKeys: 8 }) },
      { weight: 1, arbitrary: json },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
    ),
    { maxLength: 8 },
  )
  .map((rows) => viaJson(rows) as unknown[]);

// ---------------------------------------------------------------------------------------------------------------
// 1. payload.ts

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

const noFiles: ReadSource = async (path) => {
  throw new Error(`readSource must not be called (asked for ${path})`);
};

// ---------------------------------------------------------------------------------------------------------------
// 1b. json/exact.ts: numbers keep their digits

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

// ---------------------------------------------------------------------------------------------------------------
// 2. error-body.ts

describe('errorMessageFromBody', () => {
  const contentType = fc.constantFrom('', 'application/json', 'application/problem+json', 'text/plain', 'text/html');

  function expectCleanMessage(message: unknown): void {
    if (message === undefined) return;
    expect(typeof message).toBe('string');
    const text = message as string;
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text).not.toMatch(CONTROL);
    expect(text).not.toContain('\u001b');
  }

  it('any text body gives undefined or one clean line of at most 500 characters', async () => {
    const body = fc.oneof(
      nasty,
      huge,
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
      fc.tuple(nasty, nasty).map(([title, rest]) => `<!doctype html><html><title>${title}</title>${rest}`),
    );
    await holds(
      fc.property(body, contentType, (text, type) => {
        expectCleanMessage(errorMessageFromBody(text, type));
      }),
      1000,
    );
  });

  it('any JSON body gives undefined or one clean line of at most 500 characters', async () => {
    const body = fc.oneof(fc.jsonValue(), fc.jsonValue({ maxDepth: 6 }), json).map((v) => JSON.stringify(v));
    await holds(
      fc.property(body, contentType, (text, type) => {
        expectCleanMessage(errorMessageFromBody(text, type));
      }),
      1000,
    );
  });

  it('deeply nested {"error": {...}} bodies never throw', async () => {
    await holds(
      fc.property(fc.integer({ min: 1, max: 5_000 }), nasty, contentType, (depth, message, type) => {
        const body = `${'{"error":'.repeat(depth)}${JSON.stringify({ message })}${'}'.repeat(depth)}`;
        expectCleanMessage(errorMessageFromBody(body, type));
      }),
      40,
    );
  });

  // What the message is made of, cleaned the way the module promises: trimmed, no trailing '.' or ':', one line.
  const cleaned = (text: string) => oneLine(text.trim().replace(/[.:]$/, '').trim());
  const short = fc.oneof(nasty, fc.string({ maxLength: 60 })).map((s) => s.slice(0, 80));

  it('APIM {statusCode, message}: the message is the cleaned message', async () => {
    await holds(
      fc.property(fc.integer({ min: 400, max: 599 }), short, contentType, (statusCode, message, type) => {
        const result = errorMessageFromBody(JSON.stringify({ statusCode, message }), type);
        expectCleanMessage(result);
        const expected = cleaned(message);
        if (expected) expect(result).toBe(expected);
        else if (!type.includes('html')) expect(result).toBeUndefined();
      }),
      500,
    );
  });

  it('ProblemDetails: the cleaned detail and every validation message are in the message', async () => {
    const title = fc.oneof(short, fc.constantFrom('Not Found', 'Bad Request', 'One or more validation errors occurred.'));
    const errors = fc.dictionary(fc.oneof(fc.constantFrom('Name', '$', '', 'EnterpriseId'), short), fc.array(short, { maxLength: 3 }), {
      maxKeys: 3,
    });
    const problem = fc.record(
      {
        type: fc.constant('https://tools.ietf.org/html/rfc9110#section-15.5.1'),
        title,
        status: fc.integer({ min: 400, max: 599 }),
        detail: short,
        traceId: short,
        errors,
      },
      { requiredKeys: ['type', 'title', 'status'] },
    );
    await holds(
      fc.property(problem, contentType, (body, type) => {
        const result = errorMessageFromBody(JSON.stringify(body), type);
        expectCleanMessage(result);
        const detail = body.detail === undefined ? '' : cleaned(body.detail);
        const messages = Object.values(body.errors ?? {})
          .flat()
          .map((m) => oneLine(m.trim()))
          .filter(Boolean);
        if (detail) {
          expect(result).toBeDefined();
          expect(result).toContain(detail);
        }
        if (messages.length) {
          expect(result).toBeDefined();
          if (!result!.endsWith('…')) for (const m of messages) expect(result).toContain(m);
        }
      }),
      600,
    );
  });

  it('{message}, {error}, {error: {message}}, {error_description}: the message comes from that field', async () => {
    const shape = fc.oneof(
      short.map((m) => ({ body: { message: m }, text: m })),
      short.map((m) => ({ body: { Message: m }, text: m })),
      short.map((m) => ({ body: { error: m }, text: m })),
      // The inner object is read as a body of its own first, so its final '.' or ':' is dropped twice.
      short.map((m) => ({ body: { error: { message: m } }, text: m.trim().replace(/[.:]$/, '').trim() })),
      short.map((m) => ({ body: { error_description: m }, text: m })),
    );
    await holds(
      fc.property(shape, contentType, ({ body, text }, type) => {
        const result = errorMessageFromBody(JSON.stringify(body), type);
        expectCleanMessage(result);
        // As the server's text is read: trimmed (JavaScript's trim includes U+FEFF), a final '.' or ':' dropped, then cleaned.
        const expected = oneLine(text.trim().replace(/[.:]$/, '').trim());
        if (expected) expect(result).toContain(expected.slice(0, 20).trim());
      }),
      400,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 3. columns.ts and table.ts

describe('columns and tables', () => {
  function tableOf(rows: unknown[]) {
    const columns = chooseColumns(rows);
    const headers = columns.map(headerText);
    const cells = rows.map((row) => cellsOf(row, columns.map(topLevel)));
    const idIndex = columns.findIndex((column) => column.toLowerCase() === 'id');
    return { columns, headers, cells, protectedIndex: idIndex >= 0 ? idIndex : 0 };
  }

  function linesOf(text: string, rowCount: number): string[] {
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(rowCount + 1);
    for (const line of lines) {
      expect(line).not.toMatch(CONTROL);
      expect(line).not.toContain('\u001b');
    }
    return lines;
  }

  it('chooseColumns: no duplicates, every key shown, an id key first when any row has one', async () => {
    await holds(
      fc.property(rowsArb, (rows) => {
        const columns = chooseColumns(rows);
        expect(new Set(columns).size).toBe(columns.length);
        const keys = new Set(rows.filter(isRecord).flatMap((row) => Object.keys(row)));
        for (const key of keys) expect(columns).toContain(key);
        if (keys.size === 0) expect(columns).toStrictEqual(rows.length && rows.some((r) => !isRecord(r)) ? [VALUE_COLUMN] : []);
        if ([...keys].some((key) => key.toLowerCase() === 'id')) expect(columns[0]!.toLowerCase()).toBe('id');
      }),
      500,
    );
  });

  it('cells and headers are single lines without control characters', async () => {
    await holds(
      fc.property(rowsArb, (rows) => {
        const { headers, cells, columns } = tableOf(rows);
        expect(headers).toHaveLength(columns.length);
        for (const text of [...headers, ...cells.flat()]) {
          expect(typeof text).toBe('string');
          expect(text).not.toMatch(CONTROL);
        }
        for (const row of cells) expect(row).toHaveLength(columns.length);
      }),
      400,
    );
  });

  it("a record's cell shows only its own field: a missing field is an empty cell", async () => {
    await holds(
      fc.property(rowsArb, (rows) => {
        const { columns, cells } = tableOf(rows);
        rows.forEach((row, r) => {
          if (!isRecord(row)) return;
          columns.forEach((column, c) => {
            expect(cells[r]![c]).toBe(cellText(Object.hasOwn(row, column) ? row[column] : undefined));
          });
        });
      }),
      400,
    );
  });

  it('renderTable without maxWidth: one header + one line per row, every cell in full, no controls', async () => {
    await holds(
      fc.asyncProperty(rowsArb, async (rows) => {
        const { headers, cells } = tableOf(rows);
        const { text, hiddenColumns } = await renderTable(headers, cells);
        expect(hiddenColumns).toStrictEqual([]);
        const lines = linesOf(text, rows.length);
        // Lines are trimEnd()ed, so a cell's trailing whitespace at the end of a line is (intentionally) dropped.
        headers.forEach((header) => expect(lines[0]).toContain(header.trimEnd()));
        cells.forEach((row, r) => row.forEach((cell) => expect(lines[r + 1]).toContain(cell.trimEnd())));
      }),
      150,
    );
  });

  it('renderTable text equals the concatenated streamTable chunks', async () => {
    await holds(
      fc.asyncProperty(rowsArb, fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }), async (rows, maxWidth) => {
        const { headers, cells, protectedIndex } = tableOf(rows);
        const options = { maxWidth, keyColumns: [protectedIndex] };
        const chunks: string[] = [];
        const { hiddenColumns: hidden } = await streamTable(
          headers,
          cells.length,
          (r) => [...cells[r]!],
          (chunk) => chunks.push(chunk),
          options,
        );
        const rendered = await renderTable(headers, cells, options);
        expect(chunks.join('')).toBe(rendered.text);
        expect(hidden).toStrictEqual(rendered.hiddenColumns);
        linesOf(rendered.text, rows.length);
      }),
      150,
    );
  });

  it('with maxWidth >= id width + 10: every line fits and the id column is shown uncut', async () => {
    await holds(
      fc.asyncProperty(rowsArb, fc.integer({ min: 0, max: 120 }), async (rows, extra) => {
        const { headers, cells, protectedIndex } = tableOf(rows);
        const idWidth = headers.length
          ? Math.max(displayWidth(headers[protectedIndex]!), ...cells.map((row) => displayWidth(row[protectedIndex]!)))
          : 0;
        const maxWidth = idWidth + 10 + extra;
        const { text, hiddenColumns } = await renderTable(headers, cells, { maxWidth, keyColumns: [protectedIndex] });
        const lines = linesOf(text, rows.length);
        for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(maxWidth);
        if (!headers.length) return;
        expect(hiddenColumns).not.toContain(protectedIndex);
        cells.forEach((row, r) => expect(lines[r + 1]).toContain(row[protectedIndex]!.trimEnd()));
      }),
      150,
    );
  });

  it('fitWidth(text, w) is never wider than w cells', async () => {
    const text = fc.oneof(cellString, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme-composite' }));
    await holds(
      fc.property(text.map(escapeControls), fc.integer({ min: 1, max: 80 }), (cell, width) => {
        expect(displayWidth(fitWidth(cell, width))).toBeLessThanOrEqual(width);
      }),
      800,
    );
  });

  it('layoutColumns: with room for the protected column + 10, the shown columns fit and it keeps full width', async () => {
    await holds(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.integer({ min: 0, max: 200 }),
        (natural, pick, extra) => {
          const protectedIndex = pick % natural.length;
          const maxWidth = natural[protectedIndex]! + 10 + extra;
          const { shown, widths } = layoutColumns(natural, maxWidth, [protectedIndex]);
          expect(shown).toContain(protectedIndex);
          expect(widths[protectedIndex]).toBe(natural[protectedIndex]);
          expect([...shown].sort((a, b) => a - b)).toStrictEqual(shown);
          const total = shown.reduce((sum, i) => sum + widths[i]!, 0) + 2 * Math.max(0, shown.length - 1);
          expect(total).toBeLessThanOrEqual(maxWidth);
        },
      ),
      1000,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 4. validate.ts

describe('validate', () => {
  const REFERENCE_GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
  const anyCase = (text: string, flips: boolean[]) =>
    Array.from(text)
      .map((ch, i) => (flips[i % Math.max(1, flips.length)] ? ch.toUpperCase() : ch.toLowerCase()))
      .join('');
  const uuidAnyCase = fc.tuple(fc.uuid(), fc.array(fc.boolean(), { minLength: 1, maxLength: 36 })).map(([u, f]) => anyCase(u, f));
  const whitespace = fc.constantFrom('', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\ufeff', '\u2028', '\u000b');
  const guidLike = fc.oneof(
    uuidAnyCase,
    fc.tuple(whitespace, uuidAnyCase, whitespace).map(([a, u, b]) => a + u + b),
    fc.tuple(uuidAnyCase, fc.nat(35), piece).map(([u, at, p]) => u.slice(0, at) + p + u.slice(at + 1)),
    fc.tuple(uuidAnyCase, piece).map(([u, p]) => u + p),
    nasty,
    fc.string(),
  );

  it('isGuid agrees with a reference regex', async () => {
    await holds(
      fc.property(guidLike, (text) => {
        expect(isGuid(text)).toBe(REFERENCE_GUID.test(text));
      }),
      1000,
    );
  });

  it('isGuid accepts every uuid in any case', async () => {
    await holds(
      fc.property(uuidAnyCase, (text) => {
        expect(isGuid(text)).toBe(true);
      }),
      300,
    );
  });

  it('checkEnterpriseId returns the trimmed GUID or throws UsageError(2) with a clean message', async () => {
    await holds(
      fc.property(guidLike, (text) => {
        const result = usageOr(() => checkEnterpriseId(text, '--enterprise-id'));
        expect(result.ok).toBe(REFERENCE_GUID.test(text.trim()));
        if (result.ok) expect(result.value).toBe(text.trim());
        else expect(result.error.message).not.toMatch(CONTROL);
      }),
      1000,
    );
  });

  const urlText = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'https://',
            'http://',
            'HTTPS://',
            'HtTp://',
            'ftp://',
            'file://',
            '',
            'https:',
            'http:/',
            'javascript:',
            'https:///',
          ),
          fc.constantFrom('', '', '', 'user@', 'u:p@', ':@', '@', ':pw@'),
          fc.oneof(
            fc.constantFrom(
              'api.copyl.com',
              'localhost',
              'LOCALHOST',
              '127.0.0.1',
              '127.1',
              '127.255.0.9',
              '[::1]',
              '0x7f.0.0.1',
              '2130706433',
              'localhost.',
              'example.com',
              '10.0.0.1',
              '[::ffff:127.0.0.1]',
              '',
              'a b',
              'xn--nxasmq6b',
              'münchen.de',
            ),
            nasty,
          ),
          fc.constantFrom('', '', ':8080', ':', ':0', ':65535', ':99999', ':x'),
          fc.array(fc.oneof(fc.constantFrom('/ms', '/', '//', '/%2F', '/a b', '/..', '/.', '/Environments', '\\', '/é', '/%'), piece), {
            maxLength: 3,
          }),
          fc.constantFrom('', '', '', '?', '#', '?a=1', '#x', '/?', '/#', '?#', ' ', '\n', '\t', '%', '//'),
        )
        .map(([scheme, user, host, port, path, suffix]) => `${scheme}${user}${host}${port}${path.join('')}${suffix}`),
    },
    { weight: 1, arbitrary: nasty },
    { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  );
  const padded = fc.tuple(whitespace, urlText, whitespace).map(([a, u, b]) => a + u + b);

  it('checkBaseUrl: UsageError(2) or a parseable https (or allowed http) URL without a trailing slash', async () => {
    await holds(
      fc.property(padded, fc.boolean(), (text, allowHttp) => {
        const result = usageOr(() => checkBaseUrl(text, 'CIP_BASE_URL', allowHttp));
        if (!result.ok) {
          expect(result.error.message).not.toMatch(CONTROL);
          return;
        }
        const url = new URL(result.value);
        expect(['https:', 'http:']).toContain(url.protocol);
        if (url.protocol === 'http:' && !allowHttp) expect(isLoopbackHost(url.hostname)).toBe(true);
        expect(result.value.endsWith('/')).toBe(false);
        expect(url.username).toBe('');
        expect(url.password).toBe('');
      }),
      1000,
    );
  });

  it('checkBaseUrl: an accepted base URL has no query or fragment, so /Environments appends to its path', async () => {
    await holds(
      fc.property(padded, fc.boolean(), (text, allowHttp) => {
        const result = usageOr(() => checkBaseUrl(text, 'CIP_BASE_URL', allowHttp));
        if (!result.ok) return;
        const base = new URL(result.value);
        const collection = new URL(`${result.value}/Environments`);
        expect(result.value).not.toMatch(/[?#]/);
        expect(collection.search).toBe('');
        expect(collection.hash).toBe('');
        expect(collection.pathname).toBe(`${base.pathname.replace(/\/+$/, '')}/Environments`);
      }),
      1000,
    );
  });

  it('checkProfileName accepts exactly /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/', async () => {
    const PROFILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
    const valid = fc.stringMatching(PROFILE);
    const name = fc.oneof(
      valid,
      fc.tuple(valid, piece).map(([v, p]) => v + p),
      fc.tuple(piece, valid).map(([p, v]) => p + v),
      fc.tuple(valid, fc.constantFrom('\n', ' ', '/', '..', 'x'.repeat(64))).map(([v, s]) => v + s),
      nasty,
      fc.string(),
    );
    await holds(
      fc.property(name, (text) => {
        const result = usageOr(() => checkProfileName(text));
        expect(result.ok).toBe(PROFILE.test(text));
        if (result.ok) expect(result.value).toBe(text);
        else expect(result.error.message).not.toMatch(CONTROL);
      }),
      1000,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 5. sanitize.ts

describe('sanitize', () => {
  const text = fc.oneof(nasty, huge, fc.string({ unit: 'binary' }));
  const controlChar = fc
    .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029))
    .map((code) => String.fromCharCode(code));

  it('oneLine: no control characters, no double spaces, trimmed, idempotent', async () => {
    await holds(
      fc.property(text, (s) => {
        const out = oneLine(s);
        expect(out).not.toMatch(CONTROL);
        expect(out).not.toContain('  ');
        expect(out).toBe(out.trim());
        expect(oneLine(out)).toBe(out);
      }),
      600,
    );
  });

  it('escapeControls: no control characters; text without controls is unchanged', async () => {
    await holds(
      fc.property(text, (s) => {
        const out = escapeControls(s);
        expect(out).not.toMatch(UNSAFE);
        if (!UNSAFE.test(s)) expect(out).toBe(s);
      }),
      600,
    );
  });

  it('escapeControls: distinct control characters (and strings of them) escape differently', async () => {
    await holds(
      fc.property(fc.array(controlChar, { maxLength: 6 }), fc.array(controlChar, { maxLength: 6 }), (a, b) => {
        const [x, y] = [a.join(''), b.join('')];
        if (x !== y) expect(escapeControls(x)).not.toBe(escapeControls(y));
        if (a.length === 1 && b.length === 1 && x !== y) expect(escapeControls(a[0]!)).not.toBe(escapeControls(b[0]!));
      }),
      600,
    );
  });

  it('escapeJsonForTerminal: the same data, with nothing a terminal would obey or hide', async () => {
    await holds(
      fc.property(
        fc.jsonValue(),
        fc.oneof(text, fc.constantFrom('\u009b31m', '\u009d0;x\u009c', 'a\u202eb', 'z\u200bw', '\ufeff', '\u2028')),
        (value, extra) => {
          const data = [value, extra];
          const out = escapeJsonForTerminal(JSON.stringify(data, null, 2));
          expect(out.replace(/\n/g, '')).not.toMatch(UNSAFE);
          expect(JSON.parse(out)).toStrictEqual(JSON.parse(JSON.stringify(data)));
        },
      ),
      600,
    );
  });

  it('printable(s, n): at most n+1 characters, no control characters, unchanged when short and clean', async () => {
    await holds(
      fc.property(text, fc.integer({ min: 0, max: 200 }), (s, n) => {
        const out = printable(s, n);
        expect(out.length).toBeLessThanOrEqual(n + 1);
        expect(out).not.toMatch(UNSAFE);
        if (!UNSAFE.test(s) && s.length <= n) expect(out).toBe(s);
      }),
      600,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 6. `cip env` in-process against the sandbox: create with any arguments; numbers through create, list, update

describe('cip env end to end (in-process, sandbox)', () => {
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
