// The network checks behind `cip doctor` (src/api/probe.ts), each on its own: what it returns for a name, an
// address, a port, a certificate, and what it asked the system for. Real servers on 127.0.0.1 where one can
// answer; node:dns, node:net and node:tls are wrapped (their real functions by default) so a test can stand in
// a resolver or a socket that never answers, and pass the test CA as NODE_EXTRA_CA_CERTS would.
import { X509Certificate } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createTlsServer, type ConnectionOptions } from 'node:tls';
import { afterAll, afterEach, describe, expect, vi } from 'vitest';
import { dateOf, openTcp, ping, PROBE_TIMEOUT_MS, proxyOf, resolveName, verifyTls } from '../../../src/api/probe.js';
import { NetworkError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { it } from '../../helpers/fixture.js';
import { refusedPort } from '../../helpers/ports.js';
import { makeCertificate } from '../../helpers/tls.js';

/** A Node that goes through a proxy itself (api/proxy.ts). */
const NODE = 'v24.5.0';

const trust = vi.hoisted(() => ({ ca: undefined as string | undefined }));

vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = vi.fn(real.lookup);
  return { ...real, lookup, default: { ...real, lookup } };
});

vi.mock('node:net', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:net')>();
  const connect = vi.fn(real.connect);
  return { ...real, connect, default: { ...real, connect } };
});

vi.mock('node:tls', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:tls')>();
  const connect = vi.fn((options: ConnectionOptions) => real.connect(trust.ca ? { ...options, ca: trust.ca } : options));
  return { ...real, connect, default: { ...real, connect } };
});

const dns = await import('node:dns/promises');
const net = await import('node:net');
const tls = await import('node:tls');
const lookup = vi.mocked(dns.lookup) as unknown as ReturnType<typeof vi.fn>;
const tcpConnect = vi.mocked(net.connect) as unknown as ReturnType<typeof vi.fn>;
const tlsConnect = vi.mocked(tls.connect) as unknown as ReturnType<typeof vi.fn>;

afterEach(() => {
  vi.clearAllMocks();
  trust.ca = undefined;
  vi.useRealTimers();
});

