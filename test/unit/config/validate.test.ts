// User-typed values (src/config/validate.ts): GUIDs, enterprise ids, base URLs (loopback addresses, invisible
// spaces), profile names, keys and tokens, each at its edges and, for input of any shape (fast-check), always
// accepted or refused with a usage error.
import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import {
  checkBaseUrl,
  checkEnterpriseId,
  checkProfileName,
  isGuid,
  isLoopbackHost,
  MAX_KEY_LENGTH,
  checkKey,
  MAX_TOKEN_LENGTH,
  checkToken,
} from '../../../src/config/validate.js';
import { CipError, UsageError } from '../../../src/errors.js';
import { CONTROL, holds, nasty, piece, usageOr } from '../../helpers/arbitraries.js';
import { caught } from '../../helpers/errors.js';
import { makeJwt } from '../../helpers/jwt.js';

function usageError(fn: () => unknown): UsageError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a UsageError').toBeInstanceOf(UsageError);
  expect((caught as CipError).exitCode).toBe(2);
  return caught as UsageError;
}

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

describe('isGuid', () => {
  it.each([
    [GUID, true],
    [GUID.toUpperCase(), true],
    ['00000000-0000-0000-0000-000000000000', true],
    [`{${GUID}}`, false],
    [GUID.replace(/-/g, ''), false],
    [GUID.slice(0, -1), false],
    [`${GUID}0`, false],
    [GUID.replace('3', 'g'), false],
    [` ${GUID}`, false],
    ['', false],
    ['not-a-guid', false],
  ])('%j → %s', (value, expected) => {
    expect(isGuid(value)).toBe(expected);
  });
});

describe('checkEnterpriseId', () => {
  it.each([
    [GUID, GUID],
    [`  ${GUID}\n`, GUID],
    [GUID.toUpperCase(), GUID.toUpperCase()],
    ['3F2B8c1e-9A4d-4e6f-8b7a-1c2d3e4f5a6b', '3F2B8c1e-9A4d-4e6f-8b7a-1c2d3e4f5a6b'],
  ])('accepts %j as %j (trimmed, case kept)', (value, expected) => {
    expect(checkEnterpriseId(value, '--enterprise-id')).toBe(expected);
  });

  it.each([[`{${GUID}}`], [GUID.slice(0, 35)], ['garbage'], [''], ['   '], [GUID.replace(/-/g, '')], [`${GUID},${GUID}`]])(
    'rejects %j with a usage error naming the source',
    (value) => {
      const error = usageError(() => checkEnterpriseId(value, 'CIP_ENTERPRISE_ID'));
      expect(error.message).toContain('CIP_ENTERPRISE_ID');
      expect(error.message).toContain('GUID');
    },
  );

  it('keeps control characters out of the message', () => {
    const error = usageError(() => checkEnterpriseId('\u001b[31mbad', '--enterprise-id'));
    expect(error.message).not.toContain('\u001b');
  });
});

