// Where a request goes. Every URL cip sends the keys to is built here, one way, and checked once it is built:
// a URL parser reads '\\host' and '/\/host' as a host, removes tabs and line breaks, and resolves '..', so
// only the URL it ends up with can say where the keys would go.
import { UsageError } from '../errors.js';
import { hideCredentials, printable } from '../text/sanitize.js';

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Why the keys must not go to `url`, or undefined when they may: it must be on the base URL's origin (scheme,
 * host and port, so never http:// beside an https:// base URL) and hold no user name or password (fetch
 * refuses to send such a URL, with a message that shows the password).
 */
export function refusalOf(url: URL, baseUrl: string): 'origin' | 'credentials' | undefined {
  if (url.origin !== new URL(baseUrl).origin) return 'origin';
  if (url.username || url.password) return 'credentials';
  return undefined;
}

/**
 * The URL a request for `target` goes to: an absolute URL as it is, anything else a path below the base URL
 * (leading slashes dropped, then resolved as a link is, so '..' climbs). Refused (exit 2, before anything is
 * sent) when it holds a control character, is no URL, or lands off the base URL's origin.
 */
export function requestUrl(baseUrl: string, target: string): URL {
  const refuse = (problem: string) => new UsageError(problem, 'nothing was sent: the keys go only to the base URL');
  if (CONTROL.test(target)) throw refuse(`'${printable(hideCredentials(target))}' holds a control character`);
  let url: URL;
  try {
    url = ABSOLUTE.test(target) ? new URL(target) : new URL(target.replace(/^\/+/, ''), `${baseUrl}/`);
  } catch {
    throw new UsageError(`'${printable(hideCredentials(target))}' is not a URL`);
  }
  const refusal = refusalOf(url, baseUrl);
  if (refusal === 'origin') throw refuse(`${printable(url.origin, 100)} is not the base URL's origin (${new URL(baseUrl).origin})`);
  if (refusal === 'credentials') throw refuse(`'${printable(hideCredentials(url.href))}' holds a user name or password`);
  url.hash = '';
  return url;
}
