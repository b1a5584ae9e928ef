// How `cip env history` shows entries to a person: one row each, newest first, the outcome in words.
import { hiddenNote, type Output } from '../../output/writer.js';
import { escapeControls, printable } from '../../text/sanitize.js';
import { utcSecond } from '../../text/time.js';
import type { JournalEntry } from './entry.js';

const HEADERS = ['ENTRY', 'WHEN', 'ACTION', 'ENVIRONMENT', 'PROFILE/ENTERPRISE', 'RESULT'];
const [ENTRY, WHEN, ACTION, ENVIRONMENT, RESULT] = [0, 1, 2, 3, 5];

/** "2026-11-26 14:08:03Z": UTC, so that two people reading one journal see the same time. */
function when(at: string): string {
  return utcSecond(at) ?? printable(at);
}

/**
 * "delete", "update (apply)", "POST (api)", "create (restore)": short, so that it is never cut (the entry a restore
 * undid is in JSON, as `restores`).
 */
function actionText(entry: JournalEntry): string {
  const what = entry.action === 'request' ? entry.request.method : entry.action;
  if (entry.command === `env ${entry.action}`) return what;
  return `${what} (${entry.command.replace(/^env /, '')})`;
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

/**
 * The history as a table, laid out for the terminal's width. What a narrow terminal gives up first is who acted
 * (PROFILE/ENTERPRISE), then from the right; ENTRY (what `env restore` takes), WHEN (to the second) and ACTION
 * are never cut; a column hidden is said on stderr.
 */
export async function historyLines(
  entries: readonly JournalEntry[],
  io: Pick<Output, 'stdoutIsTTY' | 'columns' | 'info' | 'redact'>,
): Promise<string[]> {
  // Redacted before the layout, which could cut a key and leave the start of it.
  const rows = entries.map((entry) =>
    [
      entry.entry,
      when(entry.at),
      actionText(entry),
      environmentText(entry),
      `${entry.profile ?? '(environment)'} / ${entry.enterprise ?? entry.actingAs}`,
      resultText(entry),
    ].map((cell) => escapeControls(io.redact(cell))),
  );
  const { streamTable } = await import('../../output/table.js');
  let text = '';
  const { hiddenColumns } = await streamTable(
    HEADERS,
    rows.length,
    (row) => rows[row]!,
    (chunk) => (text += chunk),
    {
      maxWidth: io.stdoutIsTTY ? io.columns : undefined,
      keyColumns: [ENTRY],
      priority: [ENTRY, WHEN, ACTION, ENVIRONMENT, RESULT],
      whole: [WHEN, ACTION],
    },
  );
  if (hiddenColumns.length) io.info(hiddenNote(hiddenColumns.map((index) => HEADERS[index]!)));
  return text.replace(/\n$/, '').split('\n');
}
