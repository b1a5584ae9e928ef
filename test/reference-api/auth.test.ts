// What cip says when the real framework refuses: the reference API (this folder) judges Bearer tokens with ASP.NET
// Core's own JWT bearer handler, which answers a refused token with a 401, no body, and the reason in
// WWW-Authenticate. cip shows that reason (an expired token, a signature key it does not know, a token not valid
// yet), fits its 403 hint to the credential (a read-only token's scope; an API key's enterprise and where it came
// from), logs the framework's headers under --verbose, and its hint for an expired token logs in again as printed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { invariantDate } from '../../src/sandbox/token.js';
import { cip, expectOneErrorLine, readConfig, tempDir } from '../helpers/cli.js';
import { cipInProcess } from '../helpers/harness.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { buildReferenceApi, hasDotnet, startReferenceApi, type ReferenceApi } from '../helpers/reference-api.js';

const OTHER_SECRET = 'another-token-secret-0123456789abcdef';
const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';
const HOUR = 3600;

describe.skipIf(!hasDotnet())("cip says why ASP.NET Core's authentication refused", () => {
  let api: ReferenceApi;
  beforeAll(async () => {
    api = await startReferenceApi(await buildReferenceApi());
  }, 180_000);
  afterAll(() => api?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const jwt = (claims: Record<string, unknown> = {}, secret?: string) =>
    makeJwt(
      { sub: 'alice', enterpriseId: api.keys.enterpriseId, exp: epochSeconds(HOUR), ...claims },
      secret === undefined ? {} : { secret },
    );
  const tokenEnv = (token: string) => ({ CIP_BASE_URL: api.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: api.keys.subscriptionKey });
  const keyEnv = (enterpriseId: string) => ({
    CIP_BASE_URL: api.url,
    CIP_API_KEY: api.keys.apiKey,
    CIP_SUBSCRIPTION_KEY: api.keys.subscriptionKey,
    CIP_ENTERPRISE_ID: enterpriseId,
  });
  const ENV_HINT = '(check CIP_TOKEN and CIP_SUBSCRIPTION_KEY: the keys came from the environment)';

  it('a token that expired, sent from a machine whose clock is two hours slow: the date the framework names', async () => {
    // cip refuses a token it knows has expired before sending it; only a client clock behind the server's lets
    // one through, so this run's clock is set back (Date alone, in-process: timers keep real time).
    const exp = epochSeconds(-HOUR);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 2 * HOUR * 1000 });
    const result = await cipInProcess(['env', 'list'], { env: tokenEnv(jwt({ exp })) });
    vi.useRealTimers();
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API rejected the credentials (HTTP 401): The token expired at '${invariantDate(exp)}' (invalid_token) ${ENV_HINT}`,
    );
  });

  it('a token signed with a key the service does not have: the signature key was not found', async () => {
    const result = await cip(['env', 'list'], { env: tokenEnv(jwt({}, OTHER_SECRET)) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API rejected the credentials (HTTP 401): The signature key was not found (invalid_token) ${ENV_HINT}`,
    );
  });

  it('a token not valid for another hour: from when', async () => {
    const nbf = epochSeconds(HOUR);
    const result = await cip(['env', 'list'], { env: tokenEnv(jwt({ nbf, exp: nbf + HOUR })) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API rejected the credentials (HTTP 401): The token is not valid before '${invariantDate(nbf)}' (invalid_token) ${ENV_HINT}`,
    );
  });

  it("--verbose logs the handler's challenge, and never the token", async () => {
    const token = jwt({}, OTHER_SECRET);
    const result = await cip(['env', 'list', '--verbose'], { env: tokenEnv(token) });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^< 401 Unauthorized \(\d+ ms, 0 bytes\)$/m);
    expect(result.stderr).toContain(
      '\n<   www-authenticate: Bearer error="invalid_token", error_description="The signature key was not found"\n',
    );
    expect(result.stderr).toMatch(/^< {3}server: Kestrel$/m);
    expect(result.stderr).not.toContain(token);
    expect(result.stderr).not.toContain(api.keys.subscriptionKey);
  });

  it("a read-only token's write: the service's 403, and a hint about the token's scope, not an API key", async () => {
    const result = await cip(['env', 'create', '-f', 'name=never-made'], { env: tokenEnv(jwt({ scope: 'environments.read' })) });
    expect(result.exitCode).toBe(4);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toBe(
      `error: cannot create the environment: forbidden (HTTP 403): The token lacks sufficient permissions (the token from CIP_TOKEN may lack the scope or role this needs, as a read-only token does, or may not act in this enterprise: it says it is for enterprise ${api.keys.enterpriseId}; set CIP_TOKEN to one that may)`,
    );
    expect(line).not.toContain('API key');
    const listed = await cip(['env', 'list', '--json'], { env: tokenEnv(jwt()) });
    expect(JSON.parse(listed.stdout)).not.toContainEqual(expect.objectContaining({ name: 'never-made' }));
  });

  it('an API key in another enterprise: the 403 names the enterprise id and where it came from', async () => {
    const result = await cip(['env', 'list'], { env: keyEnv(OTHER_ENTERPRISE) });
    expect(result.exitCode).toBe(4);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: forbidden (HTTP 403): The API key has no access to this enterprise (the enterprise id ${OTHER_ENTERPRISE} came from CIP_ENTERPRISE_ID: is it the API key's enterprise? If it is, the key lacks permission for this)`,
    );
  });

  it("the expired token's hint, run as printed with a new token on stdin, logs in again against the service", async () => {
    const configDir = tempDir();
    const sub = join(configDir, 'sub');
    writeFileSync(sub, api.keys.subscriptionKey);
    const base = ['auth', 'login', '--profile', 'ci', '--base-url', api.url, '--subscription-key-file', sub, '--token-file', '-'];
    expect((await cip(base, { configDir, input: jwt() })).exitCode).toBe(0);
    // The token expires.
    const path = join(configDir, 'config.json');
    const config = readConfig(configDir) as { profiles: { ci: { token: string } } };
    config.profiles.ci.token = jwt({ exp: epochSeconds(-600) });
    writeFileSync(path, JSON.stringify(config), { mode: 0o600 });

    const expired = await cip(['env', 'list'], { configDir });
    expect(expired.exitCode).toBe(3);
    const command = /\((cip auth login [^)]*)\)/.exec(expectOneErrorLine(expired.stderr))?.[1];
    expect(command).toBe('cip auth login --profile ci --token-file -');
    const fresh = jwt();
    const again = await cip(command!.split(' ').slice(1), { configDir, input: fresh });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("Logged in: profile 'ci'");
    expect(readConfig(configDir)).toMatchObject({ profiles: { ci: { token: fresh, subscriptionKey: api.keys.subscriptionKey } } });
    expect((await cip(['env', 'list'], { configDir })).exitCode).toBe(0);
  });
});
