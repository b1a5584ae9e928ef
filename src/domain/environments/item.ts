// The environment a write merges into, and the validator its PUT carries (docs/concurrency.md). The item's own
// validator comes first, as RFC 9110 means If-Match: its `@odata.etag` in the list, else the ETag of
// GET {base}/Environments/{id} where the API has that read (it is not in the published spec, so an API without it
// is asked once a run). The list's ETag is used only where it is the only one. The record read by id is what the
// write merges into: it is the item's own representation, which a list may shorten.
import { checkEnvironmentId, strongEtag, type EnvironmentsApi, type ListRead } from '../../api/environments.js';
import type { Context } from '../../context.js';
import { isRecord } from '../../json/record.js';
import { printable } from '../../text/sanitize.js';
import { rereadFromList, type GuardedTarget, type Reread } from './conflict.js';
import { checkAddressable, readForLookup, resolveIn, notFound, type ResolvedEnvironment } from './resolve.js';
import { UsageError } from '../../errors.js';
import { idOf, nameOf } from './target.js';
import { odataTag, versionKeys, withItemTag } from './version.js';

/** The environment as GET by id gave it: a record under the id asked for, and its ETag as sent. */
interface Item {
  record: Record<string, unknown>;
  etag: string | undefined;
}

/**
 * GET by id, when the API has it and answers with the environment asked for. An answer that is no record, or a
 * record under another id, is not taken: a write must never merge into another environment's data.
 */
async function readItem(api: EnvironmentsApi, id: string): Promise<Item | undefined> {
  // An id that cannot be addressed (`..`) is refused where a write would send it; a read has the list's record.
  try {
    checkEnvironmentId(id);
  } catch {
    return undefined;
  }
  const answer = await api.get(id);
  if (answer === undefined || !isRecord(answer.data) || idOf(answer.data) !== id) return undefined;
  return { record: answer.data, etag: answer.etag };
}

/** The item's own strong validator: its ETag, else its `@odata.etag`. */
const ownTag = (item: Item | undefined) => (item === undefined ? undefined : (strongEtag(item.etag ?? null) ?? odataTag(item.record)));

export interface WriteTarget extends GuardedTarget {
  /** The item's entity-tag as the API gave it (weak or strong), for the version a file carries. */
  etag: string | undefined;
  /** Reads it again the way it was read: by id, or through the list. */
  reread: () => Promise<Reread>;
}

/**
 * The target of a write, found in the list: the record to merge into and the validator to send, the item's own
 * where the API gives one. `listValidator` is the list's ETag; `readList` reads the list again.
 */
export async function writeTarget(
  api: EnvironmentsApi,
  found: Pick<ResolvedEnvironment, 'id' | 'name' | 'record'>,
  listValidator: string | undefined,
  readList: () => Promise<ListRead>,
  detail: (text: string) => void = () => undefined,
): Promise<WriteTarget> {
  const { id } = found;
  const odata = odataTag(found.record);
  if (odata !== undefined) {
    detail(`If-Match will be the environment's own @odata.etag, ${printable(odata)}`);
    return { ...found, validator: odata, etag: odata, reread: rereadFromList(readList, id, true) };
  }
  const item = await readItem(api, id);
  if (item !== undefined) {
    const own = ownTag(item);
    const validator = own ?? listValidator;
    detail(
      own !== undefined
        ? `If-Match will be the environment's own ETag (GET by id), ${printable(own)}`
        : validator !== undefined
          ? `If-Match will be the list's ETag, ${printable(validator)}: GET by id gave no strong one`
          : 'no ETag from the API: the environment is read again by id and compared just before the PUT',
    );
    const reread = async (): Promise<Reread> => {
      const again = await readItem(api, id);
      return { now: again?.record, validator: ownTag(again) };
    };
    return { id, name: nameOf(item.record) ?? found.name, record: item.record, validator, etag: item.etag, reread };
  }
  detail(
    listValidator !== undefined
      ? `If-Match will be the list's ETag, ${printable(listValidator)}: the API gave none of the environment's own`
      : 'no ETag from the API: the list is read again and the environment compared just before the PUT',
  );
  return { ...found, validator: listValidator, etag: undefined, reread: rereadFromList(readList, id, false) };
}

/** One argument to the environment a write changes: found in one list read, then read as writeTarget does. */
export async function resolveForWrite(ctx: Context, api: EnvironmentsApi, argument: string): Promise<WriteTarget> {
  if (argument.trim() === '') throw new UsageError('an environment id or name cannot be empty');
  const { items, validator } = await readForLookup(ctx, api);
  const { found, missing } = resolveIn(items, [argument]);
  if (missing.length || !found[0]) throw notFound(missing);
  checkAddressable(found[0]);
  return writeTarget(
    api,
    found[0],
    validator,
    () => api.read(),
    (text) => ctx.detail(text),
  );
}

/**
 * The environment as `env get` shows it. A record that carries no version of its own is read by id where the API
 * has that read, and, for a document (`tagged`), shown with the item's ETag as its `@odata.etag`: a file written
 * from it then says which version it shows, and an update from it is refused if the environment changed since.
 */
export async function itemView(api: EnvironmentsApi, found: ResolvedEnvironment, tagged: boolean): Promise<Record<string, unknown>> {
  if (versionKeys(found.record).length) return found.record;
  const item = await readItem(api, found.id);
  if (item === undefined) return found.record;
  return tagged ? withItemTag(item.record, item.etag) : item.record;
}
