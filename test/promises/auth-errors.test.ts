// Why the API refused, said: the reason ASP.NET Core's JWT bearer handler puts in WWW-Authenticate (a 401 with no
// body) and RFC 6750's insufficient_scope on a 403, cleaned, bounded and never showing a token; the 403 hint in
// the words of the credential's kind (an API key's enterprise id and where it came from; a token's scope); and
// --verbose showing the answer's headers with credentials masked. Against the sandbox (its framework style of
// refusal too) and, for bytes node:http will not send, a raw server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { it, test, type SandboxSetup } from '../helpers/fixture.js';
import { OTHER_ENTERPRISE } from '../helpers/profiles.js';

const OTHER_SECRET = 'another-token-secret-0123456789abcdef';

test.override({ sandboxOptions: { seed: 1 } });

/** A second sandbox, refusing as the framework does by itself. */
const FRAMEWORK: SandboxSetup = { seed: 1, authErrors: 'framework' };

const raw = await rawHttpServer();

afterAll(() => raw.close());

/** A token for the raw server, which answers whatever it is sent with the bytes the test chose. */
const rawEnv = (token: string) => ({ CIP_BASE_URL: raw.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: 'raw-subscription-key-0123456789' });

function tokenEnv(server: Pick<Sandbox, 'url' | 'keys'>, token: string): Record<string, string> {
  return { CIP_BASE_URL: server.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: server.keys.subscriptionKey };
}

function keyEnv(
  server: Pick<Sandbox, 'url' | 'keys'>,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    CIP_BASE_URL: server.url,
    CIP_API_KEY: server.keys.apiKey,
    CIP_SUBSCRIPTION_KEY: server.keys.subscriptionKey,
    CIP_ENTERPRISE_ID: server.keys.enterpriseId,
    ...overrides,
  };
}

/** A token of the sandbox's enterprise, valid for an hour unless the claims say otherwise. */
const jwt = (sandbox: Sandbox, claims: Record<string, unknown> = {}, secret?: string) =>
  makeJwt(
    { sub: 'alice', enterpriseId: sandbox.keys.enterpriseId, exp: epochSeconds(3600), ...claims },
    secret === undefined ? {} : { secret },
  );

/** A 401 as the JWT bearer handler sends it: no body, the reason in the challenge. */
const challenged = (challenge: string) => ({ kind: 'status' as const, status: 401, headers: { 'WWW-Authenticate': challenge } });

const ENV_HINT = '(check CIP_TOKEN and CIP_SUBSCRIPTION_KEY: the keys came from the environment)';

