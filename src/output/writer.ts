// The one output writer: commands hand it data, it decides between JSON (machines) and tables (people).
// stdout gets data only; notes about the data (hidden columns, empty lists) go to stderr.
import type { Writable } from 'node:stream';
import type { CipError } from '../errors.js';
import { parseExactJson, stringifyExactJson } from '../json/exact.js';
import { isRecord, setOwn } from '../json/record.js';
import {
  cellsOf,
  checkColumns,
  chooseColumns,
  headerText,
  keyColumns,
  nestedColumn,
  pick,
  project,
  topLevel,
  valuesOf,
  type Column,
} from './columns.js';
import { renderRecord } from './record.js';
import { decodeText } from '../text/charset.js';
import { escapeControls, escapeJsonForTerminal } from '../text/sanitize.js';
import { isDataFormat, isRowFormat, type OutputFormat } from './format.js';
import type { JqRunner } from './jq.js';

/** Where and how to write: terminal/io-streams.ts's IOStreams is one. */
export interface Output {
  readonly stdout: Writable;
  readonly stdoutIsTTY: boolean;
  /** The terminal's width, when stdout is one. */
  readonly columns: number | undefined;
  readonly outputFormat: OutputFormat;
  /** --jq: the data goes through this filter instead of being formatted. */
  readonly jq: string | undefined;
  /** Where a --jq filter runs (output/jq.ts): its thread, the caller's environment, the run's signal. */
  readonly jqRunner?: JqRunner | undefined;
  /** The first run-time failure of the --jq filter: reported when the command ends, unless it fails itself. */
  jqFailure?: CipError | undefined;
  /** -o tsv starts with a header line unless --no-headers. */
  readonly headers: boolean;
  colorLevel(isTTY: boolean): 0 | 1 | 2 | 3;
  /** A note for people, on stderr (silent under --quiet). */
  info(message: string): void;
  /** The text with every key of the run replaced by ***: all that reaches stdout goes through it. */
  redact(text: string): string;
}

/**
 * Data as people may see it: every string and object key through io.redact, numbers untouched. For what a
 * layout could split or cut (table cells wrapped across lines, YAML, plan lines cut short): redacted before
 * it is laid out. JSON and TSV are redacted as text instead, which is cheaper for a large list and exact, since
 * they never split a string. Only what changed is copied: data without a key comes back as it is.
 */
export function redactData(io: Pick<Output, 'redact'>, value: unknown): unknown {
  if (typeof value === 'string') return io.redact(value);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const shown = redactData(io, item);
      if (shown !== item) (copy ??= value.slice())[index] = shown;
    }
    return copy ?? value;
  }
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (io.redact(key) === key && redactData(io, value[key]) === value[key]) continue;
    const copy: Record<string, unknown> = {};
    for (const [at, field] of keys.entries()) {
      setOwn(copy, at < index ? field : io.redact(field), at < index ? value[field] : redactData(io, value[field]));
    }
    return copy;
  }
  return value;
}

function writeJson(io: Output, data: unknown): void {
  const json = io.redact(stringifyExactJson(data, 2));
  io.stdout.write(`${io.stdoutIsTTY ? escapeJsonForTerminal(json) : json}\n`);
}

/** Elements of a list turned into text and written at a time: few writes, and the output never held whole. */
const ELEMENTS_PER_WRITE = 500;

/**
 * Resolves once the stream wants more: at once for one that is gone (a closed pipe never drains, and the
 * command must still finish).
 */
function drained(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) stream.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) stream.on(event, done);
  });
}

/**
 * A list as JSON.stringify(list, null, 2) writes it, a slice at a time: each slice is printed as an array
 * whose brackets are dropped, and the next waits until the reader has taken the last (a pipe queues what it
 * cannot take in memory). So no string as large as the whole output ever exists.
 */
async function writeJsonList(io: Output, list: unknown[]): Promise<void> {
  if (list.length <= ELEMENTS_PER_WRITE) {
    writeJson(io, list);
    return;
  }
  for (let start = 0; start < list.length; start += ELEMENTS_PER_WRITE) {
    const slice = io.redact(stringifyExactJson(list.slice(start, start + ELEMENTS_PER_WRITE), 2));
    // '[\n' + elements + '\n]': the elements, already indented one level.
    const last = start + ELEMENTS_PER_WRITE >= list.length;
    const text = `${start === 0 ? '[\n' : ''}${slice.slice(2, -2)}${last ? '\n]\n' : ',\n'}`;
    if (!io.stdout.write(io.stdoutIsTTY ? escapeJsonForTerminal(text) : text)) await drained(io.stdout);
  }
}

