// Which proxy a request goes through (src/api/proxy.ts), and a client through a proxy: its requests go through
// it, and nothing else in the process does (test/helpers/shared-process.ts checks node:http's global agents).
// And the corners of curl's rules: lower-case variables, blank values, ports, separators, CIDR blocks, this
// machine however it is written, the Node that can go through a proxy, and what an error or a message shows.
import { createServer, get } from 'node:http';
import * as net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttp } from '../../../src/api/http.js';
import { bypassesProxy, proxyFor, nodeCanProxy } from '../../../src/api/proxy.js';
import { UsageError } from '../../../src/errors.js';
import { startConnectProxy } from '../../helpers/connect-proxy.js';
import { PROXIED_HOST } from '../../helpers/tls.js';

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

const HTTPS_TARGET = new URL('https://api.copyl.com/ms');
const HTTP_TARGET = new URL('http://api.copyl.com/ms');

describe('NO_PROXY corners', () => {
  it.each([
    // The default port of the target's scheme counts as its port.
    ['api.copyl.com:80', HTTP_TARGET, true],
    ['api.copyl.com:443', HTTP_TARGET, false],
    ['api.copyl.com:80', HTTPS_TARGET, false],
    // Empty entries between separators are skipped, not the end of the list.
    [',, api.copyl.com', HTTPS_TARGET, true],
    ['other.example,,\tapi.copyl.com', HTTPS_TARGET, true],
    // A leading '*.' or '.' is dropped; a '*' inside a name is not a wildcard.
    ['*copyl.com', HTTPS_TARGET, false],
    ['api.*.com', HTTPS_TARGET, false],
    // A name must match whole labels.
    ['i.copyl.com', HTTPS_TARGET, false],
    ['ms', HTTPS_TARGET, false],
    // An IPv6 target matches an entry with or without brackets.
    ['fd12::1', new URL('https://[fd12::1]/ms'), true],
    ['[fd12::1]', new URL('https://[fd12::1]/ms'), true],
    ['[fd12::1]:8443', new URL('https://[fd12::1]/ms'), false],
    // An upper-case target host still matches.
    ['api.copyl.com', new URL('https://API.Copyl.COM/ms'), true],
    // CIDR: the wrong family, a bad block, and a bad block before a good entry.
    ['10.0.0.0/8', new URL('https://[fd12::1]/ms'), false],
    ['fd00::/8', new URL('https://10.1.2.3/ms'), false],
    ['10.0.0.0/99', new URL('https://10.1.2.3/ms'), false],
    ['10.0.0.0/99, api.copyl.com', HTTPS_TARGET, true],
    ['example/8, api.copyl.com', HTTPS_TARGET, true],
    ['10.0.0.0/8, 10.1.2.3', new URL('https://11.1.2.3/ms'), false],
    ['10.1.0.0/16', new URL('https://10.1.2.3/ms'), true],
    ['10.1.0.0/16', new URL('https://10.2.2.3/ms'), false],
    // An entry is a whole host, bracketed address or host:port: text around one is no match.
    ['x[fd12::1]', new URL('https://[fd12::1]/ms'), false],
    ['[fd12::1]:443x', new URL('https://[fd12::1]/ms'), false],
    ['x:copyl.com:443', HTTPS_TARGET, false],
    ['api.copyl.com:443x', HTTPS_TARGET, false],
    // An empty entry matches nothing, not even a host written with its final dot.
    ['other.example,,', new URL('https://api.copyl.com./ms'), false],
  ])('%j for %s: bypass %s', (noProxy, target, expected) => {
    expect(bypassesProxy(noProxy, target, net)).toBe(expected);
  });

  it('without node:net, a CIDR entry matches nothing, and the entries after it still count', () => {
    expect(bypassesProxy('10.0.0.0/8', new URL('https://10.1.2.3/ms'))).toBe(false);
    expect(bypassesProxy('10.0.0.0/8,10.1.2.3', new URL('https://10.1.2.3/ms'))).toBe(true);
  });

  it('an absent NO_PROXY bypasses nothing', () => {
    expect(bypassesProxy(undefined, HTTPS_TARGET, net)).toBe(false);
  });
});

