// Edges of small modules: setOwn's keys behave as ordinary data, next-page links that are blank, padded or
// listed without spaces, and loopback addresses and invisible spaces in a base URL.
import { describe, expect, it } from 'vitest';
import { linkFromHeader, nextPageLink } from '../../src/api/paging.js';
import { checkBaseUrl, isLoopbackHost } from '../../src/config/validate.js';
import { setOwn } from '../../src/json/record.js';

describe('setOwn', () => {
  it('sets a key that can be changed and deleted afterwards like any other, __proto__ too', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, 'name', 'a');
    setOwn(target, '__proto__', 'b');
    target.name = 'c';
    setOwn(target, '__proto__', 'd');
    expect(JSON.stringify(target)).toBe('{"name":"c","__proto__":"d"}');
    expect(delete target.name).toBe(true);
    expect(Object.keys(target)).toEqual(['__proto__']);
  });
});

const BASE = 'https://api.example.test/ms';
const FIRST = `${BASE}/Environments`;
const next = (data: unknown, link?: string) =>
  nextPageLink(data, new Headers(link === undefined ? {} : { link }), FIRST, BASE, new Set([FIRST]), 1);

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

describe('base URLs', () => {
  it.each(['127.0.10.1', '127.0.0.10', '127.10.20.30', 'LOCALHOST', '[::1]'])('%s is this machine', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
    expect(checkBaseUrl(`http://${host}:8080/ms`, '--base-url', false)).toBe(`http://${host.toLowerCase()}:8080/ms`);
  });

  it.each(['127.0.0.1.example.test', '10.127.0.0', '127.0.0'])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('drops spaces around the URL that URL parsing would keep', () => {
    expect(checkBaseUrl('https://api.example.com/ms/\u00a0', '--base-url', false)).toBe('https://api.example.com/ms');
    expect(checkBaseUrl('\u00a0https://api.example.com/ms', '--base-url', false)).toBe('https://api.example.com/ms');
  });
});
