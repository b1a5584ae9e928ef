// Which proxy a request goes through (src/api/proxy.ts), and a client through a proxy: its requests go through
// it, and nothing else in the process does (test/helpers/shared-process.ts checks node:http's global agents).
import { createServer, get } from 'node:http';
import * as net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttp } from '../../src/api/http.js';
import { bypassesProxy, proxyFor } from '../../src/api/proxy.js';
import { UsageError } from '../../src/errors.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { PROXIED_HOST } from '../helpers/tls.js';

/** A Node that goes through a proxy itself. */
const NODE = 'v24.5.0';

describe('NO_PROXY, read as curl reads it', () => {
  it.each([
    ['*', 'https://api.copyl.com/ms', true],
    ['api.copyl.com', 'https://api.copyl.com/ms', true],
    ['copyl.com', 'https://api.copyl.com/ms', true],
    ['.copyl.com', 'https://api.copyl.com/ms', true],
    ['*.copyl.com', 'https://api.copyl.com/ms', true],
    ['COPYL.COM', 'https://api.copyl.com/ms', true],
    ['pyl.com', 'https://api.copyl.com/ms', false],
    ['api.copyl.com.evil', 'https://api.copyl.com/ms', false],
    ['api.copyl.com:443', 'https://api.copyl.com/ms', true],
    ['api.copyl.com:8443', 'https://api.copyl.com/ms', false],
    ['api.copyl.com:8443', 'https://api.copyl.com:8443/ms', true],
    ['other.example, api.copyl.com', 'https://api.copyl.com/ms', true],
    ['other.example api.copyl.com', 'https://api.copyl.com/ms', true],
    ['10.1.2.3', 'https://10.1.2.3/ms', true],
    ['10.0.0.0/8', 'https://10.1.2.3/ms', true],
    ['10.0.0.0/8', 'https://11.1.2.3/ms', false],
    ['10.0.0.0/8', 'https://api.copyl.com/ms', false],
    ['fd00::/8', 'https://[fd12::1]/ms', true],
    ['[fd12::1]:443', 'https://[fd12::1]/ms', true],
    ['', 'https://api.copyl.com/ms', false],
  ])('%j for %s: bypass %s', (noProxy, url, expected) => {
    expect(bypassesProxy(noProxy, new URL(url), net)).toBe(expected);
  });
});

describe('proxyFor', () => {
  const target = new URL('https://api.copyl.com/ms');
  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, never the other', async () => {
    expect((await proxyFor({ HTTPS_PROXY: 'http://p:3128' }, target, NODE))?.variable).toBe('HTTPS_PROXY');
    expect(await proxyFor({ HTTP_PROXY: 'http://p:3128' }, target, NODE)).toBeUndefined();
    expect((await proxyFor({ http_proxy: 'p:3128' }, new URL('http://api.copyl.com/ms'), NODE))?.url.href).toBe('http://p:3128/');
  });

  it('never proxies this machine', async () => {
    for (const url of ['https://127.0.0.1/ms', 'https://127.1.2.3:8443/ms', 'http://localhost:4010/ms', 'https://[::1]/ms']) {
      expect(await proxyFor({ HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://p:3128' }, new URL(url), NODE)).toBeUndefined();
    }
  });

  it('hides credentials in what it shows, and refuses what is not an http(s) proxy URL', async () => {
    expect((await proxyFor({ HTTPS_PROXY: 'http://me:secret@p:3128' }, target, NODE))?.display).toBe('http://***@p:3128');
    await expect(proxyFor({ HTTPS_PROXY: 'socks5://p:1080' }, target, NODE)).rejects.toBeInstanceOf(UsageError);
    await expect(proxyFor({ HTTPS_PROXY: 'http://me:secret@[bad' }, target, NODE)).rejects.toThrow(
      /^HTTPS_PROXY is not a valid proxy URL: 'http:\/\/\*\*\*@\[bad'$/,
    );
  });
});

describe('a client through a proxy', () => {
  it('sends its own requests through the proxy, and leaves every other request of the process alone', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const proxy = await startConnectProxy();
    try {
      const http = await createHttp({
        // A name only the proxy resolves (to 127.0.0.1).
        baseUrl: `http://${PROXIED_HOST}:${port}/ms`,
        headers: { 'User-Agent': 'cip/test' },
        timeout: 30,
        signal: new AbortController().signal,
        redact: (text) => text,
        proxy: { variable: 'HTTP_PROXY', url: new URL(proxy.url), display: proxy.url },
      });
      expect(await http.request('GET', 'Environments', 'list environments')).toEqual([]);
      // http:// goes to the proxy whole, as curl sends it.
      expect(proxy.requests).toEqual([`GET http://${PROXIED_HOST}:${port}/ms/Environments`]);

      // Another request in the same process (a test, doctor's ping) goes where it was sent, not to the proxy.
      const viaNodeHttp = await new Promise<number | undefined>((resolve, reject) =>
        get(`http://127.0.0.1:${port}/ms/Environments`, (response) => resolve(response.resume().statusCode)).on('error', reject),
      );
      expect(viaNodeHttp).toBe(200);
      expect([proxy.requests, proxy.tunnels].map((list) => list.length)).toEqual([1, 0]);
    } finally {
      await proxy.close();
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
    }
  });
});