describe('checkBaseUrl', () => {
  it.each([
    ['https://api.copyl.com/ms', 'https://api.copyl.com/ms'],
    ['https://api.copyl.com/ms/', 'https://api.copyl.com/ms'],
    ['https://api.copyl.com/ms///', 'https://api.copyl.com/ms'],
    ['  https://api.copyl.com/ms  ', 'https://api.copyl.com/ms'],
    ['https://api.copyl.com', 'https://api.copyl.com'],
    ['https://example.com:8443/base/path/', 'https://example.com:8443/base/path'],
    ['http://127.0.0.1:8080/ms', 'http://127.0.0.1:8080/ms'],
    ['http://localhost:3000/ms/', 'http://localhost:3000/ms'],
    ['http://LOCALHOST/ms', 'http://localhost/ms'],
    ['http://[::1]:9000/ms', 'http://[::1]:9000/ms'],
    ['http://127.1.2.3/ms', 'http://127.1.2.3/ms'],
  ])('accepts %j as %j', (value, expected) => {
    expect(checkBaseUrl(value, '--base-url', false)).toBe(expected);
  });

  it.each([['http://api.copyl.com/ms'], ['http://10.0.0.5:8080/ms'], ['http://localhost.example.com/ms'], ['http://127.0.0.1.nip.io/']])(
    'refuses cleartext http to %j unless allowHttp',
    (value) => {
      const error = usageError(() => checkBaseUrl(value, 'CIP_BASE_URL', false));
      expect(error.message).toContain('CIP_BASE_URL');
      expect(error.message).toContain('http://');
      expect(error.hint).toContain('CIP_ALLOW_HTTP');
      expect(checkBaseUrl(value, 'CIP_BASE_URL', true)).toBe(value.replace(/\/+$/, ''));
    },
  );

  it.each([
    ['ftp://api.copyl.com/ms', /https/],
    ['file:///etc/passwd', /https/],
    ['javascript:alert(1)', /https/],
    ['garbage', /not a valid URL/],
    ['', /not a valid URL/],
    ['api.copyl.com/ms', /not a valid URL/],
    ['https://user:pass@api.copyl.com/ms', /user name or password/],
    ['https://user@api.copyl.com/ms', /user name or password/],
    ['https://api.copyl.com/ms?x=1', /query or fragment/],
    ['https://api.copyl.com/ms#frag', /query or fragment/],
  ])('refuses %j', (value, reason) => {
    const error = usageError(() => checkBaseUrl(value, '--base-url', true));
    expect(error.message).toContain('--base-url');
    expect(error.message).toMatch(reason);
  });

  it('never echoes a password it refuses', () => {
    const error = usageError(() => checkBaseUrl('https://me:s3cret-pass@api.copyl.com/ms', '--base-url', false));
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain('s3cret-pass');
  });
});

