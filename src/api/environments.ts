// The Environments resource: the four calls the API offers, with the list unwrapped from any envelope.
import type { ResolvedSettings } from '../config/credentials/settings.js';
import { ApiError, ProtocolError, UsageError, withHint } from '../errors.js';
import { printable } from '../text/sanitize.js';
import type { Http } from './http.js';
import { isRecord } from '../json/record.js';
import { declaredTotal, nextPageLink, unfollowedMore } from './paging.js';

export type Environment = Record<string, unknown>;

export interface RemoveResult {
  /**
   * The API answered 404 to a retry after an attempt whose answer was lost: that attempt deleted it. The
   * environment is gone, which is what was asked.
   */
  alreadyGone: boolean;
}

/** The list, with the validator its answer carried: what a write sends back in If-Match. */
export interface ListRead {
  items: unknown[];
  /**
   * The list's strong ETag, as the API sent it (with its quotes): the first page's when every page carried one.
   * Undefined when an answer had none, or a weak one (If-Match compares strongly: a weak tag never matches).
   */
  validator: string | undefined;
}

/** One environment as GET {base}/Environments/{id} answered: its body, and its ETag as sent (weak or strong). */
export interface ItemRead {
  data: unknown;
  etag: string | undefined;
}

export interface EnvironmentsApi {
  readonly settings: ResolvedSettings;
  list(): Promise<unknown[]>;
  /** The list and its validator. */
  read(): Promise<ListRead>;
  /**
   * GET {base}/Environments/{id}, which the published API does not document: undefined when the API has none
   * (it answered 400, 404, 405 or 501; asked once a run). Its answer is the item's own record and validator.
   */
  get(id: string): Promise<ItemRead | undefined>;
  create(payload: Record<string, unknown>): Promise<unknown>;
  /** PUT; with `ifMatch`, only if the environment is still as that validator saw it (else the API's 412). */
  update(id: string, payload: Record<string, unknown>, ifMatch?: string): Promise<unknown>;
  remove(id: string): Promise<RemoveResult>;
}

const ENVELOPES = ['value', 'items', 'data', 'results'];

/**
 * The lists an answer holds: the answer itself when it is an array, else each of its fields named value,
 * items, data or results, in any letter case (ASP.NET can be set to PascalCase: "Value", "Items"), that
 * holds an array. One is the list; two cannot be told apart.
 */
export function listsIn(data: unknown): { name: string; items: unknown[] }[] {
  if (Array.isArray(data)) return [{ name: '', items: data as unknown[] }];
  if (!isRecord(data)) return [];
  return Object.entries(data)
    .filter(([key, inner]) => ENVELOPES.includes(key.toLowerCase()) && Array.isArray(inner))
    .map(([name, items]) => ({ name, items: items as unknown[] }));
}

/** Why a list read that stops short shows nothing. */
const PARTIAL = 'nothing is shown: cip never reports part of a list as the whole';

const PROBE_BASE = 'https://base.invalid/ms/';

/**
 * Refuses an id that would not address exactly one item below the collection once encoded: '.' and '..'
 * are path segments that URL resolution removes (`DELETE {base}/Environments/..` is `DELETE {base}/`), and a
 * '/' or a backslash is sent as %2F or %5C, which servers and proxies may decode back into a separator.
 */
export function checkEnvironmentId(id: string): string {
  if (id.trim() === '') throw new UsageError('an environment id cannot be empty');
  const segment = encodeURIComponent(id);
  if (/[/\\]/.test(id) || new URL(`Environments/${segment}`, PROBE_BASE).pathname !== `/ms/Environments/${segment}`) {
    throw new UsageError(`'${printable(id)}' is not an environment id: it would change the request's path`);
  }
  return id;
}

function itemPath(id: string): string {
  return `Environments/${encodeURIComponent(checkEnvironmentId(id))}`;
}

/** The URL a call about one environment (or, without an id, the collection) goes to: what --dry-run shows. */
export function environmentUrl(baseUrl: string, id?: string): string {
  return `${baseUrl}/${id === undefined ? 'Environments' : itemPath(id)}`;
}

/** A strong entity-tag (`"v7"`), or undefined for none, a weak one or one that does not parse. */
export function strongEtag(value: string | null): string | undefined {
  const tag = value?.trim();
  return tag !== undefined && /^"[\x21\x23-\x7e\x80-\xff]*"$/.test(tag) ? tag : undefined;
}

/**
 * What an API without a read by id answers one: routing found nothing (404; 400 for an id its route refuses) or
 * no GET there (405, 501). The list just gave the environment, so 404 is not taken for its absence: a PUT says.
 */
const NO_READ_BY_ID = new Set([400, 404, 405, 501]);

/**
 * The whole list, page by page, with the first page's strong ETag when every page had one. A list the answer
 * says goes on, or holds more than it gave, is refused: never a part taken for the whole.
 */
