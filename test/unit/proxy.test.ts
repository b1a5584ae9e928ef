import { describe, expect, it } from 'vitest';
import * as net from 'node:net';
import { bypassesProxy, proxyFor } from '../../src/api/proxy.js';
import { UsageError } from '../../src/errors.js';

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
    expect((await proxyFor({ HTTPS_PROXY: 'http://p:3128' }, target))?.variable).toBe('HTTPS_PROXY');
    expect(await proxyFor({ HTTP_PROXY: 'http://p:3128' }, target)).toBeUndefined();
    expect((await proxyFor({ http_proxy: 'p:3128' }, new URL('http://api.copyl.com/ms')))?.url.href).toBe('http://p:3128/');
  });

  it('never proxies this machine', async () => {
    for (const url of ['https://127.0.0.1/ms', 'https://127.1.2.3:8443/ms', 'http://localhost:4010/ms', 'https://[::1]/ms']) {
      expect(await proxyFor({ HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://p:3128' }, new URL(url))).toBeUndefined();
    }
  });

  it('hides credentials in what it shows, and refuses what is not an http(s) proxy URL', async () => {
    expect((await proxyFor({ HTTPS_PROXY: 'http://me:secret@p:3128' }, target))?.display).toBe('http://***@p:3128');
    await expect(proxyFor({ HTTPS_PROXY: 'socks5://p:1080' }, target)).rejects.toBeInstanceOf(UsageError);
    await expect(proxyFor({ HTTPS_PROXY: 'http://me:secret@[bad' }, target)).rejects.toThrow(
      /^HTTPS_PROXY is not a valid proxy URL: 'http:\/\/\*\*\*@\[bad'$/,
    );
  });
});