describe("a refused token: the server's reason from WWW-Authenticate", () => {
  it('a token signed with another key: the signature key was not found', async ({ sandbox, cip }) => {
    const result = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox, {}, OTHER_SECRET)) });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API rejected the credentials (HTTP 401): The signature key was not found (invalid_token) ${ENV_HINT}`,
    );
  });

  it('a token not valid yet: from when, as the server says', async ({ sandbox, cip }) => {
    const nbf = epochSeconds(3600);
    const result = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox, { nbf, exp: nbf + 3600 })) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /HTTP 401\): The token is not valid before '\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d' \(invalid_token\) \(check CIP_TOKEN/,
    );
  });

  it('a token the server says expired, though this clock says it has not (a slow clock)', async ({ sandbox, cip }) => {
    sandbox.inject({ fault: challenged(`Bearer error="invalid_token", error_description="The token expired at '01/02/2026 10:00:00'"`) });
    const result = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API rejected the credentials (HTTP 401): The token expired at '01/02/2026 10:00:00' (invalid_token) ${ENV_HINT}`,
    );
  });

  it('an error without a description is said in words; one the RFC does not name, as it is', async ({ sandbox, cip }) => {
    sandbox.inject({ fault: challenged('Bearer error="invalid_token"') }, { fault: challenged('Bearer realm="x", error="revoked"') });
    const first = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
    expect(expectOneErrorLine(first.stderr)).toContain('(HTTP 401): the token is not valid (invalid_token) (check');
    const second = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
    expect(expectOneErrorLine(second.stderr)).toContain('(HTTP 401): revoked (check');
  });

  it('several challenges, escapes and parameters in any case: the Bearer one, unquoted', async ({ sandbox, cip }) => {
    sandbox.inject({
      fault: challenged(
        'ApiKey realm="ms", Basic realm="a, b", BEARER Realm="api", ERROR = "invalid_token" , Error_Description="The \\"kid\\" is unknown, try \\\\again"',
      ),
    });
    const result = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
    expect(expectOneErrorLine(result.stderr)).toContain('(HTTP 401): The "kid" is unknown, try \\again (invalid_token) (check');
  });

  it('a body and a challenge that say different things: both, once each; the same thing: once', async ({ sandbox, cip }) => {
    sandbox.inject(
      {
        fault: {
          kind: 'status',
          status: 401,
          body: JSON.stringify({ title: 'Unauthorized', detail: 'Sign in again.' }),
          headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The token expired at \'01/02/2026 10:00:00\'"' },
        },
      },
      {
        fault: {
          kind: 'status',
          status: 401,
          body: JSON.stringify({ message: 'The signature key was not found (invalid_token)' }),
          headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The signature key was not found"' },
        },
      },
    );
    const both = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
    expect(expectOneErrorLine(both.stderr)).toContain(
      "(HTTP 401): Sign in again; The token expired at '01/02/2026 10:00:00' (invalid_token) (check",
    );
    const once = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
    expect(expectOneErrorLine(once.stderr)).toContain('(HTTP 401): The signature key was not found (invalid_token) (check');
  });

  it("API Management's 401 (a challenge without an error) is said by its body alone", async ({ sandbox, cip }) => {
    const result = await cip(['env', 'list'], { env: keyEnv(sandbox, { CIP_SUBSCRIPTION_KEY: 'wrong-subscription-key-0123456789' }) });
    expect(result.exitCode).toBe(3);
    expect(expectOneErrorLine(result.stderr)).toMatch(/\(HTTP 401\): Access denied due to invalid subscription key\. .* \(check /);
  });

  it('a 403 with insufficient_scope: its description and the scope it needs', async ({ cip, sandbox, startSandbox }) => {
    const framework = await startSandbox(FRAMEWORK);
    framework.inject({
      fault: {
        kind: 'status',
        status: 403,
        headers: {
          'WWW-Authenticate':
            'Bearer error="insufficient_scope", error_description="Writes need another scope", scope="environments.write"',
        },
      },
    });
    const result = await cip(['env', 'create', '-f', 'name=x'], { env: tokenEnv(framework, jwt(sandbox)) });
    expect(result.exitCode).toBe(4);
    expect(expectOneErrorLine(result.stderr)).toContain(
      '(HTTP 403): Writes need another scope (insufficient_scope; needs scope environments.write) (the token from CIP_TOKEN may lack',
    );
  });
});