/**
 * Data as the format asks: through --jq, as TSV (rows of the columns given), as YAML (its package loaded only
 * then), as JSON. A format with no case here is refused, never written as JSON in its place: a new format is
 * taught here (and the compiler says so, as `format` is then not `never` at the end).
 */
async function writeDataAs(io: Output, data: unknown, format: OutputFormat = io.outputFormat, columns?: readonly Column[]): Promise<void> {
  if (io.jq !== undefined) {
    await writeThroughJq(io, io.jq, io.redact(stringifyExactJson(data)));
    return;
  }
  switch (format) {
    case 'json':
      if (Array.isArray(data)) await writeJsonList(io, data as unknown[]);
      else writeJson(io, data);
      return;
    case 'yaml': {
      const { stringifyExactYaml } = await import('../json/yaml.js');
      const yaml = stringifyExactYaml(redactData(io, data));
      // At a terminal, characters that could hide or reorder text are shown escaped, as in JSON.
      io.stdout.write(io.stdoutIsTTY ? escapeJsonForTerminal(yaml) : yaml);
      return;
    }
    case 'tsv': {
      const rows = Array.isArray(data) ? (data as unknown[]) : [data];
      writeTsv(io, rows, columns ?? chooseColumns(rows).map(topLevel));
      return;
    }
    case 'table':
      throw new Error('a table is laid out by writeList or writeRecord, not written as data');
    default:
      throw unknownFormat(format);
  }
}

/** A format the writer has no case for: a bug in cip (exit 1), said as such. */
function unknownFormat(format: never): Error {
  return new Error(`the writer cannot write the output format '${String(format)}'`);
}

/**
 * The filter's output for the JSON text, as jq prints it, as it comes: when the filter fails at run time, what
 * it printed before the error, and the failure is kept for the end of the command (run.ts), so that a command that
 * fails itself (a bulk delete with failures) still ends with its own error and exit code.
 */
async function writeThroughJq(io: Output, filter: string, json: string): Promise<void> {
  const { runJq } = await import('./jq.js');
  if (!io.jqRunner) throw new Error('--jq was given, but there is no jq to run it');
  // A reader that went away (`| head`) ends the filter: what it prints would go nowhere.
  let gone = false;
  const onError = () => (gone = true);
  io.stdout.on('error', onError);
  try {
    const failure = await runJq(filter, json, io.jqRunner, async (lines) => {
      // The input is redacted already; the output is too, since a filter can join pieces that held no key alone.
      // Output comes in whole lines, so no key is split between two calls.
      const text = io.redact(lines);
      if (!io.stdout.write(io.stdoutIsTTY ? escapeJsonForTerminal(text) : text)) await drained(io.stdout);
      return !gone && !io.stdout.destroyed;
    });
    if (failure) io.jqFailure ??= failure;
  } finally {
    io.stdout.off('error', onError);
  }
}

/** How jq 1.8's @tsv escapes a field: these five characters, and no others. */
const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

/** A TSV field as jq's @tsv writes one: tab, newline, carriage return, backslash and NUL escaped. */
function tsvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : stringifyExactJson(value);
  return text.replace(/[\\\t\n\r\0]/g, (char) => TSV_ESCAPES[char]!);
}

/** Tab-separated rows: a header line of the field names (unless --no-headers), then one line per item. */
function writeTsv(io: Output, rows: readonly unknown[], columns: readonly Column[]): void {
  const lines: string[] = [];
  if (io.headers) lines.push(columns.map((column) => tsvField(column.name)).join('\t'));
  for (const row of rows) lines.push(valuesOf(row, columns).map(tsvField).join('\t'));
  const text = lines.length ? io.redact(`${lines.join('\n')}\n`) : '';
  io.stdout.write(io.stdoutIsTTY ? escapeJsonForTerminal(text) : text);
}

async function headerStyle(io: Output): Promise<(text: string) => string> {
  if (io.colorLevel(io.stdoutIsTTY) === 0) return (text) => text;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: io.colorLevel(io.stdoutIsTTY) });
  return (text) => chalk.bold(text);
}

