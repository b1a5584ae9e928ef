// The transport, the last step of the request path (src/api/transport.ts; decoding in src/api/body.ts),
// called directly against servers on 127.0.0.1, directly and through a proxy (test/helpers/connect-proxy.ts):
// what it returns (status, headers, the body decoded or null), what the server receives (the headers node:http
// adds, a fresh connection for a POST or PATCH), the answer limit (declared, streamed, decoded) with its message,
// a body that does not decode, the abort signal, node:https for an https:// URL, and the errors Node gives for a
// proxy that refuses, hangs up or is down, as the error helpers (src/api/network-errors.ts) read them; those
// helpers are also checked as pure functions. A CA that the binary would take from NODE_EXTRA_CA_CERTS is
// handed to node:https.
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrokenAnswer, type Outgoing, type Step as Transport } from '../../../src/api/chain.js';
import { causeChain, errorCode, handshakeFailure, notConnected, notSent, proxyStatus } from '../../../src/api/network-errors.js';
import type { ProxyChoice } from '../../../src/api/proxy.js';
import { nodeTransport } from '../../../src/api/transport.js';
import { tempDir } from '../../helpers/cli.js';
import { startConnectProxy, type ConnectProxy } from '../../helpers/connect-proxy.js';
import { refusedUrl } from '../../helpers/ports.js';
import { rawHttpServer } from '../../helpers/raw-http.js';
import { recordingServer, type Handler, type RecordingServer } from '../../helpers/recording-server.js';
import { makeCertificate } from '../../helpers/tls.js';

const trust = vi.hoisted(() => ({ ca: undefined as string | undefined }));

vi.mock('node:https', async (importOriginal) => (await import('../../helpers/trusted-ca.js')).httpsTrusting(await importOriginal(), trust));

interface TestServer extends RecordingServer {
  url: string;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Handler, make?: Parameters<typeof recordingServer>[1]): Promise<TestServer> {
  const server = await recordingServer(handler, make);
  const test = { ...server, url: `${server.origin}/ms/environments` };
  servers.push(test);
  return test;
}

/** A server that answers every request with this status, these headers and this body. */
function answering(status: number, headers: Record<string, string>, body: Buffer | string = ''): Promise<TestServer> {
  return serve((_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  });
}

function send(transport: Transport, url: string, init: Partial<Outgoing> = {}) {
  return transport({ method: 'GET', url, headers: new Headers(), body: undefined, signal: new AbortController().signal, ...init });
}

const text = (body: Uint8Array | null) => (body === null ? null : Buffer.from(body).toString());

/** A body the limit refuses, and the message it is refused with. */
const TOO_LARGE = (limit: string) => `answer too large: the API sent more than ${limit} (CIP_MAX_ANSWER_BYTES sets the limit)`;

describe('causeChain and errorCode', () => {
  /** An error whose causes are these, outermost first. */
  const chain = (...links: Record<string, unknown>[]): unknown =>
    links.reduceRight<unknown>((cause, link) => Object.assign(new Error('link'), link, cause ? { cause } : {}), undefined);

  it.each([
    ['the first code', chain({ code: 'ECONNRESET' }, { code: 'EPIPE' }), 'ECONNRESET'],
    ['a code in a cause', chain({}, { code: 'ECONNRESET' }), 'ECONNRESET'],
    ['an empty code is no code', chain({ code: '' }, { code: 'ETIMEDOUT' }), 'ETIMEDOUT'],
    ['a number is no code', chain({ code: 42 }, { code: 'EAI_AGAIN' }), 'EAI_AGAIN'],
    ['no code anywhere', chain({}, {}), undefined],
    ['the fifth error in the chain is looked at', chain({}, {}, {}, {}, { code: 'DEEP' }), 'DEEP'],
    ['the sixth is not', chain({}, {}, {}, {}, {}, { code: 'DEEPER' }), undefined],
    ['not an error', 'ECONNRESET', undefined],
    ['nothing', undefined, undefined],
  ])('%s', (_what, error, code) => {
    expect(errorCode(error)).toBe(code);
  });

  it('a chain is followed five errors deep at most, and ends where the causes end', () => {
    expect([...causeChain(chain({}, {}, {}, {}, {}, {}, {}))]).toHaveLength(5);
    expect([...causeChain(chain({}, {}))]).toHaveLength(2);
    expect([...causeChain(null)]).toEqual([]);
  });
});