describe('hostile challenges', () => {
  it("a token the server echoes in error_description is never shown: the run's own, its signature alone, or any JWT", async ({
    sandbox,
    cip,
  }) => {
    const token = jwt(sandbox);
    const signature = token.split('.')[2]!;
    const stranger = makeJwt({ sub: 'someone-else' }, { secret: OTHER_SECRET });
    for (const echoed of [token, `sig=${signature}`, stranger, `\\${[...token].join('\\')}`]) {
      sandbox.inject({ fault: challenged(`Bearer error="invalid_token", error_description="refused ${echoed.replaceAll('"', '\\"')}"`) });
      const result = await cip(['env', 'list', '--verbose'], { env: tokenEnv(sandbox, token) });
      expect(result.exitCode).toBe(3);
      expect(expectOneErrorLine(result.stderr)).toContain('(HTTP 401): refused ');
      for (const secret of [token, signature, stranger, stranger.split('.')[2]!]) {
        expect(result.stderr).not.toContain(secret);
      }
    }
  });

  it('8-bit controls (CSI), bidi overrides and line separators in the reason are shown as ?, never obeyed', async ({ cip, sandbox }) => {
    const head = 'HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nWWW-Authenticate: Bearer error="invalid_token", error_description="';
    // What gets past Node's HTTP parser: bytes 0x80-0xff, read as Latin-1 (0x9b is CSI, 0x9d OSC), or as UTF-8.
    raw.respond(Buffer.from(`${head}red\x9b31m text\x9d0;title"\r\n\r\n`, 'latin1'));
    const c1 = await cip(['env', 'list', '--verbose'], { env: rawEnv(jwt(sandbox)) });
    expect(c1.exitCode).toBe(3);
    expect(c1.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(expectOneErrorLine(c1.stderr)).toContain('(HTTP 401): red?31m text?0;title (invalid_token)');

    raw.respond(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from('a\u202eevil\u2028next\u200bend\u0085"\r\n\r\n', 'utf8')]));
    const unicode = await cip(['env', 'list', '--verbose'], { env: rawEnv(jwt(sandbox)) });
    expect(unicode.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202e\u2028]/);
    expect(expectOneErrorLine(unicode.stderr)).toContain('(HTTP 401): a?evil next?end? (invalid_token)');
  });

  it('an ESC or DEL in a header: the answer is refused as not HTTP (exit 7), and nothing of it is shown', async ({ cip, sandbox }) => {
    raw.respond('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nWWW-Authenticate: Bearer error_description="\x1b]0;pwned\x07"\r\n\r\n');
    const result = await cip(['env', 'list'], { env: rawEnv(jwt(sandbox)) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toContain('is not HTTP that cip can read');
    expect(result.stderr).not.toContain('pwned');
  });

  it('UTF-8 in the header is read as UTF-8; Latin-1 that is no UTF-8 stays as it was sent', async ({ cip, sandbox }) => {
    const head = 'HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nWWW-Authenticate: Bearer error="invalid_token", error_description="';
    raw.respond(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from('Jetón caducó 令牌', 'utf8'), Buffer.from('"\r\n\r\n', 'latin1')]));
    const utf8 = await cip(['env', 'list'], { env: rawEnv(jwt(sandbox)) });
    expect(expectOneErrorLine(utf8.stderr)).toContain('(HTTP 401): Jetón caducó 令牌 (invalid_token)');
    raw.respond(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from('Jet\xf3n', 'latin1'), Buffer.from('"\r\n\r\n', 'latin1')]));
    const latin1 = await cip(['env', 'list'], { env: rawEnv(jwt(sandbox)) });
    expect(expectOneErrorLine(latin1.stderr)).toContain('(HTTP 401): Jetón (invalid_token)');
  });

  it('a malformed challenge is read as far as it goes, and never stops cip', async ({ sandbox, cip }) => {
    for (const challenge of ['Bearer error="invalid_token", error_description="never closed', '", , =, Bearer ,error=', 'Bearer ===,,"x']) {
      sandbox.inject({ fault: challenged(challenge) });
      const result = await cip(['env', 'list'], { env: tokenEnv(sandbox, jwt(sandbox)) });
      expect(result.exitCode).toBe(3);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: cannot list environments: the API rejected the credentials \(HTTP 401\)/);
    }
  });

  it('a 2 MB challenge: refused by the HTTP parser, one error line, nothing of it shown', async ({ cip, sandbox }) => {
    raw.respond(
      `HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nWWW-Authenticate: Bearer error="invalid_token", error_description="${'A'.repeat(2 * 1024 * 1024)}"\r\n\r\n`,
    );
    const result = await cip(['env', 'list'], { env: rawEnv(jwt(sandbox)) });
    expect(result.exitCode).toBe(7);
    expect(result.stderr.length).toBeLessThan(1000);
    expect(expectOneErrorLine(result.stderr)).toContain('is not HTTP that cip can read');
  });
});

