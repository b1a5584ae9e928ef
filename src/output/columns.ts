// Column choice for records whose schema we do not know: id first, then name-like fields, then other
// scalars, then nested values (summarised in cells).
import { isExactNumber } from '../json/exact.js';
import { UsageError } from '../errors.js';
import { isRecord, setOwn } from '../json/record.js';
import { escapeControls } from '../text/sanitize.js';

export const VALUE_COLUMN = 'value';

const NAME_LIKE = /name|title|label/i;
const SHORT_LIST = 40;

/** A number too long or too precise for a double is still a number, shown with its own digits. */
function isScalar(value: unknown): boolean {
  return value === null || value === undefined || typeof value !== 'object' || isExactNumber(value);
}

export function chooseColumns(rows: readonly unknown[]): string[] {
  const order: string[] = [];
  const nested = new Set<string>();
  const seen = new Set<string>();
  let hasNonRecord = false;
  for (const row of rows) {
    if (!isRecord(row)) {
      hasNonRecord = true;
      continue;
    }
    for (const key in row) {
      if (!seen.has(key)) {
        seen.add(key);
        order.push(key);
      }
      if (!isScalar(row[key])) nested.add(key);
    }
  }
  if (hasNonRecord && order.length === 0) return [VALUE_COLUMN];
  const id = order.find((key) => key.toLowerCase() === 'id') ?? order.find((key) => /id$/i.test(key) && !nested.has(key));
  const rest = order.filter((key) => key !== id);
  const names = rest.filter((key) => NAME_LIKE.test(key) && !nested.has(key));
  const scalars = rest.filter((key) => !NAME_LIKE.test(key) && !nested.has(key));
  const others = rest.filter((key) => nested.has(key));
  return [...(id ? [id] : []), ...names, ...scalars, ...others];
}

/** One cell: scalars as text, short lists of scalars joined, other nested values summarised. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return escapeControls(value);
  // JSON data holds no functions or symbols: what is left prints as itself.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (typeof value !== 'object' || isExactNumber(value)) return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    if (value.every((item) => isScalar(item) && item !== null)) {
      const joined = value.map((item) => cellText(item)).join(', ');
      if (joined.length <= SHORT_LIST) return joined;
    }
    return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  }
  const size = Object.keys(value).length;
  return `{${size} field${size === 1 ? '' : 's'}}`;
}

/** A column: what the header says, and the path to its value (`settings.retention` is two steps). */
export interface Column {
  readonly name: string;
  readonly path: readonly string[];
}

export function topLevel(name: string): Column {
  return { name, path: [name] };
}

/** A column a command names, a dot reaching into a nested field (`environment.id`). */
export function nestedColumn(name: string): Column {
  return { name, path: name.split('.') };
}

/** How deep --columns looks for nested fields (`a.b.c.d`). */
const MAX_PATH_DEPTH = 4;

/** Every field path the rows have, in first-seen order: top-level keys, then nested ones under them. */
function fieldPaths(rows: readonly unknown[]): (readonly string[])[] {
  const seen = new Map<string, readonly string[]>();
  const walk = (value: Record<string, unknown>, prefix: readonly string[]) => {
    for (const key of Object.keys(value)) {
      const path = [...prefix, key];
      const id = JSON.stringify(path);
      if (!seen.has(id)) seen.set(id, path);
      const inner = value[key];
      if (isRecord(inner) && path.length < MAX_PATH_DEPTH) walk(inner, path);
    }
  };
  for (const row of rows) if (isRecord(row)) walk(row, []);
  return [...seen.values()];
}

const squash = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * The columns the user named (--columns), checked against the rows' fields: an exact field, else a field in
 * another letter case (`id` finds `Id`), else a header label (`"display name"` finds `displayName`); a
 * dotted name is a path into nested objects. An unknown name is a usage error that lists the fields. With no
 * rows there is nothing to check against, and the names are taken as given.
 */
