// Lists that come in pages: the next page's address, from the answer's body (`@odata.nextLink`, `nextLink`,
// `next`) or its `Link: <...>; rel="next"` header. The keys go with every page, so a next link must stay on
// the base URL's origin; a chain that loops or never ends is a broken answer, not a reason to run forever.
import { ProtocolError } from '../errors.js';
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
