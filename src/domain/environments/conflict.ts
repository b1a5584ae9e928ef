// No lost updates: a write that merges into an environment (update, create --if-exists update, apply) never
// overwrites a change someone made after cip read it. The API has only the list to read, so the list's ETag is
// the validator: it goes back as If-Match on the PUT, and a 412 means the environment (or, with a server whose
// ETag covers the whole collection, any environment) changed. cip then reads the list again: a changed
// environment is refused with what changed (exit 6); an unchanged one is merged again and sent once more with
// the new validator. Without an ETag, cip reads the list once more just before the PUT and compares
// (docs/concurrency.md: the window that leaves).
import type { EnvironmentsApi, ListRead } from '../../api/environments.js';
import { ApiError, CipError } from '../../errors.js';
import { stringifyExactJson } from '../../json/exact.js';
import { isRecord } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';
import { SERVER_FIELDS, sameValue } from './plan.js';
import { distinctById, sameIdConflict } from './resolve.js';
import { environmentLabel, idOf } from './target.js';

/** How many changed fields an error names before "and N more". */
const SHOWN_CHANGES = 5;
/** How much of a value an error shows. */
const SHOWN_VALUE = 40;

/** One value as an error line shows it: JSON, keys redacted before it is cut, so a cut never leaves part of one. */
function shown(value: unknown, redact: (text: string) => string): string {
  const text = printable(redact(stringifyExactJson(value)));
  return text.length > SHOWN_VALUE ? `${text.slice(0, SHOWN_VALUE - 1)}…` : text;
}

/** The fields that differ between two records, by path (`settings.retention`), objects field by field. */
function changedPaths(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  prefix = '',
): { path: string; old?: unknown; new?: unknown }[] {
  const changes: { path: string; old?: unknown; new?: unknown }[] = [];
  for (const key of Object.keys(before)) {
    const path = `${prefix}${key}`;
    if (!Object.hasOwn(after, key)) changes.push({ path, old: before[key] });
    else if (isRecord(before[key]) && isRecord(after[key])) changes.push(...changedPaths(before[key], after[key], `${path}.`));
    else if (!sameValue(before[key], after[key])) changes.push({ path, old: before[key], new: after[key] });
  }
  for (const key of Object.keys(after)) if (!Object.hasOwn(before, key)) changes.push({ path: `${prefix}${key}`, new: after[key] });
  return changes;
}

/**
 * What changed, said in one line: `description "a" → "b", owner added ("x"), tags removed`, at most five
 * fields, then how many more.
 */
export function changeSummary(before: Record<string, unknown>, after: Record<string, unknown>, redact: (text: string) => string): string {
  const changes = changedPaths(before, after);
  const parts = changes.slice(0, SHOWN_CHANGES).map((change) => {
    const path = printable(redact(change.path));
    if (!('new' in change)) return `${path} removed`;
    if (!('old' in change)) return `${path} added (${shown(change.new, redact)})`;
    return `${path} ${shown(change.old, redact)} → ${shown(change.new, redact)}`;
  });
  const more = changes.length - parts.length;
  return parts.join(', ') + (more > 0 ? `, and ${more} more` : '');
}

export interface GuardedTarget {
  id: string;
  name: string | undefined;
  /** The record as read: the body was merged from it. */
  record: Record<string, unknown>;
  /** The validator of the list it was read from. */
  validator: string | undefined;
}

export interface GuardOptions {
  /** --force: no If-Match, no second read. */
  force: boolean;
  /** Without a validator, read the list again and compare before the PUT (a single update; apply with --check). */
  compare: boolean;
  /** Keys as *** in what an error shows. */
  redact: (text: string) => string;
  /** Reads the list again (with its validator). */
  reread: () => Promise<ListRead>;
  /** A note to the user (stderr). */
  note?: (text: string) => void;
}

const HINT =
  'nothing was overwritten; run the command again to apply your change to the environment as it is now, or pass --force to overwrite it';

