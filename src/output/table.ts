// Plain, borderless list tables (like gh and doctl). cli-table3 lays out each cell by rescanning earlier rows,
// which made 100,000 rows take minutes (and still ~12 s when fed in chunks), so lists are padded here in one
// linear pass; cli-table3 renders the key/value view of a single record (record.ts).
import stringWidth from 'string-width';

const GAP = 2;
const SOFT_MAX_COLUMN = 40;
const MIN_COLUMN = 4;
// eslint-disable-next-line no-control-regex
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Display width in terminal cells; plain ASCII (nearly every cell) skips the Unicode tables. */
export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** Cuts text to at most width cells, marking the cut with an ellipsis. */
export function fitWidth(text: string, width: number, textWidth = displayWidth(text)): string {
  if (textWidth <= width) return text + ' '.repeat(width - textWidth);
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, Math.max(0, width - 1))}…`;
  let out = '';
  let used = 0;
  for (const char of text) {
    const charWidth = stringWidth(char);
    if (used + charWidth > width - 1) break;
    out += char;
    used += charWidth;
  }
  return `${out}…${' '.repeat(Math.max(0, width - 1 - used))}`;
}

export interface TableLayout {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  widths: number[];
}

/**
 * Which columns fit in maxWidth and how wide each is. The protected column (the id) is never cut or hidden;
 * long columns are narrowed first, then columns are hidden from the right, then the last ones are narrowed more.
 */
export function layoutColumns(natural: readonly number[], maxWidth: number | undefined, protectedIndex: number): TableLayout {
  const widths = [...natural];
  let shown = widths.map((_, index) => index);
  const total = () => shown.reduce((sum, index) => sum + widths[index]!, 0) + GAP * Math.max(0, shown.length - 1);
  if (maxWidth === undefined || total() <= maxWidth) return { shown, widths };
  for (const index of shown) {
    if (index !== protectedIndex) widths[index] = Math.min(widths[index]!, Math.max(SOFT_MAX_COLUMN, 0));
  }
  const minimal = () =>
    shown.reduce((sum, index) => sum + (index === protectedIndex ? widths[index]! : Math.min(widths[index]!, MIN_COLUMN)), 0)
    + GAP * Math.max(0, shown.length - 1);
  // Hide from the right; keep a second column while it fits at its narrowest.
  while (total() > maxWidth && shown.length > 1 && (shown.length > 2 || minimal() > maxWidth)) {
    const last = [...shown].reverse().find((index) => index !== protectedIndex)!;
    shown = shown.filter((index) => index !== last);
  }
  for (const index of [...shown].reverse()) {
    const excess = total() - maxWidth;
    if (excess <= 0) break;
    if (index !== protectedIndex) widths[index] = Math.max(MIN_COLUMN, widths[index]! - excess);
  }
  return { shown, widths };
}

export interface RenderOptions {
  /** Terminal width; undefined renders every column at full width (a pipe or file). */
  maxWidth?: number;
  protectedIndex?: number;
  /** Styles the header line (bold on a colour terminal); identity when colour is off. */
  styleHeader?: (text: string) => string;
}

export interface RenderedTable {
  text: string;
  hiddenColumns: number[];
}

export function renderTable(headers: readonly string[], rows: readonly string[][], options: RenderOptions = {}): RenderedTable {
  const natural = headers.map(displayWidth);
  const cellWidths = rows.map((row) =>
    natural.map((_, index) => {
      const width = displayWidth(row[index] ?? '');
      if (width > natural[index]!) natural[index] = width;
      return width;
    }),
  );
  const { shown, widths } = layoutColumns(natural, options.maxWidth, options.protectedIndex ?? 0);
  const line = (cells: readonly string[], known?: number[]) =>
    shown
      .map((index) => fitWidth(cells[index] ?? '', widths[index]!, known?.[index]))
      .join(' '.repeat(GAP))
      .trimEnd();
  const style = options.styleHeader ?? ((text: string) => text);
  const lines = [style(line(headers))];
  for (let index = 0; index < rows.length; index++) lines.push(line(rows[index]!, cellWidths[index]));
  return {
    text: `${lines.join('\n')}\n`,
    hiddenColumns: natural.map((_, index) => index).filter((index) => !shown.includes(index)),
  };
}
