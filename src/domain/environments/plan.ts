// Environments as code: the file that says what should exist, and the plan that says what would change.
// A plan is computed from one list read. It compares only the fields the file declares (the server's other
// fields are left alone), never the fields the server manages (id, timestamps), and deletes only with --prune.
import { UsageError } from '../../errors.js';
import { isExactNumber, parseExactJson, stringifyExactJson } from '../../json/exact.js';
import { isRecord, setOwn } from '../../json/record.js';
import { redactData, type Output, type PlanStyles } from '../../output/writer.js';
import { printable } from '../../text/sanitize.js';
import { keepMasked, keptText, keyFor, mergeDeclared, payloadFor } from './merge.js';
import { looksLikeYaml, type ReadSource } from './payload.js';
import { distinctById, sameIdConflict } from './resolve.js';
import { idOf, nameOf, scalarText } from './target.js';

/** Fields the server sets and a file cannot: left out of exports, never compared, never sent. */
export const SERVER_FIELDS = ['id', 'createdAt', 'updatedAt'];

/** A field of a record in any letter case. */
export function fieldOf(record: Record<string, unknown>, field: string): unknown {
  const key = keyFor(record, field);
  return key === undefined ? undefined : record[key];
}

/** The record's key value as text (numbers with their digits), or undefined when it has none. */
export function keyOf(record: unknown, key: string): string | undefined {
  if (!isRecord(record)) return undefined;
  const value = scalarText(fieldOf(record, key));
  return value === undefined || value === '' ? undefined : value;
}

/** The record without the ignored fields (any letter case). */
export function withoutFields(record: Record<string, unknown>, ignored: readonly string[]): Record<string, unknown> {
  const lower = new Set(ignored.map((field) => field.toLowerCase()));
  const result: Record<string, unknown> = {};
  for (const field of Object.keys(record)) if (!lower.has(field.toLowerCase())) setOwn(result, field, record[field]);
  return result;
}

/** A file of environments, parsed: YAML or JSON, numbers exact. `source` names it in messages. */
export async function readDocument(read: ReadSource, path: string): Promise<{ document: unknown; source: string }> {
  const text = await read(path);
  const source = path === '-' ? 'stdin' : printable(path);
  if (looksLikeYaml(path, text)) {
    const { parseExactYaml } = await import('../../json/yaml.js');
    try {
      return { document: parseExactYaml(text), source };
    } catch (error) {
      throw new UsageError(`--file ${source} is not valid YAML${error instanceof SyntaxError ? `: ${printable(error.message, 240)}` : ''}`);
    }
  }
  try {
    return { document: parseExactJson(text), source };
  } catch (error) {
    throw new UsageError(`--file ${source} is not valid JSON${error instanceof SyntaxError ? `: ${printable(error.message, 120)}` : ''}`);
  }
}

/** The records of `environments:` (a list of records) in a file's document; every record must have the key field. */
export function desiredIn(document: unknown, source: string, key: string): Record<string, unknown>[] {
  const records = isRecord(document) ? fieldOf(document, 'environments') : document;
  if (!Array.isArray(records)) {
    throw new UsageError(`--file ${source} must hold 'environments:' with a list of environments`, "'cip env export' writes one");
  }
  return records.map((record: unknown, index) => {
    if (!isRecord(record)) throw new UsageError(`--file ${source}: environments[${index}] is not an object`);
    if (keyOf(record, key) === undefined) {
      throw new UsageError(
        `--file ${source}: environments[${index}] has no '${printable(key)}'`,
        'every environment needs the key field (--key)',
      );
    }
    return record;
  });
}

/** Reads `environments:` (a list of records) from a YAML or JSON file; every record must have the key field. */
export async function readDesired(read: ReadSource, path: string, key: string): Promise<Record<string, unknown>[]> {
  const { document, source } = await readDocument(read, path);
  return desiredIn(document, source, key);
}

/** Numbers compare by value: 30, 30.0 and 3e1 are the same number, whatever their spelling. */
export function canonicalNumber(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const fraction = match[3] ?? '';
  let digits = `${match[2]!}${fraction}`.replace(/^0+/, '');
  let exponent = Number(match[4] ?? 0) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent++;
  }
  return `${match[1]!}${digits}e${exponent}`;
}

