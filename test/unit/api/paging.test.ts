// Next-page links (src/api/paging.ts): where they are found, which are followed, and which are refused; links
// that are blank, padded or listed without spaces.
import { describe, expect, it } from 'vitest';
import { MAX_PAGES, declaredTotal, linkFromHeader, nextPageLink, unfollowedMore } from '../../../src/api/paging.js';
import { ProtocolError } from '../../../src/errors.js';
import { parseExactJson } from '../../../src/json/exact.js';

const BASE = 'https://api.example.test/ms';
const FIRST = `${BASE}/Environments`;
const next = (data: unknown, link?: string, page = 1, seen: string[] = [FIRST]) =>
  nextPageLink(data, new Headers(link === undefined ? {} : { link }), FIRST, BASE, new Set(seen), page);

function refusal(work: () => unknown): ProtocolError {
  try {
    work();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('next links in the body', () => {
  it.each(['@odata.nextLink', '@ODATA.NEXTLINK', 'nextLink', 'NextLink', 'next', 'Next'])('finds %s', (key) => {
    expect(next({ value: [], [key]: '?page=2' })).toBe(`${FIRST}?page=2`);
  });

  it('prefers @odata.nextLink, then nextLink, then next', () => {
    expect(next({ next: '?c', nextLink: '?b', '@odata.nextLink': '?a' })).toBe(`${FIRST}?a`);
    expect(next({ next: '?c', nextLink: '?b' })).toBe(`${FIRST}?b`);
  });

  it('ignores a link that is not a non-blank string, and trims one that is', () => {
    expect(next({ next: 5 })).toBeUndefined();
    expect(next({ next: { href: '?x' } })).toBeUndefined();
    expect(next({ next: '   ' })).toBeUndefined();
    expect(next({ next: null })).toBeUndefined();
    expect(next({ next: '  ?page=2  ' })).toBe(`${FIRST}?page=2`);
    expect(next([{ next: '?page=2' }])).toBeUndefined();
  });

  it('drops a fragment, so #a and #b are the same page', () => {
    expect(next({ next: '?page=2#top' })).toBe(`${FIRST}?page=2`);
  });
});

describe('the Link header', () => {
  it.each([
    ['<https://x/2>; rel="next"', 'https://x/2'],
    ['<https://x/2>;rel=next', 'https://x/2'],
    ['<https://x/2> ; rel = "next"', 'https://x/2'],
    ['<https://x/1>; rel="prev", <https://x/3>; rel="next"', 'https://x/3'],
    ['<https://x/2>; title="page two"; rel="next"', 'https://x/2'],
    ['<https://x/2>; rel="next last"', 'https://x/2'],
    ['<https://x/2>; REL="NEXT"', 'https://x/2'],
    ['<https://x/2>; rel=next, <https://x/9>; rel=last', 'https://x/2'],
  ])('%s → %s', (header, target) => {
    expect(linkFromHeader(header)).toBe(target);
  });

  it.each([
    ['', undefined],
    ['<https://x/1>; rel="prev"', undefined],
    ['<>; rel="next"', undefined],
    ['<https://x/2>; rel="nextpage"', undefined],
    ['<https://x/2>', undefined],
  ])('%j has no next link', (header, target) => {
    expect(linkFromHeader(header)).toBe(target);
  });

  it('is used when the body has no link', () => {
    expect(next([], `<${FIRST}?page=2>; rel="next"`)).toBe(`${FIRST}?page=2`);
  });
});

describe('refusals', () => {
  it('a link to another origin names it and keeps the keys at home', () => {
    const error = refusal(() => next({ next: 'https://evil.example.test/ms/Environments?page=2' }));
    expect(error.message).toBe(
      "cannot list environments: the API's next-page link goes to another origin (https://evil.example.test); cip sends the keys only to https://api.example.test",
    );
    expect(error.hint).toBe('nothing was sent there; the list is incomplete, so nothing is shown');
    // Another port or scheme is another origin too.
    expect(() => next({ next: 'https://api.example.test:8443/ms/Environments' })).toThrow(ProtocolError);
    expect(() => next({ next: 'http://api.example.test/ms/Environments' })).toThrow(ProtocolError);
  });

  it('a link that is not a URL', () => {
    expect(refusal(() => next({ next: 'http://[bad' })).message).toBe(
      "cannot list environments: the API's next-page link is not a URL: http://[bad",
    );
  });

  it('a link back to a page already read', () => {
    expect(refusal(() => next({ next: FIRST }, undefined, 3)).message).toBe(
      "cannot list environments: the API's next-page links loop (page 3 links back to an earlier page)",
    );
  });

  it(`a chain longer than ${MAX_PAGES} pages, and not one page sooner`, () => {
    expect(next({ next: '?more' }, undefined, MAX_PAGES - 1)).toBe(`${FIRST}?more`);
    expect(refusal(() => next({ next: '?more' }, undefined, MAX_PAGES)).message).toBe(
      `cannot list environments: the API's list goes on past ${MAX_PAGES} pages`,
    );
  });
});

describe('signs that a list goes on past the answer', () => {
  const none = new Headers();
  it.each([
    [{ nextPageToken: 'a' }, 'nextPageToken'],
    [{ NEXT_PAGE_TOKEN: 'a' }, 'NEXT_PAGE_TOKEN'],
    [{ 'continuation-token': 'a' }, 'continuation-token'],
    [{ $skiptoken: 'a' }, '$skiptoken'],
    [{ next: { href: '?p=2' } }, 'next'],
    [{ next: 2 }, 'next'],
    [{ has_more: true }, 'has_more: true'],
    [{ hasMore: 'true' }, 'hasMore: true'],
    [{ pagination: { nextCursor: 'c' } }, 'pagination.nextCursor'],
    [{ _links: { next: { href: '/x' } } }, '_links.next'],
    [{ response_metadata: { next_cursor: 'c' } }, 'response_metadata.next_cursor'],
  ])('%j: %s', (data, sign) => {
    expect(unfollowedMore(data, none)).toBe(sign);
  });

  it.each([
    [{ nextPageToken: null, hasMore: false, next: '  ' }],
    [{ hasMore: 'yes', continuation: false }],
    [{ other: { nextPageToken: 'a' } }],
    [[{ nextPageToken: 'a' }]],
  ])('%j: none', (data) => {
    expect(unfollowedMore(data, none)).toBeUndefined();
  });

  it('reads the continuation headers, not blank ones', () => {
    expect(unfollowedMore([], new Headers({ 'X-Next-Page': '3' }))).toBe('the x-next-page header');
    expect(unfollowedMore([], new Headers({ 'X-Next-Page': ' ' }))).toBeUndefined();
  });
});

describe('a count of the whole list', () => {
  const none = new Headers();
  it('is a whole number in a count field, in any spelling, or X-Total-Count', async () => {
    expect(declaredTotal({ total_count: 5 }, none)).toEqual({ total: 5, where: 'total_count' });
    expect(declaredTotal({ meta: { totalItems: 7 } }, none)).toEqual({ total: 7, where: 'meta.totalItems' });
    expect(declaredTotal(await parseExactJson('{"@odata.count": 12.0}'), none)).toEqual({ total: 12, where: '@odata.count' });
    expect(declaredTotal([], new Headers({ 'x-total-count': ' 9 ' }))).toEqual({ total: 9, where: 'the x-total-count header' });
  });

  it.each([{ count: '5' }, { count: -1 }, { count: 1.5 }, { total: [9] }, { other: { total: 3 } }])('is not %j', (data) => {
    expect(declaredTotal(data, new Headers({ 'x-total-count': 'many' }))).toBeUndefined();
  });
});

describe('next-page links', () => {
  it.each([
    ['a body that is null leaves the Link header to say', null, '<p2>; rel="next"', `${BASE}/p2`],
    ['a body that is a list leaves the Link header to say', [{ next: 'x' }], '<p3>; rel="next"', `${BASE}/p3`],
    ['a blank nextLink is passed over for the next name', { nextLink: '   ', next: 'p2' }, undefined, `${BASE}/p2`],
    ['a link padded with no-break spaces is trimmed', { nextLink: '\u00a0p2\u00a0' }, undefined, `${BASE}/p2`],
  ])('%s', (_name, data, link, expected) => {
    expect(next(data, link)).toBe(expected);
  });

  it.each([
    ['entries without spaces', '</p1>;rel=prev,</p2>;rel=next', '/p2'],
    ['a blank target is passed over', '< >; rel="next", </p2>; rel="next"', '/p2'],
    ['a padded target is trimmed', '< /p2 >; rel="next"', '/p2'],
    ['a parameter before rel, without spaces', '</p1>;title=one;rel=next', '/p1'],
  ])('in a Link header: %s', (_name, header, expected) => {
    expect(linkFromHeader(header)).toBe(expected);
  });
});
