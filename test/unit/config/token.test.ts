// What cip reads from a token (src/config/token.ts): the claims of a JWT read without verifying it, an opaque or
// broken token used as it is, the bounds on decoding, and the words of the expiry rule.
import { describe, expect, it } from 'vitest';
import { expiredError, expiryWarning } from '../../../src/config/credentials/credential.js';
import { describeExpiry, expiryOf, readClaims, span } from '../../../src/config/token.js';
import { epochSeconds, makeJwt } from '../../helpers/jwt.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

describe("a token's claims, read and never verified", () => {
  it('reads exp, sub and an enterprise claim of a JWT, whatever its signature', () => {
    const exp = epochSeconds(600);
    const claims = readClaims(makeJwt({ exp, sub: 'alice', enterprise_id: GUID }, { secret: 'some-other-secret' }));
    expect(claims).toStrictEqual({ expiresAt: new Date(exp * 1000), subject: 'alice', enterprise: GUID });
  });

  it.each([
    ['an opaque token', 'opaque-token-0123456789abcdef'],
    ['an encrypted token (five parts)', 'aaaa.bbbb.cccc.dddd.eeee'],
    ['a payload that is not base64url', 'eyJhbGciOiJIUzI1NiJ9.not*base64.sig'],
    ['a payload that is not JSON', `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{exp: 1').toString('base64url')}.sig`],
    ['a payload that is a list', `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('[1,2]').toString('base64url')}.sig`],
    ['an empty payload', 'eyJhbGciOiJIUzI1NiJ9..sig'],
  ])('knows nothing of %s: it is used as it is', (_what, token) => {
    expect(readClaims(token)).toStrictEqual({});
  });

  it.each([
    ['a string', '1700000000'],
    ['a negative number', -5],
    ['a date beyond any meant', 1e12],
    ['null', null],
  ])('an exp that is %s is no expiry', (_what, exp) => {
    expect(readClaims(makeJwt({ exp })).expiresAt).toBeUndefined();
  });

  it('does not read a payload larger than claims ever are, however long the token', () => {
    const padding = 'x'.repeat(9000);
    expect(readClaims(makeJwt({ exp: epochSeconds(-60), padding }))).toStrictEqual({});
    // A token far over the limit costs one scan for its dots, not a decode.
    const huge = `a.${'b'.repeat(5_000_000)}.c`;
    const started = performance.now();
    expect(readClaims(huge)).toStrictEqual({});
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('cleans the claims it shows: control characters out, cut to 64 characters', () => {
    const claims = readClaims(makeJwt({ sub: `evil\u001b[2J${'y'.repeat(100)}` }));
    expect(claims.subject).toMatch(/^evil\?\[2Jy+…$/);
    expect(claims.subject).toHaveLength(64);
  });
});

describe('expiry', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);

  it('is expired, soon (5 minutes or less), valid, or unknown', () => {
    const at = (seconds: number) => ({ expiresAt: new Date(now + seconds * 1000) });
    expect(expiryOf(at(-1), now).state).toBe('expired');
    expect(expiryOf(at(0), now).state).toBe('expired');
    expect(expiryOf(at(300), now).state).toBe('soon');
    expect(expiryOf(at(301), now).state).toBe('valid');
    expect(expiryOf({}, now)).toStrictEqual({ state: 'unknown' });
    expect(describeExpiry({ state: 'unknown' }, now)).toBe('unknown (the token is not a JWT that says)');
  });

  it.each([
    [30_000, '30 s'],
    [12 * 60_000, '12 min'],
    [2 * 3600_000, '2 h'],
    [3 * 86400_000, '3 days'],
  ])('says a span of %d ms as %s', (ms, text) => {
    expect(span(ms)).toBe(text);
    expect(span(-ms)).toBe(text);
  });

  it('an expired token is exit 3 with where it came from and how to replace it; one about to expire is a warning', () => {
    const expired = { claims: { expiresAt: new Date(now - 2 * 3600_000) }, source: 'CIP_TOKEN' };
    const error = expiredError(expired, undefined, now)!;
    expect(error.exitCode).toBe(3);
    expect(error.message).toMatch(/^the token in CIP_TOKEN expired at \d\d:\d\d:\d\d, 2 h ago: set CIP_TOKEN to a new one$/);
    expect(error.hint).toBeUndefined();
    const stored = { claims: { expiresAt: new Date(now - 60_000) }, source: "profile 'ci'" };
    expect(expiredError(stored, 'ci', now)!.message).toMatch(
      /^the token of profile 'ci' expired at \d\d:\d\d:\d\d, 1 min ago: get a new one and log in again \(cip auth login --profile ci --token-file -\) or set CIP_TOKEN$/,
    );
    const soon = { claims: { expiresAt: new Date(now + 4 * 60_000) }, source: 'CIP_TOKEN' };
    expect(expiredError(soon, undefined, now)).toBeUndefined();
    expect(expiryWarning(soon, undefined, now)).toMatch(
      /^the token in CIP_TOKEN expires in 4 min \(at \d\d:\d\d:\d\d\): a long command may outlive it/,
    );
    expect(expiryWarning(expired, undefined, now)).toBeUndefined();
    expect(expiryWarning({ claims: {}, source: 'CIP_TOKEN' }, undefined, now)).toBeUndefined();
  });
});
