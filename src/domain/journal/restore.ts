// Undoing one journal entry (`cip env restore`): which entry is meant, whether this run may act where it was
// made, and the write that puts the environment back as the journal saw it before: a delete undone by
// creating the record again (the server gives it its id), an update by writing back the fields it changed, a
// create by deleting what it created. Each plan says whether the environment changed since the entry: a restore
// over someone else's later change is refused unless forced (the command decides).
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import { actingAs } from '../../config/credentials/credential.js';
import { CipError, UsageError } from '../../errors.js';
import { isRecord, setOwn } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';
import { SERVER_FIELDS, sameValue } from '../environments/plan.js';
import { environmentLabel, idOf, nameOf } from '../environments/target.js';
import { ODATA_ETAG } from '../environments/version.js';
import type { Context } from '../../context.js';
import { stringifyExactJson } from '../../json/exact.js';
import { journalOn, scopeOf, type JournalEntry } from './entry.js';

export type RestorePlan =
  /** A deleted environment created again, without the fields the server sets. */
  | { kind: 'recreate'; oldId: string | undefined; name: string | undefined; body: Record<string, unknown>; drift: string | undefined }
  /** An update undone: the current record with the fields it changed set back (or removed, when it added them). */
  | { kind: 'revert'; id: string; name: string | undefined; body: Record<string, unknown>; fields: string[]; drift: string | undefined }
  /** A create undone: the environment it created deleted. */
  | { kind: 'remove'; id: string; name: string | undefined; drift: string | undefined };

const SHORTEST_PREFIX = 4;

/** The fields of an entry a restore may need, as its refusal names them (journal/record.ts sealLine). */
const FIELD_WORDS = {
  'request body': 'request body',
  before: 'before',
  'environment.id': 'environment id',
  answeredId: 'answered id',
} as const;

/** The entry an argument names: its whole id, or the start of exactly one entry's id (4 characters at least). */
export function findEntry(entries: readonly JournalEntry[], given: string): JournalEntry {
  const wanted = given.trim();
  const exact = entries.find((entry) => entry.entry === wanted);
  if (exact) return exact;
  const matches = wanted.length >= SHORTEST_PREFIX ? entries.filter((entry) => entry.entry.startsWith(wanted)) : [];
  if (matches.length > 1) {
    throw new UsageError(`'${printable(given)}' is the start of ${matches.length} journal entries`, 'give more of the id');
  }
  if (!matches[0]) throw new CipError('not-found', `the journal has no entry '${printable(given)}'`, "'cip env history' lists the entries");
  return matches[0];
}

function scopeText(scope: { profile: string | null; actingAs: string; baseUrl: string }): string {
  const who =
    scope.profile === null ? `${scope.actingAs} (credentials from the environment)` : `profile '${scope.profile}', ${scope.actingAs}`;
  return `${who} at ${new URL(scope.baseUrl).host}`;
}

/**
 * Refuses (exit 2) to act anywhere but where the entry was made: the same profile, enterprise (or what the token
 * acts for) and base URL. Never a restore into the wrong enterprise.
 */
export function checkScope(entry: JournalEntry, settings: ResolvedSettings): void {
  const now = scopeOf(settings, actingAs(settings.credentials).afterProfile);
  const same =
    now.profile === entry.profile &&
    now.baseUrl === entry.baseUrl &&
    (entry.enterprise === null && now.enterprise === null ? now.actingAs === entry.actingAs : now.enterprise === entry.enterprise);
  if (same) return;
  const hint =
    entry.profile === null
      ? 'nothing was sent; run it with the credentials the entry was made with (the same variables)'
      : `nothing was sent; run it with --profile ${printable(entry.profile)}`;
  throw new UsageError(
    `entry ${printable(entry.entry)} was made in ${printable(scopeText(entry), 300)}; this run uses ${printable(scopeText(now), 300)}`,
    hint,
  );
}

// An item's `@odata.etag` is the version it was read at, which the server sets: never sent back as a field.
const isServerField = (key: string) => key === ODATA_ETAG || SERVER_FIELDS.some((field) => field.toLowerCase() === key.toLowerCase());

function withoutServerFields(record: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (!isServerField(key)) setOwn(result, key, record[key]);
  return result;
}