/** A socket that does nothing until the test makes it emit. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  peer: object = {};
  destroy() {
    this.destroyed = true;
  }
  getPeerCertificate() {
    return this.peer;
  }
}

function fakeSocket(connect: ReturnType<typeof vi.fn>): FakeSocket {
  const socket = new FakeSocket();
  connect.mockImplementationOnce(() => socket);
  return socket;
}

/** Until the function has been called: the probes import their module before they call it. */
async function called(fn: ReturnType<typeof vi.fn>): Promise<void> {
  while (fn.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
}

async function listening(server: { listen: (port: number, host: string, done: () => void) => unknown; address: () => unknown }) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const closedPort = refusedPort;

describe('resolveName', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1 is an address: no lookup needed'],
    ['[::1]', '::1 is an address: no lookup needed'],
    ['[2001:db8::1]', '2001:db8::1 is an address: no lookup needed'],
  ])('%s is an address: nothing is looked up', async (host, detail) => {
    expect(await resolveName(host)).toEqual({ ok: true, detail });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('asks for every address of a name, and lists them', async () => {
    lookup.mockResolvedValueOnce([
      { address: '192.0.2.1', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
    expect(await resolveName('api.example')).toEqual({ ok: true, detail: 'api.example resolves to 192.0.2.1, 2001:db8::1' });
    expect(lookup).toHaveBeenCalledWith('api.example', { all: true });
  });

  it('resolves localhost with the real resolver', async () => {
    const result = await resolveName('localhost');
    expect(result).toMatchObject({ ok: true, detail: expect.stringMatching(/^localhost resolves to .*(127\.0\.0\.1|::1)/) });
  });

  it.each<[string, unknown, string]>([
    ['the error code', Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), 'ENOTFOUND'],
    ['the message, for an error without a code', new Error('resolver exploded'), 'resolver exploded'],
    ['the message, for a code that is not text', Object.assign(new Error('odd failure'), { code: 7 }), 'odd failure'],
    ['the value itself, for something that is no error', 'bare string', 'bare string'],
  ])('a failed lookup says why: %s', async (_why, failure, code) => {
    lookup.mockRejectedValueOnce(failure);
    expect(await resolveName('api.example')).toEqual({ ok: false, reason: `api.example does not resolve (${code})` });
  });

  it(`gives up after ${PROBE_TIMEOUT_MS} ms`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    lookup.mockImplementationOnce(() => new Promise(() => undefined));
    let result: unknown;
    void resolveName('slow.example').then((value) => (result = value));
    await called(lookup);
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual({ ok: false, reason: 'slow.example does not resolve (DNS lookup timed out)' });
  });
});

describe('openTcp', () => {
  it('connects to a listening port, and closes the connection', async () => {
    const server = createServer();
    const closed = new Promise<void>((resolve) => server.on('connection', (socket) => socket.on('close', () => resolve())));
    const port = await listening(server);
    try {
      expect(await openTcp('127.0.0.1', port)).toEqual({ ok: true, detail: `connected to 127.0.0.1:${port}` });
      expect(tcpConnect).toHaveBeenCalledWith({ host: '127.0.0.1', port, timeout: PROBE_TIMEOUT_MS });
      await closed;
    } finally {
      server.close();
    }
  });

  it('names the error of a port nobody listens on', async () => {
    const port = await closedPort();
    expect(await openTcp('127.0.0.1', port)).toEqual({ ok: false, reason: `cannot connect to 127.0.0.1:${port} (ECONNREFUSED)` });
  });

  it('connects to an IPv6 address without its brackets, and names it with them', async () => {
    const socket = fakeSocket(tcpConnect);
    const probe = openTcp('[::1]', 8443);
    await called(tcpConnect);
    expect(tcpConnect).toHaveBeenCalledWith({ host: '::1', port: 8443, timeout: PROBE_TIMEOUT_MS });
    socket.emit('connect');
    expect(await probe).toEqual({ ok: true, detail: 'connected to [::1]:8443' });
    expect(socket.destroyed).toBe(true);
  });

  it('says so when no connection opens in time', async () => {
    const socket = fakeSocket(tcpConnect);
    const probe = openTcp('api.example', 443);
    await called(tcpConnect);
    socket.emit('timeout');
    expect(await probe).toEqual({ ok: false, reason: 'no TCP connection to api.example:443 within 5s' });
    expect(socket.destroyed).toBe(true);
  });
});

const certificate = makeCertificate(tempDir());

describe.skipIf(!certificate)('verifyTls', () => {
  const cert = certificate!;
  const server = createTlsServer({ key: cert.key, cert: cert.cert }, (socket) => socket.end());
  const port = listening(server);
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const validTo = new X509Certificate(cert.cert).validTo;

  it.each([
    ['127.0.0.1', undefined],
    ['localhost', 'localhost'],
  ])('a certificate signed by a trusted CA verifies for %s (SNI %s)', async (host, servername) => {
    trust.ca = cert.cert;
    expect(await verifyTls(host, await port)).toEqual({ ok: true, detail: `certificate for 127.0.0.1, valid until ${validTo}` });
    const options = tlsConnect.mock.calls[0]![0] as ConnectionOptions;
    expect(options).toEqual({ host, port: await port, timeout: PROBE_TIMEOUT_MS, ...(servername ? { servername } : {}) });
  });

  it('a self-signed one does not', async () => {
    expect(await verifyTls('127.0.0.1', await port)).toEqual({
      ok: false,
      reason: 'the certificate of 127.0.0.1 does not verify (DEPTH_ZERO_SELF_SIGNED_CERT)',
    });
  });

  it.each([
    ['10.1.2.3', undefined],
    ['::1', undefined],
    ['[2001:db8::1]', undefined],
    ['api.example', 'api.example'],
    ['host1', 'host1'],
    ['1host.example', '1host.example'],
    ['api', 'api'],
  ])('sends %s the server name %s', async (host, servername) => {
    const socket = fakeSocket(tlsConnect);
    const probe = verifyTls(host, 443);
    await called(tlsConnect);
    const options = tlsConnect.mock.calls[0]![0] as ConnectionOptions;
    expect(options).toEqual({
      host: host.replace(/^\[(.*)\]$/, '$1'),
      port: 443,
      timeout: PROBE_TIMEOUT_MS,
      ...(servername ? { servername } : {}),
    });
    socket.emit('timeout');
    expect(await probe).toEqual({ ok: false, reason: `no TLS handshake with ${host}:443 within 5s` });
    expect(socket.destroyed).toBe(true);
  });

  it.each<[string, object, string]>([
    [
      'one name',
      { subject: { CN: 'api.example' }, valid_to: 'Jan  1 00:00:00 2027 GMT' },
      'api.example, valid until Jan  1 00:00:00 2027 GMT',
    ],
    ['several names', { subject: { CN: ['a.example', 'b.example'] }, valid_to: 'X' }, 'a.example, b.example, valid until X'],
    ['no subject or date', {}, 'host.example, valid until ?'],
    ['a subject without a name', { subject: {} }, 'host.example, valid until ?'],
  ])('describes a certificate with %s', async (_what, peer, detail) => {
    const socket = fakeSocket(tlsConnect);
    socket.peer = peer;
    const probe = verifyTls('host.example', 443);
    await called(tlsConnect);
    socket.emit('secureConnect');
    expect(await probe).toEqual({ ok: true, detail: `certificate for ${detail}` });
    expect(socket.destroyed).toBe(true);
  });

  it('names the error of a failed handshake', async () => {
    const socket = fakeSocket(tlsConnect);
    const probe = verifyTls('host.example', 443);
    await called(tlsConnect);
    socket.emit('error', Object.assign(new Error('expired'), { code: 'CERT_HAS_EXPIRED' }));
    expect(await probe).toEqual({ ok: false, reason: 'the certificate of host.example does not verify (CERT_HAS_EXPIRED)' });
    expect(socket.destroyed).toBe(true);
  });
});

describe('proxyOf', () => {
  it('is the proxy a request to the URL goes through', async () => {
    const choice = await proxyOf({ HTTPS_PROXY: 'http://user:pw@proxy.example:3128' }, new URL('https://api.example/ms'), NODE);
    expect(choice).toMatchObject({ variable: 'HTTPS_PROXY', display: 'http://***@proxy.example:3128' });
    expect(choice?.url.href).toBe('http://user:pw@proxy.example:3128/');
    expect(await proxyOf({ HTTPS_PROXY: 'http://proxy.example:3128' }, new URL('http://127.0.0.1:1/ms'), NODE)).toBeUndefined();
  });
});

describe('ping', () => {
  const options = {
    signal: new AbortController().signal,
    userAgent: 'cip/1.2.3 node/v24',
    nodeVersion: NODE,
    redact: (text: string) => text,
  };

  it('GETs the URL without keys, and returns the status and the server clock', async ({ sandbox }) => {
    const answer = await ping(`${sandbox.url}/ping`, {}, options);
    expect(answer.status).toBe(200);
    expect(answer.date).toBeInstanceOf(Date);
    expect(Number.isNaN(answer.date!.getTime())).toBe(false);
    const [request] = sandbox.requests;
    expect(`${request!.method} ${request!.url}`).toBe('GET /ms/ping');
    expect(request!.headers['user-agent']).toBe('cip/1.2.3 node/v24');
    expect(request!.headers.authorization).toBeUndefined();
  });

  it('returns an error status as an answer, without a clock', async ({ startSandbox }) => {
    const down = await startSandbox({ pingFails: true });
    expect(await ping(`${down.url}/ping`, {}, options)).toEqual({ status: 503, date: undefined });
  });

  it('throws a network failure, its message redacted', async ({ sandbox }) => {
    sandbox.inject({ fault: { kind: 'reset-before' }, times: Infinity });
    const failure = ping(`${sandbox.url}/ping`, {}, { ...options, redact: (text) => text.replaceAll(String(sandbox.port), 'PORT') });
    await expect(failure).rejects.toThrow(NetworkError);
    await expect(failure).rejects.toThrow(/^cannot ping the service: cannot reach 127\.0\.0\.1:PORT: connection reset \(ECONNRESET\)$/);
  });
});

describe('dateOf', () => {
  it.each<[string | null, number | undefined]>([
    [null, undefined],
    ['', undefined],
    ['not a date', undefined],
    ['Thu, 15 Jan 2026 12:00:00 GMT', Date.UTC(2026, 0, 15, 12)],
  ])('%j', (header, time) => {
    expect(dateOf(header)?.getTime()).toBe(time);
  });
});
