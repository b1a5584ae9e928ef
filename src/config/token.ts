// What a token's payload says, read without verifying it: cip holds no key to verify with, and needs none, as
// the server verifies every request. So the claims are used for messages only: `exp` for "the token expired"
// (said before anything is sent) and "expires soon", and who the token acts for in the line a write prints.
// Nothing here decides what cip may do. A token that is not a signed JWT (an opaque one, an encrypted one), or
// whose payload does not parse, is used as it is, with nothing known about it.
import { printable } from '../text/sanitize.js';

/** Claims take a few hundred bytes; a longer payload is not read (its token is still sent as it is). */
const MAX_PAYLOAD_CHARS = 8 * 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** NumericDate seconds beyond this (the year 5138) are not a date anyone meant. */
const MAX_EXP_SECONDS = 1e11;
/** A token that expires within this is worth a warning: a long command may outlive it. */
export const EXPIRES_SOON_MS = 5 * 60_000;

export interface TokenClaims {
  /** When the token expires (`exp`), if it says. */
  expiresAt?: Date;
  /** The enterprise a claim names (`enterpriseId`, `enterprise_id`, `enterprise`, any letter case), shown cleaned. */
  enterprise?: string;
  /** Its subject (`sub`), shown cleaned. */
  subject?: string;
}

/** A claim's value as text for a message, cleaned and cut; undefined for anything but a string or number. */
function claimText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return printable(value.trim(), 64);
}

/** The claims of a compact JWS (header.payload.signature); none for anything else. Costs at most one 8 KiB parse. */
export function readClaims(token: string): TokenClaims {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  // Three parts exactly: five is an encrypted token (JWE), whose payload cannot be read.
  if (first < 1 || second < 0 || token.includes('.', second + 1)) return {};
  const payload = token.slice(first + 1, second);
  if (payload.length > MAX_PAYLOAD_CHARS || !BASE64URL.test(payload)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const claims: Record<string, unknown> = parsed as Record<string, unknown>;
  const result: TokenClaims = {};
  const exp = Object.hasOwn(claims, 'exp') ? claims.exp : undefined;
  if (typeof exp === 'number' && exp > 0 && exp < MAX_EXP_SECONDS) result.expiresAt = new Date(exp * 1000);
  const enterpriseClaim = Object.keys(claims).find((name) => /^enterprise(_?id)?$/i.test(name));
  const enterprise = enterpriseClaim === undefined ? undefined : claimText(claims[enterpriseClaim]);
  if (enterprise !== undefined) result.enterprise = enterprise;
  const subject = Object.hasOwn(claims, 'sub') ? claimText(claims.sub) : undefined;
  if (subject !== undefined) result.subject = subject;
  return result;
}

/** The signature of a compact JWS (its third part), or nothing for any other token. */
export function signatureOf(token: string): string[] {
  const parts = token.split('.');
  return parts.length === 3 && parts[2]! !== '' ? [parts[2]!] : [];
}

export type Expiry = { state: 'unknown' } | { state: 'valid' | 'soon' | 'expired'; at: Date };

export function expiryOf(claims: TokenClaims, now: number): Expiry {
  const at = claims.expiresAt;
  if (at === undefined) return { state: 'unknown' };
  const left = at.getTime() - now;
  return { state: left <= 0 ? 'expired' : left <= EXPIRES_SOON_MS ? 'soon' : 'valid', at };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A moment in local time, to the second: "14:02:07" today, "2026-11-20 14:02:07" on another day. */
export function moment(at: Date, now: number): string {
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  const today = new Date(now);
  const sameDay = at.getFullYear() === today.getFullYear() && at.getMonth() === today.getMonth() && at.getDate() === today.getDate();
  return sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/** A span as a person says it: "40 s", "12 min", "2 h", "3 days". */
export function span(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/** "at 14:02:07 (in 2 h)", "expired at 14:02:07, 2 h ago", or "unknown (the token is not a JWT that says)". */
export function describeExpiry(expiry: Expiry, now: number): string {
  if (expiry.state === 'unknown') return 'unknown (the token is not a JWT that says)';
  const left = expiry.at.getTime() - now;
  return expiry.state === 'expired'
    ? `expired at ${moment(expiry.at, now)}, ${span(left)} ago`
    : `at ${moment(expiry.at, now)} (in ${span(left)})`;
}
