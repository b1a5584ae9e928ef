// Lists that come in pages: the next page's address, from the answer's body (`@odata.nextLink`, `nextLink`,
// `next`) or its `Link: <...>; rel="next"` header. The keys go with every page, so a next link must stay on
// the base URL's origin; a chain that loops or never ends is a broken answer, not a reason to run forever.
import { ProtocolError } from '../errors.js';
import { isExactNumber } from '../json/exact.js';
import { isRecord } from '../json/record.js';
import { hideCredentials, oneLine, truncate } from '../text/sanitize.js';
import { refusalOf } from './url.js';

/** The most pages one list read follows. */
export const MAX_PAGES = 10_000;

const BODY_LINKS = ['@odata.nextlink', 'nextlink', 'next'];

function linkFromBody(data: unknown): string | undefined {
  if (!isRecord(data)) return undefined;
  for (const name of BODY_LINKS) {
    for (const [key, value] of Object.entries(data)) {
      if (key.toLowerCase() === name && typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  }
  return undefined;
}

/** The target of the first `rel="next"` entry of a Link header (RFC 8288). */
export function linkFromHeader(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('next') && match[1]!.trim() !== '') return match[1]!.trim();
  }
  return undefined;
}

/**
 * The absolute URL of the page after `current`, or undefined on the last page. Refuses a link to another
 * origin, one already read (a loop), and a chain longer than MAX_PAGES.
 */
export function nextPageLink(
  data: unknown,
  headers: Headers,
  current: string,
  baseUrl: string,
  seen: ReadonlySet<string>,
  page: number,
): string | undefined {
  const link = linkFromBody(data) ?? linkFromHeader(headers.get('link'));
  if (link === undefined) return undefined;
  let next: URL;
  try {
    next = new URL(link, current);
  } catch {
    throw new ProtocolError(
      `cannot list environments: the API's next-page link is not a URL: ${truncate(oneLine(hideCredentials(link)), 200)}`,
    );
  }
  const refusal = refusalOf(next, baseUrl);
  if (refusal === 'origin') {
    const origin = new URL(baseUrl).origin;
    throw new ProtocolError(
      `cannot list environments: the API's next-page link goes to another origin (${truncate(oneLine(next.origin), 100)}); cip sends the keys only to ${origin}`,
      'nothing was sent there; the list is incomplete, so nothing is shown',
    );
  }
  if (refusal === 'credentials') {
    throw new ProtocolError(
      `cannot list environments: the API's next-page link holds a user name or password (${truncate(oneLine(hideCredentials(next.href)), 200)})`,
      'nothing was sent; the list is incomplete, so nothing is shown',
    );
  }
  next.hash = '';
  if (seen.has(next.href)) {
    throw new ProtocolError(`cannot list environments: the API's next-page links loop (page ${page} links back to an earlier page)`);
  }
  if (page >= MAX_PAGES) throw new ProtocolError(`cannot list environments: the API's list goes on past ${MAX_PAGES} pages`);
  return next.href;
}

// What an answer may say about the rest of a list, beyond a link cip follows: a token or cursor for the next
// page, a flag, a count of the whole. Looked for in the answer's fields and in these objects within it, by
// name in any spelling (nextPageToken, next_page_token, @odata.count).
const NESTED = new Set(['meta', 'pagination', 'paging', 'page', 'pageinfo', 'links', 'responsemetadata']);
const MORE_TOKENS = new Set([
  'next',
  'nextlink',
  'odatanextlink',
  'nextpage',
  'nextpagelink',
  'nextpageurl',
  'nexturl',
  'nextpagetoken',
  'nexttoken',
  'continuationtoken',
  'continuation',
  'nextcursor',
  'skiptoken',
]);
const MORE_FLAGS = new Set(['hasmore', 'hasnextpage', 'moreresults', 'moreitems', 'morerecords']);
const COUNTS = new Set([
  'count',
  'total',
  'totalcount',
  'odatacount',
  'totalitems',
  'totalresults',
  'totalrecords',
  'totalsize',
  'totalelements',
]);
const MORE_HEADERS = ['x-ms-continuation', 'x-continuation-token', 'x-next-page'];
const COUNT_HEADERS = ['x-total-count'];

const spelling = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The answer's fields and those of the objects within it that paging data lives in: [shown name, spelling, value]. */
function pagingFields(data: unknown): [string, string, unknown][] {
  if (!isRecord(data)) return [];
  const fields: [string, string, unknown][] = [];
  for (const [key, value] of Object.entries(data)) {
    fields.push([key, spelling(key), value]);
    if (NESTED.has(spelling(key)) && isRecord(value)) {
      for (const [inner, innerValue] of Object.entries(value)) fields.push([`${key}.${inner}`, spelling(inner), innerValue]);
    }
  }
  return fields;
}

/** A token, cursor or link that is there: not null, false, or blank. */
function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== false && !(typeof value === 'string' && value.trim() === '');
}

/**
 * On a page with no next link cip follows: the field or header that says the list goes on (a token, a
 * cursor, a link in a shape cip does not follow, `hasMore: true`), or undefined when nothing does.
 */
export function unfollowedMore(data: unknown, headers: Headers): string | undefined {
  for (const [name, key, value] of pagingFields(data)) {
    if (MORE_TOKENS.has(key) && present(value)) return name;
    if (MORE_FLAGS.has(key) && (value === true || value === 'true')) return `${name}: true`;
  }
  const header = MORE_HEADERS.find((name) => headers.get(name)?.trim());
  return header === undefined ? undefined : `the ${header} header`;
}

/** How many items the answer says the whole list holds (`totalCount`, `@odata.count`, `X-Total-Count`), and where. */
export function declaredTotal(data: unknown, headers: Headers): { total: number; where: string } | undefined {
  for (const [name, key, value] of pagingFields(data)) {
    const total = typeof value === 'number' || isExactNumber(value) ? Number(value) : NaN;
    if (COUNTS.has(key) && Number.isSafeInteger(total) && total >= 0) return { total, where: name };
  }
  for (const name of COUNT_HEADERS) {
    const value = headers.get(name)?.trim() ?? '';
    if (/^\d{1,15}$/.test(value)) return { total: Number(value), where: `the ${name} header` };
  }
  return undefined;
}
