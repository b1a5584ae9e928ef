// The sandbox's Bearer tokens: the checks on their own (checkToken, with a fixed clock), then what a client of a
// started sandbox sees: 401 with the JWT bearer handler's challenge, 403 for another enterprise or a read-only
// token's write, the tokens it mints, and its token secret. test/reference-api/conformance.test.ts holds the
// same cases against ASP.NET Core.
import { createHmac } from 'node:crypto';
import { describe, expect } from 'vitest';
import { SANDBOX_DEFAULTS, startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { CLOCK_SKEW_SECONDS, bearerChallenge, checkToken, invariantDate, signToken, tokenMayWrite } from '../../../src/sandbox/token.js';
import { epochSeconds, makeJwt } from '../../helpers/jwt.js';
import { it, test } from '../../helpers/fixture.js';

const SECRET: string = SANDBOX_DEFAULTS.tokenSecret;
const OTHER_SECRET = 'another-secret-0123456789abcdefghijkl';
const ENTERPRISE = SANDBOX_DEFAULTS.enterpriseId;
const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';
// 2026-11-26 12:00:00 UTC
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0) / 1000;
const HOUR = 3600;

const token = (claims: Record<string, unknown> = {}, secret = SECRET) =>
  makeJwt({ sub: 'u', enterpriseId: ENTERPRISE, exp: NOW + HOUR, ...claims }, { secret });

