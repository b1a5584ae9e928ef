// The merge that update, apply and create --if-exists update share: the record as the API holds it, with the
// fields the user declared set over it. The API replaces the whole record on PUT, so everything else must go
// back exactly as it was read.
import { UsageError } from '../../errors.js';
import { isRecord, setOwn } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';
import { scalarText } from './target.js';

/** The record's own key for a field, in any letter case (the API may spell it `Name` where the user says `name`). */
export function keyFor(record: Record<string, unknown>, field: string): string | undefined {
  if (Object.hasOwn(record, field)) return field;
  return Object.keys(record).find((key) => key.toLowerCase() === field.toLowerCase());
}

/**
 * The current record with the payload's top-level fields over it, in the record's order and spelling (new
 * fields at the end). Every other field is sent back exactly as it was read.
 */
export function mergeRecord(current: Record<string, unknown>, payload: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(current)) setOwn(merged, key, current[key]);
  for (const key of Object.keys(payload)) setOwn(merged, keyFor(merged, key) ?? key, payload[key]);
  return merged;
}

/**
 * What apply sends: like mergeRecord, but a declared object is merged into the server's object field by field,
 * so `settings: {retention: 7}` changes the retention and keeps the other settings the file does not declare.
 */
export function mergeDeclared(current: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(current)) setOwn(merged, key, current[key]);
  for (const key of Object.keys(declared)) {
    const own = keyFor(merged, key) ?? key;
    const old = merged[own];
    const next = declared[key];
    setOwn(merged, own, isRecord(old) && isRecord(next) ? mergeDeclared(old, next) : next);
  }
  return merged;
}

/** keepMasked's walk: `path` is where `declared` sits, `kept` collects what was put back. */
function unmask(declared: unknown, stored: unknown, redact: (text: string) => string, path: string, kept: string[]): unknown {
  if (typeof declared === 'string') {
    if (typeof stored !== 'string' || stored === declared || redact(stored) !== declared) return declared;
    kept.push(path);
    return stored;
  }
  const before = kept.length;
  if (Array.isArray(declared) && Array.isArray(stored)) {
    const items: readonly unknown[] = stored;
    const result = declared.map((item: unknown, index) => {
      const same = index < items.length ? unmask(item, items[index], redact, `${path}[${index}]`, kept) : item;
      if (same !== item || typeof item !== 'string') return same;
      const shownSo = new Set(items.filter((old) => typeof old === 'string' && old !== item && redact(old) === item));
      if (shownSo.size !== 1) return item;
      kept.push(`${path}[${index}]`);
      return [...shownSo][0];
    });
    return kept.length > before ? result : declared;
  }
  if (!isRecord(declared) || !isRecord(stored)) return declared;
  const result: Record<string, unknown> = {};
  for (const field of Object.keys(declared)) {
    const value = declared[field];
    let own = keyFor(stored, field);
    // A field whose name holds a key is written with the name masked: the one stored name shown so is meant.
    if (own === undefined) {
      const shownSo = Object.keys(stored).filter((key) => key !== field && redact(key) === field);
      if (shownSo.length === 1) {
        own = shownSo[0]!;
        kept.push(`${path}${path ? '.' : ''}${field}`);
      }
    }
    setOwn(result, own ?? field, own === undefined ? value : unmask(value, stored[own], redact, `${path}${path ? '.' : ''}${own}`, kept));
  }
  return kept.length > before ? result : declared;
}

/**
 * The declared fields with every masked value put back: a string that equals the stored value as cip prints
 * it (its keys as ***), and differs from it, stands for the stored value, as `env export` or `env get` wrote
 * it. So a file cip wrote, edited in another field and sent back, sends the key exact, never ***. Lists are
 * matched item by item, or, when their items moved, by the one stored item that prints as the file's. `kept`
 * names the fields put back (`connection`, `settings.secret`, `tags[1]`).
 */
export function keepMasked(
  declared: Record<string, unknown>,
  stored: Record<string, unknown>,
  redact: (text: string) => string,
): { value: Record<string, unknown>; kept: string[] } {
  const kept: string[] = [];
  return { value: unmask(declared, stored, redact, '', kept) as Record<string, unknown>, kept };
}

/** What was kept, said to people: "Kept a value shown masked (***) as the server holds it (connection)." */
export function keptText(kept: readonly string[], where = kept.join(', ')): string {
  const one = kept.length === 1;
  return `Kept ${one ? 'a value' : `${kept.length} values`} shown masked (***) as the server holds ${one ? 'it' : 'them'} (${where}).`;
}

/** Whose id a refusal names, and what the user can do. */
export interface IdRefusal {
  /** "the payload's" */
  owner: string;
  hint: string;
}

const PAYLOAD_REFUSAL: IdRefusal = {
  owner: "the payload's",
  hint: 'nothing was sent; remove the id from the payload, or update the environment it belongs to',
};

/**
 * The payload to write over the environment `id`. One that carries another environment's id (`id`, `Id`,
 * `ID`) would write that one's data over this one (the list | jq | update pipe with the wrong element): it is
 * refused. A null id counts as no id: it is left out, so a merge keeps the record's own id.
 */
export function payloadFor(payload: Record<string, unknown>, id: string, refusal: IdRefusal = PAYLOAD_REFUSAL): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    const value = payload[key];
    if (key.toLowerCase() === 'id' && value === null) continue;
    if (key.toLowerCase() === 'id' && scalarText(value) !== id) {
      const given = scalarText(value);
      throw new UsageError(
        `${refusal.owner} ${printable(key)} (${given === undefined ? 'not a string or number' : `'${printable(given)}'`}) is not the environment being updated ('${printable(id)}')`,
        refusal.hint,
      );
    }
    setOwn(result, key, value);
  }
  return result;
}
