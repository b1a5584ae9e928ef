// Builds the JSON object sent by create and update, from --file, --data, --field and --raw-field.
// Everything is checked here, before any request: bad input means nothing is sent.
import { UsageError } from '../../errors.js';
import { numberFromText, parseExactJson } from '../../json/exact.js';
import { printable } from '../../text/sanitize.js';

/** One --field (typed) or --raw-field (string) assignment, in command-line order. */
export interface FieldAssignment {
  raw: boolean;
  text: string;
}

export interface PayloadOptions {
  data?: string;
  file?: string;
  fields?: FieldAssignment[];
}

export type ReadSource = (path: string) => Promise<string>;

async function parseObject(text: string, source: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = await parseExactJson(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${printable(error.message, 120)}` : '';
    // curl and gh read `@file` as a file; here that is --file.
    const hint = source === '--data' && text.startsWith('@') ? `use --file ${printable(text.slice(1))} to read a file` : undefined;
    throw new UsageError(`${source} is not valid JSON${reason}`, hint);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new UsageError(`${source} must be a JSON object, not ${kind}`);
  }
  return value as Record<string, unknown>;
}

function splitAssignment(assignment: string, flag: string): [string, string] {
  const at = assignment.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} expects key=value, not '${printable(assignment)}'`);
  return [assignment.slice(0, at), assignment.slice(at + 1)];
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A --field value: true/false/null, a JSON number (sent with exactly the digits given, however many), or a
 * JSON array/object/string literal; else the text itself.
 */
export async function typedValue(raw: string, key: string): Promise<unknown> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (NUMBER.test(raw)) return numberFromText(raw);
  if (/^[[{"]/.test(raw)) {
    try {
      return await parseExactJson(raw);
    } catch {
      throw new UsageError(`--field ${printable(key)}: '${printable(raw)}' looks like JSON but is not valid (use --raw-field for a plain string)`);
    }
  }
  return raw;
}

export async function buildPayload(options: PayloadOptions, readSource: ReadSource): Promise<Record<string, unknown>> {
  const fields = options.fields ?? [];
  if (options.data === undefined && options.file === undefined && !fields.length) {
    throw new UsageError('nothing to send: give --data, --file, --field or --raw-field');
  }
  const payload: Record<string, unknown> = {};
  if (options.file !== undefined) {
    const source = options.file === '-' ? 'the JSON on stdin' : `--file ${printable(options.file)}`;
    merge(payload, await parseObject(await readSource(options.file), source));
  }
  if (options.data !== undefined) merge(payload, await parseObject(options.data, '--data'));
  // Parse every assignment before applying any, so one bad value stops the whole command.
  const assignments: (readonly [string, unknown])[] = [];
  for (const { raw, text } of fields) {
    const [key, value] = splitAssignment(text, raw ? '--raw-field' : '--field');
    assignments.push([key, raw ? value : await typedValue(value, key)]);
  }
  for (const [key, value] of assignments) setOwn(payload, key, value);
  return payload;
}

/**
 * Sets a key as the payload's own data, whatever its name: a plain assignment to `__proto__` would change
 * the object's prototype and the key would silently vanish from what is sent.
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function merge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) setOwn(target, key, source[key]);
}