export interface ListOutput {
  /** Columns the user asked for (--columns): checked against the data, and applied to JSON too. */
  columns?: string[] | undefined;
  /**
   * The command's own choice of table and TSV columns, when the user named none (JSON keeps every field); a dot
   * reaches into a nested field (`environment.id`).
   */
  tableColumns?: readonly string[];
  /** Which of those columns matter most, the most first: a narrow terminal hides the others first (rightmost first). */
  priority?: readonly string[];
  /** Columns a cut would make useless (a time with its seconds, a GUID): shown whole or hidden, never cut. */
  whole?: readonly string[];
  /**
   * How a column's cells read in the table, from the value (undefined: as usual): a time written shorter, say.
   * JSON, YAML and TSV keep the value as it is.
   */
  shownAs?: Readonly<Record<string, (value: unknown) => string | undefined>>;
  /**
   * A view of its own, for people: at a table, unless --columns names the columns, these lines are shown instead
   * of a table of the rows (`env history`). The view says itself what it hid (hiddenNote).
   */
  view?: () => Promise<readonly string[]>;
  /** Said on stderr when a table would be empty (nothing, when the command says it itself). */
  emptyMessage?: string;
}

/**
 * What a table left out to fit the terminal, for stderr: "(1 column hidden to fit the terminal: baseUrl; widen
 * it, or use --columns or -o json)". cut: the key column whose cells were cut, if any.
 */
export function hiddenNote(hidden: readonly string[], cut?: string): string {
  const count = hidden.length;
  const parts = [cut === undefined ? '' : `${escapeControls(cut)} cut`, count ? `${count} column${count === 1 ? '' : 's'} hidden` : ''];
  const names = hidden.map((name) => escapeControls(name)).join(', ');
  return `(${parts.filter(Boolean).join(' and ')} to fit the terminal${names ? `: ${names}` : ''}; widen it, or use --columns or -o json)`;
}

export async function writeList(io: Output, rows: unknown[], options: ListOutput): Promise<void> {
  const chosen = options.columns?.length ? checkColumns(options.columns, rows) : undefined;
  const own = (data: readonly unknown[]) =>
    options.tableColumns ? options.tableColumns.map(nestedColumn) : chooseColumns(data).map(topLevel);
  if (isRowFormat(io.outputFormat) && io.jq === undefined) {
    // Rows keep their nested fields: a dotted column reads into them, as in the table.
    await writeDataAs(io, rows, io.outputFormat, chosen ?? own(rows));
    return;
  }
  if (isDataFormat(io.outputFormat)) {
    await writeDataAs(io, chosen ? rows.map((row) => project(row, chosen)) : rows);
    return;
  }
  if (rows.length === 0) {
    if (options.emptyMessage !== undefined) io.info(options.emptyMessage);
    return;
  }
  if (options.view && !chosen) {
    writeLines(io, await options.view());
    return;
  }
  // Each cell and header is redacted as it is shown, after the layout's own escaping (keys are printable ASCII,
  // which escapeControls leaves as it is): redacting every field of every record first cost a 100,000-row
  // table a tenth of its time, and the table shows nothing that does not pass through here.
  const columns: Column[] = chosen ?? own(rows);
  // Loaded for tables only: with it comes string-width, which JSON output never needs.
  const { streamTable } = await import('./table.js');
  const keys = keyColumns(columns);
  const indexes = (names: readonly string[] | undefined) =>
    (names ?? []).map((name) => columns.findIndex((column) => column.name === name)).filter((index) => index >= 0);
  const shownAs = columns.map((column) =>
    options.shownAs && Object.hasOwn(options.shownAs, column.name) ? options.shownAs[column.name] : undefined,
  );
  const anyShownAs = shownAs.some(Boolean);
  const cellsAt = (row: number) => {
    const cells = cellsOf(rows[row], columns);
    const values = anyShownAs ? valuesOf(rows[row], columns) : undefined;
    for (let index = 0; index < cells.length; index++) {
      const text = values && shownAs[index]?.(values[index]);
      cells[index] = io.redact(text === undefined ? cells[index]! : escapeControls(text));
    }
    return cells;
  };
  const { hiddenColumns, cutKeys } = await streamTable(
    columns.map((column) => headerText(io.redact(column.name))),
    rows.length,
    cellsAt,
    (chunk) => io.stdout.write(chunk),
    {
      maxWidth: io.stdoutIsTTY ? io.columns : undefined,
      keyColumns: keys,
      priority: indexes(options.priority),
      whole: indexes(options.whole),
      styleHeader: await headerStyle(io),
    },
  );
  const idCut = cutKeys.includes(keys[0]!) && keys.length > 1;
  if (hiddenColumns.length || idCut) {
    io.info(
      hiddenNote(
        hiddenColumns.map((index) => io.redact(columns[index]!.name)),
        idCut ? io.redact(columns[keys[0]!]!.name) : undefined,
      ),
    );
  }
}

