// The log step (src/api/step-log.ts, --verbose): what it writes for a request, its answer or its failure, with
// secret header values masked, bodies redacted whole before they are cut, and the proxy named. The lines of a
// whole retried call are checked through the client in test/unit/api/http.test.ts.
import { describe, expect, it } from 'vitest';
import { BrokenAnswer, type Outgoing, type RawAnswer, type Step } from '../../../src/api/chain.js';
import { logged } from '../../../src/api/step-log.js';

const redact = (text: string) => text.replaceAll('SECRET', '***');
const PROXY = { variable: 'https_proxy', url: new URL('http://me:pw@proxy.corp:3128'), display: 'http://***@proxy.corp:3128' };

function outgoing(init: Partial<Outgoing> = {}): Outgoing {
  return {
    method: 'GET',
    url: 'http://api.test/ms/Environments',
    headers: new Headers(),
    body: undefined,
    signal: new AbortController().signal,
    ...init,
  };
}

function answer(status: number, body: string | null, statusText = ''): RawAnswer {
  return { status, statusText, httpVersion: '1.1', headers: new Headers(), body: body === null ? null : new TextEncoder().encode(body) };
}

/** The lines the step writes for one request, with each time made N. */
async function lines(step: Step, request = outgoing(), proxy?: typeof PROXY): Promise<string[]> {
  const log: string[] = [];
  await logged((line) => log.push(line), redact, proxy)(step)(request).catch(() => undefined);
  return log.map((line) => line.replace(/\d+ ms/, 'N ms'));
}

describe('logged', () => {
  it('masks the secret credential headers and shows the others', async () => {
    const headers = new Headers({
      Authorization: 'ApiKey SECRET',
      'Ocp-Apim-Subscription-Key': 'SECRET',
      EnterpriseId: 'ent-1',
      'X-Trace': 'abc',
    });
    expect(await lines(() => Promise.resolve(answer(204, null, 'No Content')), outgoing({ headers }))).toEqual([
      '> GET http://api.test/ms/Environments',
      '>   accept-encoding: gzip, deflate, br',
      '>   authorization: ***',
      '>   enterpriseid: ent-1',
      '>   ocp-apim-subscription-key: ***',
      '>   x-trace: abc',
      '< 204 No Content (N ms, 0 bytes)',
    ]);
  });

  it("logs the answer's headers as the request's: credentials masked, keys redacted, one line each", async () => {
    const headers = new Headers({
      'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The token SECRET expired"',
      'Set-Cookie': 'session=abc123; Path=/',
      'Ocp-Apim-Subscription-Key': 'echoed',
      'X-Request-Id': 'r-1',
    });
    const log = await lines(() => Promise.resolve({ ...answer(401, null, 'Unauthorized'), headers }));
    expect(log.slice(log.indexOf('< 401 Unauthorized (N ms, 0 bytes)'))).toEqual([
      '< 401 Unauthorized (N ms, 0 bytes)',
      '<   ocp-apim-subscription-key: ***',
      '<   set-cookie: session=***; Path=/',
      '<   www-authenticate: Bearer error="invalid_token", error_description="The token *** expired"',
      '<   x-request-id: r-1',
    ]);
  });

  it('redacts a body whole, then cuts it at 2000 characters, saying how long it was', async () => {
    // The key straddles the cut: redacted first, it cannot show in part.
    const sent = `${'a'.repeat(1997)}SECRET${'b'.repeat(10)}`;
    const log = await lines(
      () => Promise.resolve(answer(200, 'SECRET\nback')),
      outgoing({ method: 'PUT', body: new TextEncoder().encode(sent) }),
    );
    expect(log.filter((line) => line.includes('body:'))).toEqual([
      `>   body: ${'a'.repeat(1997)}***… (2013 characters in all)`,
      '<   body: *** back',
    ]);
    expect(log).toContain('>   content-length: 2013');
    expect(log).toContain('< 200 (N ms, 11 bytes)');
  });

  it('cleans and cuts a reason phrase', async () => {
    const log = await lines(() => Promise.resolve(answer(200, '', `Fine\n${'x'.repeat(100)}`)));
    expect(log.at(-1)).toBe(`< 200 Fine ${'x'.repeat(74)}… (N ms, 0 bytes)`);
  });

  it('names the proxy a request goes through', async () => {
    const log = await lines(() => Promise.resolve(answer(200, '')), outgoing(), PROXY);
    expect(log[0]).toBe('> GET http://api.test/ms/Environments (through the proxy http://***@proxy.corp:3128, from https_proxy)');
  });

  it.each([
    ['a network error, by its code', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'connection reset (ECONNRESET)'],
    [
      'a broken answer, by its message',
      new BrokenAnswer('the API answered with an invalid HTTP status (600)'),
      'the API answered with an invalid HTTP status (600)',
    ],
    [
      'a proxy that did not open its tunnel',
      Object.assign(new Error('Connection to establish proxy tunnel ended unexpectedly'), { code: 'ERR_PROXY_TUNNEL' }),
      'the proxy did not open a tunnel (ERR_PROXY_TUNNEL)',
    ],
  ])('logs a failure and passes it on: %s', async (_what, error, reason) => {
    const log: string[] = [];
    const step = logged((line) => log.push(line), redact, undefined)(() => Promise.reject(error));
    await expect(step(outgoing())).rejects.toBe(error);
    expect(log.at(-1)).toMatch(new RegExp(`^< failed after \\d+ ms: ${reason.replace(/[()]/g, '\\$&')}$`));
  });
});
