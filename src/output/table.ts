// Plain, borderless list tables (like gh and doctl). cli-table3 lays out each cell by rescanning earlier rows,
// which made 100,000 rows take minutes (and still ~12 s when fed in chunks), so lists are laid out here in
// linear passes; cli-table3 renders the key/value view of a single record (record.ts).
// string-width is loaded only for text beyond printable ASCII: building its Unicode tables and emoji
// patterns costs a table of plain ASCII (nearly every table) about 35 ms.

const GAP = 2;
const SOFT_MAX_COLUMN = 40;
const MIN_COLUMN = 4;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

let stringWidth: ((text: string) => number) | undefined;

/** Loads the Unicode width tables that displayWidth needs for text beyond printable ASCII. */
export async function loadUnicodeWidths(): Promise<void> {
  stringWidth ??= (await import('string-width')).default;
}

/** Whether displayWidth can measure this text now (plain ASCII always can). */
export function canMeasure(text: string): boolean {
  return stringWidth !== undefined || PRINTABLE_ASCII.test(text);
}

function unicodeWidth(text: string): number {
  if (!stringWidth) throw new Error('loadUnicodeWidths() must come first for text beyond printable ASCII');
  return stringWidth(text);
}

/** Display width in terminal cells; plain ASCII (nearly every cell) skips the Unicode tables. */
export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : unicodeWidth(text);
}

const PADDING: string[] = [];
function padding(count: number): string {
  return (PADDING[count] ??= ' '.repeat(count));
}

let graphemes: Intl.Segmenter | undefined;

/** Cuts text to at most width cells, marking the cut with an ellipsis. */
export function fitWidth(text: string, width: number, textWidth = displayWidth(text)): string {
  if (textWidth <= width) return textWidth === width ? text : text + padding(width - textWidth);
  if (PRINTABLE_ASCII.test(text)) return `${text.slice(0, Math.max(0, width - 1))}…`;
  // Cut between graphemes, measured whole: an emoji with its variation selector is two cells, not one.
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const segmentWidth = unicodeWidth(segment);
    if (used + segmentWidth > width - 1) break;
    out += segment;
    used += segmentWidth;
  }
  return `${out}…${' '.repeat(Math.max(0, width - 1 - used))}`;
}

/**
 * Text broken into lines of at most width cells: at spaces where it can, inside a word only when the word
 * alone is wider than a line. Nothing is cut: joined again, the lines hold every character.
 */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (displayWidth(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    let used = 0;
    for (const { segment } of graphemes.segment(word)) {
      const segmentWidth = displayWidth(segment);
      if (used + segmentWidth > width && line !== '') {
        lines.push(line);
        line = '';
        used = 0;
      }
      line += segment;
      used += segmentWidth;
    }
  }
  lines.push(line);
  return lines;
}

export interface TableLayout {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  widths: number[];
}

/** Below this a cut cell says too little: a column is hidden rather than cut narrower (unless its header is wider). */
const MIN_CUT = 12;
/** A cut id keeps at least this many characters (with the ellipsis): enough to tell ids apart by eye. */
const MIN_ID = 9;
/** A name is cut no narrower than this while anything else can give way. */
const MIN_NAME = 8;

/** Which columns give way first, and which are shown whole or not at all: see layoutColumns. */
export interface ColumnOrder {
  /** Columns by importance, the most important first; those not listed are less important, the rightmost least. */
  priority?: readonly number[];
  /** Columns a cut would make useless (a time with its seconds, a GUID): shown whole, or hidden. */
  whole?: readonly number[];
}

/**
 * Which columns fit in maxWidth and how wide each is. The key columns (the id, then the name) are never hidden.
 * When the table is too wide: long cells are cut first (to SOFT_MAX_COLUMN, then each column down to MIN_CUT or
 * its header; a `whole` column never), then the least important columns (by `priority`, else the rightmost) are
 * hidden, one at a time, until the rest fit at those widths; what room is left goes back to the cut columns, the
 * narrowest first. When the id and the name alone are too wide, the id is cut before the name (it keeps MIN_ID),
 * then the name too. The first key (the id) is cut only for a second key; alone, it is never cut. floors: the
 * width each column may be cut to (its header).
 */