describe('handshakeFailure', () => {
  const openssl = (reason: string) => `write EPROTO 80BC:error:0A00042E:SSL routines:ssl3_read_bytes:${reason}:../ssl/rec_layer_s3.c:1601:`;
  const eproto = (reason: string) => Object.assign(new Error(openssl(reason)), { code: 'EPROTO' });

  it.each([
    [
      'an old version, refused by the server',
      eproto('tlsv1 alert protocol version'),
      /^the server offers only a TLS version older than 1\.2 .*\(OpenSSL: tlsv1 alert protocol version\)$/,
    ],
    [
      'an old version, refused by Node',
      eproto('unsupported protocol'),
      /^the server offers only a TLS version older than 1\.2 .*\(OpenSSL: unsupported protocol\)$/,
    ],
    ['no TLS at all', eproto('wrong version number'), /^the server did not answer in TLS \(OpenSSL: wrong version number\)$/],
    ['no cipher in common', eproto('sslv3 alert handshake failure'), /^the server accepts none of the cipher suites Node offers \(/],
    [
      'a reason in the code, not the message',
      Object.assign(new Error('x'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }),
      /^the server did not answer in TLS \(OpenSSL: wrong version number\)$/,
    ],
    ['a reason it has no words for', eproto('bad record mac'), /^OpenSSL: bad record mac$/],
    ['EPROTO without a reason', Object.assign(new Error('EPROTO'), { code: 'EPROTO' }), /^OpenSSL: EPROTO$/],
    ['a wrapped error', new TypeError('request failed', { cause: eproto('tlsv1 alert protocol version') }), /^the server offers only/],
  ])('%s', (_what, error, reason) => {
    expect(handshakeFailure(error)?.reason).toMatch(reason);
  });

  it.each([
    Object.assign(new Error(openssl('tlsv1 alert protocol version')), { code: 'ECONNRESET' }),
    Object.assign(new Error('self-signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
    'EPROTO',
  ])('is no handshake failure: %s', (error) => {
    expect(handshakeFailure(error)).toBeUndefined();
  });
});

let proxy: ConnectProxy;
beforeAll(async () => {
  proxy = await startConnectProxy();
});
afterAll(() => proxy.close());

/** The choice api/proxy.ts would make for the test proxy, for a target of this scheme. */
function through(url: string, variable = 'HTTP_PROXY'): ProxyChoice {
  return { variable, url: new URL(url), display: url };
}

describe.each([
  ['directly', (limit: number) => nodeTransport(limit)],
  ['through a proxy', (limit: number) => nodeTransport(limit, through(proxy.url))],
])('node:http (%s)', (_name, make) => {
  it('return the status, reason, headers and body as sent', async () => {
    const server = await answering(201, { 'Content-Type': 'application/json', 'X-One': '1', 'X-Two': 'two' }, '{"id":"e1"}');
    const answer = await send(make(1000), server.url, {
      method: 'PUT',
      headers: new Headers({ 'x-api-key': 'k' }),
      body: new TextEncoder().encode('{"name":"a"}'),
    });
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Created');
    expect(answer.httpVersion).toBe('1.1');
    expect(answer.headers.get('x-one')).toBe('1');
    expect(answer.headers.get('x-two')).toBe('two');
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect([...answer.headers.keys()]).not.toContain('undefined');
    expect([...answer.headers.values()]).not.toContain('undefined');
    expect(text(answer.body)).toBe('{"id":"e1"}');
    expect(server.received).toEqual([
      expect.objectContaining({
        method: 'PUT',
        url: '/ms/environments',
        body: '{"name":"a"}',
        headers: expect.objectContaining({ 'x-api-key': 'k', 'content-length': '12' }) as unknown,
      }),
    ]);
    expect(server.received[0]!.headers['transfer-encoding']).toBeUndefined();
  });

  it('an empty body is empty, not missing', async () => {
    const server = await answering(200, { 'Content-Length': '0' });
    expect((await send(make(1000), server.url)).body).toEqual(new Uint8Array(0));
  });

  it.each([204, 205, 304])('a %i has no body (null)', async (status) => {
    const server = await answering(status, {});
    const answer = await send(make(1000), server.url);
    expect(answer.status).toBe(status);
    expect(answer.body).toBeNull();
  });

  it('a body of exactly the limit is read; one byte more is refused, declared or not', async () => {
    const exact = await answering(200, { 'Content-Length': '1000' }, 'x'.repeat(1000));
    expect(text((await send(make(1000), exact.url)).body)).toBe('x'.repeat(1000));
    const declared = await answering(200, {}, 'x'.repeat(1001));
    const error = await send(make(1000), declared.url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokenAnswer);
    expect((error as Error).message).toBe(TOO_LARGE('1000 bytes'));
    const streamed = await serve((_request, response) => {
      response.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      response.write('x'.repeat(600));
      response.end('x'.repeat(401));
    });
    await expect(send(make(1000), streamed.url)).rejects.toThrow(TOO_LARGE('1000 bytes'));
  });

  it.each([
    [1024 * 1024, '1 MiB'],
    [2 * 1024 * 1024, '2 MiB'],
    [1024 * 1024 + 1, '1048577 bytes'],
    [1536, '1536 bytes'],
  ])('the limit %i is shown as %s', async (limit, shown) => {
    const server = await answering(200, { 'Content-Length': String(limit + 1) }, Buffer.alloc(limit + 1));
    await expect(send(make(limit), server.url)).rejects.toThrow(TOO_LARGE(shown));
  });

  it('a declared length past the limit is refused before the body comes', async () => {
    // Ten bytes of 2000, then the connection ends: only a refusal on the header says "too large".
    const raw = await rawHttpServer();
    try {
      raw.respond(`HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n${'x'.repeat(10)}`);
      await expect(send(make(1000), raw.url)).rejects.toThrow(TOO_LARGE('1000 bytes'));
    } finally {
      await raw.close();
    }
  });

  it('a body past the limit closes the connection, so the rest is not downloaded', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write(Buffer.alloc(1001, 0x20));
      // Never ended: only the client closing the connection ends it.
    });
    await expect(send(make(1000), server.url)).rejects.toThrow(TOO_LARGE('1000 bytes'));
    await server.closed(0);
  });

  it('gzip is decoded; gzip that is not gzip is a broken answer that names the coding', async () => {
    const list = JSON.stringify([{ id: 'e1', name: 'a'.repeat(100) }]);
    const good = await answering(200, { 'Content-Encoding': 'gzip' }, gzipSync(list));
    expect(text((await send(make(1000), good.url)).body)).toBe(list);
    const bad = await answering(200, { 'Content-Encoding': 'gzip' }, 'not gzip at all');
    const error = await send(make(1000), bad.url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokenAnswer);
    expect((error as Error).message).toBe('the API answered with a body that is not valid gzip data, though its Content-Encoding says so');
  });
});