async function readList(http: Http, settings: ResolvedSettings): Promise<ListRead> {
  const items: unknown[] = [];
  /** The first page's strong ETag; null once a page had none. */
  let validator: string | undefined | null;
  const seen = new Set<string>();
  /** The largest count of the whole list any page declared. */
  let total: { total: number; where: string } | undefined;
  let target = 'Environments';
  let url = new URL(`${settings.baseUrl}/Environments`).href;
  for (let page = 1; ; page++) {
    const what = page === 1 ? 'list environments' : `list environments (page ${page})`;
    let answer: Awaited<ReturnType<Http['send']>>;
    try {
      answer = await http.send('GET', target, what);
    } catch (error) {
      // The collection always exists: a 404 for it means the base URL points somewhere else.
      if (page === 1 && error instanceof ApiError && error.status === 404) {
        throw withHint(error, `is the base URL right? cip asked ${settings.baseUrl}/Environments`);
      }
      throw error;
    }
    const { data } = answer;
    const etag = strongEtag(answer.headers.get('etag'));
    if (etag === undefined) validator = null;
    else if (page === 1) validator = etag;
    if (data === undefined) throw new ProtocolError(`cannot ${what}: the API answered with an empty body instead of a list`);
    const lists = listsIn(data);
    if (lists.length === 0) throw new ProtocolError(`cannot ${what}: the API answered with something that is not a list`);
    if (lists.length > 1) {
      throw new ProtocolError(
        `cannot ${what}: the API answered with ${lists.length} lists (${lists.map((list) => printable(list.name)).join(', ')}), and cip cannot tell which one is the environments`,
        PARTIAL,
      );
    }
    const pageItems = lists[0]!.items;
    const declared = declaredTotal(data, answer.headers);
    if (declared && (total === undefined || declared.total > total.total)) total = declared;
    seen.add(url);
    const next = nextPageLink(data, answer.headers, url, settings.baseUrl, seen, page);
    // A list in one page, as most are, is that page's array itself.
    let all = pageItems;
    if (next !== undefined || page > 1) {
      for (const item of pageItems) items.push(item);
      all = items;
    }
    if (next !== undefined) {
      url = next;
      target = next;
      continue;
    }
    // The last page: the list is whole only if nothing in the answer says otherwise.
    const more = unfollowedMore(data, answer.headers);
    if (more !== undefined) {
      throw new ProtocolError(
        `cannot ${what}: the API's answer says the list goes on (${printable(more)}), but has no next link cip can follow`,
        PARTIAL,
      );
    }
    if (total && total.total > all.length) {
      throw new ProtocolError(
        `cannot list environments: the API says the list holds ${total.total} (${printable(total.where)}), but its ${page === 1 ? 'answer' : `${page} pages`} held ${all.length}`,
        PARTIAL,
      );
    }
    return { items: all, validator: validator ?? undefined };
  }
}

export function createEnvironmentsApi(http: Http, settings: ResolvedSettings): EnvironmentsApi {
  /** Whether the API has a read by id, once its first answer to one said: not asked again in this run if not. */
  let readsById: boolean | undefined;
  /** The first read by id, while it is under way: the others of a batch wait for what it shows. */
  let probe: Promise<unknown> | undefined;
  const readById = async (id: string): Promise<ItemRead | undefined> => {
    try {
      const answer = await http.send('GET', itemPath(id), `read environment '${printable(id)}'`);
      readsById = true;
      const etag = answer.headers.get('etag')?.trim();
      return { data: answer.data, etag: etag === '' ? undefined : etag };
    } catch (error) {
      if (!(error instanceof ApiError && NO_READ_BY_ID.has(error.status))) throw error;
      readsById ??= false;
      return undefined;
    }
  };
  const read = () => readList(http, settings);
  return {
    settings,
    read,
    async list() {
      return (await read()).items;
    },
    async get(id) {
      if (readsById === undefined && probe !== undefined) await probe.catch(() => undefined);
      if (readsById === false) return undefined;
      const read = readById(id);
      if (readsById === undefined) probe ??= read;
      return read;
    },
    async create(payload) {
      return http.request('POST', 'Environments', 'create the environment', payload);
    },
    async update(id, payload, ifMatch) {
      const what = `update environment '${printable(id)}'`;
      return (await http.send('PUT', itemPath(id), what, payload, true, ifMatch === undefined ? {} : { 'If-Match': ifMatch })).data;
    },
    async remove(id) {
      // Any 2xx means the environment is gone; what the body says (if anything) changes nothing.
      try {
        await http.request('DELETE', itemPath(id), `delete environment '${printable(id)}'`, undefined, false);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && error.afterUncertainAttempt) return { alreadyGone: true };
        throw error;
      }
      return { alreadyGone: false };
    },
  };
}
