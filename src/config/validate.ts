// Checks on values a user types: enterprise ids, base URLs, profile names.
import { UsageError } from '../errors.js';
import { printable } from '../text/sanitize.js';

export const DEFAULT_BASE_URL = 'https://api.copyl.com/ms';
export const SECRETS_URL = 'https://app.copyl.com/en/itops/secrets';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isGuid(value: string): boolean {
  return GUID.test(value);
}

/** Returns the GUID as given, trimmed: servers may compare it as a string. */
export function checkEnterpriseId(value: string, source: string): string {
  const trimmed = value.trim();
  if (!isGuid(trimmed)) {
    throw new UsageError(`${source} must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not '${printable(value)}'`);
  }
  return trimmed;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * A base URL is what /Environments is appended to. Only https, or http to this machine (the sandbox), unless
 * the user opts in to cleartext with CIP_ALLOW_HTTP=1: keys must not cross a network in the clear by accident.
 */
export function checkBaseUrl(value: string, source: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`${source} is not a valid URL: '${printable(value)}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source} must be an https:// URL, not '${printable(value)}'`);
  }
  if (url.username || url.password) throw new UsageError(`${source} must not contain a user name or password`);
  // A bare '?' or '#' leaves search and hash empty but would still swallow the /Environments appended later.
  if (url.search || url.hash || /[?#]/.test(value)) throw new UsageError(`${source} must not contain a query or fragment`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowHttp) {
    throw new UsageError(
      `${source} uses http:// to a host that is not this machine; the API keys would travel in cleartext`,
      'use https://, or set CIP_ALLOW_HTTP=1 if you really mean it',
    );
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * Keys are long random strings. One shorter than this could not be redacted safely (it would blank out
 * ordinary words in what cip prints), so it is refused; so is anything but visible ASCII, which cannot
 * travel in an HTTP header and would otherwise surface as a crash.
 */
export const MIN_KEY_LENGTH = 16;
export const MAX_KEY_LENGTH = 1024;
const KEY = /^[\x21-\x7e]+$/;

/** A key as given, trimmed, or a usage error that names where it came from and never shows it. */
export function checkKey(value: string, what: string, source: string): string {
  return checkSecret(value, what, source, { noun: 'key', max: MAX_KEY_LENGTH });
}

/**
 * A token (a JWT, or an opaque one) is longer than a key: identity providers issue 1 to 4 KiB, with room here
 * for more claims. The limit also bounds what is decoded to read its expiry.
 */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** A token as given, trimmed: the checks of a key (visible ASCII, so it can travel in a header), up to 16 KiB. */
export function checkToken(value: string, source: string): string {
  return checkSecret(value, 'token', source, { noun: 'token', max: MAX_TOKEN_LENGTH });
}

function checkSecret(value: string, what: string, source: string, { noun, max }: { noun: string; max: number }): string {
  const key = value.trim();
  if (!KEY.test(key)) {
    throw new UsageError(
      `the ${what} from ${source} is not a valid ${noun}: it contains spaces, line breaks, control characters or characters outside ASCII`,
      `${noun}s are one word of visible ASCII characters; copy the ${noun} again`,
    );
  }
  if (key.length < MIN_KEY_LENGTH || key.length > max) {
    throw new UsageError(
      `the ${what} from ${source} is not a valid ${noun}: it has ${key.length} characters; ${noun}s have ${MIN_KEY_LENGTH} to ${max}`,
    );
  }
  return key;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

export function checkProfileName(name: string): string {
  if (!isProfileName(name)) {
    throw new UsageError(
      `invalid profile name '${printable(name)}': use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}
