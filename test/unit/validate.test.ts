import { describe, it, expect } from 'vitest';
import { checkBaseUrl, checkEnterpriseId, checkProfileName, isGuid } from '../../src/config/validate.js';
import { escapeControls, oneLine, printable, truncate } from '../../src/text/sanitize.js';
import { CipError, UsageError } from '../../src/errors.js';

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

describe('oneLine', () => {
  it.each([
    ['plain', 'plain'],
    ['a\nb', 'a b'],
    ['a\r\nb', 'a b'],
    ['a\tb', 'a b'],
    ['a\u2028b\u2029c', 'a b c'],
    ['  padded  ', 'padded'],
    ['many    spaces', 'many spaces'],
    ['\u001b[31mred', '?[31mred'],
    ['bell\u0007', 'bell?'],
    ['del\u007f', 'del?'],
    ['c1\u009b', 'c1?'],
    ['日本 😀', '日本 😀'],
  ])('%j → %j', (text, expected) => {
    expect(oneLine(text)).toBe(expected);
  });
});

describe('escapeControls', () => {
  it.each([
    ['plain', 'plain'],
    ['a\nb', 'a\\nb'],
    ['a\rb', 'a\\rb'],
    ['a\tb', 'a\\tb'],
    ['\u001b[0m', '\\u001b[0m'],
    ['\u0000', '\\u0000'],
    ['\u007f', '\\u007f'],
    ['\u0085', '\\u0085'],
    ['\u2028', '\\u2028'],
    ['日本', '日本'],
  ])('%j → %j', (text, expected) => {
    expect(escapeControls(text)).toBe(expected);
  });
});

describe('truncate', () => {
  it.each([
    ['abc', 5, 'abc'],
    ['abcde', 5, 'abcde'],
    ['abcdef', 5, 'abcd…'],
    ['abcdef', 1, '…'],
    ['', 3, ''],
  ])('truncate(%j, %i) → %j', (text, max, expected) => {
    expect(truncate(text, max)).toBe(expected);
  });

  it('never returns more than max characters', () => {
    for (const max of [1, 2, 10, 80]) expect(truncate('x'.repeat(200), max).length).toBeLessThanOrEqual(max);
  });
});

describe('printable', () => {
  it('replaces control characters with ?', () => {
    expect(printable('a\u001b[31mb\nc')).toBe('a?[31mb?c');
  });

  it('shortens to 80 characters by default, or to max', () => {
    expect(printable('x'.repeat(200))).toHaveLength(80);
    expect(printable('x'.repeat(200)).endsWith('…')).toBe(true);
    expect(printable('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(printable('short')).toBe('short');
  });
});
