// Edge cases of the small pure modules: exact JSON numbers (src/json/), text cleaning (src/text/), key
// redaction (src/secrets.ts), environment switches (src/env.ts) and user-typed values (src/config/validate.ts).
import { describe, expect, it } from 'vitest';
import {
  ExactNumber,
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  isExactNumber,
  numberFromText,
  parseExactJson,
  scanJson,
  stringifyExactJson,
} from '../../src/json/exact.js';
import { isRecord } from '../../src/json/record.js';
import { escapeControls, escapeJsonForTerminal, oneLine, printable, truncate } from '../../src/text/sanitize.js';
import { Secrets } from '../../src/secrets.js';
import { isTruthyEnv, nonEmpty } from '../../src/env.js';
import { MAX_KEY_LENGTH, MIN_KEY_LENGTH, checkBaseUrl, checkKey, isLoopbackHost } from '../../src/config/validate.js';
import { UsageError } from '../../src/errors.js';

describe('exact numbers', () => {
  it('an ExactNumber reads as its digits in text and as the nearest double in arithmetic', () => {
    const huge = new ExactNumber('9007199254740993');
    expect(`${huge}`).toBe('9007199254740993');
    expect(String(huge)).toBe('9007199254740993');
    expect(+huge).toBe(9007199254740992);
    expect(Number(new ExactNumber('1e400'))).toBe(Infinity);
    expect(isExactNumber(huge)).toBe(true);
    expect(isExactNumber(9007199254740992)).toBe(false);
    expect(isExactNumber({ text: '1' })).toBe(false);
  });

  it('numberFromText keeps a plain number plain and anything else exact', () => {
    expect(numberFromText('42')).toBe(42);
    expect(numberFromText('-0.5')).toBe(-0.5);
    expect(numberFromText('1.50')).toEqual(new ExactNumber('1.50'));
    expect(numberFromText('1E3')).toEqual(new ExactNumber('1E3'));
    expect(numberFromText('-0')).toEqual(new ExactNumber('-0'));
  });

  it('parses JSON nested exactly as deep as allowed, and refuses one level more', () => {
    expect(MAX_JSON_DEPTH).toBe(1000);
    const deepest = `${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(scanJson(deepest).depth).toBe(MAX_JSON_DEPTH);
    expect(parseExactJson(deepest)).toBeDefined();
    const tooDeep = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseExactJson(tooDeep)).toThrow(new JsonTooDeepError());
    expect(new JsonTooDeepError().message).toBe('JSON nested deeper than 1000 levels');
    expect(new JsonTooDeepError()).toBeInstanceOf(SyntaxError);
  });

  it('counts depth as the deepest nesting, not the number of brackets', () => {
    expect(scanJson('[[1],[2],[3]]').depth).toBe(2);
    expect(scanJson('{"a":[{}],"b":{"c":[]}}').depth).toBe(3);
    expect(scanJson('"[[[[" ').depth).toBe(0);
    expect(scanJson('[]').depth).toBe(1);
  });

  it('skips brackets and digits inside strings, escaped quotes included', () => {
    expect(scanJson(String.raw`["a\"[[[", 1]`)).toEqual({ plainNumbers: true, depth: 1 });
    expect(scanJson(String.raw`["a\\", 1.50]`)).toEqual({ plainNumbers: false, depth: 1 });
    expect(scanJson(String.raw`["a\\\"1.50", 2]`)).toEqual({ plainNumbers: true, depth: 1 });
    expect(scanJson('{"9007199254740993": 1}')).toEqual({ plainNumbers: true, depth: 1 });
  });

  it('stops at an unterminated string with what it has seen', () => {
    expect(scanJson('[[1.50, "open')).toEqual({ plainNumbers: false, depth: 2 });
  });

  it.each([
    ['123456789012345', true],
    ['1234567890123456', true],
    ['9007199254740993', false],
    ['-5', true],
    ['-0', false],
    ['0', true],
    ['1.5', true],
    ['1.50', false],
    ['1e5', false],
    ['1E5', false],
    ['1e+5', false],
    ['1e-7', true],
    ['2.5e-7', true],
    ['1e21', false],
    ['1e+21', true],
    ['123.0', false],
  ])('the number %s is plain: %s', (number, plain) => {
    expect(scanJson(`[${number}]`).plainNumbers).toBe(plain);
    expect(scanJson(`{"k":${number}}`).plainNumbers).toBe(plain);
  });

  it('parses with JSON.parse when every number is plain and exactly otherwise', () => {
    expect(parseExactJson('{"a":[1,2.5,-3]}')).toEqual({ a: [1, 2.5, -3] });
    const value = parseExactJson('{"id":9007199254740993,"n":1}') as Record<string, unknown>;
    expect(value.id).toEqual(new ExactNumber('9007199254740993'));
    expect(value.n).toBe(1);
    expect(() => parseExactJson('{"a":')).toThrow(SyntaxError);
  });

  it('writes every ExactNumber with its digits, once or many times, indented or not', () => {
    const a = new ExactNumber('9007199254740993');
    const b = new ExactNumber('1.50');
    expect(stringifyExactJson({ a, b, c: [b, 'text', a] })).toBe('{"a":9007199254740993,"b":1.50,"c":[1.50,"text",9007199254740993]}');
    expect(stringifyExactJson([a], 2)).toBe('[\n  9007199254740993\n]');
    expect(stringifyExactJson({ plain: 1, s: 'x' })).toBe('{"plain":1,"s":"x"}');
    expect(stringifyExactJson(undefined)).toBeUndefined();
  });

  it('isRecord: an object, not null, an array or an exact number', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord(new ExactNumber('1.0'))).toBe(false);
    expect(isRecord('x')).toBe(false);
  });
});

describe('text cleaning', () => {
  it('oneLine: tabs and line separators become single spaces, other controls a ?', () => {
    expect(oneLine(' a\tb\u2028c\u2029d\r\ne ')).toBe('a b c d e');
    expect(oneLine('a\u0007b\u009bc\u202ed\u200be\ufeff')).toBe('a?b?c?d?e?');
    expect(oneLine('a   b')).toBe('a b');
    expect(oneLine('a\u200cb\u200dc')).toBe('a\u200cb\u200dc');
  });

  it('escapeControls writes each control as an escape a reader can tell apart', () => {
    expect(escapeControls('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(escapeControls('\u0001\u001b\u007f\u009b\u202e\u2066\ufeff')).toBe('\\u0001\\u001b\\u007f\\u009b\\u202e\\u2066\\ufeff');
    expect(escapeControls('plain ü')).toBe('plain ü');
  });

  it('escapeJsonForTerminal escapes what JSON.stringify leaves raw, and nothing else', () => {
    expect(escapeJsonForTerminal('{\n  "a": "x\u009by\u200bz\u2028"\n}')).toBe('{\n  "a": "x\\u009by\\u200bz\\u2028"\n}');
    expect(escapeJsonForTerminal('"\u0061\u00e9"')).toBe('"aé"');
  });

  it('truncate keeps text up to the limit and ends cut text with one ellipsis', () => {
    expect(truncate('abcde', 5)).toBe('abcde');
    expect(truncate('abcdef', 5)).toBe('abcd…');
    expect(truncate('abc', 1)).toBe('…');
    expect(truncate('abc', 0)).toBe('…');
  });

  it('printable replaces controls with ? and cuts at 80 characters unless told', () => {
    expect(printable('a\nb\tc')).toBe('a?b?c');
    expect(printable('x'.repeat(80))).toBe('x'.repeat(80));
    expect(printable('x'.repeat(81))).toBe(`${'x'.repeat(79)}…`);
    expect(printable('abcdef', 3)).toBe('ab…');
  });
});

describe('redaction', () => {
  it('redacts a key that arrives with spaces around it, and its lower-case URL encoding', () => {
    const secrets = new Secrets();
    secrets.add('  key/with+signs=0123456789  ');
    expect(secrets.redact('a key/with+signs=0123456789 b')).toBe('a *** b');
    expect(secrets.redact('q=key%2fwith%2bsigns%3d0123456789&x')).toBe('q=***&x');
    expect(secrets.redact('q=key%2Fwith%2Bsigns%3D0123456789&x')).toBe('q=***&x');
  });

  it('redacts every occurrence, and ignores empty or missing keys', () => {
    const secrets = new Secrets();
    secrets.add(undefined);
    secrets.add('');
    secrets.add('                    ');
    expect(secrets.redact('nothing to hide  ')).toBe('nothing to hide  ');
    secrets.add('abcdefghijklmnopqrst');
    expect(secrets.redact('abcdefghijklmnopqrst-abcdefghijklmnopqrst')).toBe('***-***');
  });

  it('changes nothing before a key is registered', () => {
    const secrets = new Secrets();
    for (const text of ['', 'plain text', 'Stryker was here', '*** already']) expect(secrets.redact(text)).toBe(text);
  });

  it('a key registered twice is still redacted', () => {
    const secrets = new Secrets();
    secrets.add('repeated-key-0123456789');
    secrets.add('repeated-key-0123456789');
    expect(secrets.redact('[repeated-key-0123456789]')).toBe('[***]');
  });

  it('accepts a key of exactly the shortest length cip takes', () => {
    expect(MIN_KEY_LENGTH).toBe(16);
    const secrets = new Secrets();
    secrets.add('k'.repeat(MIN_KEY_LENGTH));
    expect(secrets.redact(`<${'k'.repeat(MIN_KEY_LENGTH)}>`)).toBe('<***>');
  });
});

describe('environment switches', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['FALSE', false],
    ['False', false],
    ['1', true],
    ['true', true],
    ['yes', true],
    ['no', true],
  ])('isTruthyEnv(%j) is %s', (value, expected) => {
    expect(isTruthyEnv(value)).toBe(expected);
  });

  it('nonEmpty: blank is unset, anything else is kept as it is', () => {
    expect(nonEmpty(undefined)).toBeUndefined();
    expect(nonEmpty('')).toBeUndefined();
    expect(nonEmpty(' \t\n')).toBeUndefined();
    expect(nonEmpty(' x ')).toBe(' x ');
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
