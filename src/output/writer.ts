// The one output writer: commands hand it data, it decides between JSON (machines) and tables (people).
// stdout gets data only; notes about the data (hidden columns, empty lists) go to stderr.
import { stringifyExactJson } from '../json/exact.js';
import { isRecord } from '../json/record.js';
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
import { escapeControls, escapeJsonForTerminal } from '../text/sanitize.js';
import { isDataFormat, isRowFormat } from './format.js';
import { redactData, writeDataAs, type Output } from './data.js';

export { redactData, writeAnswer, type Output } from './data.js';

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