/** Whether two JSON values are equal: numbers by value, objects whatever their key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  const aNumber = typeof a === 'number' || isExactNumber(a);
  const bNumber = typeof b === 'number' || isExactNumber(b);
  if (aNumber || bNumber) return aNumber && bNumber && canonicalNumber(String(a)) === canonicalNumber(String(b));
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
  }
  return a === b;
}

/**
 * The declared fields whose values differ from the server's, by path (`settings.retention`). Objects are
 * compared field by field, only on the fields the file declares; lists and other values as a whole.
 */
function collectChanges(
  current: Record<string, unknown>,
  declared: Record<string, unknown>,
  prefix: string,
  changes: Record<string, Change>,
): void {
  for (const field of Object.keys(declared)) {
    const serverField = keyFor(current, field);
    const next = declared[field];
    const path = `${prefix}${serverField ?? field}`;
    if (serverField === undefined) {
      setOwn(changes, path, { new: next });
      continue;
    }
    const old = current[serverField];
    if (isRecord(old) && isRecord(next)) collectChanges(old, next, `${path}.`, changes);
    else if (!sameValue(old, next)) setOwn(changes, path, { old, new: next });
  }
}

export interface Change {
  /** Absent when the server's record does not have the field. */
  old?: unknown;
  new: unknown;
}

export interface PlannedCreate {
  key: string;
  /** What would be sent: the file's record without the server's fields. */
  record: Record<string, unknown>;
  /** The record as the file has it. */
  file: Record<string, unknown>;
}

export interface PlannedUpdate {
  key: string;
  id: string;
  changes: Record<string, Change>;
  /** The record as the server holds it, and the merged one that would be sent. */
  current: Record<string, unknown>;
  merged: Record<string, unknown>;
  /** The fields the file declares, as they would be set (masked values put back). */
  declared: Record<string, unknown>;
  /** The record as the file has it. */
  file: Record<string, unknown>;
}

export interface PlannedDelete {
  key: string;
  id: string;
  name: string | undefined;
}

/** A record whose file shows stored values masked (***): those are kept as the server holds them. */
export interface KeptMasked {
  key: string;
  /** The fields' paths, as changes name them (`settings.connection`, `tags[0]`). */
  fields: string[];
}

export interface Plan {
  create: PlannedCreate[];
  update: PlannedUpdate[];
  delete: PlannedDelete[];
  kept: KeptMasked[];
  /** Without --prune: the environments on the server the file does not list, which are left alone. */
  unlisted: PlannedDelete[];
}

export interface PlanOptions {
  key: string;
  ignored: readonly string[];
  prune: boolean;
  /** How cip prints a value (keys as ***): what `env export` wrote for a stored value that holds a key. */
  redact: (text: string) => string;
}

/** Groups records by key value; the groups with more than one record. */
function duplicates(records: readonly unknown[], key: string): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  records.forEach((record, index) => {
    const value = keyOf(record, key);
    if (value !== undefined) positions.set(value, [...(positions.get(value) ?? []), index]);
  });
  return new Map([...positions].filter(([, at]) => at.length > 1));
}

export function computePlan(desired: readonly Record<string, unknown>[], listed: readonly unknown[], options: PlanOptions): Plan {
  const { key, ignored, prune, redact } = options;
  // One id is one environment, even when the list's pages gave it twice.
  const server = distinctById(listed);
  const inFile = duplicates(desired, key);
  if (inFile.size) {
    const [value, at] = [...inFile][0]!;
    throw new UsageError(
      `the file declares ${printable(key)} '${printable(value)}' ${at.length} times (environments[${at.join('], environments[')}])`,
      'nothing was changed; each environment must appear once',
    );
  }
  const declaredKeys = new Set(desired.map((record) => keyOf(record, key)!));
  const onServer = duplicates(server, key);
  for (const [value, at] of onServer) {
    if (prune || declaredKeys.has(value)) {
      const conflict = sameIdConflict(at.map((index) => server[index]));
      if (conflict) throw conflict;
      const ids = at.map((index) => printable(idOf(server[index]) ?? '(no id)')).join(', ');
      throw new UsageError(
        `${at.length} environments on the server have ${printable(key)} '${printable(value)}': ${ids}`,
        'nothing was changed; give them distinct values, or choose another --key',
      );
    }
  }
  const byKey = new Map<string, Record<string, unknown>>();
  for (const record of server) {
    const value = keyOf(record, key);
    if (value !== undefined && isRecord(record)) byKey.set(value, record);
  }

  const plan: Plan = { create: [], update: [], delete: [], kept: [], unlisted: [] };
  // An item's `@odata.etag` is an annotation of the version it was read at, never a field to set.
  const left = [...ignored, '@odata.etag'];
  for (const record of desired) {
    const value = keyOf(record, key)!;
    const current = byKey.get(value);
    if (!current) {
      plan.create.push({ key: value, record: withoutFields(record, left), file: record });
      continue;
    }
    const { value: declared, kept } = keepMasked(withoutFields(record, left), current, redact);
    if (kept.length) plan.kept.push({ key: value, fields: kept });
    const id = idOf(current);
    if (id === undefined) throw new UsageError(`the environment with ${printable(key)} '${printable(value)}' has no id on the server`);
    // As in 'env update': a declared id must be this environment's, and a null one is no id.
    const own = payloadFor(declared, id, {
      owner: `for ${printable(key)} '${printable(value)}', the file's`,
      hint: 'nothing was changed; remove the id from the file, or give it the id the environment has',
    });
    const changes: Record<string, Change> = {};
    collectChanges(current, own, '', changes);
    // The declared fields over the record as the server holds it; everything else is sent back as it was.
    if (Object.keys(changes).length) {
      const merged = withoutFields(mergeDeclared(current, own), ['@odata.etag']);
      plan.update.push({ key: value, id, changes, current, merged, declared: own, file: record });
    }
  }
  for (const record of server) {
    const value = keyOf(record, key);
    const id = idOf(record);
    // A record without the key cannot be declared, so it is never pruned.
    if (value === undefined || id === undefined || declaredKeys.has(value)) continue;
    (prune ? plan.delete : plan.unlisted).push({ key: value, id, name: nameOf(record) });
  }
  return plan;
}

