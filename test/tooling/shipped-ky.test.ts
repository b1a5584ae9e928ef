// The unit and in-process tests run the ky cip ships (vitest.config.ts, test/helpers/shipped-ky.ts): the build's
// dist/vendor/ky.cjs, whose Request, Response and Headers are cip's own (src/api/web.ts), not the ky package over
// Node's undici. These fail if the tests go back to the package, or if the build stops giving ky cip's classes.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Outgoing, RawAnswer } from '../../src/api/chain.js';
import { createHttp } from '../../src/api/http.js';
import { BUILD } from '../helpers/cli.js';

it('is the file the build ships', async () => {
  const shipped = createRequire(import.meta.url)(join(BUILD, 'dist', 'vendor', 'ky.cjs')) as typeof import('ky');
  const loaded = await import('ky');
  expect(loaded.default).toBe(shipped.default);
  expect(loaded.HTTPError).toBe(shipped.HTTPError);
});

it("builds cip's own Request for the request path, with cip's Headers, as it does in the shipped cip", async () => {
  const seen: Outgoing[] = [];
  const http = await createHttp({
    baseUrl: 'http://api.test/ms',
    headers: { Authorization: 'ApiKey k' },
    timeout: 30,
    signal: new AbortController().signal,
    redact: (text) => text,
    transport: (request): Promise<RawAnswer> => {
      seen.push(request);
      return Promise.resolve({ status: 200, statusText: 'OK', httpVersion: '1.1', headers: new Headers(), body: null });
    },
  });
  await http.request('GET', 'Environments', 'list environments');
  expect(seen).toHaveLength(1);
  // ky's Request's headers, handed down the chain as they are.
  const { headers } = seen[0]!;
  expect(headers.constructor.name).toBe('WebHeaders');
  expect(headers).not.toBeInstanceOf(Headers);
  expect(headers.get('authorization')).toBe('ApiKey k');
});
