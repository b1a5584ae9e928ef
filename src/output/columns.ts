// Column choice for records whose schema we do not know: id first, then name-like fields, then other
// scalars, then nested values (summarised in cells).
import { isExactNumber } from '../json/exact.js';
import { isRecord } from '../json/record.js';
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

/**
 * The fields for columns the user named: each as given when some row has it, else the field some row spells
 * in another letter case (`--columns id` finds `Id`), else as given (an empty column).
 */
export function resolveColumns(requested: readonly string[], rows: readonly unknown[]): string[] {
  const unresolved = new Map(requested.map((column) => [column.toLowerCase(), column]));
  const found = new Map<string, string>();
  for (const row of rows) {
    if (unresolved.size === 0 || !isRecord(row)) continue;
    for (const [lower, column] of unresolved) {
      if (Object.hasOwn(row, column)) {
        unresolved.delete(lower);
        continue;
      }
      const key = Object.keys(row).find((candidate) => candidate.toLowerCase() === lower);
      if (key !== undefined && !found.has(column)) found.set(column, key);
    }
  }
  return requested.map((column) => (unresolved.has(column.toLowerCase()) ? (found.get(column) ?? column) : column));
}

export function cellsOf(row: unknown, columns: readonly string[]): string[] {
  if (!isRecord(row)) return columns.map((column) => (column === VALUE_COLUMN ? cellText(row) : ''));
  // Own fields only: a column named like an Object.prototype member must not show the inherited one.
  return columns.map((column) => cellText(Object.hasOwn(row, column) ? row[column] : undefined));
}

/** Header text: camelCase and snake_case split into upper-case words, as gh and doctl show them. */
export function headerText(column: string): string {
  return escapeControls(column)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toUpperCase();
}
