// Options several commands share, declared once: --columns (list, get), checked against the data by the writer
// (output/columns.ts); --concurrency (delete, apply); the payload options (create, update, and -F/-f of api);
// the file of environments and how its records meet the server's (export, diff, apply); --confirm (every command a
// protected profile guards: domain/profiles/protect.ts).
import { InvalidArgumentError } from 'commander';
import { completedFrom, flag, list, option, type ValuesOf } from '../cli/options.js';
import type { FieldAssignment, PayloadInput } from '../domain/environments/payload.js';
import { SERVER_FIELDS } from '../domain/environments/plan.js';

function parseColumns(value: string): string[] {
  const columns = value
    .split(',')
    .map((column) => column.trim())
    .filter(Boolean);
  if (!columns.length) throw new InvalidArgumentError('expected a comma-separated list of field names');
  return columns;
}

export const COLUMNS_OPTION = option(
  '--columns <fields>',
  'comma-separated fields to show, in any letter case; dots reach nested fields (settings.retention); applies to JSON too',
  parseColumns,
);

const MAX_CONCURRENCY = 32;
/** Requests under way at once when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = 4;

function parseConcurrency(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  return value;
}

/** --concurrency for work on many environments (domain/environments/batch.ts). */
export function concurrencyOption(what: string) {
  return option('--concurrency <n>', `${what} under way at once (1-${MAX_CONCURRENCY})`, parseConcurrency, DEFAULT_CONCURRENCY);
}

let assignments = 0;
const assignment =
  (raw: boolean) =>
  (text: string): FieldAssignment => ({ raw, text, position: assignments++ });

/** The options of create and update. */
export const PAYLOAD_OPTIONS = {
  data: option('--data <json>', 'the payload as a JSON object'),
  file: option('--file <path>', "read the payload from a JSON or YAML file ('-' for stdin)"),
  field: list('-F, --field <key=value>', 'set a typed field (repeatable)', assignment(false)),
  rawField: list('-f, --raw-field <key=value>', 'set a string field (repeatable)', assignment(true)),
};

export const PAYLOAD_NOTES = `The JSON object sent is built from --file, then --data, then each --field and --raw-field in turn
(later values win). --field values are typed: true, false, null, numbers and JSON ("[1,2]", '{"a":1}');
--raw-field values are always strings.`;

/** The payload options as buildPayload takes them: -F and -f merged back into command-line order. */
export function payloadInput({ data, file, field, rawField }: ValuesOf<typeof PAYLOAD_OPTIONS>): PayloadInput {
  const fields = [...field, ...rawField].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  return { data, file, fields };
}

function parseFieldList(text: string): string[] {
  return text
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
}

/** The options that say how a file's records meet the server's. */
export const KEY_OPTIONS = {
  key: option('--key <field>', 'the field that identifies an environment in the file and on the server', (text) => text.trim(), 'name'),
  ignoreFields: option(
    '--ignore-fields <fields>',
    `fields the server manages, never compared or sent (default: ${SERVER_FIELDS.join(',')})`,
    parseFieldList,
  ),
};

/** The file of environments of diff and apply. */
export const FILE_OPTION = option(
  '--file <path>',
  "the environments that should exist: YAML or JSON, as 'env export' writes ('-' for stdin)",
);
export const PRUNE_OPTION = flag('--prune', 'also delete the environments the file does not list');

/** Skips the lost-update check of a write that merges into what cip read (domain/environments/conflict.ts). */
export const FORCE_OPTION = flag('--force', 'write even if the environment changed since cip read it (skips the lost-update check)');

/** The profile's name, which a script passes to change a protected profile (domain/profiles/protect.ts). */
export const CONFIRM_OPTION = completedFrom(
  'profiles',
  option(
    '--confirm <profile>',
    'the name of the profile in use: required to change a protected profile without a terminal (--yes is not enough); answers the question as --yes does',
  ),
);

function parseLimit(text: string): number {
  const count = Number(text);
  if (!Number.isInteger(count) || count < 0) throw new InvalidArgumentError('expected a whole number, 0 for all');
  return count;
}

/** --limit for a command that lists the newest of many (env history). */
export function limitOption(what: string, defaultCount: number) {
  return option('--limit <count>', `show at most this many ${what} (default ${defaultCount}; 0 for all)`, parseLimit, defaultCount);
}
