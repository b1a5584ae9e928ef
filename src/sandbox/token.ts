// Bearer tokens: HS256 JWTs signed with the sandbox's secret. `checkToken` judges one as ASP.NET Core's JWT bearer
// handler does with the reference service's settings (test/reference-api/Program.cs): a token it cannot read,
// then the signature (HS256; HS384 and HS512 with a secret as long as their hash), then the lifetime with the
// framework's five minutes of clock skew; issuer and audience are not checked. A failure carries the error_description the handler puts in its WWW-Authenticate challenge.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** ASP.NET Core's default TokenValidationParameters.ClockSkew: five minutes either way. */
export const CLOCK_SKEW_SECONDS = 300;

/** The claim that names the enterprise a token acts in (a GUID). */
export const ENTERPRISE_CLAIM = 'enterpriseId';
/** The claim that may narrow a token: space-separated scopes. */
export const SCOPE_CLAIM = 'scope';
/** With a scope claim, a token may write only when it holds this scope; a token without the claim is not narrowed. */
export const WRITE_SCOPE = 'environments.write';
export const READ_SCOPE = 'environments.read';

/** RFC 7518 §3.2: an HMAC key must be at least as long as the hash; the framework refuses a shorter one. */
export const MIN_TOKEN_SECRET_BYTES = 32;

// The HMAC algorithms, and the shortest key each takes: the framework refuses a key shorter than the hash.
const HMAC: Record<string, { hash: string; minKeyBytes: number }> = {
  HS256: { hash: 'sha256', minKeyBytes: 32 },
  HS384: { hash: 'sha384', minKeyBytes: 48 },
  HS512: { hash: 'sha512', minKeyBytes: 64 },
};

export type TokenCheck =
  | { valid: true; claims: Record<string, unknown> }
  /** description: what the handler says after error="invalid_token"; '' when it says nothing more. */
  | { valid: false; description: string };

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** A compact JWS signed with HS256. */
export function signToken(claims: Record<string, unknown>, secret: string): string {
  const signingInput = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

function decodeObject(part: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function signatureMatches(header: Record<string, unknown>, signingInput: string, signature: string, secret: string): boolean {
  const hmac = typeof header.alg === 'string' ? HMAC[header.alg] : undefined;
  if (hmac === undefined || Buffer.byteLength(secret) < hmac.minKeyBytes) return false;
  const expected = createHmac(hmac.hash, secret).update(signingInput).digest();
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A NumericDate claim as whole seconds; undefined when absent or not a number. */
function numericDate(claims: Record<string, unknown>, name: string): number | undefined {
  const value = claims[name];
  return typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : undefined;
}

/** A date as .NET's DateTime.ToString(CultureInfo.InvariantCulture) writes it: MM/dd/yyyy HH:mm:ss, in UTC. */
export function invariantDate(seconds: number): string {
  const date = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${date.getUTCFullYear()} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`
  );
}

/** Whether the token is one the service accepts now, with its claims, or why not. */
export function checkToken(token: string, secret: string, nowSeconds: number): TokenCheck {
  const parts = token.split('.');
  const [headerPart = '', payloadPart = '', signature = ''] = parts;
  const header = decodeObject(headerPart);
  const claims = decodeObject(payloadPart);
  if (parts.length !== 3 || header === undefined || claims === undefined) return { valid: false, description: '' };
  // No signature at all is an invalid one; a signature no key of the server's makes (another secret, an alg it
  // cannot sign with) means, to the handler, that the key was not found.
  if (signature === '') return { valid: false, description: 'The signature is invalid' };
  if (!signatureMatches(header, `${headerPart}.${payloadPart}`, signature, secret)) {
    return { valid: false, description: 'The signature key was not found' };
  }

  const expires = numericDate(claims, 'exp');
  const notBefore = numericDate(claims, 'nbf');
  if (expires === undefined) return { valid: false, description: 'The token has no expiration' };
  if (notBefore !== undefined && notBefore > expires) {
    return {
      valid: false,
      description: `The token lifetime is invalid; NotBefore: '${invariantDate(notBefore)}', Expires: '${invariantDate(expires)}'`,
    };
  }
  if (notBefore !== undefined && notBefore > nowSeconds + CLOCK_SKEW_SECONDS) {
    return { valid: false, description: `The token is not valid before '${invariantDate(notBefore)}'` };
  }
  if (expires < nowSeconds - CLOCK_SKEW_SECONDS) {
    return { valid: false, description: `The token expired at '${invariantDate(expires)}'` };
  }
  return { valid: true, claims };
}

/** The WWW-Authenticate value the JWT bearer handler sends with a 401. */
export function bearerChallenge(description: string): string {
  return description === '' ? 'Bearer error="invalid_token"' : `Bearer error="invalid_token", error_description="${description}"`;
}

/** Whether a valid token's scope lets it write: a token without a scope claim is not narrowed. */
export function tokenMayWrite(claims: Record<string, unknown>): boolean {
  const scope = claims[SCOPE_CLAIM];
  if (scope === undefined) return true;
  // A JSON array is one claim per entry to the framework; each entry may hold several scopes.
  const entries: unknown[] = Array.isArray(scope) ? scope : [scope];
  return entries.some((entry) => typeof entry === 'string' && entry.split(' ').includes(WRITE_SCOPE));
}
