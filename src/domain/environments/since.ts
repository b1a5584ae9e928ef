// What an exported file says of the environments it was read from, so that `env apply` never writes over a
// change made after the export (docs/concurrency.md, "Files"). `env export` writes, beside `environments:`, an
// `exported:` section: where it read (base URL and enterprise) and, for each environment by id, a short digest
// of each field it wrote. Apply compares three versions of each field the file declares: as exported (the
// digest), as in the file, as on the server now. A field the server changed since, which the file would set
// to something else, is a conflict: the file would undo someone's change. A field only the file changed is the
// user's edit, never a conflict. An environment deleted since (the file would create it again), renamed since,
// or created since (--prune would delete what the file never saw) is one too.
import { createHash } from 'node:crypto';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import type { Context } from '../../context.js';
import { CipError, UsageError } from '../../errors.js';
import { isExactNumber } from '../../json/exact.js';
import { isRecord, setOwn } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';
import { keyFor } from './merge.js';
import { canonicalNumber, fieldOf, keyOf, type Plan } from './plan.js';
import { environmentLabel, idOf } from './target.js';
import { shown } from './conflict.js';
import { checkVersions } from './version.js';

/** The section's name in an exported file. */
export const EXPORTED = 'exported';
/** How much of a field's SHA-256 is kept: 48 bits, enough to tell a change, short enough for a file in git. */
const DIGEST_CHARS = 12;

/** JSON with object keys sorted and numbers by value: two values that mean the same have one text. */
function canonicalJson(value: unknown): string {
  if (typeof value === 'number' || isExactNumber(value)) return canonicalNumber(String(value));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  // undefined (a field that is not there) has no JSON: it is told apart from null.
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** A field's value as its digest. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, DIGEST_CHARS);
}

/** Where a run reads and writes: the base URL, and the enterprise it acts in where the credential says. */
export function placeOf(settings: ResolvedSettings): { from: string; enterprise: string | null } {
  const { credentials } = settings;
  const enterprise = credentials.kind === 'api-key' ? credentials.enterpriseId : (credentials.claims.enterprise ?? null);
  return { from: settings.baseUrl, enterprise };
}

/** The `exported:` section for the records an export writes, each without the fields it leaves out. */
export function exportedSection(
  settings: ResolvedSettings,
  written: readonly { id: string | undefined; record: unknown }[],
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const { id, record } of written) {
    if (id === undefined || !isRecord(record)) continue;
    const digests: Record<string, string> = {};
    for (const field of Object.keys(record)) setOwn(digests, field, digestOf(record[field]));
    setOwn(fields, id, digests);
  }
  return { ...placeOf(settings), fields };
}

/** The section as apply reads it. */
export interface Exported {
  from: string;
  enterprise: string | null;
  /** By id: each field's digest, by the field's name as exported. */
  fields: Map<string, Record<string, string>>;
}

/** Reads the `exported:` section of a file of environments; undefined when it has none. */
export function readExported(document: unknown, source: string): Exported | undefined {
  if (!isRecord(document)) return undefined;
  const own = keyFor(document, EXPORTED);
  if (own === undefined) return undefined;
  const section = document[own];
  const broken = (why: string) =>
    new UsageError(
      `--file ${source}: '${EXPORTED}' is not what 'cip env export' writes (${why})`,
      `nothing was changed; export again, or remove '${EXPORTED}' to apply without the check for changes made since`,
    );
  if (!isRecord(section)) throw broken('not a map');
  const from = fieldOf(section, 'from');
  const enterprise = fieldOf(section, 'enterprise') ?? null;
  const fields = fieldOf(section, 'fields');
  if (typeof from !== 'string') throw broken("'from' is not a URL");
  if (enterprise !== null && typeof enterprise !== 'string') throw broken("'enterprise' is not an id");
  if (!isRecord(fields)) throw broken("'fields' is not a map");
  const byId = new Map<string, Record<string, string>>();
  for (const id of Object.keys(fields)) {
    const digests = fields[id];
    if (!isRecord(digests) || !Object.values(digests).every((digest) => typeof digest === 'string')) {
      throw broken(`the fields of '${printable(id)}' are not digests`);
    }
    byId.set(id, digests as Record<string, string>);
  }
  return { from, enterprise, fields: byId };
}

