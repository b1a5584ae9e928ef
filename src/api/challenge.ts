// What a refusal's WWW-Authenticate says (RFC 9110 §11.6.1, RFC 6750 §3): ASP.NET Core's JWT bearer handler
// answers a refused token with a 401, no body, and the reason in its challenge (`Bearer error="invalid_token",
// error_description="The token expired at '...'"`). The header is the server's text: it is read within a bound,
// cleaned for a terminal, and a token in it is never shown (a JWT's shape here, the run's keys by the caller's
// redaction).
import { oneLine, truncate } from '../text/sanitize.js';

/** One challenge: its scheme as sent, and its auth-params by lower-case name (the first of a name repeated). */
export interface Challenge {
  scheme: string;
  params: ReadonlyMap<string, string>;
}

/** How much of a header is read: a challenge takes a few hundred characters; the rest is never looked at. */
export const MAX_CHALLENGE_CHARS = 8 * 1024;
/** How long a reason may be when shown. */
const MAX_REASON_CHARS = 300;

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
// token68 (RFC 9110 §11.2), which stands alone after a scheme: `Basic dXNlcjpwYXNz==`.
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;

/** The challenges of a WWW-Authenticate value (several headers arrive joined with ', '). Never throws. */
export function parseChallenges(value: string): Challenge[] {
  const text = value.slice(0, MAX_CHALLENGE_CHARS);
  let at = 0;
  const skipSpace = () => {
    while (text[at] === ' ' || text[at] === '\t') at++;
  };
  const token = (): string => {
    const start = at;
    while (at < text.length && TCHAR.test(text[at]!)) at++;
    return text.slice(start, at);
  };
  const quoted = (): string => {
    // At the opening quote. A quoted-pair stands for the character after the backslash; an unterminated
    // string runs to the end of the header.
    let result = '';
    for (at++; at < text.length; at++) {
      const char = text[at]!;
      if (char === '"') {
        at++;
        return result;
      }
      if (char === '\\' && at + 1 < text.length) at++;
      result += text[at]!;
    }
    return result;
  };
  /** Past whatever cannot be read, to the next comma outside a quoted string. */
  const skipElement = () => {
    while (at < text.length && text[at] !== ',') {
      if (text[at] === '"') quoted();
      else at++;
    }
  };

  const challenges: Challenge[] = [];
  while (at < text.length) {
    skipSpace();
    if (text[at] === ',') {
      at++;
      continue;
    }
    const scheme = token();
    if (scheme === '') {
      skipElement();
      continue;
    }
    const params = new Map<string, string>();
    challenges.push({ scheme, params });
    skipSpace();
    TOKEN68.lastIndex = at;
    const standalone = TOKEN68.exec(text);
    if (standalone) {
      const after = at + standalone[0].length;
      let next = after;
      while (text[next] === ' ' || text[next] === '\t') next++;
      // A token68 is never shown (it may be a credential): it only has to be stepped over.
      if (next >= text.length || text[next] === ',') at = after;
    }
    // Its auth-params, separated by commas, up to the next challenge: a token that no '=' follows.
    for (;;) {
      skipSpace();
      while (text[at] === ',' || text[at] === ' ' || text[at] === '\t') at++;
      if (at >= text.length) break;
      const start = at;
      const name = token();
      skipSpace();
      if (name === '' || text[at] !== '=') {
        if (name !== '') {
          at = start;
          break;
        }
        skipElement();
        continue;
      }
      at++;
      skipSpace();
      const paramValue = text[at] === '"' ? quoted() : token();
      const key = name.toLowerCase();
      if (!params.has(key)) params.set(key, paramValue);
      skipSpace();
      if (at < text.length && text[at] !== ',') skipElement();
    }
  }
  return challenges;
}

/**
 * A header value as its sender most likely meant it: HTTP carries bytes, which Node reads as Latin-1; bytes
 * that are valid UTF-8 (which a server may send, though RFC 6750 allows only ASCII here) are read as UTF-8.
 */
export function headerText(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value, (char) => char.charCodeAt(0)));
  } catch {
    return value;
  }
}

// A JWT (JWS or JWE) as it is spelled anywhere: whatever token a server echoes, not only this run's.
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*)+/g;

/** Text from a server's header, already read as its sender meant, for a person: any JWT hidden, on one line. */
export function shownHeaderText(text: string): string {
  return oneLine(text.replace(JWT_SHAPE, '***'));
}

// RFC 6750 §3.1's error codes, said in words where the server gives no description.
const ERROR_WORDS: Readonly<Record<string, string>> = {
  invalid_token: 'the token is not valid',
  insufficient_scope: 'the token lacks a scope this needs',
  invalid_request: 'the request is malformed',
};

/**
 * Why the server refused, from its challenges: the first with an `error` or `error_description` (a Bearer one
 * first), as "<description> (<error>)", redacted (after its quoting is undone, so no escape hides a key), cleaned
 * and cut; undefined when none says.
 */
export function refusalReason(header: string | null, redact: (text: string) => string): string | undefined {
  if (header === null) return undefined;
  const saying = parseChallenges(header).filter(({ params }) => params.has('error') || params.has('error_description'));
  const chosen = saying.find(({ scheme }) => scheme.toLowerCase() === 'bearer') ?? saying[0];
  if (chosen === undefined) return undefined;
  const clean = (text: string | undefined) => (text === undefined ? '' : shownHeaderText(redact(headerText(text))));
  const error = clean(chosen.params.get('error'));
  const description = clean(chosen.params.get('error_description')).replace(/[.:]$/, '');
  const scope = clean(chosen.params.get('scope'));
  const code = [error, error === 'insufficient_scope' && scope ? `needs scope ${scope}` : ''].filter(Boolean).join('; ');
  const words = description || (ERROR_WORDS[error] ?? '');
  const reason = words && code && words !== code ? `${words} (${code})` : words || code;
  return reason ? truncate(reason, MAX_REASON_CHARS) : undefined;
}