describe('node:http', () => {
  it('no abort listener is left on the signal, whether the request succeeds or fails', async () => {
    const server = await answering(200, {}, 'ok');
    const signal = new AbortController().signal;
    await send(nodeTransport(1000), server.url, { signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    const bad = await answering(200, { 'Content-Encoding': 'gzip' }, 'not gzip at all');
    await expect(send(nodeTransport(1000), bad.url, { signal })).rejects.toThrow(BrokenAnswer);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['GZip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['deflate, gzip', (body: Buffer) => gzipSync(deflateSync(body))],
    ['br,deflate', (body: Buffer) => deflateSync(brotliCompressSync(body))],
    ['gzip, identity', gzipSync],
    ['identity,gzip', gzipSync],
    ['gzip,', gzipSync],
    ['identity', (body: Buffer) => body],
    ['a-coding-nobody-knows', (body: Buffer) => body],
    ['gzip, a-coding-nobody-knows', (body: Buffer) => gzipSync(body)],
  ] as const)('Content-Encoding %j: the body comes back as fetch would give it', async (encoding, encode) => {
    const list = Buffer.from(JSON.stringify([{ id: 'e1' }, { id: 'e2' }]));
    const sent = encode(list);
    const server = await answering(200, { 'Content-Encoding': encoding }, sent);
    const { body } = await send(nodeTransport(1000), server.url);
    // An unknown coding anywhere leaves the body as it came, as fetch does.
    expect(Buffer.from(body!)).toEqual(encoding.includes('nobody') ? sent : list);
  });

  it.each([
    ['gzip', (body: Buffer) => gzipSync(body).subarray(0, -8)],
    ['deflate', (body: Buffer) => deflateSync(body).subarray(0, -4)],
    ['br', (body: Buffer) => brotliCompressSync(body).subarray(0, -1)],
  ] as const)('%s cut off before its end gives what it holds, as fetch does', async (encoding, encode) => {
    const list = Buffer.from(JSON.stringify([{ id: 'e1' }]));
    const server = await answering(200, { 'Content-Encoding': encoding }, encode(list));
    const { body } = await send(nodeTransport(1000), server.url);
    // gzip and deflate lose only their checksum; brotli may hold back its last bytes.
    if (encoding === 'br') expect(list.toString().startsWith(text(body)!)).toBe(true);
    else expect(text(body)).toBe(list.toString());
  });

  it('a long body, decoded in many pieces or read in many, comes back whole', async () => {
    const big = Buffer.from(Array.from({ length: 20_000 }, (_, index) => `${index},`).join(''));
    const zipped = await answering(200, { 'Content-Encoding': 'gzip' }, gzipSync(big));
    expect(Buffer.from((await send(nodeTransport(10_000_000), zipped.url)).body!)).toEqual(big);
    const plain = await serve((_request, response) => {
      response.writeHead(200, { 'Transfer-Encoding': 'chunked' });
      response.write(big.subarray(0, 1000));
      response.end(big.subarray(1000));
    });
    expect(Buffer.from((await send(nodeTransport(10_000_000), plain.url)).body!)).toEqual(big);
  });

  it.each([
    ['deflate', 'deflate'],
    ['identity, gzip', 'identity, gzip'],
    [`gzip, ${'identity, '.repeat(5)}gzip`, `gzip, ${'identity, '.repeat(3)}ide…`],
  ])('a body that does not decode (%j) is a broken answer naming the coding', async (encoding, shown) => {
    const server = await answering(200, { 'Content-Encoding': encoding }, 'plain text, not compressed');
    const error = await send(nodeTransport(1000), server.url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokenAnswer);
    expect((error as Error).message).toBe(
      `the API answered with a body that is not valid ${shown} data, though its Content-Encoding says so`,
    );
  });

  it('br that is not br is a broken answer too, not a network error', async () => {
    const server = await answering(200, { 'Content-Encoding': 'br' }, 'plain text, not compressed');
    const error = await send(nodeTransport(1000), server.url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BrokenAnswer);
    expect((error as Error).message).toBe('the API answered with a body that is not valid br data, though its Content-Encoding says so');
  });

  it('a decoded body past the limit is refused and its connection closed', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'Content-Encoding': 'gzip' });
      response.write(gzipSync(Buffer.alloc(5000, 0x20)));
    });
    await expect(send(nodeTransport(1000), server.url)).rejects.toThrow(TOO_LARGE('1000 bytes'));
    await server.closed(0);
    const unknown = await serve((_request, response) => {
      response.writeHead(200, { 'Content-Encoding': 'a-coding-nobody-knows' });
      response.write(Buffer.alloc(5000, 0x20));
    });
    await expect(send(nodeTransport(1000), unknown.url)).rejects.toThrow(TOO_LARGE('1000 bytes'));
    await unknown.closed(0);
  });

  it('asks for the codings it decodes, and sends the length of a body', async () => {
    const server = await answering(200, {}, 'ok');
    await send(nodeTransport(1000), server.url, { method: 'POST', body: new TextEncoder().encode('{"a":1}') });
    await send(nodeTransport(1000), server.url);
    expect(server.received.map((request) => request.headers['accept-encoding'])).toEqual(['gzip, deflate, br', 'gzip, deflate, br']);
    expect(server.received[0]!.headers['content-length']).toBe('7');
    expect(server.received[0]!.headers['transfer-encoding']).toBeUndefined();
    expect(server.received[0]!.body).toBe('{"a":1}');
  });

  it('a HEAD has no body, whatever length it declares', async () => {
    const server = await answering(200, { 'Content-Length': '500' });
    const answer = await send(nodeTransport(1000), server.url, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.body).toBeNull();
  });

  it('keeps connections alive, except for a POST or PATCH, which always goes on a fresh one', async () => {
    const server = await answering(200, {}, '{}');
    const transport = nodeTransport(1000);
    for (const method of ['GET', 'DELETE', 'POST', 'PUT', 'PATCH', 'GET']) await send(transport, server.url, { method });
    expect(server.received.map((request) => [request.method, request.headers.connection])).toEqual([
      ['GET', 'keep-alive'],
      ['DELETE', 'keep-alive'],
      ['POST', 'close'],
      ['PUT', 'keep-alive'],
      ['PATCH', 'close'],
      ['GET', 'keep-alive'],
    ]);
    expect(server.received.map((request) => request.connection)).toEqual([1, 1, 2, 1, 3, 1]);
  });

  it('a connection refused rejects with its code, and leaves no abort listener', async () => {
    const url = await refusedUrl('/');
    const signal = new AbortController().signal;
    const error = await send(nodeTransport(1000), url, { signal }).catch((caught: unknown) => caught);
    expect(errorCode(error)).toBe('ECONNREFUSED');
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it.each([
    ['a reason that is not an error', 'stop', 'aborted'],
    ['an error', new Error('interrupted by the user'), 'interrupted by the user'],
  ])('an abort while waiting rejects with %s, cuts the connection and leaves no listener', async (_what, reason, message) => {
    const controller = new AbortController();
    let arrived!: () => void;
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const server = await serve(() => arrived());
    const answer = send(nodeTransport(1000), server.url, { signal: controller.signal });
    await waiting;
    controller.abort(reason);
    await expect(answer).rejects.toThrow(message);
    await server.closed(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a signal aborted before the request sends nothing', async () => {
    const server = await answering(200, {}, 'ok');
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(send(nodeTransport(1000), server.url, { signal: controller.signal })).rejects.toThrow('already');
    expect(server.received).toEqual([]);
  });

  it("gives the status line's version, and a reason phrase in UTF-8 as fetch reads it", async () => {
    const raw = await rawHttpServer();
    try {
      raw.respond('HTTP/1.0 201 已创建\r\nContent-Length: 2\r\n\r\nok');
      const answer = await send(nodeTransport(1000), raw.url);
      expect([answer.httpVersion, answer.status, answer.statusText]).toEqual(['1.0', 201, '已创建']);
      // A byte that is not UTF-8 keeps its Latin-1 reading.
      raw.respond(Buffer.from('HTTP/1.1 200 caf\xe9\r\nContent-Length: 2\r\n\r\nok', 'latin1'));
      expect((await send(nodeTransport(1000), raw.url)).statusText).toBe('café');
    } finally {
      await raw.close();
    }
  });

  it('a status line without a reason gives an empty reason', async () => {
    const raw = await rawHttpServer();
    try {
      raw.respond('HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok');
      const answer = await send(nodeTransport(1000), raw.url);
      expect([answer.status, answer.statusText, text(answer.body)]).toEqual([200, '', 'ok']);
    } finally {
      await raw.close();
    }
  });

  const certificate = makeCertificate(tempDir());
  it.skipIf(!certificate)('an https:// URL goes through node:https', async () => {
    const { createServer: createHttpsServer } = await import('node:https');
    const server = await serve(
      (_request, response) => response.end('{"secure":true}'),
      (listener) =>
        createHttpsServer({ key: certificate!.key, cert: certificate!.cert }, listener) as unknown as ReturnType<typeof createServer>,
    );
    trust.ca = certificate!.cert;
    try {
      const answer = await send(nodeTransport(1000), server.url.replace('http:', 'https:'));
      expect(text(answer.body)).toBe('{"secure":true}');
      expect(server.received).toHaveLength(1);
    } finally {
      trust.ca = undefined;
    }
  });
});

describe('node:http through a proxy', () => {
  it('sends an https:// request in one CONNECT tunnel, reused while kept alive; a POST opens its own', async () => {
    const certificate = makeCertificate(tempDir());
    if (!certificate) return;
    const { createServer: createHttpsServer } = await import('node:https');
    const server = await serve(
      (_request, response) => response.end('{}'),
      (listener) =>
        createHttpsServer({ key: certificate.key, cert: certificate.cert }, listener) as unknown as ReturnType<typeof createServer>,
    );
    trust.ca = certificate.cert;
    const tunnelling = await startConnectProxy();
    try {
      const url = server.url.replace('http:', 'https:');
      const transport = nodeTransport(1000, through(tunnelling.url, 'HTTPS_PROXY'));
      for (const method of ['GET', 'GET', 'POST', 'GET']) await send(transport, url, { method });
      const [first, second, post, last] = server.received.map((request) => request.connection);
      expect([second, last]).toEqual([first, first]);
      expect(post).not.toBe(first);
      expect(server.received.map((request) => request.method)).toEqual(['GET', 'GET', 'POST', 'GET']);
      expect(tunnelling.tunnels).toEqual([new URL(url).host, new URL(url).host]);
      expect(tunnelling.requests).toEqual([]);
    } finally {
      trust.ca = undefined;
      await tunnelling.close();
    }
  });

  it('sends an http:// request to the proxy whole, with the credentials in the proxy URL, which stop there', async () => {
    const server = await answering(200, {}, 'ok');
    const forwarding = await startConnectProxy();
    try {
      const transport = nodeTransport(1000, through(forwarding.url.replace('//', '//me:p%40ss@')));
      expect(text((await send(transport, server.url)).body)).toBe('ok');
      expect(forwarding.requests).toEqual([`GET ${server.url}`]);
      expect(forwarding.authorizations).toEqual([`Basic ${Buffer.from('me:p@ss').toString('base64')}`]);
      expect(server.received[0]!.headers['proxy-authorization']).toBeUndefined();
    } finally {
      await forwarding.close();
    }
  });

  it.each([407, 403, 502])('a CONNECT answered %i: the status, and the request never left', async (status) => {
    const refusing = await startConnectProxy({ refuse: status });
    try {
      const error = await send(nodeTransport(1000, through(refusing.url, 'HTTPS_PROXY')), 'https://api.cip.test:1/ms').catch(
        (caught: unknown) => caught,
      );
      expect([proxyStatus(error), notSent(error), notConnected(error)]).toEqual([status, true, false]);
    } finally {
      await refusing.close();
    }
  });

  it('a proxy that hangs up before it answers the CONNECT: no status, and the request never left', async () => {
    const { createServer: createTcpServer } = await import('node:net');
    const hangingUp = createTcpServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => hangingUp.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hangingUp.address() as AddressInfo;
      const error = await send(nodeTransport(1000, through(`http://127.0.0.1:${port}`, 'HTTPS_PROXY')), 'https://api.cip.test:1/ms').catch(
        (caught: unknown) => caught,
      );
      expect([errorCode(error), proxyStatus(error), notSent(error)]).toEqual(['ERR_PROXY_TUNNEL', undefined, true]);
    } finally {
      await new Promise((resolve) => hangingUp.close(resolve));
    }
  });

  it.each(['HTTPS_PROXY', 'HTTP_PROXY'])('a proxy that is down (%s): no connection at all', async (variable) => {
    const target = variable === 'HTTPS_PROXY' ? 'https://api.cip.test:1/ms' : 'http://api.cip.test:1/ms';
    const error = await send(nodeTransport(1000, through(await refusedUrl(), variable)), target).catch((caught: unknown) => caught);
    expect([errorCode(error), notConnected(error), notSent(error)]).toEqual(['ECONNREFUSED', true, true]);
  });

  it('an abort while the CONNECT waits for its answer rejects at once and leaves no connection open', async () => {
    const { createServer: createTcpServer } = await import('node:net');
    let connected!: (socket: Socket) => void;
    const arrived = new Promise<Socket>((resolve) => (connected = resolve));
    // Reads the CONNECT and never answers it.
    const silent = createTcpServer((socket) => socket.once('data', () => connected(socket)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const controller = new AbortController();
      const answer = send(nodeTransport(1000, through(`http://127.0.0.1:${port}`, 'HTTPS_PROXY')), 'https://api.cip.test:1/ms', {
        signal: controller.signal,
      });
      const socket = await arrived;
      controller.abort(new Error('interrupted by the user'));
      await expect(answer).rejects.toThrow('interrupted by the user');
      await new Promise((resolve) => socket.once('close', resolve));
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
