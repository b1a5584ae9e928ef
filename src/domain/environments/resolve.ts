// Ids or names to environments, from one list read: an argument equal to an item's id is that item;
// otherwise the item whose name (`name`, `Name`, ...) equals it exactly. Two environments are never guessed
// between: the user is shown the ids and nothing is sent. One id is one environment: a record a paged list
// gives twice is one match. An argument is only looked up (a name may be '..'); the request path is built
// from the id found, and an id that would change that path is refused (checkAddressable).
import { checkEnvironmentId, type EnvironmentsApi, type ListRead } from '../../api/environments.js';
import type { Context } from '../../context.js';
import { CipError, ProtocolError, UsageError } from '../../errors.js';
import { stringifyExactJson } from '../../json/exact.js';
import { isRecord } from '../../json/record.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { environmentLabel, idOf, nameOf } from './target.js';

export interface ResolvedEnvironment {
  /** The argument as given. */
  argument: string;
  id: string;
  name: string | undefined;
  /** The record as the list gave it. */
  record: Record<string, unknown>;
}

export interface Resolution {
  found: ResolvedEnvironment[];
  /** Arguments that are no environment's id or name, in the order given. */
  missing: string[];
}

/**
 * The records without the repeats of one: pages that shift while they are read (a record created or deleted
 * meanwhile) list a record twice. Records that share an id but differ are all kept, for sameIdConflict.
 */
export function distinctById(items: readonly unknown[]): unknown[] {
  const seen = new Map<string, string[]>();
  return items.filter((item) => {
    const id = idOf(item);
    if (id === undefined) return true;
    const text = stringifyExactJson(item);
    const texts = seen.get(id) ?? [];
    if (texts.includes(text)) return false;
    seen.set(id, [...texts, text]);
    return true;
  });
}

/**
 * Two different records under one id: the list contradicts itself (the environment changed between the pages
 * that gave it), and which one is current cannot be told. A broken answer (exit 7), not a choice to offer.
 */
export function sameIdConflict(records: readonly unknown[]): ProtocolError | undefined {
  const ids = new Set(records.map(idOf));
  const [id] = ids;
  if (records.length < 2 || ids.size !== 1 || id === undefined) return undefined;
  return new ProtocolError(
    `the list gives ${records.length} different records with the id '${printable(id)}', so cip cannot tell which is current`,
    'nothing was sent; try again',
  );
}

function matchesOf(items: readonly unknown[], argument: string): unknown[] {
  const byId = items.filter((item) => idOf(item) === argument);
  return distinctById(byId.length ? byId : items.filter((item) => nameOf(item) === argument));
}

/** Resolves every argument against one list of the environments. */
export function resolveIn(items: readonly unknown[], args: readonly string[]): Resolution {
  const found: ResolvedEnvironment[] = [];
  const missing: string[] = [];
  for (const argument of args) {
    const matches = matchesOf(items, argument);
    if (matches.length === 0) {
      missing.push(argument);
      continue;
    }
    if (matches.length > 1) {
      const conflict = sameIdConflict(matches);
      if (conflict) throw conflict;
      const ids = matches.map((item) => printable(idOf(item) ?? '(no id)')).join(', ');
      throw new UsageError(
        `'${printable(argument)}' matches ${matches.length} environments: ${ids}`,
        'nothing was sent; name the one you mean by its id',
      );
    }
    const record = matches[0];
    const id = idOf(record);
    if (id === undefined || !isRecord(record)) {
      throw new ProtocolError(`the environment '${printable(argument)}' has no id in the list, so cip cannot address it`);
    }
    found.push({ argument, id, name: nameOf(record), record });
  }
  return { found, missing };
}

/** The list, read once for a command that takes ids or names. */
export async function listForLookup(ctx: Context, api: EnvironmentsApi): Promise<unknown[]> {
  return withSpinner(ctx.io, 'Looking up the environments', () => api.list());
}

/** The list and its validator, read once for a command that writes what it finds (conflict.ts sends it back). */
export async function readForLookup(ctx: Context, api: EnvironmentsApi): Promise<ListRead> {
  return withSpinner(ctx.io, 'Looking up the environments', () => api.read());
}

/** An error for arguments that are no environment's id or name (exit 5, like the API's 404). */
export function notFound(missing: readonly string[]): CipError {
  const what = missing.map((argument) => `'${printable(argument)}'`).join(', ');
  return new CipError(
    'not-found',
    missing.length === 1 ? `no environment has the id or name ${what}` : `no environment has these ids or names: ${what}`,
    "nothing was sent; 'cip env list' shows the ids and names",
  );
}

/**
 * Refuses an environment whose id cannot be sent: one that would change the request's path ('..', a '/'), so
 * that a write never reaches another resource. Called before anything is asked or sent.
 */
export function checkAddressable({ id, name }: { id: string; name: string | undefined }): void {
  try {
    checkEnvironmentId(id);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`cannot address the ${environmentLabel(id, name)}: its id would change the request's path`, 'nothing was sent');
  }
}

/**
 * One argument to one environment: exit 5 when there is none, exit 2 when the name is ambiguous. An empty
 * argument is refused before anything is read.
 */
export async function resolveOne(
  ctx: Context,
  api: EnvironmentsApi,
  argument: string,
): Promise<ResolvedEnvironment & { validator: string | undefined }> {
  if (argument.trim() === '') throw new UsageError('an environment id or name cannot be empty');
  const { items, validator } = await readForLookup(ctx, api);
  const { found, missing } = resolveIn(items, [argument]);
  if (missing.length || !found[0]) throw notFound(missing);
  return { ...found[0], validator };
}
