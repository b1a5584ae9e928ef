// No lost updates: a write that merges into an environment (update, create --if-exists update, apply, restore)
// never overwrites a change someone made after cip read it. The PUT carries the best validator the API gave
// (item.ts chooses it: the item's own ETag, else the list's) as If-Match, and a 412 means the environment changed,
// or that the API does not take that validator for it. cip then reads the environment again: a changed one is
// refused with what changed (exit 6); an unchanged one is sent again, with a newer validator once if the read
// gave one, else without If-Match, the read just made being the check. Without a validator, cip reads the
// environment again just before the PUT and compares (docs/concurrency.md: the window that leaves).
import type { EnvironmentsApi, ListRead } from '../../api/environments.js';
import { ApiError, CipError } from '../../errors.js';
import { stringifyExactJson } from '../../json/exact.js';
import { isRecord, setOwn } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';
import { SERVER_FIELDS, sameValue } from './plan.js';
import { distinctById, sameIdConflict } from './resolve.js';
import { shellWord } from '../profiles/protect.js';
import { environmentLabel, idOf } from './target.js';
import { checkVersions, isVersionField, odataTag, type VersionCheck } from './version.js';

/** How many changed fields an error names before "and N more". */
const SHOWN_CHANGES = 5;
/** How much of a value an error shows. */
const SHOWN_VALUE = 40;

/** One value as an error line shows it: JSON, keys redacted before it is cut, so a cut never leaves part of one. */
export function shown(value: unknown, redact: (text: string) => string): string {
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
  /** What goes as If-Match: the item's own strong ETag, else the list's (item.ts); undefined when none. */
  validator: string | undefined;
}

/** The environment read again: as it is now (undefined when it is gone), and the validator that read gave. */
export interface Reread {
  now: Record<string, unknown> | undefined;
  validator: string | undefined;
}

export interface GuardOptions {
  /** --force: no If-Match, no second read. */
  force: boolean;
  /** Without a validator, read the environment again and compare before the PUT (update; apply with --check). */
  compare: boolean;
  /** Keys as *** in what an error shows. */
  redact: (text: string) => string;
  /** Reads the environment again, the way it was first read (by id, or from the list). */
  reread: () => Promise<Reread>;
  /** A note to the user (stderr). */
  note?: (text: string) => void;
  /** A line for --verbose: what the check did. */
  detail?: (text: string) => void;
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
 * The environment changed since the file was written (its version moved): exit 6, with the version that moved
 * and what the file would set (which includes the user's own edits: cip cannot tell those from the changes made
 * since, so it names both sides).
 */
export function staleFileError(
  target: { id: string; name: string | undefined },
  check: VersionCheck,
  declared: Record<string, unknown>,
  current: Record<string, unknown>,
  redact: (text: string) => string,
): CipError {
  const moved = changeSummary(
    Object.fromEntries(check.moved.map(({ field, then }) => [field, then])),
    Object.fromEntries(check.moved.map(({ field, now }) => [field, now])),
    redact,
  );
  const lower = new Map(Object.keys(current).map((key) => [key.toLowerCase(), key]));
  const differing: Record<string, unknown> = {};
  const was: Record<string, unknown> = {};
  for (const field of Object.keys(declared)) {
    if (isVersionField(field)) continue;
    const own = lower.get(field.toLowerCase());
    if (own !== undefined && sameValue(current[own], declared[field])) continue;
    setOwn(differing, field, declared[field]);
    if (own !== undefined) setOwn(was, field, current[own]);
  }
  const would = changeSummary(was, differing, redact);
  return new CipError(
    'rejected',
    `the ${environmentLabel(target.id, target.name)} changed since the file was written (${moved})${would ? `; the file would set ${would}` : ''}`,
    `nothing was sent; read it again ('cip env get ${shellWord(target.name ?? target.id)} -o json') and redo your edit, or pass --force to overwrite it`,
  );
}

/**
 * Refuses a payload written from an older version of the environment than the one read now (a file from `env
 * get`, edited): exit 6 when a version it carries has moved. A payload from a document (--file, --data) that
 * carries none the environment has is said under --verbose: then nothing can tell.
 */
export function checkPayloadVersion(
  target: { id: string; name: string | undefined; record: Record<string, unknown>; etag?: string | undefined },
  payload: Record<string, unknown>,
  options: { redact: (text: string) => string; detail?: ((text: string) => void) | undefined; document: boolean },
): void {
  const check = checkVersions(payload, target.record, target.etag);
  if (check.moved.length) throw staleFileError(target, check, payload, target.record, options.redact);
  if (check.compared) options.detail?.("The version the payload carries is the environment's current one.");
  else if (options.document) {
    options.detail?.(
      'The payload carries no version cip can compare (an ETag, @odata.etag, version field or modification time the environment has): cip cannot tell whether the environment changed since it was written (docs/concurrency.md).',
    );
  }
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

/** Whether `record` holds every field of `read` with the same value (a read by id may hold more than a list). */
export function holdsAll(record: Record<string, unknown>, read: Record<string, unknown>): boolean {
  return Object.keys(read).every((key) => Object.hasOwn(record, key) && sameValue(record[key], read[key]));
}

/** Refuses the target when the list read again holds another record for it (or none): exit 6, with what changed. */
export function changedIn(items: readonly unknown[], target: GuardedTarget, redact: (text: string) => string): void {
  refuseChanged(target, findIn(items, target.id), redact);
}

/** Exit 6 (5 when gone) unless the environment is now exactly as cip read it. */
function refuseChanged(target: GuardedTarget, now: Record<string, unknown> | undefined, redact: (text: string) => string): void {
  if (now === undefined || !sameValue(now, target.record)) throw changedError(target, now, redact);
}

/**
 * A re-read through the list: the environment under the id, and the validator for it, its own `@odata.etag`
 * where the first read used one (`itemTags`), else the list's.
 */
export function rereadFromList(read: () => Promise<ListRead>, id: string, itemTags: boolean): () => Promise<Reread> {
  return async () => {
    const again = await read();
    const now = findIn(again.items, id);
    return { now, validator: itemTags ? odataTag(now) : again.validator };
  };
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
  let { validator } = target;
  if (validator === undefined) {
    if (!options.compare) return api.update(id, body);
    const again = await options.reread();
    refuseChanged(target, again.now, options.redact);
    // The API may send a validator now: then it guards this PUT too.
    return api.update(id, body, again.validator);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.update(id, body, validator);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412)) throw error;
      const again = await options.reread();
      // A retry after an attempt whose answer was lost: that attempt may have made the change itself.
      if (error.afterUncertainAttempt && again.now !== undefined && holdsSent(again.now, body)) {
        options.note?.('An earlier attempt whose answer was lost made the change (the retry was refused: HTTP 412).');
        return again.now;
      }
      refuseChanged(target, again.now, options.redact);
      // Unchanged since cip read it: the API does not take this validator for the environment (a tag of the
      // whole list, say, that changed with another environment). A newer one from the read is tried once; then
      // the comparison just made is the check, as without ETags.
      const refused = printable(validator);
      if (attempt === 1 && again.validator !== undefined && again.validator !== validator) {
        options.detail?.(
          `If-Match ${refused} was refused (HTTP 412) though the environment had not changed: trying ${printable(again.validator)}`,
        );
        validator = again.validator;
        continue;
      }
      options.detail?.(
        `If-Match ${refused} was refused (HTTP 412) though the environment had not changed: sending without If-Match, as without ETags (docs/concurrency.md)`,
      );
      return api.update(id, body);
    }
  }
}