export function checkColumns(requested: readonly string[], rows: readonly unknown[]): Column[] {
  const paths = fieldPaths(rows);
  if (paths.length === 0) return requested.map(topLevel);
  const dotted = paths.map((path) => ({ path, text: path.join('.') }));
  const find = (wanted: string): readonly string[] | undefined =>
    dotted.find(({ text }) => text === wanted)?.path ??
    dotted.find(({ text }) => text.toLowerCase() === wanted.toLowerCase())?.path ??
    dotted.find(({ text }) => squash(headerText(text)) === squash(wanted))?.path;
  const unknown: string[] = [];
  const columns: Column[] = [];
  for (const wanted of requested) {
    const path = find(wanted);
    if (path) columns.push({ name: path.join('.'), path });
    else unknown.push(wanted);
  }
  if (unknown.length) {
    const fields = dotted.filter(({ path }) => path.length === 1).map(({ text }) => escapeControls(text));
    throw new UsageError(
      `unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `'${escapeControls(name)}'`).join(', ')}; the fields are: ${fields.join(', ')}`,
      'nested fields are named with dots (settings.retention); names match in any letter case',
    );
  }
  return columns;
}

function valueAt(row: Record<string, unknown>, path: readonly string[]): { found: boolean; value: unknown } {
  let current: unknown = row;
  for (const key of path) {
    // Own fields only: a column named like an Object.prototype member must not show the inherited one.
    if (!isRecord(current) || !Object.hasOwn(current, key)) return { found: false, value: undefined };
    current = current[key];
  }
  return { found: true, value: current };
}

/** The row with only the columns' fields, in their order (nested ones under their parents); others as they are. */
export function project(row: unknown, columns: readonly Column[]): unknown {
  if (!isRecord(row)) return row;
  const result: Record<string, unknown> = {};
  for (const { path } of columns) {
    const { found, value } = valueAt(row, path);
    if (!found) continue;
    let target = result;
    for (const key of path.slice(0, -1)) {
      if (!isRecord(target[key])) setOwn(target, key, {});
      target = target[key] as Record<string, unknown>;
    }
    setOwn(target, path[path.length - 1]!, value);
  }
  return result;
}

/**
 * The columns' values by column name (`settings.retention`: 90), in the columns' order; fields the row lacks are
 * left out. What the key/value view of one record shows for --columns, as a table's columns do for a list.
 */
export function pick(row: Record<string, unknown>, columns: readonly Column[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const column of columns) {
    const { found, value } = valueAt(row, column.path);
    if (found) setOwn(result, column.name, value);
  }
  return result;
}

/** The row's raw values for the columns (undefined where it has none): what TSV writes. */
export function valuesOf(row: unknown, columns: readonly Column[]): unknown[] {
  if (!isRecord(row)) return columns.map((column) => (column.name === VALUE_COLUMN ? row : undefined));
  return columns.map((column) => valueAt(row, column.path).value);
}

export function cellsOf(row: unknown, columns: readonly Column[]): string[] {
  if (!isRecord(row)) return columns.map((column) => (column.name === VALUE_COLUMN ? cellText(row) : ''));
  // A table asks for every cell of every row twice: a top-level field (nearly every column) is read directly.
  return columns.map(({ path }) =>
    cellText(path.length === 1 ? (Object.hasOwn(row, path[0]!) ? row[path[0]!] : undefined) : valueAt(row, path).value),
  );
}

/**
 * The columns a table never hides, by index: the id, then the name (a field called name, else the first name-like
 * one), as kubectl and gh keep NAME. The first column when there is neither.
 */
export function keyColumns(columns: readonly Column[]): number[] {
  const id = columns.findIndex((column) => column.name.toLowerCase() === 'id');
  const exact = columns.findIndex((column, index) => index !== id && column.name.toLowerCase() === 'name');
  const name = exact >= 0 ? exact : columns.findIndex((column, index) => index !== id && NAME_LIKE.test(column.name));
  const keys = [id, name].filter((index) => index >= 0);
  return keys.length ? keys : [0];
}

/** Header text: camelCase and snake_case split into upper-case words, as gh and doctl show them. */
export function headerText(column: string): string {
  return escapeControls(column)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toUpperCase();
}