export function planSize(plan: Plan): number {
  return plan.create.length + plan.update.length + plan.delete.length;
}

/** What a plan kept of the stored values the file shows masked, said to people; undefined when nothing. */
export function keptNote(plan: Plan, keyField: string): string | undefined {
  const fields = plan.kept.flatMap(({ fields }) => fields);
  if (!fields.length) return undefined;
  const where = plan.kept.map(
    ({ key, fields }) => `${printable(keyField)} '${printable(key)}': ${fields.map((field) => printable(field)).join(', ')}`,
  );
  return keptText(fields, where.join('; '));
}

/** Without --prune, what the plan leaves alone on the server; undefined when the file lists every environment. */
export function unlistedNote(plan: Plan): string | undefined {
  const count = plan.unlisted.length;
  if (!count) return undefined;
  const what = count === 1 ? '1 environment on the server is' : `${count} environments on the server are`;
  return `${what} not in the file and left alone; --prune would delete ${count === 1 ? 'it' : 'them'}.`;
}

/** "1 to create, 2 to update, 0 to delete" */
export function planCounts(plan: Plan): string {
  return `${plan.create.length} to create, ${plan.update.length} to update, ${plan.delete.length} to delete`;
}

/** The plan as data: what `diff` prints in a pipe. */
export function planData(plan: Plan): unknown {
  return {
    create: plan.create.map(({ record }) => record),
    update: plan.update.map(({ key, id, changes }) => ({ key, id, changes })),
    delete: plan.delete.map(({ key, id, name }) => ({ key, id, ...(name === undefined ? {} : { name }) })),
    unlisted: plan.unlisted.map(({ key, id, name }) => ({ key, id, ...(name === undefined ? {} : { name }) })),
  };
}

/**
 * The plan for people: + create, ~ update with each field's old → new, - delete. Values are redacted before
 * they are cut short, so the cut cannot split a key.
 */
export function planLines(plan: Plan, keyField: string, style: PlanStyles, io: Pick<Output, 'redact'>): string[] {
  const compact = (value: unknown) => printable(stringifyExactJson(redactData(io, value)), 200);
  const lines: string[] = [];
  const named = (value: string) => `${printable(keyField)} '${printable(value)}'`;
  for (const { key, record } of plan.create) {
    lines.push(style.add(`+ create ${named(key)}`));
    for (const field of Object.keys(record)) lines.push(style.add(`    ${printable(field)}: ${compact(record[field])}`));
  }
  for (const { key, id, changes } of plan.update) {
    lines.push(style.change(`~ update ${named(key)} (${printable(id)})`));
    for (const [field, change] of Object.entries(changes)) {
      const old = 'old' in change ? compact(change.old) : '(not set)';
      lines.push(style.change(`    ${printable(field)}: ${old} → ${compact(change.new)}`));
    }
  }
  for (const { key, id } of plan.delete) lines.push(style.remove(`- delete ${named(key)} (${printable(id)})`));
  return lines;
}
