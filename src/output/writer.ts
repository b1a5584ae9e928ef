// The one output writer: commands hand it data, it decides between JSON (machines) and tables (people).
// stdout gets data only; notes about the data (hidden columns, empty lists) go to stderr.
import type { Context } from '../context.js';
import { isExactNumber, stringifyExactJson } from '../json/exact.js';
import { cellsOf, chooseColumns, headerText } from './columns.js';
import { renderRecord } from './record.js';
import { escapeControls, escapeJsonForTerminal } from '../text/sanitize.js';

function writeJson(ctx: Context, data: unknown): void {
  const json = stringifyExactJson(data, 2);
  ctx.io.stdout.write(`${ctx.io.stdoutIsTTY ? escapeJsonForTerminal(json) : json}\n`);
}

async function headerStyle(ctx: Context): Promise<(text: string) => string> {
  if (ctx.colorLevel(ctx.io.stdoutIsTTY) === 0) return (text) => text;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: ctx.colorLevel(ctx.io.stdoutIsTTY) });
  return (text) => chalk.bold(text);
}

export interface ListOutput {
  /** Columns the user asked for; otherwise chosen from the data. */
  columns?: string[];
  /** Said on stderr when a table would be empty. */
  emptyMessage: string;
}

export async function writeList(ctx: Context, rows: unknown[], options: ListOutput): Promise<void> {
  if (ctx.outputFormat === 'json') return writeJson(ctx, rows);
  if (rows.length === 0) {
    ctx.info(options.emptyMessage);
    return;
  }
  const columns = options.columns?.length ? options.columns : chooseColumns(rows);
  // Loaded for tables only: with it comes string-width, which JSON output never needs.
  const { streamTable } = await import('./table.js');
  const idIndex = columns.findIndex((column) => column.toLowerCase() === 'id');
  const hiddenColumns = streamTable(
    columns.map(headerText),
    rows.length,
    (row) => cellsOf(rows[row], columns),
    (chunk) => ctx.io.stdout.write(chunk),
    {
      maxWidth: ctx.io.stdoutIsTTY ? ctx.io.columns : undefined,
      protectedIndex: idIndex >= 0 ? idIndex : 0,
      styleHeader: await headerStyle(ctx),
    },
  );
  if (hiddenColumns.length) {
    ctx.info(`(${hiddenColumns.length} column${hiddenColumns.length === 1 ? '' : 's'} hidden to fit the terminal: ${hiddenColumns.map((index) => escapeControls(columns[index]!)).join(', ')}; use --columns or -o json)`);
  }
}

/** A single resource (after create or update); nothing at all when the API sent no body. */
export async function writeRecord(ctx: Context, record: unknown): Promise<void> {
  if (record === undefined) return;
  if (ctx.outputFormat === 'json' || typeof record !== 'object' || record === null || Array.isArray(record) || isExactNumber(record)) {
    return writeJson(ctx, record);
  }
  const style = await headerStyle(ctx);
  ctx.io.stdout.write(await renderRecord(record as Record<string, unknown>, ctx.io.stdoutIsTTY ? ctx.io.columns : undefined, style));
}
