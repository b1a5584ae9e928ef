// The credentials step (src/api/step-credentials.ts): the caller's headers go on requests to the base URL's
// origin only, and on every attempt of a retried request.
import { describe, expect, it } from 'vitest';
import type { Outgoing, RawAnswer } from '../../../src/api/chain.js';
import { createHttp } from '../../../src/api/http.js';
import { credentialsFor } from '../../../src/api/step-credentials.js';

const HEADERS = { Authorization: 'ApiKey secret-api-key', EnterpriseId: 'ent-1', 'User-Agent': 'cip/test' };

describe('credentialsFor', () => {
  const put = credentialsFor('https://api.test/ms', HEADERS);

  it.each(['https://api.test/ms/Environments', 'https://api.test:443/other/path?q=1', 'https://API.test/ms'])(
    'puts the headers on a request to the base URL origin: %s',
    (url) => {
      const request = new Request(url);
      put(request);
      expect(Object.fromEntries(request.headers)).toEqual({
        authorization: 'ApiKey secret-api-key',
        enterpriseid: 'ent-1',
        'user-agent': 'cip/test',
      });
    },
  );

  it('leaves a header the request already has, whatever its letter case', () => {
    const request = new Request('https://api.test/ms', { headers: { 'user-agent': 'my-script/1.0' } });
    put(request);
    expect(request.headers.get('user-agent')).toBe('my-script/1.0');
    expect(request.headers.get('authorization')).toBe('ApiKey secret-api-key');
  });

  it.each(['https://elsewhere.test/ms', 'https://api.test:8443/ms', 'http://api.test/ms', 'https://api.test.evil/ms'])(
    'puts nothing on a request to another origin: %s',
    (url) => {
      const request = new Request(url, { headers: { accept: 'application/json' } });
      put(request);
      expect(Object.fromEntries(request.headers)).toEqual({ accept: 'application/json' });
    },
  );
});

describe('in the client', () => {
  it('every attempt of a retried request carries the headers', async () => {
    const seen: (string | null)[] = [];
    const answers = [503, 200];
    const transport = (request: Outgoing): Promise<RawAnswer> => {
      seen.push(request.headers.get('authorization'));
      const status = answers.shift()!;
      return Promise.resolve({ status, statusText: '', httpVersion: '1.1', headers: new Headers(), body: null });
    };
    const http = await createHttp({
      baseUrl: 'http://api.test/ms',
      headers: HEADERS,
      timeout: 30,
      signal: new AbortController().signal,
      redact: (text) => text,
      transport,
    });
    await http.request('GET', 'Environments', 'list environments');
    expect(seen).toEqual(['ApiKey secret-api-key', 'ApiKey secret-api-key']);
  });
});