/** Whether the file was exported from where this run acts: otherwise its digests say nothing of these. */
export function exportedHere(exported: Exported, settings: ResolvedSettings): boolean {
  const here = placeOf(settings);
  const trim = (url: string) => url.replace(/\/+$/, '').toLowerCase();
  if (trim(exported.from) !== trim(here.from)) return false;
  return exported.enterprise === null || here.enterprise === null || exported.enterprise.toLowerCase() === here.enterprise.toLowerCase();
}

/** One environment the file would change although it changed since the export. */
export interface SinceConflict {
  key: string;
  id: string | undefined;
  /** What happened, for people: "owner "alice" → "bob" since the export". */
  reason: string;
  /**
   * Whether apply refuses it: an undone change or a delete of something changed or new. Creating again what was
   * deleted since is only said (a file kept as a backup is applied for exactly that).
   */
  refused: boolean;
}

/** A field's digest as exported, the field named in any letter case. */
function exportedDigest(digests: Record<string, string>, field: string): string | undefined {
  const own = keyFor(digests, field);
  return own === undefined ? undefined : digests[own];
}

/** The declared fields that changed on the server since the export, in a way the file does not agree with. */
function fieldConflicts(
  digests: Record<string, string>,
  declared: Record<string, unknown>,
  current: Record<string, unknown>,
  redact: (text: string) => string,
): string[] {
  const parts: string[] = [];
  for (const field of Object.keys(declared)) {
    const then = exportedDigest(digests, field);
    const own = keyFor(current, field);
    const now = own === undefined ? undefined : digestOf(current[own]);
    if (now === then) continue;
    const mine = digestOf(declared[field]);
    if (mine === now) continue;
    const name = printable(redact(field));
    const onServer = own === undefined ? 'removed' : shown(current[own], redact);
    parts.push(
      mine === then
        ? `${name} ${shown(declared[field], redact)} → ${onServer} (the file would put back ${shown(declared[field], redact)})`
        : `${name} changed both in the file (${shown(declared[field], redact)}) and on the server (${onServer})`,
    );
  }
  return parts;
}

/** Fields whose digest differs between the export and now, by name: what --prune would delete unseen. */
function changedFields(digests: Record<string, string>, current: Record<string, unknown>, ignored: readonly string[]): string[] {
  const skip = new Set(ignored.map((field) => field.toLowerCase()));
  const names = new Set([...Object.keys(digests), ...Object.keys(current).filter((field) => !skip.has(field.toLowerCase()))]);
  return [...names].filter((field) => {
    const own = keyFor(current, field);
    return exportedDigest(digests, field) !== (own === undefined ? undefined : digestOf(current[own]));
  });
}

export interface SinceOptions {
  key: string;
  ignored: readonly string[];
  redact: (text: string) => string;
  /** The server's records, by id, as the plan read them. */
  server: readonly unknown[];
}

/**
 * What the plan would do to environments that changed since the file was exported (`exported`), and to those a
 * file record's own version fields (an `updatedAt` it carries) say changed. Empty when nothing did.
 */