describe('the 403 hint fits the credential', () => {
  it("a read-only token's write, answered as the framework does (403, no body): the token may lack the scope", async ({
    cip,
    startSandbox,
  }) => {
    const framework = await startSandbox(FRAMEWORK);
    const result = await cip(['env', 'create', '-f', 'name=not-made'], { env: tokenEnv(framework, framework.token({ readOnly: true })) });
    expect(result.exitCode).toBe(4);
    const line = expectOneErrorLine(result.stderr);
    expect(line).toBe(
      `error: cannot create the environment: forbidden (HTTP 403) (the token from CIP_TOKEN may lack the scope or role this needs, as a read-only token does, or may not act in this enterprise: it says it is for enterprise ${framework.keys.enterpriseId}; set CIP_TOKEN to one that may)`,
    );
    expect(line).not.toContain('API key');
    expect(framework.requests.map((request) => request.method)).toEqual(['POST']);
  });

  it("a token profile's 403 says how to replace its token", async ({ sandbox, cip }) => {
    const configDir = tempDir();
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({
        activeProfile: 'ci',
        profiles: {
          ci: {
            kind: 'token',
            baseUrl: sandbox.url,
            token: sandbox.token({ readOnly: true }),
            subscriptionKey: sandbox.keys.subscriptionKey,
          },
        },
      }),
      { mode: 0o600 },
    );
    const result = await cip(['env', 'create', '-f', 'name=not-made'], { configDir });
    expect(result.exitCode).toBe(4);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /: The token lacks sufficient permissions \(the token from profile 'ci' may lack the scope or role .*; 'cip auth login --profile ci --token-file -' replaces it with one that may\)$/,
    );
  });

  it('an API key in another enterprise: names the enterprise id and that it came from CIP_ENTERPRISE_ID', async ({ cip, startSandbox }) => {
    const framework = await startSandbox(FRAMEWORK);
    const result = await cip(['env', 'list'], { env: keyEnv(framework, { CIP_ENTERPRISE_ID: OTHER_ENTERPRISE }) });
    expect(result.exitCode).toBe(4);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: forbidden (HTTP 403) (the enterprise id ${OTHER_ENTERPRISE} came from CIP_ENTERPRISE_ID: is it the API key's enterprise? If it is, the key lacks permission for this)`,
    );
  });

  it("…from --enterprise-id, from a profile, from the project file: each named, after the server's own words", async ({ sandbox, cip }) => {
    const flag = await cip(['env', 'list', '--enterprise-id', OTHER_ENTERPRISE], {
      env: keyEnv(sandbox, { CIP_ENTERPRISE_ID: undefined }),
    });
    expect(expectOneErrorLine(flag.stderr)).toContain(
      `(HTTP 403): The API key has no access to this enterprise (the enterprise id ${OTHER_ENTERPRISE} came from --enterprise-id: is it`,
    );

    const configDir = tempDir();
    const profile = {
      baseUrl: sandbox.url,
      enterpriseId: OTHER_ENTERPRISE,
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'prod', profiles: { prod: profile } }), { mode: 0o600 });
    const fromProfile = await cip(['env', 'list'], { configDir });
    expect(expectOneErrorLine(fromProfile.stderr)).toContain(`came from profile 'prod': is it the API key's enterprise?`);

    const project = tempDir();
    writeFileSync(join(project, '.cip.json'), JSON.stringify({ enterpriseId: OTHER_ENTERPRISE }));
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ activeProfile: 'prod', profiles: { prod: { ...profile, enterpriseId: sandbox.keys.enterpriseId } } }),
      { mode: 0o600 },
    );
    const fromProject = await cip(['env', 'list'], { configDir, cwd: project });
    expect(expectOneErrorLine(fromProject.stderr)).toContain(
      `the enterprise id ${OTHER_ENTERPRISE} came from the project file ${join(project, '.cip.json')}: is it the API key's enterprise?`,
    );
  });

  it("a read-only API key's write: the server's words, then the enterprise that was used", async ({ sandbox, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=not-made'], {
      env: keyEnv(sandbox, { CIP_API_KEY: sandbox.keys.readOnlyApiKey }),
    });
    expect(result.exitCode).toBe(4);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot create the environment: forbidden (HTTP 403): The API key lacks sufficient permissions (the enterprise id ${sandbox.keys.enterpriseId} came from CIP_ENTERPRISE_ID: is it the API key's enterprise? If it is, the key lacks permission for this)`,
    );
  });
});

describe('--verbose shows the answer headers, credentials masked', () => {
  it("the challenge of a refused token, as the server sent it (cleaned), and the server's own headers", async ({ sandbox, cip }) => {
    const result = await cip(['env', 'list', '--verbose'], { env: tokenEnv(sandbox, jwt(sandbox, {}, OTHER_SECRET)) });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^< 401 Unauthorized \(\d+ ms, 0 bytes\)$/m);
    expect(result.stderr).toContain(
      '\n<   www-authenticate: Bearer error="invalid_token", error_description="The signature key was not found"\n',
    );
    expect(result.stderr).toContain('\n<   content-length: 0\n');
  });

  it('Set-Cookie, a credential header echoed back, and a key in any header are masked', async ({ sandbox, cip }) => {
    const token = jwt(sandbox);
    sandbox.inject({
      fault: {
        kind: 'status',
        status: 200,
        body: '[]',
        headers: {
          'Set-Cookie': 'session=abcdefghijklmnopqrstuvwxyz0123456789; Path=/; HttpOnly',
          'Ocp-Apim-Subscription-Key': sandbox.keys.subscriptionKey,
          'X-Echo': `you sent ${token} and ${sandbox.keys.subscriptionKey}`,
          'X-Other-Jwt': makeJwt({ sub: 'x' }, { secret: OTHER_SECRET }),
        },
      },
    });
    const result = await cip(['env', 'list', '--verbose'], { env: tokenEnv(sandbox, token) });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('\n<   set-cookie: session=***; Path=/; HttpOnly\n');
    expect(result.stderr).toContain('\n<   ocp-apim-subscription-key: ***\n');
    expect(result.stderr).toContain('\n<   x-echo: you sent *** and ***\n');
    expect(result.stderr).toContain('\n<   x-other-jwt: ***\n');
    expect(result.stderr).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(result.stderr).not.toContain(sandbox.keys.subscriptionKey);
    expect(result.stderr).not.toContain(token);
  });
});