/** A single resource (get, and after create or update); nothing at all when the API sent no body. */
export async function writeRecord(io: Output, answer: unknown, columns?: readonly string[]): Promise<void> {
  if (answer === undefined) return;
  const chosen = columns?.length ? checkColumns(columns, [answer]) : undefined;
  const record = chosen ? project(answer, chosen) : answer;
  if (isDataFormat(io.outputFormat) || !isRecord(record)) {
    // A table shows an answer that is no record (a list, a string) as JSON.
    await writeDataAs(io, record, isDataFormat(io.outputFormat) ? io.outputFormat : 'json', chosen);
    return;
  }
  const style = await headerStyle(io);
  // A dotted column shows the nested value under its own name, as the list's table and TSV do.
  const view = chosen && isRecord(answer) ? pick(answer, chosen) : record;
  io.stdout.write(await renderRecord(redactData(io, view) as Record<string, unknown>, io.stdoutIsTTY ? io.columns : undefined, style));
}

/** Data for machines (a file for `env apply`): written in the format asked for, which must be a data format. */
export async function writeData(io: Output, data: unknown): Promise<void> {
  await writeDataAs(io, data);
}

/**
 * A command's result, for machines and for people: the data in a data format; at a table, the lines of the
 * view when the command has one (a plan, the doctor's checks), else nothing, as its notes on stderr said it all
 * (what a delete did). So a command never asks which format was chosen.
 */
export async function writeResult(io: Output, data: unknown, view?: () => Promise<readonly string[]>): Promise<void> {
  if (isDataFormat(io.outputFormat)) await writeDataAs(io, data);
  else if (view) writeLines(io, await view());
}

/** A request that --dry-run shows instead of sending. */
export interface PlannedRequest {
  method: string;
  url: string;
  body?: unknown;
}

/** The requests a --dry-run would send: JSON in a pipe, readable lines at a terminal. */
export async function writeRequests(io: Output, requests: readonly PlannedRequest[]): Promise<void> {
  if (isDataFormat(io.outputFormat)) {
    await writeDataAs(io, requests);
    return;
  }
  const style = await headerStyle(io);
  const lines: string[] = [];
  for (const { method, url, body } of requests) {
    lines.push(style(`${method} ${escapeControls(url)}`));
    if (body !== undefined) lines.push(escapeJsonForTerminal(stringifyExactJson(body, 2)));
  }
  io.stdout.write(`${io.redact(lines.join('\n'))}\n`);
}

/** Colours for a plan's lines: + green, ~ yellow, - red; plain where colour is off. */
export interface PlanStyles {
  add: (text: string) => string;
  change: (text: string) => string;
  remove: (text: string) => string;
}

export async function planStyles(io: Output, isTTY: boolean): Promise<PlanStyles> {
  const level = io.colorLevel(isTTY);
  if (level === 0) return { add: (text) => text, change: (text) => text, remove: (text) => text };
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level });
  return { add: (text) => chalk.green(text), change: (text) => chalk.yellow(text), remove: (text) => chalk.red(text) };
}

/** Lines for people, on stdout: the data of a command whose data is a text (a plan). */
function writeLines(io: Output, lines: readonly string[]): void {
  if (lines.length) io.stdout.write(`${io.redact(lines.join('\n'))}\n`);
}

/**
 * An answer as `cip api` got it: the bytes unchanged in a pipe; at a terminal, JSON pretty-printed (numbers
 * exact) and other text with unsafe characters escaped; through --jq when one is given. Keys are redacted in
 * the text as the server spelled them (escaped or encoded), before jq or a parser decodes them.
 */
export async function writeAnswer(io: Output, answer: Uint8Array, contentType: string): Promise<void> {
  if (answer.byteLength === 0) return;
  // Read as its charset says (a key in UTF-16 is no key in its bytes read as UTF-8), for jq and a terminal.
  const received = decodeText(answer, contentType).text;
  const text = io.redact(received);
  // A body without a key goes out byte for byte; one with a key, redacted, in UTF-8.
  const body = text === received ? answer : Buffer.from(text);
  if (io.jq !== undefined) {
    await writeThroughJq(io, io.jq, text);
    return;
  }
  if (!io.stdoutIsTTY) {
    io.stdout.write(body);
    return;
  }
  const looksJson = /json/i.test(contentType) || /^[\s\uFEFF]*[[{"]/.test(text);
  if (looksJson) {
    try {
      writeJson(io, parseExactJson(text));
      return;
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  io.stdout.write(escapeJsonForTerminal(text.endsWith('\n') ? text : `${text}\n`));
}
