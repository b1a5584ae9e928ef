// The one output writer: commands hand it data, it decides between JSON (machines) and tables (people).
// stdout gets data only; notes about the data (hidden columns, empty lists) go to stderr.
import type { Writable } from 'node:stream';
import { stringifyExactJson } from '../json/exact.js';
import { isRecord } from '../json/record.js';
import { cellsOf, checkColumns, chooseColumns, headerText, project, topLevel, type Column } from './columns.js';
import { renderRecord } from './record.js';
import { escapeControls, escapeJsonForTerminal } from '../text/sanitize.js';
import type { OutputFormat } from './format.js';

/** Where and how to write: terminal/io-streams.ts's IOStreams is one. */
export interface Output {
  readonly stdout: Writable;
  readonly stdoutIsTTY: boolean;
  /** The terminal's width, when stdout is one. */
  readonly columns: number | undefined;
  readonly outputFormat: OutputFormat;
  colorLevel(isTTY: boolean): 0 | 1 | 2 | 3;
  /** A note for people, on stderr (silent under --quiet). */
  info(message: string): void;
}

function writeJson(io: Output, data: unknown): void {
  const json = stringifyExactJson(data, 2);
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
    const slice = stringifyExactJson(list.slice(start, start + ELEMENTS_PER_WRITE), 2);
    // '[\n' + elements + '\n]': the elements, already indented one level.
    const last = start + ELEMENTS_PER_WRITE >= list.length;
    const text = `${start === 0 ? '[\n' : ''}${slice.slice(2, -2)}${last ? '\n]\n' : ',\n'}`;
    if (!io.stdout.write(io.stdoutIsTTY ? escapeJsonForTerminal(text) : text)) await drained(io.stdout);
  }
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
  /** The command's own choice of table columns, when the user named none (JSON keeps every field). */
  tableColumns?: readonly string[];
  /** Said on stderr when a table would be empty. */
  emptyMessage: string;
}

export async function writeList(io: Output, rows: unknown[], options: ListOutput): Promise<void> {
  const chosen = options.columns?.length ? checkColumns(options.columns, rows) : undefined;
  if (io.outputFormat === 'json') {
    await writeJsonList(io, chosen ? rows.map((row) => project(row, chosen)) : rows);
    return;
  }
  if (rows.length === 0) {
    io.info(options.emptyMessage);
    return;
  }
  const columns: Column[] = chosen ?? (options.tableColumns ?? chooseColumns(rows)).map(topLevel);
  // Loaded for tables only: with it comes string-width, which JSON output never needs.
  const { streamTable } = await import('./table.js');
  const idIndex = columns.findIndex((column) => column.name.toLowerCase() === 'id');
  const hiddenColumns = await streamTable(
    columns.map((column) => headerText(column.name)),
    rows.length,
    (row) => cellsOf(rows[row], columns),
    (chunk) => io.stdout.write(chunk),
    {
      maxWidth: io.stdoutIsTTY ? io.columns : undefined,
      protectedIndex: idIndex >= 0 ? idIndex : 0,
      styleHeader: await headerStyle(io),
    },
  );
  if (hiddenColumns.length) {
    io.info(
      `(${hiddenColumns.length} column${hiddenColumns.length === 1 ? '' : 's'} hidden to fit the terminal: ${hiddenColumns.map((index) => escapeControls(columns[index]!.name)).join(', ')}; use --columns or -o json)`,
    );
  }
}

/** A single resource (get, and after create or update); nothing at all when the API sent no body. */
export async function writeRecord(io: Output, answer: unknown, columns?: readonly string[]): Promise<void> {
  if (answer === undefined) return;
  const record = columns?.length ? project(answer, checkColumns(columns, [answer])) : answer;
  if (io.outputFormat === 'json' || !isRecord(record)) {
    writeJson(io, record);
    return;
  }
  const style = await headerStyle(io);
  io.stdout.write(await renderRecord(record, io.stdoutIsTTY ? io.columns : undefined, style));
}

/** Data for machines: JSON whatever the format (results of a command on several items). */
export function writeData(io: Output, data: unknown): void {
  writeJson(io, data);
}

/** A request that --dry-run shows instead of sending. */
export interface PlannedRequest {
  method: string;
  url: string;
  body?: unknown;
}

/** The requests a --dry-run would send: JSON in a pipe, readable lines at a terminal. */
export async function writeRequests(io: Output, requests: readonly PlannedRequest[]): Promise<void> {
  if (io.outputFormat === 'json') {
    writeJson(io, requests);
    return;
  }
  const style = await headerStyle(io);
  const lines: string[] = [];
  for (const { method, url, body } of requests) {
    lines.push(style(`${method} ${escapeControls(url)}`));
    if (body !== undefined) lines.push(escapeJsonForTerminal(stringifyExactJson(body, 2)));
  }
  io.stdout.write(`${lines.join('\n')}\n`);
}
