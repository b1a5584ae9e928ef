// One record as a two-column FIELD/VALUE table: the view after create and update. Values can be long: they
// are wrapped within the terminal width (a word longer than a line is broken, never cut), and cli-table3
// sets the wrapped lines beside their field. The id is never wrapped.
import { cellText } from './columns.js';
import { isExactNumber, stringifyExactJson } from '../json/exact.js';
import { escapeControls } from '../text/sanitize.js';

const CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** Nested values are shown as compact JSON here: a single record has room for them. */
function valueText(value: unknown): string {
  if (value !== null && typeof value === 'object' && !isExactNumber(value)) return escapeControls(stringifyExactJson(value));
  return cellText(value);
}

export async function renderRecord(
  record: Record<string, unknown>,
  maxWidth: number | undefined,
  styleKey: (text: string) => string,
): Promise<string> {
  const [{ default: Table }, { wrapText, loadUnicodeWidths }] = await Promise.all([import('cli-table3'), import('./table.js')]);
  // A record is a few lines: its widths are measured with the Unicode tables, whatever its text.
  await loadUnicodeWidths();
  const keys = Object.keys(record);
  if (keys.length === 0) return '';
  const keyWidth = Math.max(...keys.map((key) => escapeControls(key).length));
  const valueWidth = maxWidth ? Math.max(10, maxWidth - keyWidth - 2) : undefined;
  const table = new Table({ chars: CHARS, style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 } });
  for (const key of keys) {
    const value = valueText(record[key]);
    // The id stays whole on one line, however narrow the terminal, so that it can be copied: a person reads
    // this view to learn it. The terminal wraps the line if it must; no character is lost or moved.
    const wrap = valueWidth !== undefined && key.toLowerCase() !== 'id';
    table.push([escapeControls(key), wrap ? wrapText(value, valueWidth).join('\n') : value]);
  }
  // Keys are styled after layout: cli-table3 counts escape codes as text when it wraps, and would split them.
  // A line that starts with a space continues the value above it.
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
  return `${lines.map((line) => (line.startsWith(' ') ? line : styleKey(line.slice(0, keyWidth)) + line.slice(keyWidth))).join('\n')}\n`;
}
