// The HTTP client (api/http.ts) over a scripted transport: what --verbose logs, which failures are retried,
// the words and hints of each failure (direct and through a proxy), Retry-After handling, and what goes out.
// The client is given the scripted transport as its last step (HttpOptions.transport), in place of node:http
// (direct or through a proxy), so that any answer or network error can be played, exactly, without a server;
// the errors imitate Node's (a string `code`; a refused CONNECT's ERR_PROXY_TUNNEL with its statusCode).
// And text that is not UTF-8: an answer is parsed as its charset says; a read it could not read exactly is said
// once (warn) and turns every later write of the client into an InexactReadError (exit 7) before anything is
// sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Outgoing, RawAnswer } from '../../../src/api/chain.js';
import { createHttp } from '../../../src/api/http.js';
import { ApiError, InterruptedError, NetworkError, ProtocolError, InexactReadError } from '../../../src/errors.js';
import { caught } from '../../helpers/errors.js';

type Step = RawAnswer | Error | ((request: Outgoing) => Promise<RawAnswer>);
const script: Step[] = [];
const calls: { method: string; url: string; headers: Record<string, string>; body: string | undefined }[] = [];

async function fakeTransport(request: Outgoing): Promise<RawAnswer> {
  calls.push({
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body: request.body ? new TextDecoder().decode(request.body) : undefined,
  });
  const step = script.shift() ?? answer(200, '');
  if (step instanceof Error) throw step;
  return typeof step === 'function' ? step(request) : step;
}

function answer(status: number, body: string | null, headers: Record<string, string> = {}, statusText = ''): RawAnswer {
  return {
    status,
    statusText,
    httpVersion: '1.1',
    headers: new Headers(headers),
    body: body === null ? null : new TextEncoder().encode(body),
  };
}

/** A network error as Node reports it. */
function netError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code });
}

/** A CONNECT the proxy refused, as node:https reports it. */
function proxyRefused(status: number): Error {
  const message = `Failed to establish tunnel to api.test:443 via http://proxy.corp:3128/: HTTP/1.1 ${status} No`;
  return Object.assign(new Error(message), { code: 'ERR_PROXY_TUNNEL', statusCode: status });
}

const PROXY = { variable: 'HTTPS_PROXY', url: new URL('http://proxy.corp:3128'), display: 'http://proxy.corp:3128' };
const MAYBE_DONE = "the request was sent, so it may have been carried out; check with 'cip env list' before trying again";

interface Made {
  log: string[];
  controller: AbortController;
}

async function client(options: { proxy?: typeof PROXY; timeout?: number; verbose?: boolean } = {}) {
  const made: Made = { log: [], controller: new AbortController() };
  const http = await createHttp({
    baseUrl: 'http://api.test/ms',
    headers: { Authorization: 'Bearer SECRET', 'User-Agent': 'cip/test' },
    timeout: options.timeout ?? 30,
    signal: made.controller.signal,
    log: options.verbose === false ? undefined : (line) => made.log.push(line),
    redact: (text) => text.replaceAll('SECRET', '***'),
    proxy: options.proxy,
    authHint: 'check the keys',
    transport: fakeTransport,
  });
  return { http, ...made };
}