describe('checkToken', () => {
  it('accepts a token signed with the secret, with its claims', () => {
    expect(checkToken(token({ scope: 'environments.read' }), SECRET, NOW)).toEqual({
      valid: true,
      claims: { sub: 'u', enterpriseId: ENTERPRISE, exp: NOW + HOUR, scope: 'environments.read' },
    });
  });

  it.each([
    ['no JWT at all', 'x'],
    ['two parts', token().split('.').slice(0, 2).join('.')],
    ['four parts', `${token()}.x`],
    ['a payload that is not JSON', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln'],
    ['a payload that is a JSON array', `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('[1]').toString('base64url')}.c2ln`],
    ['a header that is not base64url', `ey$.${token().split('.')[1]}.c2ln`],
  ])('calls %s malformed: invalid_token and no description', (_what, text) => {
    expect(checkToken(text, SECRET, NOW)).toEqual({ valid: false, description: '' });
  });

  it('calls a token without a signature invalid', () => {
    const unsigned = `${makeJwt({ exp: NOW + HOUR }, { header: { alg: 'none' } })
      .split('.')
      .slice(0, 2)
      .join('.')}.`;
    expect(checkToken(unsigned, SECRET, NOW)).toEqual({ valid: false, description: 'The signature is invalid' });
  });

  it.each([
    ['another secret', token({}, OTHER_SECRET)],
    ['an alg the secret cannot sign with (RS256)', makeJwt({ exp: NOW + HOUR }, { secret: SECRET, header: { alg: 'RS256', typ: 'JWT' } })],
    ['alg none and a signature', makeJwt({ exp: NOW + HOUR }, { secret: SECRET, header: { alg: 'none' } })],
    ['a signature cut short', token().slice(0, -4)],
    [
      'a payload changed after signing',
      (() => {
        const [header, , signature] = token().split('.');
        return `${header}.${Buffer.from(JSON.stringify({ enterpriseId: ENTERPRISE, exp: NOW + 2 * HOUR })).toString('base64url')}.${signature}`;
      })(),
    ],
    // The signature is checked before the lifetime, as the handler does.
    ['another secret, and expired', token({ exp: NOW - HOUR }, OTHER_SECRET)],
  ])('refuses a token with %s: no key of its own signed it', (_what, text) => {
    expect(checkToken(text, SECRET, NOW)).toEqual({ valid: false, description: 'The signature key was not found' });
  });

  it('checks HS384 and HS512 signatures with a secret as long as their hash, as the framework does', () => {
    const longSecret = 'a-secret-of-sixty-four-bytes-for-hs512-0123456789abcdefghijklmno';
    expect(Buffer.byteLength(longSecret)).toBe(64);
    for (const [alg, hash] of [
      ['HS384', 'sha384'],
      ['HS512', 'sha512'],
    ] as const) {
      const input = [{ alg }, { exp: NOW + HOUR }].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.');
      const signed = (secret: string) => `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
      expect(checkToken(signed(longSecret), longSecret, NOW).valid).toBe(true);
      expect(checkToken(signed(longSecret), OTHER_SECRET, NOW).valid).toBe(false);
      // The sandbox's own secret (36 bytes) is too short for either: no key signs them.
      expect(checkToken(signed(SECRET), SECRET, NOW)).toEqual({ valid: false, description: 'The signature key was not found' });
    }
  });

  it('says when a token expired, as .NET writes the date, past the five minutes of clock skew', () => {
    expect(checkToken(token({ exp: NOW - HOUR }), SECRET, NOW)).toEqual({
      valid: false,
      description: "The token expired at '11/26/2026 11:00:00'",
    });
    expect(checkToken(token({ exp: NOW - CLOCK_SKEW_SECONDS - 1 }), SECRET, NOW).valid).toBe(false);
    expect(checkToken(token({ exp: NOW - CLOCK_SKEW_SECONDS }), SECRET, NOW).valid).toBe(true);
  });

  it('says when a token is not valid yet, past the clock skew', () => {
    expect(checkToken(token({ nbf: NOW + HOUR, exp: NOW + 2 * HOUR }), SECRET, NOW)).toEqual({
      valid: false,
      description: "The token is not valid before '11/26/2026 13:00:00'",
    });
    expect(checkToken(token({ nbf: NOW + CLOCK_SKEW_SECONDS + 1 }), SECRET, NOW).valid).toBe(false);
    expect(checkToken(token({ nbf: NOW + CLOCK_SKEW_SECONDS }), SECRET, NOW).valid).toBe(true);
  });

  it('requires exp, and an nbf no later than it', () => {
    expect(checkToken(token({ exp: undefined }), SECRET, NOW)).toEqual({ valid: false, description: 'The token has no expiration' });
    expect(checkToken(token({ exp: '2030-01-01' }), SECRET, NOW)).toEqual({ valid: false, description: 'The token has no expiration' });
    expect(checkToken(token({ nbf: NOW + 2 * HOUR }), SECRET, NOW)).toEqual({
      valid: false,
      description: "The token lifetime is invalid; NotBefore: '11/26/2026 14:00:00', Expires: '11/26/2026 13:00:00'",
    });
  });

  it('reads its own tokens', () => {
    const claims = { enterpriseId: ENTERPRISE, exp: NOW + 1 };
    expect(checkToken(signToken(claims, SECRET), SECRET, NOW)).toEqual({ valid: true, claims });
  });
});

describe('the pieces of an answer', () => {
  it('writes the challenge as the handler does', () => {
    expect(bearerChallenge('')).toBe('Bearer error="invalid_token"');
    expect(bearerChallenge('The signature key was not found')).toBe(
      'Bearer error="invalid_token", error_description="The signature key was not found"',
    );
  });

  it('writes dates as .NET invariant culture does, with two digits for month, day and time', () => {
    expect(invariantDate(Date.UTC(2027, 0, 2, 3, 4, 5) / 1000)).toBe('01/02/2027 03:04:05');
  });

  it.each([
    [{}, true],
    [{ scope: 'environments.read environments.write' }, true],
    [{ scope: ['environments.read', 'environments.write'] }, true],
    [{ scope: 'environments.read' }, false],
    [{ scope: '' }, false],
    [{ scope: 42 }, false],
  ])('a token with %j may write: %s', (claims, may) => {
    expect(tokenMayWrite(claims)).toBe(may);
  });
});

describe('a sandbox and Bearer tokens', () => {
  test.override({ sandboxOptions: { seed: 2 } });

  function call(
    sandbox: Sandbox,
    authorization: string,
    options: { method?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const write = options.method === 'POST';
    return fetch(`${sandbox.url}/Environments`, {
      method: options.method ?? 'GET',
      headers: {
        'Ocp-Apim-Subscription-Key': sandbox.keys.subscriptionKey,
        Authorization: authorization,
        ...(write ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      body: write ? '{"name":"by-token"}' : undefined,
    });
  }

  async function expectChallenge(res: Response, challenge: string): Promise<void> {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  }

  it('lists and creates with a token it minted, without an EnterpriseId header', async ({ sandbox }) => {
    const list = await call(sandbox, `Bearer ${sandbox.token()}`);
    expect(list.status).toBe(200);
    expect(await list.json()).toHaveLength(sandbox.environments.size);
    const create = await call(sandbox, `bearer ${sandbox.token()}`, { method: 'POST' });
    expect(create.status).toBe(201);
    expect([...sandbox.environments.values()].map((record) => record.name)).toContain('by-token');
  });

  it('mints a token for an hour by default, for its enterprise, signed with its secret', ({ sandbox }) => {
    const before = epochSeconds();
    const checked = checkToken(sandbox.token(), SANDBOX_DEFAULTS.tokenSecret, before);
    expect(checked.valid).toBe(true);
    const claims = (checked as { claims: Record<string, number | string> }).claims;
    expect(claims.enterpriseId).toBe(ENTERPRISE);
    expect(claims.scope).toBeUndefined();
    expect(Number(claims.exp) - Number(claims.iat)).toBe(HOUR);
    expect(Number(claims.iat)).toBeGreaterThanOrEqual(before);
    expect(() => sandbox.token({ expiresIn: Number.NaN })).toThrow(RangeError);
  });

  it('answers an expired token with 401 and the handler challenge, having changed nothing', async ({ sandbox }) => {
    const size = sandbox.environments.size;
    const expired = sandbox.token({ expiresIn: -HOUR });
    const exp = Number(JSON.parse(Buffer.from(expired.split('.')[1]!, 'base64url').toString()).exp);
    await expectChallenge(
      await call(sandbox, `Bearer ${expired}`, { method: 'POST' }),
      `Bearer error="invalid_token", error_description="The token expired at '${invariantDate(exp)}'"`,
    );
    expect(sandbox.environments.size).toBe(size);
  });

  it.for<[string, () => string, string]>([
    [
      'a token signed with another secret',
      () => makeJwt({ enterpriseId: ENTERPRISE, exp: epochSeconds(HOUR) }, { secret: OTHER_SECRET }),
      'The signature key was not found',
    ],
    ['no JWT', () => 'x', ''],
    // Once the API key's scheme: a key after "Bearer" is a token that is no JWT.
    ['the API key after Bearer', () => SANDBOX_DEFAULTS.apiKey, ''],
  ])('answers %s with 401 invalid_token', async ([, make, description], { sandbox }) => {
    await expectChallenge(await call(sandbox, `Bearer ${make()}`), bearerChallenge(description));
  });

  it('checks the subscription key first, as API Management stands in front', async ({ sandbox }) => {
    const res = await call(sandbox, `Bearer ${sandbox.token({ expiresIn: -HOUR })}`, { headers: { 'Ocp-Apim-Subscription-Key': 'wrong' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/invalid subscription key/);
  });

  it('takes an EnterpriseId header that names the token enterprise, and refuses another or one that is no GUID', async ({ sandbox }) => {
    const valid = `Bearer ${sandbox.token()}`;
    expect((await call(sandbox, valid, { headers: { EnterpriseId: ENTERPRISE.toUpperCase() } })).status).toBe(200);
    const other = await call(sandbox, valid, { headers: { EnterpriseId: OTHER_ENTERPRISE } });
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ detail: 'The token has no access to this enterprise.' });
    // A token minted for another enterprise does not make it this sandbox's, whatever the header says.
    const minted = `Bearer ${sandbox.token({ enterpriseId: OTHER_ENTERPRISE })}`;
    expect((await call(sandbox, minted, { headers: { EnterpriseId: OTHER_ENTERPRISE } })).status).toBe(403);
    const bad = await call(sandbox, valid, { headers: { EnterpriseId: 'acme' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: { EnterpriseId: ['The EnterpriseId header must be a GUID.'] } });
  });

  it.for([
    ['another enterprise', { enterpriseId: OTHER_ENTERPRISE }],
    ['no enterprise', {}],
    ['an enterprise that is no GUID', { enterpriseId: 'acme' }],
  ] as const)('refuses a token for %s with 403, whatever the EnterpriseId header says', async ([, claims], { sandbox }) => {
    const text = makeJwt({ exp: epochSeconds(HOUR), ...claims }, { secret: sandbox.keys.tokenSecret });
    const res = await call(sandbox, `Bearer ${text}`, { headers: { EnterpriseId: OTHER_ENTERPRISE } });
    expect((await call(sandbox, `Bearer ${text}`)).status).toBe(403);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ status: 403, detail: 'The token has no access to this enterprise.' });
  });

  it('lets a read-only token read and refuses its writes with 403', async ({ sandbox }) => {
    const size = sandbox.environments.size;
    const readOnly = `Bearer ${sandbox.token({ readOnly: true })}`;
    expect((await call(sandbox, readOnly)).status).toBe(200);
    const write = await call(sandbox, readOnly, { method: 'POST' });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({ detail: 'The token lacks sufficient permissions.' });
    expect(sandbox.environments.size).toBe(size);
  });

  it('records the Authorization header as sent', async ({ sandbox }) => {
    const text = sandbox.token();
    await call(sandbox, `Bearer ${text}`);
    expect(sandbox.requests[0]?.headers.authorization).toBe(`Bearer ${text}`);
  });
});

describe('a sandbox with its own token secret', () => {
  it('accepts tokens signed with it and no others', async () => {
    const custom = await startSandbox({ tokenSecret: OTHER_SECRET });
    try {
      expect(custom.keys.tokenSecret).toBe(OTHER_SECRET);
      const send = (text: string) =>
        fetch(`${custom.url}/Environments`, {
          headers: { 'Ocp-Apim-Subscription-Key': custom.keys.subscriptionKey, Authorization: `Bearer ${text}` },
        });
      expect((await send(custom.token())).status).toBe(200);
      expect((await send(makeJwt({ enterpriseId: ENTERPRISE, exp: epochSeconds(HOUR) }, { secret: OTHER_SECRET }))).status).toBe(200);
      expect((await send(makeJwt({ enterpriseId: ENTERPRISE, exp: epochSeconds(HOUR) }, { secret: SECRET }))).status).toBe(401);
    } finally {
      await custom.close();
    }
  });

  it('refuses a secret shorter than 32 bytes, which HS256 cannot use', async () => {
    await expect(startSandbox({ tokenSecret: 'x'.repeat(31) })).rejects.toThrow(/tokenSecret must have 32 bytes at least/);
  });
});

describe("a sandbox that refuses as the framework does by itself (authErrors: 'framework')", () => {
  test.override({ sandboxOptions: { seed: 1, authErrors: 'framework' } });

  const send = (sandbox: Sandbox, headers: Record<string, string>, method = 'GET') =>
    fetch(`${sandbox.url}/Environments`, {
      method,
      headers: { 'Ocp-Apim-Subscription-Key': sandbox.keys.subscriptionKey, 'Content-Type': 'application/json', ...headers },
      body: method === 'POST' ? '{"name":"refused"}' : undefined,
    });
  const key = (apiKey: string, enterpriseId: string = ENTERPRISE) => ({
    Authorization: `ApiKey ${apiKey}`,
    EnterpriseId: enterpriseId,
  });
  const bearer = (text: string) => ({ Authorization: `Bearer ${text}` });

  /** No body, no content type: what the framework's challenge and forbid write. */
  async function expectBare(res: Response, status: number, challenge: string | null): Promise<void> {
    expect(res.status).toBe(status);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  }

  it("a refused token: the JWT bearer handler's 401, as in the default style", async ({ sandbox }) => {
    await expectBare(
      await send(sandbox, bearer(makeJwt({ enterpriseId: ENTERPRISE, exp: epochSeconds(HOUR) }, { secret: OTHER_SECRET }))),
      401,
      bearerChallenge('The signature key was not found'),
    );
  });

  it("a refused API key: an authentication handler's 401 challenge, ApiKey, with no body", async ({ sandbox }) => {
    await expectBare(await send(sandbox, key('wrong-api-key-0123456789')), 401, 'ApiKey');
  });

  it('no right: a bare 403 for another enterprise, a read-only key or token writing', async ({ sandbox }) => {
    const size = sandbox.environments.size;
    await expectBare(await send(sandbox, key(sandbox.keys.apiKey, OTHER_ENTERPRISE)), 403, null);
    await expectBare(await send(sandbox, key(sandbox.keys.readOnlyApiKey), 'POST'), 403, null);
    await expectBare(await send(sandbox, bearer(sandbox.token({ enterpriseId: OTHER_ENTERPRISE }))), 403, null);
    await expectBare(await send(sandbox, bearer(sandbox.token({ readOnly: true })), 'POST'), 403, null);
    expect(sandbox.environments.size).toBe(size);
    expect((await send(sandbox, bearer(sandbox.token({ readOnly: true })))).status).toBe(200);
  });

  it("API Management's own 401 keeps its body: it is not the framework's", async ({ sandbox }) => {
    const res = await fetch(`${sandbox.url}/Environments`, { headers: key(sandbox.keys.apiKey) });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401 });
  });

  it('refuses a style it does not know', async () => {
    await expect(startSandbox({ authErrors: 'bare' as never })).rejects.toThrow(/authErrors must be problem or framework/);
  });
});
