// The merge that update, apply and create --if-exists update share: the record as the API holds it, with the
// fields the user declared set over it. The API replaces the whole record on PUT, so everything else must go
// back exactly as it was read.
import { isRecord, setOwn } from '../../json/record.js';

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