/** Runs the work; what it gave, and the log with each "N ms" made "N ms" after checking N is no more than the work took. */
async function timed<T>(log: string[], work: () => Promise<T>): Promise<[T, string[]]> {
  const started = performance.now();
  const result = await work();
  const elapsed = performance.now() - started;
  const lines = log.map((line) =>
    line.replace(/(\(|after )(\d+) ms/, (_, before: string, ms: string) => {
      expect(Number(ms)).toBeLessThanOrEqual(Math.ceil(elapsed) + 1);
      return `${before}N ms`;
    }),
  );
  return [result, lines];
}

const failure = (promise: Promise<unknown>) => caught(promise, Error);

beforeEach(() => {
  script.length = 0;
  calls.length = 0;
});

describe('--verbose', () => {
  it('logs the request, its headers with keys hidden, and both bodies, cutting one past 2000 characters', async () => {
    const { http, log } = await client();
    script.push(answer(200, 'b'.repeat(2000), { 'content-type': 'text/plain' }));
    const [result, lines] = await timed(log, () => http.exchange('PUT', 'Environments/1', 'update it', { body: 'a'.repeat(2001) }));
    expect(result.status).toBe(200);
    expect(new TextDecoder().decode(result.body)).toBe('b'.repeat(2000));
    expect(lines).toEqual([
      '> PUT http://api.test/ms/Environments/1',
      '>   accept-encoding: gzip, deflate, br',
      '>   accept: application/json',
      '>   authorization: ***',
      '>   content-type: application/json; charset=utf-8',
      '>   user-agent: cip/test',
      '>   content-length: 2001',
      `>   body: ${'a'.repeat(2000)}… (2001 characters in all)`,
      '< 200 (N ms, 2000 bytes)',
      '<   content-type: text/plain',
      `<   body: ${'b'.repeat(2000)}`,
    ]);
    expect(calls[0]!.body).toBe('a'.repeat(2001));
  });

  it('logs no body lines for a request without one and an answer without one', async () => {
    const { http, log } = await client();
    script.push(answer(204, null, {}, 'No Content'), answer(200, ''));
    const [, all] = await timed(log, async () => {
      await http.exchange('GET', 'a', 'get a');
      await http.exchange('GET', 'b', 'get b');
    });
    const lines = all.filter((line) => !line.startsWith('>   '));
    expect(lines).toEqual([
      '> GET http://api.test/ms/a',
      '< 204 No Content (N ms, 0 bytes)',
      '> GET http://api.test/ms/b',
      '< 200 (N ms, 0 bytes)',
    ]);
    expect(log.filter((line) => line.includes('body:'))).toEqual([]);
  });

  it('names the proxy a request goes through', async () => {
    const { http, log } = await client({ proxy: PROXY });
    await http.request('GET', 'Environments', 'list environments');
    expect(log[0]).toBe('> GET http://api.test/ms/Environments (through the proxy http://proxy.corp:3128, from HTTPS_PROXY)');
  });

  it('logs each failed attempt and each retry, with its reason', async () => {
    const { http, log } = await client();
    script.push(answer(503, 'busy'), netError('ECONNRESET'), answer(200, '[]'));
    const [listed, all] = await timed(log, () => http.request('GET', 'Environments', 'list environments'));
    expect(listed).toEqual([]);
    const lines = all.filter((line) => !line.startsWith('>'));
    expect(lines).toEqual([
      '< 503 (N ms, 4 bytes)',
      '<   body: busy',
      '  retry 1 of 2 after HTTP 503',
      '< failed after N ms: connection reset (ECONNRESET)',
      '  retry 2 of 2 after connection reset (ECONNRESET)',
      '< 200 (N ms, 2 bytes)',
      '<   body: []',
    ]);
    expect(calls).toHaveLength(3);
  });

  it('a status outside 200-599 is a broken answer, logged and never retried; 599 is an API error', async () => {
    const { http, log } = await client();
    script.push(answer(600, 'x'));
    const broken = await failure(http.request('GET', 'Environments', 'list environments'));
    expect(broken).toBeInstanceOf(ProtocolError);
    expect(broken.message).toBe('cannot list environments: the API answered with an invalid HTTP status (600)');
    expect(calls).toHaveLength(1);
    expect(log.at(-1)).toMatch(/^< failed after \d+ ms: the API answered with an invalid HTTP status \(600\)$/);

    // node:http and fetch never hand over a 1xx as the answer, but the guard holds below 200 as above 599.
    script.push(answer(199, 'x'));
    const early = await failure(http.request('GET', 'Environments', 'list environments'));
    expect(early).toBeInstanceOf(ProtocolError);
    expect(early.message).toBe('cannot list environments: the API answered with an invalid HTTP status (199)');
    expect(calls).toHaveLength(2);

    script.push(answer(599, ''));
    const odd = await failure(http.request('GET', 'Environments', 'list environments'));
    expect(odd).toBeInstanceOf(ApiError);
    expect(odd.message).toBe('cannot list environments: the API failed (HTTP 599)');
  });
});

describe('network failures', () => {
  // HEAD, POST and PATCH are never retried: one attempt each.
  const cases: [string, string, Error, string, string | undefined][] = [
    ['HEAD', 'a reset', netError('ECONNRESET'), 'cannot reach api.test: connection reset (ECONNRESET)', undefined],
    ['POST', 'a reset', netError('ECONNRESET'), 'cannot reach api.test: connection reset (ECONNRESET)', MAYBE_DONE],
    ['PATCH', 'a reset', netError('ECONNRESET'), 'cannot reach api.test: connection reset (ECONNRESET)', MAYBE_DONE],
    ['POST', 'a refused connection', netError('ECONNREFUSED'), 'cannot reach api.test: connection refused (ECONNREFUSED)', undefined],
    ['POST', 'an unknown host', netError('ENOTFOUND'), 'cannot reach api.test: host not found (ENOTFOUND)', undefined],
    [
      'POST',
      'a body cut off',
      Object.assign(new Error('aborted'), { code: 'ECONNRESET' }),
      'cannot reach api.test: connection reset (ECONNRESET)',
      MAYBE_DONE,
    ],
    ['HEAD', 'an error without a code', new Error('weird failure'), 'cannot reach api.test: weird failure', undefined],
    ['HEAD', 'a code cip has no words for', netError('EWHATEVER'), 'cannot reach api.test: EWHATEVER', undefined],
  ];
  for (const [method, what, error, message, hint] of cases) {
    it(`${method} after ${what}: ${message}`, async () => {
      const { http } = await client();
      script.push(error);
      const failed = await failure(http.exchange(method as 'HEAD', 'Environments', 'do it'));
      expect(failed).toBeInstanceOf(NetworkError);
      expect(failed.message).toBe(`cannot do it: ${message}`);
      expect((failed as NetworkError).hint).toBe(hint);
      expect(calls).toHaveLength(1);
    });
  }

  it.each([
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'the server certificate is self-signed (set NODE_EXTRA_CA_CERTS to trust it) (DEPTH_ZERO_SELF_SIGNED_CERT)',
    ],
    ['CERT_NOT_YET_VALID', 'CERT_NOT_YET_VALID'],
    ['ERR_TLS_HANDSHAKE_TIMEOUT', 'ERR_TLS_HANDSHAKE_TIMEOUT'],
  ])('a certificate problem (%s) is not retried, even for GET', async (code, reason) => {
    const { http } = await client();
    script.push(netError(code), answer(200, '[]'));
    const failed = await failure(http.request('GET', 'Environments', 'list environments'));
    expect(failed.message).toBe(`cannot list environments: cannot reach api.test: ${reason}`);
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['HEAD', 'raise --timeout, or check the network'],
    ['POST', MAYBE_DONE],
  ] as const)('a %s with no answer in time: the hint says what to do', async (method, hint) => {
    const { http, log } = await client({ timeout: 0.05 });
    script.push(
      ({ signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
    );
    const [failed, lines] = await timed(log, () => failure(http.exchange(method, 'Environments', 'do it')));
    expect(failed).toBeInstanceOf(NetworkError);
    expect(failed.message).toBe('cannot do it: no answer from api.test within 0.05s');
    expect((failed as NetworkError).hint).toBe(hint);
    const last = lines.at(-1)!;
    expect(last).toMatch(/^< failed after N ms: \S/);
    expect(last).not.toMatch(/undefined/);
  });

  it("an abort with a reason of cip's own ends the request with that reason", async () => {
    const { http, controller } = await client();
    script.push(
      ({ signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
    );
    const running = failure(http.request('GET', 'Environments', 'list environments'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const reason = new InterruptedError('terminated by SIGTERM');
    controller.abort(reason);
    expect(await running).toBe(reason);
  });

  it('an abort without a reason is an interruption, whatever the request was doing', async () => {
    const { http, controller } = await client();
    script.push(
      ({ signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    const running = failure(http.request('GET', 'Environments', 'list environments'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort();
    expect(await running).toBeInstanceOf(InterruptedError);
  });
});

describe('through a proxy', () => {
  const cases: [string, Error, string, string | undefined, number][] = [
    [
      'GET',
      proxyRefused(407),
      'the proxy at http://proxy.corp:3128 asks for authentication (HTTP 407)',
      'put credentials in HTTPS_PROXY: http://USER:PASSWORD@proxy.corp:3128',
      1,
    ],
    [
      'GET',
      proxyRefused(403),
      'the proxy at http://proxy.corp:3128 refused to connect to api.test (HTTP 403)',
      "ask the proxy's administrators, or list the host in NO_PROXY",
      1,
    ],
    // A refused CONNECT never carried the request: a POST did not happen.
    ['POST', proxyRefused(502), 'the proxy at http://proxy.corp:3128 could not connect to api.test (HTTP 502)', undefined, 1],
    ['HEAD', proxyRefused(502), 'the proxy at http://proxy.corp:3128 could not connect to api.test (HTTP 502)', undefined, 1],
    [
      'POST',
      netError('ECONNREFUSED'),
      'cannot reach the proxy at http://proxy.corp:3128 (from HTTPS_PROXY): connection refused (ECONNREFUSED)',
      undefined,
      1,
    ],
    [
      'POST',
      netError('ECONNRESET'),
      'cannot reach api.test through the proxy at http://proxy.corp:3128: connection reset (ECONNRESET)',
      MAYBE_DONE,
      1,
    ],
    ['HEAD', new Error('weird failure'), 'cannot reach api.test through the proxy at http://proxy.corp:3128: weird failure', undefined, 1],
  ];
  for (const [method, error, message, hint, attempts] of cases) {
    it(`${method}: ${message}`, async () => {
      const { http } = await client({ proxy: PROXY, verbose: false });
      script.push(error, error, error);
      const failed = await failure(http.exchange(method as 'GET', 'Environments', 'do it'));
      expect(failed).toBeInstanceOf(NetworkError);
      expect(failed.message).toBe(`cannot do it: ${message}`);
      expect((failed as NetworkError).hint).toBe(hint);
      expect(calls).toHaveLength(attempts);
    });
  }

  it("an http:// request goes to the proxy whole, so a 407 answer is the proxy's: named, with the hint, not asked again", async () => {
    const forwarding = { ...PROXY, variable: 'http_proxy' };
    const { http } = await client({ proxy: forwarding, verbose: false });
    const shown: RawAnswer[] = [];
    script.push(answer(407, 'auth first', { 'Proxy-Authenticate': 'Basic realm="corp"' }));
    const failed = await failure(http.exchange('GET', 'Environments', 'do it', { failed: (seen) => shown.push(seen) }));
    expect(failed).toBeInstanceOf(NetworkError);
    expect(failed.message).toBe('cannot do it: the proxy at http://proxy.corp:3128 asks for authentication (HTTP 407)');
    expect((failed as NetworkError).hint).toBe('put credentials in http_proxy: http://USER:PASSWORD@proxy.corp:3128');
    expect(calls).toHaveLength(1);
    // `cip api -i` still shows the answer as it came.
    expect(shown.map((seen) => seen.status)).toEqual([407]);
  });

  it('inside a CONNECT tunnel, a 407 comes from the server, not the proxy', async () => {
    const { http } = await client({ proxy: PROXY, verbose: false });
    script.push(answer(407, ''));
    const failed = await failure(http.exchange('GET', 'Environments', 'do it'));
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed.message).toMatch(/^cannot do it: .*\(HTTP 407\)$/);
  });
});

describe('HTTP failures', () => {
  const cases: [string, RawAnswer, string, string | undefined][] = [
    [
      '300 is a redirect',
      answer(300, 'choose'),
      'the API answered with a redirect (HTTP 300)',
      'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url',
    ],
    [
      'a redirect names where to, redacted',
      answer(307, '', { location: 'https://elsewhere.test/SECRET' }),
      'the API answered with a redirect (HTTP 307) to https://elsewhere.test/***',
      'cip does not follow redirects, so the keys go only to the base URL you chose; check --base-url',
    ],
    ['an empty 404', answer(404, ''), 'not found (HTTP 404)', undefined],
    ['a 401 gets the hint about the keys', answer(401, ''), 'the API rejected the credentials (HTTP 401)', 'check the keys'],
    [
      "a 401 with the JWT bearer handler's challenge says its reason",
      answer(401, null, { 'www-authenticate': 'Bearer error="invalid_token", error_description="The token expired at \'x\'"' }),
      "the API rejected the credentials (HTTP 401): The token expired at 'x' (invalid_token)",
      'check the keys',
    ],
    [
      'a 2 MB challenge (past a transport that let it through) is read within its bound and cut, redacted first',
      answer(401, null, { 'www-authenticate': `Bearer error_description="SECRET ${'x'.repeat(2 * 1024 * 1024)}"` }),
      `the API rejected the credentials (HTTP 401): *** ${'x'.repeat(295)}…`,
      'check the keys',
    ],
    [
      'a 403 without a hint of the caller gets the general advice only when the server said nothing',
      answer(403, null, { 'www-authenticate': 'Bearer error="insufficient_scope"' }),
      'forbidden (HTTP 403): the token lacks a scope this needs (insufficient_scope)',
      undefined,
    ],
    [
      'a 403 that says nothing gets the general advice',
      answer(403, null),
      'forbidden (HTTP 403)',
      'the credentials lack permission for this operation or enterprise',
    ],
    [
      'a JSON body that is not JSON says nothing',
      answer(409, '"oops', { 'content-type': 'application/json' }),
      'the API rejected the request (HTTP 409)',
      undefined,
    ],
    [
      'a text body is the message',
      answer(409, '"oops', { 'content-type': 'text/plain' }),
      'the API rejected the request (HTTP 409): "oops',
      undefined,
    ],
  ];
  for (const [what, response, message, hint] of cases) {
    it(what, async () => {
      const { http } = await client({ verbose: false });
      script.push(response);
      const failed = await failure(http.request('POST', 'Environments', 'do it', { name: 'x' }));
      expect(failed.message).toBe(`cannot do it: ${message}`);
      expect((failed as ApiError).hint).toBe(hint);
    });
  }

  // A DELETE retried after an attempt that may have been carried out can find its own effect.
  const uncertain: [string, boolean, Step[]][] = [
    ['a 404 at once', false, [answer(404, '')]],
    ['a 404 after a 500', true, [answer(500, ''), answer(404, '')]],
    ['a 404 after a 503', true, [answer(503, ''), answer(404, '')]],
    ['a 404 after a 408', false, [answer(408, ''), answer(404, '')]],
    ['a 404 after a reset', true, [netError('ECONNRESET'), answer(404, '')]],
    ['a 404 after a refused connection', false, [netError('ECONNREFUSED'), answer(404, '')]],
  ];
  it.each(uncertain)('DELETE, %s: an earlier attempt may have been carried out: %s', async (_, expected, steps) => {
    const { http } = await client({ verbose: false });
    script.push(...steps);
    const failed = await failure(http.request('DELETE', 'Environments/1', 'delete it'));
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(404);
    expect((failed as ApiError).afterUncertainAttempt).toBe(expected);
    expect(calls).toHaveLength(steps.length);
  });
});

describe('what goes out and what comes back', () => {
  it('a path with a URL in its query stays below the base URL', async () => {
    const { http } = await client({ verbose: false });
    await http.request('GET', 'Environments?next=https://elsewhere.test/', 'list environments');
    expect(calls[0]!.url).toBe('http://api.test/ms/Environments?next=https://elsewhere.test/');
  });

  it('a body goes as JSON with its Content-Type; a request without one has neither', async () => {
    const { http } = await client({ verbose: false });
    await http.request('GET', 'Environments', 'list environments');
    await http.request('PUT', 'Environments/1', 'update it', { name: 'x' });
    expect(calls.map((call) => [call.method, call.headers['content-type'], call.body])).toEqual([
      ['GET', undefined, undefined],
      ['PUT', 'application/json; charset=utf-8', '{"name":"x"}'],
    ]);
    expect(calls[0]!.headers.accept).toBe('application/json');
  });

  it('an answer of only white space is no data, and its headers come back', async () => {
    const { http } = await client({ verbose: false });
    script.push(answer(200, ' \n ', { 'x-total': '3' }));
    const result = await http.send('GET', 'Environments', 'list environments');
    expect(result.data).toBeUndefined();
    expect(result.headers.get('x-total')).toBe('3');
  });

  it('cip api: a body without a Content-Type is JSON; one given is kept; extra headers go with or without a body', async () => {
    const { http } = await client({ verbose: false });
    await http.exchange('POST', 'a', 'post a', { body: '{}' });
    await http.exchange('POST', 'b', 'post b', { body: 'plain', headers: { 'Content-Type': 'text/plain' } });
    await http.exchange('GET', 'c', 'get c', { headers: { 'X-Extra': 'yes' } });
    expect(calls.map((call) => [call.method, call.headers['content-type'], call.headers['x-extra'], call.body])).toEqual([
      ['POST', 'application/json; charset=utf-8', undefined, '{}'],
      ['POST', 'text/plain', undefined, 'plain'],
      ['GET', undefined, 'yes', undefined],
    ]);
  });

  // A wait cip cannot read ('soon') changes how long it waits (below), never the headers it hands back.
  it.each([
    ['retry-after', 'soon'],
    ['retry-after', '120'],
    ['ratelimit-reset', '300000'],
    ['ratelimit-reset', '300000\u00a0'],
    ['x-ratelimit-retry-after', '0.25'],
    ['x-ratelimit-reset', 'soon1'],
    ['x-rate-limit-reset', '1soon'],
    ['retry-after', 'Wed, 21 Oct 2015 07:28:00 GMT'],
  ])('%s: %s comes back as sent', async (name, value) => {
    const { http } = await client({ verbose: false });
    script.push(answer(200, '', { [name]: value, 'x-other': 'here' }));
    const result = await http.exchange('GET', 'a', 'get a');
    expect(result.headers.get(name)).toBe(value);
    expect(result.headers.get('x-other')).toBe('here');
  });
});

describe('Retry-After', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['a 503 that says 2 seconds waits 2 seconds', 503, '2', 2000],
    ['a 429 that says 2 seconds waits 2 seconds', 429, '2', 2000],
    ['a Retry-After that means nothing: the usual backoff', 503, 'soon', 300],
    ['an empty Retry-After: the usual backoff', 503, '', 300],
    ['a 500 ignores Retry-After: the usual backoff', 500, '2', 300],
  ])('%s', async (_, status, value, wait) => {
    const { http } = await client({ verbose: false });
    script.push(answer(status, '', { 'retry-after': value }), answer(200, '[]'));
    const result = http.request('GET', 'Environments', 'list environments');
    await vi.advanceTimersByTimeAsync(wait - 50);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(2);
    expect(await result).toEqual([]);
  });

  // Its cousins: the first present is the one read, and one that means nothing means the usual backoff.
  it.each([
    ['ratelimit-reset', '2', 2000],
    // Whole seconds only, as HTTP has them (ky 2): a fraction is no wait ky reads.
    ['x-ratelimit-retry-after', '0.75', 300],
    ['x-ratelimit-retry-after', '1', 1000],
    ['x-rate-limit-reset', '1', 1000],
    ['x-ratelimit-reset', 'soon1', 300],
    ['ratelimit-reset', '1soon', 300],
    // A reset far off is waited for 30 s at most.
    ['ratelimit-reset', '300000', 30_000],
  ])('a 503 with %s: %s waits %i ms', async (name, value, wait) => {
    const { http } = await client({ verbose: false });
    script.push(answer(503, '', { [name]: value }), answer(200, '[]'));
    const result = http.request('GET', 'Environments', 'list environments');
    await vi.advanceTimersByTimeAsync(wait - 50);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(2);
    expect(await result).toEqual([]);
  });
});

const LATIN1_LIST = Buffer.from('[{"id":"a1","owner":"José"}]', 'latin1');

function charsetAnswer(status: number, body: Uint8Array, contentType: string): RawAnswer {
  return { status, statusText: '', httpVersion: '1.1', headers: new Headers({ 'content-type': contentType }), body: new Uint8Array(body) };
}

async function charsetClient(script: RawAnswer[]) {
  const sent: Outgoing[] = [];
  const warnings: string[] = [];
  const http = await createHttp({
    baseUrl: 'http://api.test/ms',
    headers: {},
    timeout: 30,
    signal: new AbortController().signal,
    redact: (text) => text,
    warn: (message) => warnings.push(message),
    transport: (request) => {
      sent.push(request);
      return Promise.resolve(script.shift() ?? charsetAnswer(200, new Uint8Array(), 'application/json'));
    },
  });
  return { http, sent, warnings };
}

describe('an answer in another charset', () => {
  it('is parsed as its charset says, and a write after it goes out', async () => {
    const { http, sent, warnings } = await charsetClient([charsetAnswer(200, LATIN1_LIST, 'application/json; charset=ISO-8859-1')]);
    expect(await http.request('GET', 'Environments', 'list environments')).toEqual([{ id: 'a1', owner: 'José' }]);
    await http.request('PUT', 'Environments/a1', 'update a1', { id: 'a1', owner: 'José' });
    expect(Buffer.from(sent[1]!.body!).toString('hex')).toBe(Buffer.from('{"id":"a1","owner":"José"}', 'utf8').toString('hex'));
    expect(sent[1]!.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(warnings).toEqual([]);
  });

  it('not valid for what it claims: shown with one warning, and every later write refused before it is sent', async () => {
    const bad = charsetAnswer(200, LATIN1_LIST, 'application/json');
    const { http, sent, warnings } = await charsetClient([bad, bad]);
    expect(await http.request('GET', 'Environments', 'list environments')).toEqual([{ id: 'a1', owner: 'Jos\ufffd' }]);
    expect(await http.request('GET', 'Environments', 'list environments')).toEqual([{ id: 'a1', owner: 'Jos\ufffd' }]);
    expect(warnings).toEqual([
      "cip could not read the API's answer to list environments exactly (it is not valid UTF-8, and its Content-Type names no charset): it is shown as well as cip can, and this run writes nothing back",
    ]);
    for (const [method, body] of [
      ['PUT', { id: 'a1' }],
      ['POST', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const error = await caught(http.request(method, 'Environments/a1', `${method} a1`, body), InexactReadError);
      expect(error).toMatchObject({
        exitCode: 7,
        message: `cannot ${method} a1: cip could not read the API's answer to list environments exactly (it is not valid UTF-8, and its Content-Type names no charset), and would send back text it could not read`,
        hint: 'nothing was sent; the API must send UTF-8, or name the charset it sends in its Content-Type',
      });
    }
    expect(sent.map((request) => request.method)).toEqual(['GET', 'GET']);
  });

  it("a write's own answer read inexactly refuses nothing after it: only what was read is sent back", async () => {
    const { http, sent, warnings } = await charsetClient([charsetAnswer(200, LATIN1_LIST, 'application/json')]);
    await http.request('PUT', 'Environments/a1', 'update a1', { id: 'a1' });
    await http.request('PUT', 'Environments/b2', 'update b2', { id: 'b2' });
    expect(sent.map((request) => request.method)).toEqual(['PUT', 'PUT']);
    expect(warnings).toHaveLength(1);
  });

  it('a body that is not JSON says what was wrong with its text too', async () => {
    const { http } = await charsetClient([
      charsetAnswer(200, Buffer.from('{"a":"b"}', 'utf16le').subarray(1), 'application/json; charset=utf-16le'),
    ]);
    const error = await caught(http.request('GET', 'Environments', 'list environments'), ProtocolError);
    expect(error.message).toBe(
      "cannot list environments: the API answered HTTP 200 with a body that is not valid JSON (it is not valid 'utf-16le', the charset its Content-Type names)",
    );
  });
});
