// Builds the JSON object sent by create and update, from --file, --data, --field and --raw-field.
// Everything is checked here, before any request: bad input means nothing is sent.
import { UsageError } from '../../errors.js';
import { isExactNumber, numberFromText, parseExactJson } from '../../json/exact.js';
import { isRecord, setOwn } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';

/** One --field (typed) or --raw-field (string) assignment. */
export interface FieldAssignment {
  raw: boolean;
  text: string;
  /** Where it stood on the command line among all -F and -f: later ones win. */
  position?: number;
}

export interface PayloadInput {
  data?: string | undefined;
  file?: string | undefined;
  /** In command-line order. */
  fields?: readonly FieldAssignment[];
}

/** Reads a file, or stdin for '-' (commands/io.ts's readInput, bounded). */
export type ReadSource = (path: string) => Promise<string>;

/** A file is YAML when its name says so, or when it does not start like JSON (stdin has no name). */
export function looksLikeYaml(path: string, text: string): boolean {
  if (/\.ya?ml$/i.test(path)) return true;
  if (/\.json$/i.test(path)) return false;
  return !/^[\s\uFEFF]*[[{]/.test(text);
}

async function parseYamlObject(text: string, source: string): Promise<Record<string, unknown>> {
  const { parseExactYaml } = await import('../../json/yaml.js');
  let value: unknown;
  try {
    value = parseExactYaml(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid YAML${error instanceof SyntaxError ? `: ${printable(error.message, 240)}` : ''}`);
  }
  return checkObject(value, source);
}

function parseObject(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${printable(error.message, 120)}` : '';
    // curl and gh read `@file` as a file; here that is --file.
    const hint = source === '--data' && text.startsWith('@') ? `use --file ${printable(text.slice(1))} to read a file` : undefined;
    throw new UsageError(`${source} is not valid JSON${reason}`, hint);
  }
  return checkObject(value, source);
}

function checkObject(value: unknown, source: string): Record<string, unknown> {
  if (!isRecord(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : isExactNumber(value) ? 'a number' : `a ${typeof value}`;
    throw new UsageError(`${source} must be a JSON object, not ${kind}`);
  }
  return value;
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
export function typedValue(raw: string, key: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (NUMBER.test(raw)) return numberFromText(raw);
  if (/^[[{"]/.test(raw)) {
    try {
      return parseExactJson(raw);
    } catch {
      throw new UsageError(
        `--field ${printable(key)}: '${printable(raw)}' looks like JSON but is not valid (use --raw-field for a plain string)`,
      );
    }
  }
  return raw;
}

/** With allowEmpty, no payload option at all gives {} (update --unset needs nothing else). */
export async function buildPayload(options: PayloadInput, readSource: ReadSource, allowEmpty = false): Promise<Record<string, unknown>> {
  const fields = options.fields ?? [];
  if (!allowEmpty && options.data === undefined && options.file === undefined && !fields.length) {
    throw new UsageError('nothing to send: give --data, --file, --field or --raw-field');
  }
  const payload: Record<string, unknown> = {};
  if (options.file !== undefined) {
    const text = await readSource(options.file);
    const yaml = looksLikeYaml(options.file, text);
    const source = options.file === '-' ? `the ${yaml ? 'YAML' : 'JSON'} on stdin` : `--file ${printable(options.file)}`;
    merge(payload, yaml ? await parseYamlObject(text, source) : parseObject(text, source));
  }
  if (options.data !== undefined) merge(payload, parseObject(options.data, '--data'));
  // Parse every assignment before applying any, so one bad value stops the whole command.
  const assignments: (readonly [string, unknown])[] = [];
  for (const { raw, text } of fields) {
    const [key, value] = splitAssignment(text, raw ? '--raw-field' : '--field');
    assignments.push([key, raw ? value : typedValue(value, key)]);
  }
  for (const [key, value] of assignments) setOwn(payload, key, value);
  return payload;
}

function merge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) setOwn(target, key, source[key]);
}