/** The top-level fields (the server's own aside) whose values differ, or that only one side has. */
function differing(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  keys = new Set([...Object.keys(a), ...Object.keys(b)]),
): string[] {
  return [...keys].filter((key) => !isServerField(key) && (Object.hasOwn(a, key) !== Object.hasOwn(b, key) || !sameValue(a[key], b[key])));
}

/** "a", "a and b", "a, b and c". */
const wordList = (words: readonly string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;

const fieldList = (fields: readonly string[]) => fields.map((field) => printable(field)).join(', ');

/** What the write made of the environment: the record the server answered, else the body sent. */
function became(entry: JournalEntry): Record<string, unknown> | undefined {
  if (isRecord(entry.record)) return entry.record;
  return isRecord(entry.request.body) ? entry.request.body : undefined;
}

function byId(list: readonly unknown[], id: string): Record<string, unknown> | undefined {
  const found = list.find((item) => idOf(item) === id);
  return isRecord(found) ? found : undefined;
}

/**
 * Why the entry cannot be restored as it stands: a `cip api` call (cip knows not what it changed), a write
 * that failed (it changed nothing), one whose outcome is unknown (only with --force).
 */
export function outcomeRefusal(entry: JournalEntry, force: boolean): CipError | undefined {
  const id = printable(entry.entry);
  if (entry.action === 'request') {
    return new UsageError(
      `entry ${id} is a 'cip api' call: cip does not know what it changed, so it cannot restore it`,
      "'cip env restore' undoes env create, update, delete, apply and restore entries",
    );
  }
  if (entry.result === 'failed') {
    return new UsageError(
      `entry ${id} failed (${printable(entry.error ?? 'no answer')}): it changed nothing, so there is nothing to restore`,
    );
  }
  if (entry.result === 'unknown' && !force) {
    return new CipError(
      'rejected',
      `entry ${id} has no known outcome: cip was stopped, or the answer was lost, before the API said whether the ${entry.action} was made`,
      "nothing was sent; check the environment with 'cip env list', and pass --force to restore anyway",
    );
  }
  return undefined;
}

/**
 * The environment's id now: a delete undone by `env restore` created it again under the id the API gave, so an
 * older entry about it (an update, its create) follows it there, through as many re-creations as were made.
 */
export function idNow(entries: readonly JournalEntry[], id: string): string {
  const byEntry = new Map(entries.map((entry) => [entry.entry, entry]));
  // Old id to new, the latest re-creation last (entries are oldest first).
  const moved = new Map<string, string>();
  for (const entry of entries) {
    const undone = entry.restores === undefined ? undefined : byEntry.get(entry.restores);
    if (
      entry.action === 'create' &&
      entry.result === 'done' &&
      entry.answeredId !== null &&
      undone?.action === 'delete' &&
      undone.environment.id !== null
    ) {
      moved.set(undone.environment.id, entry.answeredId);
    }
  }
  const seen = new Set<string>();
  let current = id;
  while (moved.has(current) && !seen.has(current)) {
    seen.add(current);
    current = moved.get(current)!;
  }
  return current;
}

/**
 * The write that undoes the entry, against the list as it is now; `entries` (the journal) lead to an environment
 * that a restore re-created under a new id.
 */
export function planRestore(entry: JournalEntry, list: readonly unknown[], entries: readonly JournalEntry[] = []): RestorePlan {
  const id = printable(entry.entry);
  // What the journal left out or masked because it held a key cannot be put back: never *** as data.
  const inexact = new Set([...(entry.withheld ?? []), ...(entry.masked ?? [])]);
  const needs = (...fields: (keyof typeof FIELD_WORDS)[]) => {
    const missing = fields.filter((field) => inexact.has(field));
    if (missing.length === 0) return;
    throw new UsageError(
      `entry ${id} cannot be restored: its ${wordList(missing.map((field) => FIELD_WORDS[field]))} held one of the keys in use, and the journal never keeps a key`,
      "look at the environment with 'cip env get', and set it back with 'cip env update'",
    );
  };
  if (entry.action !== 'create') needs('request body', 'before', 'environment.id');
  if (entry.action === 'delete') {
    const before = entry.before;
    if (!before) throw new UsageError(`entry ${id} does not hold the environment as it was before the delete`);
    const oldId = idOf(before) ?? entry.environment.id ?? undefined;
    const name = nameOf(before);
    const again = list.find((item) => (oldId !== undefined && idOf(item) === oldId) || (name !== undefined && nameOf(item) === name));
    const drift = again === undefined ? undefined : `an ${environmentLabel(idOf(again), nameOf(again))} exists again`;
    return { kind: 'recreate', oldId, name, body: withoutServerFields(before), drift };
  }
  if (entry.action === 'update') {
    const target = entry.environment.id;
    const before = entry.before;
    const sent = entry.request.body;
    if (target === null || !before || !isRecord(sent))
      throw new UsageError(`entry ${id} does not hold the environment as it was before the update`);
    const current = byId(list, target) ?? byId(list, idNow(entries, target));
    const label = environmentLabel(target, entry.environment.name ?? undefined);
    if (!current) {
      throw new CipError(
        'not-found',
        `the ${label} is gone: it was deleted after entry ${id}`,
        "restore the delete's entry first ('cip env history' lists it)",
      );
    }
    const fields = differing(before, sent);
    // In the order the record had before, then the fields others added since; the update's own additions go.
    const body: Record<string, unknown> = {};
    for (const key of Object.keys(before)) {
      if (fields.includes(key)) setOwn(body, key, before[key]);
      else if (Object.hasOwn(current, key) && key !== ODATA_ETAG) setOwn(body, key, current[key]);
    }
    for (const key of Object.keys(current)) {
      if (!Object.hasOwn(body, key) && !fields.includes(key) && key !== ODATA_ETAG) setOwn(body, key, current[key]);
    }
    const result = became(entry) ?? sent;
    const changed = differing(current, result);
    const drift = changed.length ? `${fieldList(changed)} changed since` : undefined;
    return { kind: 'revert', id: idOf(current) ?? target, name: nameOf(current), body, fields, drift };
  }
  // A create: the id the answer gave the new environment. Its name may have held a key: the id is what counts.
  if (entry.answeredId !== null) needs('answeredId');
  else if (idOf(entry.record) === undefined) needs('environment.id');
  const created = entry.answeredId ?? idOf(entry.record) ?? entry.environment.id;
  if (created === null) throw new UsageError(`entry ${id} holds no id of the environment it created`);
  const current = byId(list, created) ?? byId(list, idNow(entries, created));
  if (!current)
    throw new CipError(
      'not-found',
      `the ${environmentLabel(created, entry.environment.name ?? undefined)} created by entry ${id} is gone already`,
      'nothing was sent',
    );
  const result = became(entry);
  // The server may add fields a create did not send: only those the create set are compared.
  const changed = result ? differing(current, result, new Set(Object.keys(result))) : [];
  return {
    kind: 'remove',
    id: idOf(current) ?? created,
    name: nameOf(current),
    drift: changed.length ? `${fieldList(changed)} changed since` : undefined,
  };
}

/** How `env restore` is found and run, as a question before a delete says it. */
const RESTORE_HOW = "'cip env history', then 'cip env restore ENTRY'";

/**
 * What a question before deleting environments says of undoing it (one sentence, no final period): that each can
 * be created again from the journal (`env restore` POSTs the record as it was, so the API may give it a new id),
 * or that it cannot be undone: the journal is off (--no-journal, CIP_JOURNAL=off), or a record holds one of the
 * run's keys, which the journal never keeps (record.ts). `label` names a record in the sentence; `subject` is what
 * the sentence is about, where it says what can or cannot be undone: "This" and "It"/"Each" by default.
 */
export function undoOfDelete(
  ctx: Context,
  records: readonly { label: string; record: Record<string, unknown> }[],
  subject: { cannot: string; can: string } = { cannot: 'This', can: records.length === 1 ? 'It' : 'Each' },
): string {
  const holds = (count: number) => `${count === 1 ? 'it holds' : 'they hold'} one of your keys, which the journal never keeps`;
  if (!journalOn(ctx)) return `${subject.cannot} cannot be undone: the journal is off (--no-journal or CIP_JOURNAL=off)`;
  const text = (record: Record<string, unknown>) => stringifyExactJson(record);
  const lost = records.filter(({ record }) => ctx.redact(text(record)) !== text(record)).map(({ label }) => label);
  if (lost.length === records.length) return `${subject.cannot} cannot be undone: ${holds(lost.length)}`;
  const can = `${subject.can} can be re-created from the journal (${RESTORE_HOW}), perhaps with a new id`;
  return lost.length ? `${can}, but not ${lost.join(', ')}: ${holds(lost.length)}` : can;
}