describe('checkProfileName', () => {
  it.each([['default'], ['staging'], ['prod-eu.1'], ['A_b'], ['9'], ['x'.repeat(64)]])('accepts %j', (name) => {
    expect(checkProfileName(name)).toBe(name);
  });

  it.each([[''], ['-dash'], ['.hidden'], ['_x'], ['has space'], ['a/b'], ['..'], ['x'.repeat(65)], ['ünïcode'], ['a\nb']])(
    'rejects %j',
    (name) => {
      const error = usageError(() => checkProfileName(name));
      expect(error.message).toContain('profile name');
      expect(error.message).not.toContain('\n');
    },
  );
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

describe('keys and hosts', () => {
  it('takes keys from 16 to 1024 visible ASCII characters, trimmed', () => {
    expect(MAX_KEY_LENGTH).toBe(1024);
    expect(checkKey(` ${'a'.repeat(16)} `, 'API key', 'CIP_API_KEY')).toBe('a'.repeat(16));
    expect(checkKey('~'.repeat(1024), 'API key', 'CIP_API_KEY')).toBe('~'.repeat(1024));
    expect(checkKey('!'.repeat(20), 'API key', 'CIP_API_KEY')).toBe('!'.repeat(20));
    expect(() => checkKey('a'.repeat(15), 'API key', 'CIP_API_KEY')).toThrow(
      new UsageError('the API key from CIP_API_KEY is not a valid key: it has 15 characters; keys have 16 to 1024'),
    );
    expect(() => checkKey('a'.repeat(1025), 'subscription key', '--subscription-key-file k')).toThrow(
      new UsageError(
        'the subscription key from --subscription-key-file k is not a valid key: it has 1025 characters; keys have 16 to 1024',
      ),
    );
  });

  it.each([['a b'.repeat(8)], [`${'a'.repeat(16)}\u007f`], [`${'a'.repeat(16)}é`], ['']])('refuses the key %j, never showing it', (key) => {
    let caught: unknown;
    try {
      checkKey(key, 'API key', 'CIP_API_KEY');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const error = caught as UsageError;
    expect(error.message).toBe(
      'the API key from CIP_API_KEY is not a valid key: it contains spaces, line breaks, control characters or characters outside ASCII',
    );
    expect(error.hint).toBe('keys are one word of visible ASCII characters; copy the key again');
  });

  it.each([
    ['localhost', true],
    ['LocalHost', true],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['[::1]', true],
    ['127.0.0.1.example.com', false],
    ['x127.0.0.1', false],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
  ])('isLoopbackHost(%j) is %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('explains each refused base URL in words', () => {
    expect(() => checkBaseUrl('ftp://x.example/ms', 'CIP_BASE_URL', false)).toThrow(
      new UsageError("CIP_BASE_URL must be an https:// URL, not 'ftp://x.example/ms'"),
    );
    expect(() => checkBaseUrl('nope', '--base-url', false)).toThrow(new UsageError("--base-url is not a valid URL: 'nope'"));
    expect(() => checkBaseUrl('https://u:p@x.example/ms', '--base-url', false)).toThrow(
      new UsageError('--base-url must not contain a user name or password'),
    );
    expect(() => checkBaseUrl('https://x.example/ms?', '--base-url', false)).toThrow(
      new UsageError('--base-url must not contain a query or fragment'),
    );
    expect(() => checkBaseUrl('https://x.example/ms#', '--base-url', false)).toThrow(
      new UsageError('--base-url must not contain a query or fragment'),
    );
    expect(() => checkBaseUrl('http://x.example/ms', 'CIP_BASE_URL', false)).toThrow(
      new UsageError(
        'CIP_BASE_URL uses http:// to a host that is not this machine; the API keys would travel in cleartext',
        'use https://, or set CIP_ALLOW_HTTP=1 if you really mean it',
      ),
    );
  });
});

describe('checkToken', () => {
  it('takes a long JWT, trimmed', () => {
    const token = makeJwt({ padding: 'p'.repeat(3000) });
    expect(checkToken(`${token}\n`, 'CIP_TOKEN')).toBe(token);
  });

  it.each([
    ['too long', 'a'.repeat(MAX_TOKEN_LENGTH + 1), `it has ${MAX_TOKEN_LENGTH + 1} characters; tokens have 16 to ${MAX_TOKEN_LENGTH}`],
    ['too short', 'abc.def', 'it has 7 characters; tokens have 16 to 16384'],
    [
      'with a line break inside',
      'aaaaaaaaaa\nbbbbbbbbbb',
      'it contains spaces, line breaks, control characters or characters outside ASCII',
    ],
  ])('refuses a token %s (exit 2), never showing it', async (_what, value, reason) => {
    const error = await caught(() => checkToken(value, '--token-file t.jwt'), UsageError);
    expect(error.message).toBe(`the token from --token-file t.jwt is not a valid token: ${reason}`);
  });
});

describe('validate', () => {
  const REFERENCE_GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
  const anyCase = (text: string, flips: boolean[]) =>
    Array.from(text)
      .map((ch, i) => (flips[i % Math.max(1, flips.length)] ? ch.toUpperCase() : ch.toLowerCase()))
      .join('');
  const uuidAnyCase = fc.tuple(fc.uuid(), fc.array(fc.boolean(), { minLength: 1, maxLength: 36 })).map(([u, f]) => anyCase(u, f));
  const whitespace = fc.constantFrom('', ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\ufeff', '\u2028', '\u000b');
  const guidLike = fc.oneof(
    uuidAnyCase,
    fc.tuple(whitespace, uuidAnyCase, whitespace).map(([a, u, b]) => a + u + b),
    fc.tuple(uuidAnyCase, fc.nat(35), piece).map(([u, at, p]) => u.slice(0, at) + p + u.slice(at + 1)),
    fc.tuple(uuidAnyCase, piece).map(([u, p]) => u + p),
    nasty,
    fc.string(),
  );

  it('isGuid agrees with a reference regex', async () => {
    await holds(
      fc.property(guidLike, (text) => {
        expect(isGuid(text)).toBe(REFERENCE_GUID.test(text));
      }),
      1000,
    );
  });

  it('isGuid accepts every uuid in any case', async () => {
    await holds(
      fc.property(uuidAnyCase, (text) => {
        expect(isGuid(text)).toBe(true);
      }),
      300,
    );
  });

  it('checkEnterpriseId returns the trimmed GUID or throws UsageError(2) with a clean message', async () => {
    await holds(
      fc.property(guidLike, (text) => {
        const result = usageOr(() => checkEnterpriseId(text, '--enterprise-id'));
        expect(result.ok).toBe(REFERENCE_GUID.test(text.trim()));
        if (result.ok) expect(result.value).toBe(text.trim());
        else expect(result.error.message).not.toMatch(CONTROL);
      }),
      1000,
    );
  });

  const urlText = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'https://',
            'http://',
            'HTTPS://',
            'HtTp://',
            'ftp://',
            'file://',
            '',
            'https:',
            'http:/',
            'javascript:',
            'https:///',
          ),
          fc.constantFrom('', '', '', 'user@', 'u:p@', ':@', '@', ':pw@'),
          fc.oneof(
            fc.constantFrom(
              'api.copyl.com',
              'localhost',
              'LOCALHOST',
              '127.0.0.1',
              '127.1',
              '127.255.0.9',
              '[::1]',
              '0x7f.0.0.1',
              '2130706433',
              'localhost.',
              'example.com',
              '10.0.0.1',
              '[::ffff:127.0.0.1]',
              '',
              'a b',
              'xn--nxasmq6b',
              'münchen.de',
            ),
            nasty,
          ),
          fc.constantFrom('', '', ':8080', ':', ':0', ':65535', ':99999', ':x'),
          fc.array(fc.oneof(fc.constantFrom('/ms', '/', '//', '/%2F', '/a b', '/..', '/.', '/Environments', '\\', '/é', '/%'), piece), {
            maxLength: 3,
          }),
          fc.constantFrom('', '', '', '?', '#', '?a=1', '#x', '/?', '/#', '?#', ' ', '\n', '\t', '%', '//'),
        )
        .map(([scheme, user, host, port, path, suffix]) => `${scheme}${user}${host}${port}${path.join('')}${suffix}`),
    },
    { weight: 1, arbitrary: nasty },
    { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  );
  const padded = fc.tuple(whitespace, urlText, whitespace).map(([a, u, b]) => a + u + b);

  it('checkBaseUrl: UsageError(2) or a parseable https (or allowed http) URL without a trailing slash', async () => {
    await holds(
      fc.property(padded, fc.boolean(), (text, allowHttp) => {
        const result = usageOr(() => checkBaseUrl(text, 'CIP_BASE_URL', allowHttp));
        if (!result.ok) {
          expect(result.error.message).not.toMatch(CONTROL);
          return;
        }
        const url = new URL(result.value);
        expect(['https:', 'http:']).toContain(url.protocol);
        if (url.protocol === 'http:' && !allowHttp) expect(isLoopbackHost(url.hostname)).toBe(true);
        expect(result.value.endsWith('/')).toBe(false);
        expect(url.username).toBe('');
        expect(url.password).toBe('');
      }),
      1000,
    );
  });

  it('checkBaseUrl: an accepted base URL has no query or fragment, so /Environments appends to its path', async () => {
    await holds(
      fc.property(padded, fc.boolean(), (text, allowHttp) => {
        const result = usageOr(() => checkBaseUrl(text, 'CIP_BASE_URL', allowHttp));
        if (!result.ok) return;
        const base = new URL(result.value);
        const collection = new URL(`${result.value}/Environments`);
        expect(result.value).not.toMatch(/[?#]/);
        expect(collection.search).toBe('');
        expect(collection.hash).toBe('');
        expect(collection.pathname).toBe(`${base.pathname.replace(/\/+$/, '')}/Environments`);
      }),
      1000,
    );
  });

  it('checkProfileName accepts exactly /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/', async () => {
    const PROFILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
    const valid = fc.stringMatching(PROFILE);
    const name = fc.oneof(
      valid,
      fc.tuple(valid, piece).map(([v, p]) => v + p),
      fc.tuple(piece, valid).map(([p, v]) => p + v),
      fc.tuple(valid, fc.constantFrom('\n', ' ', '/', '..', 'x'.repeat(64))).map(([v, s]) => v + s),
      nasty,
      fc.string(),
    );
    await holds(
      fc.property(name, (text) => {
        const result = usageOr(() => checkProfileName(text));
        expect(result.ok).toBe(PROFILE.test(text));
        if (result.ok) expect(result.value).toBe(text);
        else expect(result.error.message).not.toMatch(CONTROL);
      }),
      1000,
    );
  });
});
