// cip's own Headers, Request and Response (src/api/web.ts), which ky and the node:http request path use instead
// of Node's (undici's): each rule cip relies on, checked against the real class where there is one.
import { describe, expect, it } from 'vitest';
import { WebHeaders, WebRequest, WebResponse } from '../../../src/api/web.js';

const pairs = (headers: Iterable<[string, string]>) => [...headers];

describe('WebHeaders', () => {
  it('reads and iterates as the real Headers: names without case, sorted, values combined, set-cookie apart', () => {
    const init: [string, string][] = [
      ['X-B', 'two'],
      ['x-a', ' one\t'],
      ['Set-Cookie', 'a=1'],
      ['x-b', 'three'],
      ['set-cookie', 'b=2'],
      ['ETag', '"v3"'],
    ];
    const ours = new WebHeaders(init);
    const real = new Headers(init);
    expect(pairs(ours)).toEqual(pairs(real));
    expect([...ours.keys()]).toEqual([...real.keys()]);
    expect([...ours.values()]).toEqual([...real.values()]);
    for (const name of ['x-b', 'X-B', 'x-a', 'set-cookie', 'etag', 'missing']) {
      expect(ours.get(name), name).toBe(real.get(name));
      expect(ours.has(name), name).toBe(real.has(name));
    }
    expect(ours.getSetCookie()).toEqual(real.getSetCookie());
    const seen: string[] = [];
    ours.forEach((value, name, parent) => {
      expect(parent).toBe(ours);
      seen.push(`${name}=${value}`);
    });
    expect(seen).toEqual(pairs(real).map(([name, value]) => `${name}=${value}`));
  });

  it('set, append and delete as the real Headers; taken from a record, another Headers or the real one', () => {
    const ours = new WebHeaders({ Accept: 'application/json' });
    ours.set('ACCEPT', 'text/plain');
    ours.append('accept', 'text/html');
    ours.append('X-Gone', '1');
    ours.delete('x-GONE');
    expect(pairs(ours)).toEqual([['accept', 'text/plain, text/html']]);
    expect(pairs(new WebHeaders(ours))).toEqual(pairs(ours));
    expect(pairs(new WebHeaders(new Headers({ 'X-Real': 'yes' })))).toEqual([['x-real', 'yes']]);
    // And the real one takes ours (the proxy path hands them to fetch).
    expect(pairs(new Headers(ours))).toEqual(pairs(ours));
    expect(Object.prototype.toString.call(ours)).toBe('[object Headers]');
    // A value that is not a string becomes one, as in the real Headers.
    const odd = { 'X-N': 42, 'X-U': undefined } as unknown as Record<string, string>;
    expect(pairs(new WebHeaders(odd))).toEqual(pairs(new Headers(odd)));
  });

  it('refuses what the real Headers refuses: a name that is not a token, a value with CR, LF, NUL or beyond Latin-1', () => {
    for (const [name, value] of [
      ['bad name', 'x'],
      ['', 'x'],
      ['x-ok', 'a\r\nInjected: yes'],
      ['x-ok', 'a\0b'],
      ['x-ok', '已创建'],
    ] as const) {
      expect(() => new Headers([[name, value]]), `${name}: ${value}`).toThrow(TypeError);
      expect(() => new WebHeaders([[name, value]]), `${name}: ${value}`).toThrow(TypeError);
      expect(() => new WebHeaders().set(name, value)).toThrow(TypeError);
    }
    expect(() => new WebHeaders([['x-one'] as unknown as [string, string]])).toThrow(TypeError);
  });
});

describe('WebRequest', () => {
  it('has the method, URL, headers and signal it was given, methods normalized as the real Request does', () => {
    const controller = new AbortController();
    for (const method of ['get', 'Delete', 'post', 'PATCH', 'patch', 'options']) {
      const init = { method, headers: { 'X-A': '1' }, signal: controller.signal };
      const ours = new WebRequest('http://api.test/ms/Environments?x=1', init);
      const real = new Request('http://api.test/ms/Environments?x=1', init);
      expect(ours.method).toBe(real.method);
      expect(ours.url).toBe(real.url);
      expect(pairs(ours.headers)).toEqual(pairs(real.headers));
    }
    const ours = new WebRequest(new URL('http://api.test/a/../b'), { signal: controller.signal });
    expect(ours.url).toBe('http://api.test/b');
    controller.abort(new Error('stop'));
    expect(ours.signal.aborted).toBe(true);
    expect(new WebRequest('http://api.test/').signal.aborted).toBe(false);
    expect(() => new WebRequest('not a url')).toThrow(TypeError);
    expect(() => new WebRequest('http://api.test/', { method: 'CONNECT' })).toThrow(TypeError);
    expect(() => new WebRequest('http://api.test/', { method: 'bad method' })).toThrow(TypeError);
  });

  it('keeps a body, read once, that a clone keeps too; a GET or HEAD has none', async () => {
    const request = new WebRequest('http://api.test/', {
      method: 'PUT',
      body: '{"name":"é"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(request.body).not.toBeNull();
    await expect(request.body?.cancel()).resolves.toBeUndefined();
    const copy = request.clone();
    const spare = copy.clone();
    expect(copy.method).toBe('PUT');
    expect(new Uint8Array(await request.arrayBuffer())).toEqual(new TextEncoder().encode('{"name":"é"}'));
    expect(request.bodyUsed).toBe(true);
    await expect(request.arrayBuffer()).rejects.toThrow(TypeError);
    expect(() => request.clone()).toThrow(TypeError);
    expect(await copy.text()).toBe('{"name":"é"}');
    expect(copy.headers.get('content-type')).toBe('application/json');
    // A string body without a Content-Type gets the real Request's.
    const plain = new WebRequest('http://api.test/', { method: 'POST', body: 'hi' });
    expect(plain.headers.get('content-type')).toBe(
      new Request('http://api.test/', { method: 'POST', body: 'hi' }).headers.get('content-type'),
    );
    expect(new WebRequest('http://api.test/', { method: 'POST', body: new Uint8Array([1, 2]) }).headers.has('content-type')).toBe(false);
    expect(new WebRequest('http://api.test/').body).toBeNull();
    expect(() => new WebRequest('http://api.test/', { body: 'x' })).toThrow(TypeError);
    expect(() => new WebRequest('http://api.test/', { method: 'HEAD', body: 'x' })).toThrow(TypeError);
    // A copy with other options, as ky makes one with a new signal.
    const signal = new AbortController().signal;
    const again = new WebRequest(spare, { signal });
    expect(again.signal).toBe(signal);
    expect(await again.text()).toBe('{"name":"é"}');
  });
});

describe('WebResponse', () => {
  it('has the status, ok and headers of the real Response, no body, and the same range of statuses', async () => {
    for (const status of [200, 204, 304, 404, 503]) {
      const ours = new WebResponse(null, { status, headers: { 'Retry-After': '1' } });
      const real = new Response(null, { status, headers: { 'Retry-After': '1' } });
      expect([ours.status, ours.ok, ours.headers.get('retry-after'), ours.body]).toEqual([
        real.status,
        real.ok,
        real.headers.get('retry-after'),
        null,
      ]);
      expect(ours.clone().status).toBe(status);
    }
    expect(await new WebResponse(null).text()).toBe('');
    for (const status of [101, 199, 600, 1.5]) {
      expect(() => new Response(null, { status }), String(status)).toThrow(RangeError);
      expect(() => new WebResponse(null, { status }), String(status)).toThrow(RangeError);
    }
  });
});