describe('proxyFor corners', () => {
  it.each([
    'https://localhost./ms',
    'https://LOCALHOST:8443/ms',
    'https://[::ffff:127.0.0.1]/ms',
    'https://[::ffff:7f01:203]:8443/ms',
    'http://[0:0:0:0:0:0:0:1]/ms',
    'http://2130706433/ms',
    'http://127.1/ms',
  ])('never proxies this machine, however it is written: %s', async (url) => {
    const env = { HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://p:3128' };
    expect(await proxyFor(env, new URL(url), NODE)).toBeUndefined();
  });

  it.each(['https://[::ffff:10.0.0.1]/ms', 'https://localhost.example/ms', 'https://[::ffff:8000:1]/ms'])(
    'proxies what only looks like this machine: %s',
    async (url) => {
      expect(await proxyFor({ HTTPS_PROXY: 'http://p:3128' }, new URL(url), NODE)).toMatchObject({ variable: 'HTTPS_PROXY' });
    },
  );

  it.each([
    ['v22.21.0', true],
    ['v22.20.9', false],
    ['v22.12.0', false],
    ['v23.11.1', false],
    ['v24.4.1', false],
    ['v24.5.0', true],
    ['v25.0.0', true],
    ['v26.12.1', true],
    ['v20.19.5', false],
  ])('Node %s goes through a proxy itself: %s', (version, expected) => {
    expect(nodeCanProxy(version)).toBe(expected);
  });

  it('refuses a proxy on a Node that would go around it, naming the fix; a run without one is left alone', async () => {
    const refused = await proxyFor({ https_proxy: 'http://p:3128' }, HTTPS_TARGET, 'v22.12.0').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).message).toBe(
      'https_proxy is set, but Node v22.12.0 cannot go through a proxy: cip needs Node 22.21 or later (24.5 or later on Node 24)',
    );
    expect((refused as UsageError).hint).toBe('upgrade Node, or list api.copyl.com in NO_PROXY to go direct');
    await expect(proxyFor({ HTTPS_PROXY: 'http://p:3128' }, HTTPS_TARGET, 'v24.4.0')).rejects.toBeInstanceOf(UsageError);
    expect(await proxyFor({ https_proxy: 'http://p:3128', NO_PROXY: 'copyl.com' }, HTTPS_TARGET, 'v22.12.0')).toBeUndefined();
    expect(await proxyFor({}, HTTPS_TARGET, 'v22.12.0')).toBeUndefined();
  });

  it("refuses a user name or password with a '%' that starts no escape, before Node would crash on it, and hides it", async () => {
    const refused = await proxyFor({ HTTPS_PROXY: 'http://me:50%off@p:3128' }, HTTPS_TARGET, NODE).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).message).toBe(
      "HTTPS_PROXY has a user name or password with a '%' that is not percent-encoding: 'http://***@p:3128'",
    );
    expect((refused as UsageError).hint).toBe('write a % as %25');
    expect((await proxyFor({ HTTPS_PROXY: 'http://me:50%25off@p:3128' }, HTTPS_TARGET, NODE))?.url.password).toBe('50%25off');
  });

  it('reads the lower-case variables too, and names the one it used', async () => {
    const choice = await proxyFor({ https_proxy: 'http://p:3128' }, HTTPS_TARGET, NODE);
    expect(choice?.variable).toBe('https_proxy');
    expect(choice?.url.href).toBe('http://p:3128/');
    await expect(proxyFor({ https_proxy: 'ftp://p' }, HTTPS_TARGET, NODE)).rejects.toThrow(
      new UsageError('https_proxy must be an http:// or https:// proxy URL, not ftp:'),
    );
  });

  it('prefers the upper-case variable when both are set', async () => {
    const choice = await proxyFor({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' }, HTTPS_TARGET, NODE);
    expect(choice).toMatchObject({ variable: 'HTTPS_PROXY', display: 'http://upper:1' });
  });

  it('treats a blank variable as unset, and trims a value', async () => {
    expect(await proxyFor({ HTTPS_PROXY: '   ' }, HTTPS_TARGET, NODE)).toBeUndefined();
    expect((await proxyFor({ HTTPS_PROXY: '  http://p:3128 \n' }, HTTPS_TARGET, NODE))?.url.href).toBe('http://p:3128/');
  });

  it('keeps the scheme a proxy URL gives, in either case, and takes a bare host:port as http', async () => {
    expect((await proxyFor({ HTTPS_PROXY: 'https://p:8443' }, HTTPS_TARGET, NODE))?.display).toBe('https://p:8443');
    expect((await proxyFor({ HTTPS_PROXY: 'HTTPS://p:8443' }, HTTPS_TARGET, NODE))?.display).toBe('https://p:8443');
    expect((await proxyFor({ HTTPS_PROXY: 'p:3128' }, HTTPS_TARGET, NODE))?.display).toBe('http://p:3128');
    expect((await proxyFor({ HTTPS_PROXY: 'proxy.corp' }, HTTPS_TARGET, NODE))?.display).toBe('http://proxy.corp');
    expect((await proxyFor({ HTTPS_PROXY: 'p:3128/path://x' }, HTTPS_TARGET, NODE))?.display).toBe('http://p:3128');
  });

  it('hides a password given without a user name, and shows a proxy without credentials as it is', async () => {
    expect((await proxyFor({ HTTPS_PROXY: 'http://:secret@p:3128' }, HTTPS_TARGET, NODE))?.display).toBe('http://***@p:3128');
    expect((await proxyFor({ HTTPS_PROXY: 'http://me@p:3128' }, HTTPS_TARGET, NODE))?.display).toBe('http://***@p:3128');
    expect((await proxyFor({ HTTPS_PROXY: 'http://p:3128' }, HTTPS_TARGET, NODE))?.display).toBe('http://p:3128');
  });

  it('honours NO_PROXY, a CIDR block included, and its lower-case spelling', async () => {
    const env = { HTTPS_PROXY: 'http://p:3128' };
    expect(await proxyFor({ ...env, NO_PROXY: 'copyl.com' }, HTTPS_TARGET, NODE)).toBeUndefined();
    expect(await proxyFor({ ...env, no_proxy: 'copyl.com' }, HTTPS_TARGET, NODE)).toBeUndefined();
    expect(await proxyFor({ ...env, NO_PROXY: '10.0.0.0/8' }, new URL('https://10.1.2.3/ms'), NODE)).toBeUndefined();
    expect(await proxyFor({ ...env, NO_PROXY: '10.0.0.0/8' }, new URL('https://11.1.2.3/ms'), NODE)).toMatchObject({
      variable: 'HTTPS_PROXY',
    });
  });

  it('shows a bad proxy URL with its credentials hidden and control characters cleaned', async () => {
    await expect(proxyFor({ HTTPS_PROXY: 'http://[bad\u001b' }, HTTPS_TARGET, NODE)).rejects.toThrow(
      new UsageError("HTTPS_PROXY is not a valid proxy URL: 'http://[bad?'"),
    );
    await expect(proxyFor({ http_proxy: 'http://u:p@[x/y' }, HTTP_TARGET, NODE)).rejects.toThrow(
      new UsageError("http_proxy is not a valid proxy URL: 'http://***@[x/y'"),
    );
  });
});
