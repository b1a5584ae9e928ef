// How `cip env history` shows entries to a person: one row each, newest first, the outcome in words.
import type { Output } from '../../output/writer.js';
import { escapeControls, printable } from '../../text/sanitize.js';
import type { JournalEntry } from './entry.js';

const HEADERS = ['ENTRY', 'WHEN', 'ACTION', 'ENVIRONMENT', 'PROFILE/ENTERPRISE', 'RESULT'];

/** "2026-11-26 14:08:03Z": UTC, so that two people reading one journal see the same time. */
function when(at: string): string {
  const time = Date.parse(at);
  return Number.isNaN(time) ? printable(at) : `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

/** "delete", "update (env apply)", "POST (api)", "create (env restore of 0mfx...)". */
function actionText(entry: JournalEntry): string {
  const what = entry.action === 'request' ? entry.request.method : entry.action;
  if (entry.command === `env ${entry.action}`) return what;
  const restores = entry.restores === undefined ? '' : ` of ${entry.restores}`;
  return `${what} (${entry.command}${restores})`;
}

function environmentText(entry: JournalEntry): string {
  const { id, name } = entry.environment;
  const shownId = id ?? entry.answeredId;
  if (name !== null) return shownId === null ? name : `${name} (${shownId})`;
  if (shownId !== null) return shownId;
  if (entry.action === 'request') {
    try {
      return new URL(entry.request.url).pathname;
    } catch {
      return entry.request.url;
    }
  }
  return '';
}

function resultText(entry: JournalEntry): string {
  if (entry.result === 'done') return entry.action === 'create' && entry.answeredId !== null ? `done: id ${entry.answeredId}` : 'done';
  if (entry.result === 'failed') return entry.status === null ? 'failed' : `failed (HTTP ${entry.status})`;
  return entry.status === null ? 'unknown' : `unknown (HTTP ${entry.status})`;
}

/** The history as a table, laid out for the terminal's width. */
export async function historyLines(entries: readonly JournalEntry[], io: Pick<Output, 'stdoutIsTTY' | 'columns'>): Promise<string[]> {
  const rows = entries.map((entry) =>
    [
      entry.entry,
      when(entry.at),
      actionText(entry),
      environmentText(entry),
      `${entry.profile ?? '(environment)'} / ${entry.enterprise ?? entry.actingAs}`,
      resultText(entry),
    ].map((cell) => escapeControls(cell)),
  );
  const { streamTable } = await import('../../output/table.js');
  let text = '';
  await streamTable(
    HEADERS,
    rows.length,
    (row) => rows[row]!,
    (chunk) => (text += chunk),
    {
      maxWidth: io.stdoutIsTTY ? io.columns : undefined,
      keyColumns: [0],
    },
  );
  return text.replace(/\n$/, '').split('\n');
}