/** The environment changed since cip read it: exit 6, with what changed (exit 5 when it was deleted). */
export function changedError(target: GuardedTarget, now: Record<string, unknown> | undefined, redact: (text: string) => string): CipError {
  const label = environmentLabel(target.id, target.name);
  // Gone is what the API's 404 says too: exit 5.
  if (now === undefined) return new CipError('not-found', `the ${label} was deleted since cip read it`, 'nothing was sent');
  const what = changeSummary(target.record, now, redact);
  return new CipError('rejected', `the ${label} changed since cip read it${what ? `: ${what}` : ''}`, HINT);
}

/**
 * The record the list now holds under the target's id; undefined when it is gone. Two different records under
 * the id (pages that changed while they were read) are a broken answer, as when the list was first read.
 */
function findIn(items: readonly unknown[], id: string): Record<string, unknown> | undefined {
  const found = distinctById(items.filter((item) => idOf(item) === id));
  const conflict = sameIdConflict(found);
  if (conflict) throw conflict;
  return isRecord(found[0]) ? found[0] : undefined;
}

/** Whether the record holds what was sent, apart from the fields the server owns (its id and times). */
function holdsSent(record: Record<string, unknown>, sent: Record<string, unknown>): boolean {
  const own = (key: string) => SERVER_FIELDS.some((field) => field.toLowerCase() === key.toLowerCase());
  return Object.keys(sent).every((key) => own(key) || sameValue(sent[key], record[key]));
}

/** Refuses the target when the list read again holds another record for it (or none): exit 6, with what changed. */
export function changedIn(items: readonly unknown[], target: GuardedTarget, redact: (text: string) => string): void {
  const now = findIn(items, target.id);
  if (now === undefined || !sameValue(now, target.record)) throw changedError(target, now, redact);
}

/** A read that callers at the same moment share: the 412s of a batch's items cost one list read, not one each. */
export function sharedRead(read: () => Promise<ListRead>): () => Promise<ListRead> {
  let pending: Promise<ListRead> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}

/**
 * PUTs the body merged from the target's record, so that no change made since that read is overwritten (see
 * above). A record read again with the same values merges to the same body, so the body is sent again as it
 * is. Returns the API's answer to the PUT that was carried out.
 */
export async function guardedUpdate(
  api: EnvironmentsApi,
  target: GuardedTarget,
  body: Record<string, unknown>,
  options: GuardOptions,
): Promise<unknown> {
  const { id } = target;
  if (options.force) return api.update(id, body);
  let { record, validator } = target;
  if (validator === undefined) {
    if (!options.compare) return api.update(id, body);
    const again = await options.reread();
    changedIn(again.items, target, options.redact);
    // The API may send a validator now: then it guards this PUT too.
    return api.update(id, body, again.validator);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.update(id, body, validator);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412)) throw error;
      const again = await options.reread();
      const now = findIn(again.items, id);
      // A retry after an attempt whose answer was lost: that attempt may have made the change itself.
      if (error.afterUncertainAttempt && now !== undefined && holdsSent(now, body)) {
        options.note?.('An earlier attempt whose answer was lost made the change (the retry was refused: HTTP 412).');
        return now;
      }
      if (now === undefined || !sameValue(now, record)) throw changedError({ ...target, record }, now, options.redact);
      if (attempt === 2) {
        throw new CipError(
          'rejected',
          `the API refused to update the ${environmentLabel(id, target.name)} twice (HTTP 412), though it had not changed since cip read it`,
          "nothing was overwritten; other environments may be changing as fast, or the API does not take its list's ETag for one environment: try again, or pass --force to write without the check",
        );
      }
      // Unchanged: the 412 was about another environment (a validator of the whole list). Once more, up to date.
      record = now;
      validator = again.validator;
      if (validator === undefined) return api.update(id, body);
    }
  }
}
