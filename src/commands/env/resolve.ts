// Ids or names to environments, from one list read: an argument equal to an item's id is that item;
// otherwise the item whose name (`name`, `Name`, ...) equals it exactly. Two matches are never guessed
// between: the user is shown the ids and nothing is sent.
import { checkEnvironmentId, type EnvironmentsApi } from '../../api/environments.js';
import type { Context } from '../../context.js';
import { CipError, ProtocolError, UsageError } from '../../errors.js';
import { isRecord } from '../../json/record.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { idOf, nameOf } from './target.js';

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

function matchesOf(items: readonly unknown[], argument: string): unknown[] {
  const byId = items.filter((item) => idOf(item) === argument);
  return byId.length ? byId : items.filter((item) => nameOf(item) === argument);
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
 * One argument to one environment: exit 5 when there is none, exit 2 when the name is ambiguous. An
 * argument that could never be an id ('.', '..', empty) is refused before anything is read.
 */
export async function resolveOne(ctx: Context, api: EnvironmentsApi, argument: string): Promise<ResolvedEnvironment> {
  checkEnvironmentId(argument);
  const { found, missing } = resolveIn(await listForLookup(ctx, api), [argument]);
  if (missing.length || !found[0]) throw notFound(missing);
  return found[0];
}
