// What tells which version of an environment a record (or a file made from one) shows. Services write it in
// different places: an entity-tag of the item's own (the ETag of GET {base}/Environments/{id}, or OData's
// `@odata.etag` on each item), a version field (EF Core's `rowVersion`, Identity's `concurrencyStamp`), or a
// time the server sets on every write (`updatedAt`, `modifiedDate`, `lastModified`, ...). A file that carries
// one of them says which version it was written from, so an update from it can be refused when the environment
// changed since (docs/concurrency.md, "Files").
import { strongEtag } from '../../api/environments.js';
import { isRecord, setOwn } from '../../json/record.js';
import { sameValue } from './plan.js';

/** OData's annotation for an item's entity-tag: cip writes the item's ETag there when the record has no version. */
export const ODATA_ETAG = '@odata.etag';

/**
 * The fields that tell a record's version, in any letter case: entity-tags and version stamps first, then the
 * modification times ASP.NET Core and EF Core services commonly write (what-we-know.md).
 */
export const VERSION_FIELDS = [
  ODATA_ETAG,
  'etag',
  '_etag',
  'rowVersion',
  'concurrencyStamp',
  'modifiedDate',
  'updatedAt',
  'lastModified',
  'modifiedAt',
  'updatedDate',
  'lastModifiedDate',
  'lastModifiedAt',
  'lastUpdated',
  'lastUpdatedAt',
  'modifiedOn',
  'updatedOn',
  'lastModifiedOn',
  'dateModified',
];
const VERSION_KEYS = new Set(VERSION_FIELDS.map((field) => field.toLowerCase()));

/** Whether a field (any letter case) is one that tells a record's version. */
export function isVersionField(field: string): boolean {
  return VERSION_KEYS.has(field.toLowerCase());
}

/** The record's own keys that tell its version, in the record's order. */
export function versionKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter(isVersionField);
}

/** The strong entity-tag in a record's `@odata.etag`, if it has one (a weak tag never matches If-Match). */
export function odataTag(record: unknown): string | undefined {
  const value = isRecord(record) ? record[ODATA_ETAG] : undefined;
  return typeof value === 'string' ? strongEtag(value) : undefined;
}

/** The opaque part of an entity-tag, weak or strong (`W/"x"` and `"x"` are both `x`); undefined if it is none. */
function opaqueTag(tag: string): string | undefined {
  return /^\s*(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*$/.exec(tag)?.[1];
}

/** RFC 9110's weak comparison: the same opaque tag, whether either is weak. Tells "changed", never sent. */
function sameTagWeakly(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return sameValue(a, b);
  const [left, right] = [opaqueTag(a), opaqueTag(b)];
  return left !== undefined && left === right;
}

/**
 * The record as `env get` shows it: with the item's ETag (from GET by id) as its `@odata.etag` when the record
 * carries no version of its own, so that a file written from it says which version it shows.
 */
export function withItemTag(record: Record<string, unknown>, etag: string | undefined): Record<string, unknown> {
  if (etag === undefined || opaqueTag(etag) === undefined || versionKeys(record).length) return record;
  const shown: Record<string, unknown> = {};
  setOwn(shown, ODATA_ETAG, etag);
  for (const key of Object.keys(record)) setOwn(shown, key, record[key]);
  return shown;
}

/** The payload without `@odata.etag`: an annotation about the record, which goes as If-Match, never as data. */
export function withoutItemTag(payload: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(payload, ODATA_ETAG)) return payload;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) if (key !== ODATA_ETAG) setOwn(result, key, payload[key]);
  return result;
}

/** What a version check found: the version fields that moved, and whether anything could be compared. */
export interface VersionCheck {
  /** The payload's version fields that the environment now holds another value for. */
  moved: { field: string; then: unknown; now: unknown }[];
  /** Whether the payload carried a version the environment could be compared on. */
  compared: boolean;
}

/**
 * Compares the versions a payload carries (a file written from the environment) with the environment as it is
 * now: `current`, the record read just now, and `currentTag`, the item's ETag when GET by id gave one. A field
 * the environment no longer has cannot be compared.
 */
export function checkVersions(payload: Record<string, unknown>, current: Record<string, unknown>, currentTag?: string): VersionCheck {
  const check: VersionCheck = { moved: [], compared: false };
  const fields = new Map(Object.keys(current).map((key) => [key.toLowerCase(), key]));
  for (const field of versionKeys(payload)) {
    const own = fields.get(field.toLowerCase());
    const now = own !== undefined ? current[own] : field === ODATA_ETAG ? currentTag : undefined;
    if (now === undefined) continue;
    check.compared = true;
    const then = payload[field];
    const same = field === ODATA_ETAG || field.toLowerCase() === 'etag' ? sameTagWeakly(then, now) : sameValue(then, now);
    if (!same) check.moved.push({ field, then, now });
  }
  return check;
}
