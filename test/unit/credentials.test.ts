// The Credentials value (src/config/credentials.ts) and what cip reads from a token (src/config/token.ts): the
// headers and secrets of each kind, the claims of a JWT read without verifying it, an opaque or broken token
// used as it is, the bounds on decoding, and the words of the expiry rule.
import { describe, expect, it } from 'vitest';
import {
  actingAs,
  apiKeyCredentials,
  credentialsHint,
  expiredError,
  forbiddenHint,
  expiryWarning,
  scopeKey,
  tokenCredentials,
  tokenOf,
} from '../../src/config/credentials.js';
import { describeExpiry, expiryOf, readClaims, span } from '../../src/config/token.js';
import { MAX_TOKEN_LENGTH, checkToken } from '../../src/config/validate.js';
import { UsageError } from '../../src/errors.js';
import { caught } from '../helpers/errors.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';

const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const API_KEY = 'unit-api-key-0123456789';
const SUB_KEY = 'unit-subscription-key-0123456789';
const from = (value: string, source = 'CIP_TOKEN') => ({ value, source });

describe('the Credentials value', () => {
  it('an API key sets ApiKey, the subscription key and EnterpriseId; its secrets are the two keys', () => {
    const credentials = apiKeyCredentials(from(API_KEY, 'CIP_API_KEY'), from(SUB_KEY, "profile 'a'"), from(GUID, '--enterprise-id'));
    expect(credentials.headers).toStrictEqual({
      Authorization: `ApiKey ${API_KEY}`,
      'Ocp-Apim-Subscription-Key': SUB_KEY,
      EnterpriseId: GUID,
    });
    expect(credentials.secrets).toStrictEqual([API_KEY, SUB_KEY]);
    expect(credentials.sources).toStrictEqual({ enterpriseId: '--enterprise-id', apiKey: 'CIP_API_KEY', subscriptionKey: "profile 'a'" });
    expect(tokenOf(credentials)).toBeUndefined();
  });

  it('a token sets Bearer and the subscription key, and no EnterpriseId; its secrets are the token, its signature and the key', () => {
    const token = makeJwt({ sub: 'alice', exp: epochSeconds(3600) });
    const credentials = tokenCredentials(from(token), from(SUB_KEY, 'CIP_SUBSCRIPTION_KEY'));
    expect(credentials.headers).toStrictEqual({ Authorization: `Bearer ${token}`, 'Ocp-Apim-Subscription-Key': SUB_KEY });
    // The header and payload anyone can read; with the signature they are the token.
    expect(credentials.secrets).toStrictEqual([token, SUB_KEY, token.split('.')[2]]);
    expect(tokenCredentials(from('opaque-token-0123456789abcdef'), from(SUB_KEY)).secrets).toStrictEqual([
      'opaque-token-0123456789abcdef',
      SUB_KEY,
    ]);
    expect(credentials.sources).toStrictEqual({ token: 'CIP_TOKEN', subscriptionKey: 'CIP_SUBSCRIPTION_KEY' });
  });

  it('says who acts: the enterprise of an API key, what a token says of itself, or only that it is a token', () => {
    const key = apiKeyCredentials(from(API_KEY), from(SUB_KEY), from(GUID));
    expect(actingAs(key)).toStrictEqual({ afterProfile: `enterprise ${GUID}`, alone: `in enterprise ${GUID}` });
    const withEnterprise = tokenCredentials(from(makeJwt({ enterpriseId: GUID, sub: 'alice' })), from(SUB_KEY));
    expect(actingAs(withEnterprise).alone).toBe(`with a token for enterprise ${GUID}`);
    expect(actingAs(tokenCredentials(from(makeJwt({ sub: 'alice' })), from(SUB_KEY))).alone).toBe("with a token for 'alice'");
    expect(actingAs(tokenCredentials(from('opaque-token-0123456789abcdef'), from(SUB_KEY))).alone).toBe('with a token');
  });

  it("keys completion's cache by a token's hash, never the token", () => {
    const token = makeJwt({ sub: 'alice' });
    const key = scopeKey(tokenCredentials(from(token), from(SUB_KEY)));
    expect(key).toMatch(/^token:[0-9a-f]+$/);
    expect(key).not.toContain(token.slice(0, 20));
    expect(scopeKey(tokenCredentials(from(makeJwt({ sub: 'bob' })), from(SUB_KEY)))).not.toBe(key);
    expect(scopeKey(apiKeyCredentials(from(API_KEY), from(SUB_KEY), from(GUID)))).toBe(GUID);
  });

  it('a 401 hint names where a token came from', () => {
    const stored = tokenCredentials(from(makeJwt({}), "profile 'ci'"), from(SUB_KEY, "profile 'ci'"));
    expect(credentialsHint(stored, 'ci')).toBe(
      "check the token and subscription key of profile 'ci'; 'cip auth login --profile ci --token-file -' replaces the token",
    );
    const env = tokenCredentials(from(makeJwt({})), from(SUB_KEY, 'CIP_SUBSCRIPTION_KEY'));
    expect(credentialsHint(env, undefined)).toBe('check CIP_TOKEN and CIP_SUBSCRIPTION_KEY: the keys came from the environment');
  });

  it("a 403 hint: an API key's enterprise and where it came from; a token's scope, and how to replace it", () => {
    const key = (source: string) => apiKeyCredentials(from(API_KEY), from(SUB_KEY), from(GUID, source));
    const keyWords = (source: string) =>
      `the enterprise id ${GUID} came from ${source}: is it the API key's enterprise? If it is, the key lacks permission for this`;
    expect(forbiddenHint(key('CIP_ENTERPRISE_ID'), undefined)).toBe(keyWords('CIP_ENTERPRISE_ID'));
    expect(forbiddenHint(key('--enterprise-id'), undefined)).toBe(keyWords('--enterprise-id'));
    expect(forbiddenHint(key("profile 'prod'"), 'prod')).toBe(keyWords("profile 'prod'"));
    expect(forbiddenHint(key('/work/app/.cip.json'), 'prod', '/work/app/.cip.json')).toBe(keyWords('the project file /work/app/.cip.json'));

    const scope = 'may lack the scope or role this needs, as a read-only token does, or may not act in this enterprise';
    const stored = tokenCredentials(from(makeJwt({ enterpriseId: GUID }), "profile 'ci'"), from(SUB_KEY, "profile 'ci'"));
    expect(forbiddenHint(stored, 'ci')).toBe(
      `the token from profile 'ci' ${scope}: it says it is for enterprise ${GUID}; 'cip auth login --profile ci --token-file -' replaces it with one that may`,
    );
    expect(forbiddenHint(tokenCredentials(from(makeJwt({})), from(SUB_KEY)), undefined)).toBe(
      `the token from CIP_TOKEN ${scope}; set CIP_TOKEN to one that may`,
    );
    expect(forbiddenHint(tokenCredentials(from('opaque-token-0123456789abcdef', 'somewhere'), from(SUB_KEY)), undefined)).toBe(
      `the token from somewhere ${scope}; use one that may`,
    );
  });
});

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