export function layoutColumns(
  natural: readonly number[],
  maxWidth: number | undefined,
  keys: readonly number[] = [0],
  floors: readonly number[] = [],
  { priority = [], whole = [] }: ColumnOrder = {},
): TableLayout {
  const widths = [...natural];
  let shown = widths.map((_, index) => index);
  const gaps = () => GAP * Math.max(0, shown.length - 1);
  const total = () => shown.reduce((sum, index) => sum + widths[index]!, 0) + gaps();
  if (maxWidth === undefined || total() <= maxWidth) return { shown, widths };
  const isKey = (index: number) => keys.includes(index);
  const [first] = keys;
  const cap = natural.map((width, index) => (index === first || whole.includes(index) ? width : Math.min(width, SOFT_MAX_COLUMN)));
  const floor = cap.map((width, index) =>
    isKey(index) || whole.includes(index) ? width : Math.min(width, Math.max(MIN_CUT, floors[index] ?? 0)),
  );
  const least = () => shown.reduce((sum, index) => sum + floor[index]!, 0) + gaps();
  // The higher, the sooner hidden: the columns not listed, rightmost first, then the listed, least important first.
  const rank = (index: number) => (priority.includes(index) ? priority.indexOf(index) : priority.length + index);
  while (least() > maxWidth) {
    const candidates = shown.filter((index) => !isKey(index));
    if (candidates.length === 0) break;
    const last = candidates.reduce((hidden, index) => (rank(index) > rank(hidden) ? index : hidden));
    shown = shown.filter((index) => index !== last);
  }
  for (const index of shown) widths[index] = floor[index]!;
  let room = maxWidth - total();
  if (room >= 0) {
    // Room left goes back to the cut columns, a cell at a time to the narrowest.
    for (; room > 0; room--) {
      let narrowest: number | undefined;
      for (const index of shown) {
        if (widths[index]! < cap[index]! && (narrowest === undefined || widths[index]! < widths[narrowest]!)) narrowest = index;
      }
      if (narrowest === undefined) break;
      widths[narrowest] = widths[narrowest]! + 1;
    }
    return { shown, widths };
  }
  // Only the keys are left, and they do not fit: the second key (the name) keeps what it can, the first is cut.
  const [, second] = shown.length === 2 ? keys : [];
  if (first === undefined || second === undefined || !shown.includes(first)) return { shown, widths };
  const space = maxWidth - GAP;
  widths[second] = Math.max(Math.min(MIN_NAME, cap[second]!), Math.min(cap[second]!, space - Math.min(MIN_ID, natural[first]!)));
  widths[first] = Math.max(Math.min(MIN_ID, natural[first]!), space - widths[second]);
  // Narrower still: both at their least, the name cut further.
  if (widths[first] + widths[second] > space) widths[second] = Math.max(MIN_COLUMN, space - widths[first]);
  return { shown, widths };
}

export interface RenderOptions extends ColumnOrder {
  /** Terminal width; undefined renders every column at full width (a pipe or file). */
  maxWidth?: number;
  /** The columns never hidden: the id (cut only to make room for the name), then the name. */
  keyColumns?: readonly number[];
  /** Styles the header line (bold on a colour terminal); identity when colour is off. */
  styleHeader?: (text: string) => string;
}

export interface TableResult {
  hiddenColumns: number[];
  /** Columns whose cells are cut (…) though they are keys: the id, at a narrow terminal. */
  cutKeys: number[];
}

export interface RenderedTable extends TableResult {
  text: string;
}

const CHUNK_CHARS = 1 << 16;

/**
 * Writes a table in chunks as it goes: a first pass measures every cell, a second prints them. Returns the
 * hidden columns and the key columns that were cut.
 */
export async function streamTable(
  headers: readonly string[],
  rowCount: number,
  cellsAt: (row: number) => readonly string[],
  write: (chunk: string) => void,
  options: RenderOptions = {},
): Promise<TableResult> {
  const columns = headers.length;
  if (!headers.every(canMeasure)) await loadUnicodeWidths();
  const natural = headers.map(displayWidth);
  // The cells are kept from the measuring pass for the printing one: asking for them again (each a lookup, a
  // control-character test and often a new string) cost more than keeping them (100,000 rows: 11% faster,
  // 21 MB more, most cells being the records' own strings).
  const kept: (readonly string[])[] = [];
  // Whether every cell is printable ASCII, as most are: the printing pass then takes a cell's width to be its
  // length without testing it again.
  let ascii = true;
  for (let row = 0; row < rowCount; row++) {
    const cells = cellsAt(row);
    kept.push(cells);
    for (let column = 0; column < columns; column++) {
      const cell = cells[column] ?? '';
      let width = cell.length;
      if (!PRINTABLE_ASCII.test(cell)) {
        ascii = false;
        // The first cell beyond ASCII loads the Unicode tables; the second pass meets no other.
        await loadUnicodeWidths();
        width = unicodeWidth(cell);
      }
      if (width > natural[column]!) natural[column] = width;
    }
  }
  const keys = options.keyColumns ?? [0];
  const { shown, widths } = layoutColumns(natural, options.maxWidth, keys, headers.map(displayWidth), options);
  const gap = ' '.repeat(GAP);
  const line = (cells: readonly string[], asciiCells: boolean) => {
    let text = '';
    for (let position = 0; position < shown.length; position++) {
      const column = shown[position]!;
      if (position > 0) text += gap;
      const cell = cells[column] ?? '';
      text += fitWidth(cell, widths[column]!, asciiCells ? cell.length : undefined);
    }
    return text.trimEnd();
  };
  const style = options.styleHeader ?? ((text: string) => text);
  write(`${style(line(headers, false))}\n`);
  let chunk = '';
  for (let row = 0; row < rowCount; row++) {
    chunk += `${line(kept[row]!, ascii)}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      write(chunk);
      chunk = '';
    }
  }
  if (chunk) write(chunk);
  return {
    hiddenColumns: natural.map((_, index) => index).filter((index) => !shown.includes(index)),
    cutKeys: keys.filter((index) => shown.includes(index) && widths[index]! < natural[index]!),
  };
}

/** The whole table as one string (for small tables and tests). */
export async function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: RenderOptions = {},
): Promise<RenderedTable> {
  const parts: string[] = [];
  const result = await streamTable(
    headers,
    rows.length,
    (row) => rows[row]!,
    (chunk) => parts.push(chunk),
    options,
  );
  return { text: parts.join(''), ...result };
}