export function conflictsSince(plan: Plan, exported: Exported | undefined, options: SinceOptions): SinceConflict[] {
  const { key, redact } = options;
  const conflicts: SinceConflict[] = [];
  const onServer = new Map<string, Record<string, unknown>>();
  for (const record of options.server) {
    const id = idOf(record);
    if (id !== undefined && isRecord(record)) onServer.set(id, record);
  }
  for (const update of plan.update) {
    const versions = checkVersions(update.file, update.current);
    if (versions.moved.length) {
      const moved = versions.moved.map(({ field, then, now }) => `${printable(field)} ${shown(then, redact)} → ${shown(now, redact)}`);
      conflicts.push({ key: update.key, id: update.id, reason: `changed since the file was written: ${moved.join(', ')}`, refused: true });
      continue;
    }
    const digests = exported?.fields.get(update.id);
    if (digests === undefined) continue;
    const parts = fieldConflicts(digests, update.declared, update.current, redact);
    if (parts.length)
      conflicts.push({ key: update.key, id: update.id, reason: `changed since the export: ${parts.join(', ')}`, refused: true });
  }
  if (exported === undefined) return conflicts;
  // What the export holds, by the digest of each environment's key field: a file record whose key has one.
  const exportedByKey = new Map<string, string>();
  for (const [id, digests] of exported.fields) {
    const digest = exportedDigest(digests, key);
    if (digest !== undefined) exportedByKey.set(digest, id);
  }
  for (const create of plan.create) {
    const id = exportedByKey.get(digestOf(fieldOf(create.file, key)));
    if (id === undefined) continue;
    const now = onServer.get(id);
    const renamed = now === undefined ? undefined : keyOf(now, key);
    conflicts.push({
      key: create.key,
      id,
      reason:
        renamed === undefined
          ? 'deleted since the export: applying creates it again'
          : `renamed since the export (its ${printable(key)} is now '${printable(renamed)}'): applying creates another`,
      refused: false,
    });
  }
  for (const remove of plan.delete) {
    const digests = exported.fields.get(remove.id);
    const now = onServer.get(remove.id);
    if (digests === undefined) {
      conflicts.push({
        key: remove.key,
        id: remove.id,
        reason: 'created since the export: --prune would delete what the file never saw',
        refused: true,
      });
      continue;
    }
    const changed = now === undefined ? [] : changedFields(digests, now, options.ignored);
    if (changed.length) {
      conflicts.push({
        key: remove.key,
        id: remove.id,
        reason: `changed since the export (${changed.map((field) => printable(redact(field))).join(', ')}): --prune would delete it unseen`,
        refused: true,
      });
    }
  }
  return conflicts;
}

/** "environment 'staging' (7d1c…): changed since the export: …" */
export function conflictLine(conflict: SinceConflict, keyField: string): string {
  const label =
    keyField.toLowerCase() === 'name' ? environmentLabel(conflict.id, conflict.key) : `${printable(keyField)} '${printable(conflict.key)}'`;
  return `${label}: ${conflict.reason}`;
}

/** Apply refused: exit 6, each conflict said, nothing written. */
export function sinceError(conflicts: readonly SinceConflict[], keyField: string): CipError {
  const hint = 'nothing was changed; export again and redo your edits, or pass --force to apply the file anyway';
  if (conflicts.length === 1)
    return new CipError(
      'rejected',
      `the file would undo a change made since it was written: ${conflictLine(conflicts[0]!, keyField)}`,
      hint,
    );
  return new CipError(
    'rejected',
    `the file would undo changes made since it was written, to ${conflicts.length} environments (listed above)`,
    hint,
  );
}

/**
 * The conflicts of a plan with the changes made since its file was written: by the file's `exported:` section
 * where it was exported from where this run acts, and by the versions its records carry. Where nothing can tell,
 * --verbose says so; a file exported elsewhere is said to people, since its digests are then not used.
 */
export function planConflicts(
  ctx: Context,
  plan: Plan,
  exported: Exported | undefined,
  settings: ResolvedSettings,
  options: Omit<SinceOptions, 'redact'>,
): SinceConflict[] {
  let used = exported;
  if (exported === undefined) {
    ctx.detail(
      `The file has no '${EXPORTED}:' section ('cip env export' writes one): cip cannot tell whether the environments changed since it was written, except by a version a record carries (docs/concurrency.md).`,
    );
  } else if (!exportedHere(exported, settings)) {
    const where = `${printable(exported.from)}${exported.enterprise === null ? '' : `, enterprise ${printable(exported.enterprise)}`}`;
    ctx.io.info(`The file was exported from ${where}, not from where this run acts: what it says was read there is not compared here.`);
    used = undefined;
  }
  return conflictsSince(plan, used, { ...options, redact: ctx.io.redact });
}
