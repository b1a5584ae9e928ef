// Where a request goes (src/api/url.ts), and why a URL off the base URL's origin is refused.
import { describe, expect, it } from 'vitest';
import { refusalOf, requestUrl } from '../../../src/api/url.js';
import { UsageError } from '../../../src/errors.js';

const BASE = 'https://api.example.test/ms';
const HINT = 'nothing was sent: the keys go only to the base URL';

describe('requestUrl', () => {
  it.each([
    ['Environments', `${BASE}/Environments`],
    ['/Environments', `${BASE}/Environments`],
    ['///Environments?x=1#top', `${BASE}/Environments?x=1`],
    ['Environments/a:b', `${BASE}/Environments/a:b`],
    ['%2F%2Fevil.test/x', `${BASE}/%2F%2Fevil.test/x`],
    ['../other', 'https://api.example.test/other'],
    ['\\Environments', 'https://api.example.test/Environments'],
    [`${BASE}/Environments`, `${BASE}/Environments`],
    ['HTTPS://API.EXAMPLE.TEST:443/x', 'https://api.example.test/x'],
  ])('%j goes to %s', (target, url) => {
    expect(requestUrl(BASE, target).href).toBe(url);
  });

  it.each([
    ['\\\\evil.test/x', 'https://evil.test'],
    ['/\\/evil.test/x', 'https://evil.test'],
    ['\\/evil.test/x', 'https://evil.test'],
    ['http://api.example.test/ms/x', 'http://api.example.test'],
    ['https://api.example.test:8443/ms/x', 'https://api.example.test:8443'],
    ['https:evil.test/x', 'https://evil.test'],
    ['Environments:x', 'null'],
  ])('refuses %j: it lands on %s', (target, origin) => {
    expect(() => requestUrl(BASE, target)).toThrow(
      new UsageError(`${origin} is not the base URL's origin (https://api.example.test)`, HINT),
    );
  });

  it('refuses a control character, a URL that is none, and credentials, never showing the password', () => {
    expect(() => requestUrl(BASE, 'a\tb')).toThrow(new UsageError("'a?b' holds a control character", HINT));
    expect(() => requestUrl(BASE, 'https://u:pw@[x')).toThrow(new UsageError("'https://***@[x' is not a URL"));
    expect(() => requestUrl(BASE, 'https://u:pw@api.example.test/ms')).toThrow(
      new UsageError("'https://***@api.example.test/ms' holds a user name or password", HINT),
    );
  });
});

describe('refusalOf', () => {
  it('names the origin first, then credentials, and lets the base URL own origin through', () => {
    expect(refusalOf(new URL('https://u:p@evil.test/'), BASE)).toBe('origin');
    expect(refusalOf(new URL('https://u@api.example.test/'), BASE)).toBe('credentials');
    expect(refusalOf(new URL('https://:p@api.example.test/'), BASE)).toBe('credentials');
    expect(refusalOf(new URL('https://api.example.test/anywhere'), BASE)).toBeUndefined();
  });
});
