// JSON Web Tokens for tests: HS256-signed with a test secret (node:crypto), or with any claims and header a
// test needs (an expired one, one with no exp, a broken signature). cip itself never verifies a token: it
// reads exp for messages only; the sandbox and the reference API verify the signature.
import { createHmac } from 'node:crypto';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The secret of a sandbox started without one (and of the reference API the tests start): its tokens pass there. */
export const TEST_JWT_SECRET: string = SANDBOX_DEFAULTS.tokenSecret;

export interface JwtOptions {
  /** The signing secret (HS256); TEST_JWT_SECRET when not given. */
  secret?: string;
  /** Replaces the header ({"alg":"HS256","typ":"JWT"}). */
  header?: Record<string, unknown>;
}

/** A compact JWT: base64url(header).base64url(claims).base64url(HMAC-SHA256 signature). */
export function makeJwt(claims: Record<string, unknown>, options: JwtOptions = {}): string {
  const header = base64url(JSON.stringify(options.header ?? { alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', options.secret ?? TEST_JWT_SECRET)
    .update(`${header}.${payload}`)
    .digest();
  return `${header}.${payload}.${base64url(signature)}`;
}

/** Seconds since the epoch, as exp, iat and nbf count them, `offset` seconds from now. */
export function epochSeconds(offset = 0, now = Date.now()): number {
  return Math.floor(now / 1000) + offset;
}
