// The sandbox (src/sandbox/), the offline API cip's tests and `cip sandbox` run against, through HTTP: the
// Environments resource as the documented contract has it (keys, ProblemDetails, ETags, paging, faults), at
// scale, closing, and with latency.
import { connect } from 'node:net';
import { describe, expect, afterEach } from 'vitest';
import {
  SANDBOX_DEFAULTS,
  readOnlyKeyFor,
  startSandbox,
  type Environment,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/sandbox/index.js';
import { it, test } from '../../helpers/fixture.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TRACE_ID = /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/;

const authHeaders = (apiKey: string = SANDBOX_DEFAULTS.apiKey): Record<string, string> => ({
  Authorization: `ApiKey ${apiKey}`,
  'Ocp-Apim-Subscription-Key': SANDBOX_DEFAULTS.subscriptionKey,
  EnterpriseId: SANDBOX_DEFAULTS.enterpriseId,
});

interface CallOptions {
  method?: string;
  headers?: Record<string, string | undefined>;
  json?: unknown;
  body?: string;
  redirect?: RequestRedirect;
}

// Sends with valid credentials unless a header is overridden; an undefined override removes the header.
function call(sandbox: Sandbox, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const merged: Record<string, string | undefined> = {
    ...authHeaders(),
    ...(options.json === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...options.headers,
  };
  for (const [name, value] of Object.entries(merged)) if (value !== undefined) headers[name] = value;
  return fetch(`${sandbox.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? options.body : JSON.stringify(options.json),
    redirect: options.redirect,
  });
}

async function expectProblem(res: Response, status: number, title: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ title, status });
  expect(body.type).toMatch(/^https:\/\/tools\.ietf\.org\/html\/rfc9110#section-/);
  expect(body.traceId).toMatch(TRACE_ID);
  return body;
}

describe('sandbox server', () => {
  test.override({ sandboxOptions: { seed: 3 } });

  describe('startup', () => {
    it('exposes the base URL, port and default keys', ({ sandbox }) => {
      expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}/ms`);
      expect(sandbox.port).toBeGreaterThan(0);
      expect(sandbox.keys).toEqual({ ...SANDBOX_DEFAULTS });
      expect(sandbox.environments.size).toBe(3);
    });

    it('generates realistic, varied seed records', ({ sandbox }) => {
      const records = [...sandbox.environments.values()];
      expect(records.map((r) => r.name)).toEqual(['env-0001', 'env-0002', 'env-0003']);
      for (const record of records) {
        expect(record.id).toMatch(GUID);
        expect(sandbox.environments.get(String(record.id))).toBe(record);
        expect(record).toMatchObject({
          displayName: expect.any(String),
          type: expect.stringMatching(/^(Development|Test|Staging|Production)$/),
          isActive: expect.any(Boolean),
          region: expect.any(String),
          tags: expect.any(Array),
          settings: { retention: expect.any(Number) },
        });
        expect(new Date(record.createdAt as string).toISOString()).toBe(record.createdAt);
        expect(Date.parse(record.updatedAt as string)).toBeGreaterThanOrEqual(Date.parse(record.createdAt as string));
      }
      expect(new Set(records.map((r) => r.type)).size).toBe(3);
    });

    it('honours custom keys, base path and explicit seed records without aliasing them', async () => {
      const fixture: Environment[] = [{ id: 'alpha', name: 'Alpha' }];
      const custom = await startSandbox({
        basePath: 'api/v2/',
        seed: fixture,
        apiKey: 'k1',
        readOnlyApiKey: 'k2',
        subscriptionKey: 'k3',
        enterpriseId: '00000000-0000-0000-0000-000000000001',
      });
      try {
        expect(custom.url).toBe(`http://127.0.0.1:${custom.port}/api/v2`);
        const res = await fetch(`${custom.url}/Environments`, {
          headers: {
            Authorization: 'ApiKey k2',
            'Ocp-Apim-Subscription-Key': 'k3',
            EnterpriseId: '00000000-0000-0000-0000-000000000001',
          },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual([{ id: 'alpha', name: 'Alpha' }]);
        custom.environments.get('alpha')!.name = 'changed';
        expect(fixture[0]!.name).toBe('Alpha');
      } finally {
        await custom.close();
      }
    });

    it('derives a read-only key of its own from a given API key', async () => {
      const custom = await startSandbox({ apiKey: 'custom-api-key-0123456789' });
      try {
        expect(custom.keys.readOnlyApiKey).toBe(readOnlyKeyFor('custom-api-key-0123456789'));
        expect(custom.keys.readOnlyApiKey).toMatch(/^sandbox-readonly-[0-9a-f]{32}$/);
        expect(readOnlyKeyFor('another-api-key-0123456789')).not.toBe(custom.keys.readOnlyApiKey);
        const headers = { ...authHeaders(custom.keys.readOnlyApiKey) };
        expect((await fetch(`${custom.url}/Environments`, { headers })).status).toBe(200);
        const write = await fetch(`${custom.url}/Environments`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: '{"name":"x"}',
        });
        expect(write.status).toBe(403);
      } finally {
        await custom.close();
      }
    });

    it('rejects an invalid seed count', async () => {
      await expect(startSandbox({ seed: -1 })).rejects.toThrow(RangeError);
      await expect(startSandbox({ seed: 1.5 })).rejects.toThrow(RangeError);
    });
  });

  describe('routing', () => {
    it.for(['/Other', '/Environments/a/b', '/EnvironmentsX'])('answers 404 in APIM shape for %s', async (path, { sandbox }) => {
      const res = await call(sandbox, path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual({ statusCode: 404, message: 'Resource not found' });
    });

    it('answers 404 outside the base path', async ({ sandbox }) => {
      const res = await fetch(`http://127.0.0.1:${sandbox.port}/Environments`, { headers: authHeaders() });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, message: 'Resource not found' });
    });

    it('matches the path case-insensitively, with a trailing slash and a query string', async ({ sandbox }) => {
      for (const path of ['/environments', '/ENVIRONMENTS/', '/Environments?top=5']) {
        const res = await call(sandbox, path);
        expect(res.status).toBe(200);
        expect(await res.json()).toHaveLength(3);
      }
    });

    it('answers 404 before checking keys', async ({ sandbox }) => {
      const res = await fetch(`${sandbox.url}/Nope`);
      expect(res.status).toBe(404);
    });
  });

  describe('subscription key (APIM)', () => {
    it('rejects a missing key with APIM 401 body', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', { headers: { 'Ocp-Apim-Subscription-Key': undefined } });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('www-authenticate')).toMatch(/^AzureApiManagementKey /);
      expect(await res.json()).toEqual({
        statusCode: 401,
        message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
      });
    });

    it('rejects a wrong key with APIM 401 body', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', { headers: { 'Ocp-Apim-Subscription-Key': 'wrong' } });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual({
        statusCode: 401,
        message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      });
    });

    it('checks the subscription key before the API key', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        headers: { 'Ocp-Apim-Subscription-Key': undefined, Authorization: undefined },
      });
      expect(((await res.json()) as { message: string }).message).toMatch(/missing subscription key/);
    });
  });

  describe('API key', () => {
    it.for([
      ['missing', undefined],
      ['wrong key', 'ApiKey nope'],
      ['another scheme', `Basic ${SANDBOX_DEFAULTS.apiKey}`],
      ['bare key', SANDBOX_DEFAULTS.apiKey],
    ])('rejects %s with 401 ProblemDetails', async ([, authorization], { sandbox }) => {
      const res = await call(sandbox, '/Environments', { headers: { Authorization: authorization } });
      expect(res.headers.get('www-authenticate')).toBe('ApiKey');
      const body = await expectProblem(res, 401, 'Unauthorized');
      expect(body).toMatchObject({
        type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2',
        detail: 'The API key is invalid.',
      });
    });

    it('accepts the scheme word in any case', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', { headers: { Authorization: `apikey ${SANDBOX_DEFAULTS.apiKey}` } });
      expect(res.status).toBe(200);
    });
  });

  describe('EnterpriseId', () => {
    it.for([
      ['missing', undefined],
      ['not a GUID', 'acme'],
    ])('answers 400 when %s', async ([, enterpriseId], { sandbox }) => {
      const res = await call(sandbox, '/Environments', { headers: { EnterpriseId: enterpriseId } });
      const body = await expectProblem(res, 400, 'One or more validation errors occurred.');
      expect(body.errors).toEqual({ EnterpriseId: ['The EnterpriseId header must be a GUID.'] });
    });

    it('answers 403 for another enterprise', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        headers: { EnterpriseId: '11111111-2222-4333-8444-555555555555' },
      });
      const body = await expectProblem(res, 403, 'Forbidden');
      expect(body.detail).toBe('The API key has no access to this enterprise.');
    });

    it('compares the GUID case-insensitively', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        headers: { EnterpriseId: SANDBOX_DEFAULTS.enterpriseId.toUpperCase() },
      });
      expect(res.status).toBe(200);
    });
  });

  describe('read-only key', () => {
    const readOnly = { Authorization: `ApiKey ${SANDBOX_DEFAULTS.readOnlyApiKey}` };

    it('may list', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', { headers: readOnly });
      expect(res.status).toBe(200);
    });

    it.for<[string, string]>([
      ['POST', '/Environments'],
      ['PUT', '/Environments/x'],
      ['DELETE', '/Environments/x'],
    ])('may not %s', async ([method, path], { sandbox }) => {
      const res = await call(sandbox, path, { method, headers: readOnly, json: { name: 'x' } });
      const body = await expectProblem(res, 403, 'Forbidden');
      expect(body.detail).toBe('The API key lacks sufficient permissions.');
      expect(sandbox.environments.size).toBe(3);
    });
  });

  describe('list', () => {
    it('returns a bare array of the store with JSON content type', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual([...sandbox.environments.values()]);
    });

    it('reflects changes made to the store directly', async ({ sandbox }) => {
      sandbox.environments.set('manual', { id: 'manual', name: 'Manual' });
      try {
        const list = (await (await call(sandbox, '/Environments')).json()) as Environment[];
        expect(list.at(-1)).toEqual({ id: 'manual', name: 'Manual' });
      } finally {
        sandbox.environments.delete('manual');
      }
    });

    it.each(['value', 'items', 'data', 'results'] as const)('wraps the list in a %s envelope', async (envelope) => {
      const wrapped = await startSandbox({ seed: 2, envelope });
      try {
        const res = await call(wrapped, '/Environments');
        const body = (await res.json()) as Record<string, unknown>;
        expect(Object.keys(body)).toEqual([envelope]);
        expect(body[envelope]).toEqual([...wrapped.environments.values()]);
      } finally {
        await wrapped.close();
      }
    });
  });

  describe('create', () => {
    it('answers 201 with the record and a Location that addresses it', async ({ sandbox }) => {
      const before = Date.now();
      const res = await call(sandbox, '/Environments', {
        method: 'POST',
        json: { id: 'client-id', name: 'qa', type: 'Test', createdAt: 'x', settings: { retention: 3 } },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const record = (await res.json()) as Environment;
      expect(record.id).toMatch(GUID);
      expect(record).toMatchObject({ name: 'qa', type: 'Test', settings: { retention: 3 } });
      expect(Date.parse(record.createdAt as string)).toBeGreaterThanOrEqual(before - 1000);
      expect(record.updatedAt).toBe(record.createdAt);
      expect(res.headers.get('location')).toBe(`${sandbox.url}/Environments/${String(record.id)}`);
      expect(sandbox.environments.get(String(record.id))).toEqual(record);

      const del = await fetch(res.headers.get('location')!, { method: 'DELETE', headers: authHeaders() });
      expect(del.status).toBe(204);
    });

    it('accepts a charset parameter on the content type', async ({ sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ name: 'charset' }),
      });
      expect(res.status).toBe(201);
      sandbox.environments.delete(String(((await res.json()) as Environment).id));
    });

    it('accepts a body of several megabytes', async ({ sandbox }) => {
      const blob = 'x'.repeat(5 * 1024 * 1024);
      const res = await call(sandbox, '/Environments', { method: 'POST', json: { name: 'big', blob } });
      expect(res.status).toBe(201);
      const record = (await res.json()) as Environment;
      expect(record.blob).toBe(blob);
      sandbox.environments.delete(String(record.id));
    });

    it.for([
      ['no content type', undefined],
      ['text/plain', 'text/plain'],
      ['form data', 'application/x-www-form-urlencoded'],
    ])('answers 415 for %s', async ([, contentType], { sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        method: 'POST',
        headers: { 'Content-Type': contentType },
        body: JSON.stringify({ name: 'x' }),
      });
      await expectProblem(res, 415, 'Unsupported Media Type');
    });

    const bodyRequired = { environment: ['The environment field is required.'] };

    it.for<[string, string, Record<string, string[]>]>([
      ['invalid JSON', '{"name":', { $: ['The JSON value could not be converted.'], ...bodyRequired }],
      ['an empty body', '', { '': ['A non-empty request body is required.'], ...bodyRequired }],
      ['an array', '[{"name":"x"}]', { $: ['The JSON value could not be converted.'], ...bodyRequired }],
      ['a string', '"x"', { $: ['The JSON value could not be converted.'], ...bodyRequired }],
      ['null', 'null', { '': ['A non-empty request body is required.'], ...bodyRequired }],
    ])('answers 400 for %s, naming the body parameter as ASP.NET does', async ([, body, errors], { sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      const problem = await expectProblem(res, 400, 'One or more validation errors occurred.');
      expect(problem.errors).toEqual(errors);
    });

    it.for([
      ['missing', {}],
      ['empty', { name: '' }],
      ['blank', { name: '   ' }],
      ['null', { name: null }],
    ])('answers 400 when name is %s', async ([, json], { sandbox }) => {
      const res = await call(sandbox, '/Environments', { method: 'POST', json });
      const problem = await expectProblem(res, 400, 'One or more validation errors occurred.');
      expect(problem.errors).toEqual({ Name: ['The Name field is required.'] });
      expect(sandbox.environments.size).toBe(3);
    });

    it.for([
      ['name', { name: 42 }],
      ['Name', { Name: true }],
    ])('answers 400 with a JSON path when %s is not a string', async ([key, json], { sandbox }) => {
      const res = await call(sandbox, '/Environments', { method: 'POST', json });
      const problem = await expectProblem(res, 400, 'One or more validation errors occurred.');
      expect(problem.errors).toEqual({
        ...bodyRequired,
        [`$.${key}`]: [`The JSON value could not be converted to System.String. Path: $.${key}.`],
      });
    });

    it.for(['text/json', 'application/merge-patch+json'])('reads %s as JSON, as ASP.NET does', async (contentType, { sandbox }) => {
      const res = await call(sandbox, '/Environments', {
        method: 'POST',
        headers: { 'Content-Type': contentType },
        body: JSON.stringify({ Name: 'any case' }),
      });
      expect(res.status).toBe(201);
      const record = (await res.json()) as Environment;
      expect(record.Name).toBe('any case');
      sandbox.environments.delete(String(record.id));
    });
  });

  describe('update', () => {
    it('replaces the fields, keeping id and createdAt', async ({ sandbox }) => {
      const original = [...sandbox.environments.values()][0]!;
      const snapshot = { ...original };
      try {
        const res = await call(sandbox, `/Environments/${String(original.id)}`, {
          method: 'PUT',
          json: { id: 'ignored', name: 'renamed', displayName: 'Renamed', createdAt: 'ignored' },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const record = (await res.json()) as Environment;
        expect(record).toEqual({
          id: original.id,
          name: 'renamed',
          displayName: 'Renamed',
          createdAt: original.createdAt,
          updatedAt: expect.any(String),
        });
        expect(record.updatedAt).not.toBe(snapshot.updatedAt);
        expect(sandbox.environments.get(String(original.id))).toEqual(record);
      } finally {
        sandbox.environments.set(String(snapshot.id), snapshot);
      }
    });

    const missingGuid = '0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34';

    it('answers 404 ProblemDetails for an unknown GUID', async ({ sandbox }) => {
      const res = await call(sandbox, `/Environments/${missingGuid}`, { method: 'PUT', json: { name: 'x' } });
      const body = await expectProblem(res, 404, 'Not Found');
      expect(body.detail).toBe(`Environment '${missingGuid}' was not found.`);
    });

    it.for([
      ['an id that is no GUID', 'missing%20one'],
      ['invalid URL encoding', '%E0%A4%A'],
    ])("answers an empty 404 for %s, as ASP.NET's {id:guid} route constraint does", async ([, path], { sandbox }) => {
      const res = await call(sandbox, `/Environments/${path}`, { method: 'PUT', json: { name: '' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    });

    it('validates the body before looking the record up', async ({ sandbox }) => {
      const res = await call(sandbox, `/Environments/${missingGuid}`, { method: 'PUT', json: { name: '' } });
      const body = await expectProblem(res, 400, 'One or more validation errors occurred.');
      expect(body.errors).toEqual({ Name: ['The Name field is required.'] });
      const unnamed = await call(sandbox, `/Environments/${missingGuid}`, { method: 'PUT', json: { description: 'x' } });
      expect((await expectProblem(unnamed, 400, 'One or more validation errors occurred.')).errors as object).toEqual({
        Name: ['The Name field is required.'],
      });
      const wrongType = await call(sandbox, `/Environments/${missingGuid}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'text/plain' },
        body: '{}',
      });
      await expectProblem(wrongType, 415, 'Unsupported Media Type');
    });

    it('finds ids that need URL encoding', async ({ sandbox }) => {
      sandbox.environments.set('a/b c', { id: 'a/b c', name: 'odd' });
      const res = await call(sandbox, `/Environments/${encodeURIComponent('a/b c')}`, {
        method: 'PUT',
        json: { name: 'still odd' },
      });
      expect(res.status).toBe(200);
      expect(sandbox.environments.get('a/b c')!.name).toBe('still odd');
      sandbox.environments.delete('a/b c');
    });
  });

  describe('delete', () => {
    it('answers 204 without a body, then 404', async ({ sandbox }) => {
      const doomed = 'd00bed00-0000-4000-8000-000000000000';
      sandbox.environments.set(doomed, { id: doomed, name: 'Doomed' });
      const res = await call(sandbox, `/Environments/${doomed}`, { method: 'DELETE' });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(sandbox.environments.has(doomed)).toBe(false);

      const again = await call(sandbox, `/Environments/${doomed}`, { method: 'DELETE' });
      const body = await expectProblem(again, 404, 'Not Found');
      expect(body.detail).toBe(`Environment '${doomed}' was not found.`);
    });

    it('serves an id a test stored whatever its form, and routes it away once gone', async ({ sandbox }) => {
      sandbox.environments.set('doomed', { id: 'doomed', name: 'Doomed' });
      expect((await call(sandbox, '/Environments/doomed', { method: 'DELETE' })).status).toBe(204);
      const again = await call(sandbox, '/Environments/doomed', { method: 'DELETE' });
      expect(again.status).toBe(404);
      expect(await again.text()).toBe('');
    });
  });

  describe('unsupported methods', () => {
    it.for<[string, string, string]>([
      ['PATCH', '/Environments', 'GET, POST'],
      ['DELETE', '/Environments', 'GET, POST'],
      ['GET', '/Environments/x', 'PUT, DELETE'],
      ['POST', '/Environments/x', 'PUT, DELETE'],
      ['DELETE', '/ping', 'GET'],
    ])('answers 405 to %s %s with Allow and no body, as ASP.NET routing does', async ([method, path, allow], { sandbox }) => {
      const res = await call(sandbox, path, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    });
  });

  describe('integrations', () => {
    it('lists the integrations on GET {base}/Integrations, as the gateway serves them', async ({ sandbox }) => {
      for (const path of ['/Integrations', '/integrations/']) {
        const res = await call(sandbox, path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const body = (await res.json()) as Record<string, unknown>[];
        expect(body.length).toBeGreaterThan(0);
        for (const integration of body) expect(integration).toMatchObject({ id: expect.stringMatching(GUID), name: expect.any(String) });
      }
    });

    it('checks the keys as for environments, and lets the read-only key read', async ({ sandbox }) => {
      const missing = await call(sandbox, '/Integrations', { headers: { 'Ocp-Apim-Subscription-Key': undefined } });
      expect(missing.status).toBe(401);
      const badKey = await call(sandbox, '/Integrations', { headers: authHeaders('wrong-api-key-0123456789') });
      expect(badKey.status).toBe(401);
      const otherEnterprise = await call(sandbox, '/Integrations', { headers: { EnterpriseId: '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e' } });
      expect(otherEnterprise.status).toBe(403);
      expect((await call(sandbox, '/Integrations', { headers: authHeaders(SANDBOX_DEFAULTS.readOnlyApiKey) })).status).toBe(200);
    });

    it.for(['POST', 'PUT', 'DELETE', 'PATCH'])('is read-only: %s is 405 with Allow: GET and no body', async (method, { sandbox }) => {
      const res = await call(sandbox, '/Integrations', { method, json: { name: 'x' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(await res.text()).toBe('');
    });

    it('has no item paths', async ({ sandbox }) => {
      const res = await call(sandbox, '/Integrations/a1f3c2d4-5b6e-4f70-8a91-b2c3d4e5f601');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, message: 'Resource not found' });
    });
  });

  describe('ping', () => {
    it('answers GET {base}/ping without keys, as every Copyl service does', async ({ sandbox }) => {
      const res = await fetch(`${sandbox.url}/PING`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('pong');
    });
  });

  describe('faults', () => {
    it('answers with an injected status, JSON body and headers', async ({ sandbox }) => {
      sandbox.inject({
        fault: { kind: 'status', status: 503, body: '{"message":"busy"}', headers: { 'Retry-After': '2' } },
      });
      const res = await call(sandbox, '/Environments');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual({ message: 'busy' });
    });

    it('labels HTML and plain-text fault bodies, and lets headers override the type', async ({ sandbox }) => {
      sandbox.inject(
        { fault: { kind: 'status', status: 502, body: '<html><body>Bad Gateway</body></html>' } },
        { fault: { kind: 'status', status: 500, body: 'boom' } },
        { fault: { kind: 'status', status: 500, body: 'oops', headers: { 'content-type': 'text/csv' } } },
      );
      const html = await call(sandbox, '/Environments');
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await html.text()).toContain('Bad Gateway');
      const text = await call(sandbox, '/Environments');
      expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await text.text()).toBe('boom');
      const csv = await call(sandbox, '/Environments');
      expect(csv.headers.get('content-type')).toBe('text/csv');
    });

    it('answers an empty 200, a 429 and a redirect', async ({ sandbox }) => {
      sandbox.inject(
        { fault: { kind: 'status', status: 200 } },
        { fault: { kind: 'status', status: 429, headers: { 'Retry-After': '1' } } },
        { fault: { kind: 'status', status: 302, headers: { Location: 'https://login.example/' } } },
      );
      const empty = await call(sandbox, '/Environments');
      expect(empty.status).toBe(200);
      expect(empty.headers.get('content-type')).toBeNull();
      expect(await empty.text()).toBe('');
      const limited = await call(sandbox, '/Environments');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      const redirect = await call(sandbox, '/Environments', { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('https://login.example/');
    });

    it('applies faults before routing and authentication', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'status', status: 408 } });
      const res = await fetch(`${sandbox.url}/nowhere`);
      expect(res.status).toBe(408);
    });

    it('delays a normal answer', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'delay', ms: 150 } });
      const started = performance.now();
      const res = await call(sandbox, '/Environments');
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveLength(3);
    });

    it('lets a client time out on a delay', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'delay', ms: 2000 } });
      const res = fetch(`${sandbox.url}/Environments`, { headers: authHeaders(), signal: AbortSignal.timeout(50) });
      await expect(res).rejects.toThrow();
    });

    it('resets the connection before answering', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'reset-before' } });
      await expect(call(sandbox, '/Environments')).rejects.toThrow(TypeError);
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });

    it('resets the connection in the middle of the body', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'reset-mid-body' } });
      const res = await call(sandbox, '/Environments');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      await expect(res.text()).rejects.toThrow();
    });

    it('answers 200 JSON with a body that is not JSON', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'invalid-json' } });
      const res = await call(sandbox, '/Environments');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const text = await res.text();
      expect(() => JSON.parse(text)).toThrow();
    });

    it('applies a rule as many times as asked, then answers normally', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'status', status: 500 }, times: 2 });
      expect((await call(sandbox, '/Environments')).status).toBe(500);
      expect((await call(sandbox, '/Environments')).status).toBe(500);
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });

    it('applies an Infinity rule until cleared', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'status', status: 503 }, times: Infinity });
      for (let i = 0; i < 5; i++) expect((await call(sandbox, '/Environments')).status).toBe(503);
      sandbox.clearFaults();
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });

    it('filters by method, and consumes the first matching rule', async ({ sandbox }) => {
      sandbox.inject(
        { fault: { kind: 'status', status: 502 }, method: 'post' },
        { fault: { kind: 'status', status: 503 } },
        { fault: { kind: 'status', status: 504 } },
      );
      expect((await call(sandbox, '/Environments')).status).toBe(503);
      expect((await call(sandbox, '/Environments', { method: 'POST', json: { name: 'x' } })).status).toBe(502);
      expect((await call(sandbox, '/Environments', { method: 'POST', json: { name: 'x' } })).status).toBe(504);
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });

    it('rejects a rule that could never apply', ({ sandbox }) => {
      expect(() => sandbox.inject({ fault: { kind: 'reset-before' }, times: 0 })).toThrow(RangeError);
    });
  });

  describe('request recording', () => {
    it('records method, url, headers and body of every request, including rejected and faulted ones', async ({ sandbox }) => {
      sandbox.inject({ fault: { kind: 'status', status: 500 }, method: 'DELETE' });
      await call(sandbox, '/Environments?top=1&skip=2');
      await call(sandbox, '/Environments', { method: 'POST', json: { name: '' } });
      await call(sandbox, '/Environments/x', { method: 'DELETE' });
      await fetch(`${sandbox.url}/Environments`);

      expect(sandbox.requests.map((r) => [r.method, r.url, r.body])).toEqual([
        ['GET', '/ms/Environments?top=1&skip=2', ''],
        ['POST', '/ms/Environments', '{"name":""}'],
        ['DELETE', '/ms/Environments/x', ''],
        ['GET', '/ms/Environments', ''],
      ]);
      expect(sandbox.requests[0]!.headers).toMatchObject({
        authorization: `ApiKey ${SANDBOX_DEFAULTS.apiKey}`,
        'ocp-apim-subscription-key': SANDBOX_DEFAULTS.subscriptionKey,
        enterpriseid: SANDBOX_DEFAULTS.enterpriseId,
      });
      expect(sandbox.requests[1]!.headers['content-type']).toBe('application/json');
      expect(sandbox.requests[3]!.headers.authorization).toBeUndefined();
    });

    it('reset() clears requests and faults but keeps the store', async ({ sandbox }) => {
      await call(sandbox, '/Environments');
      sandbox.inject({ fault: { kind: 'status', status: 500 } });
      const requests = sandbox.requests;
      sandbox.reset();
      expect(requests).toHaveLength(0);
      expect(sandbox.requests).toBe(requests);
      expect(sandbox.environments.size).toBe(3);
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });
  });

  describe('robustness', () => {
    it('survives a malformed request line and keeps serving', async ({ sandbox }) => {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(sandbox.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 400/);
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });

    it('survives a client that disconnects mid-upload', async ({ sandbox }) => {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(sandbox.port, '127.0.0.1', () => {
          socket.write('POST /ms/Environments HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"name":');
          setTimeout(() => socket.destroy(), 20);
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
      expect((await call(sandbox, '/Environments')).status).toBe(200);
    });
  });
});

describe('sandbox at scale', () => {
  it('generates and lists 100000 environments', async () => {
    const big = await startSandbox({ seed: 100_000 });
    try {
      expect(big.environments.size).toBe(100_000);
      const res = await call(big, '/Environments');
      expect(res.status).toBe(200);
      const list = (await res.json()) as Environment[];
      expect(list).toHaveLength(100_000);
      expect(list[99_999]!.name).toBe('env-100000');
      expect(new Set(list.map((r) => r.id)).size).toBe(100_000);
      expect(new Set(list.map((r) => r.region)).size).toBeGreaterThan(3);
    } finally {
      await big.close();
    }
  }, 20_000);
});

describe('sandbox close', () => {
  it('closes promptly with a delayed request in flight and a keep-alive socket open', async () => {
    const sandbox = await startSandbox();
    await call(sandbox, '/Environments'); // leaves an idle keep-alive connection
    sandbox.inject({ fault: { kind: 'delay', ms: 60_000 } });
    const pending = call(sandbox, '/Environments');
    pending.catch(() => undefined);
    await sandbox.waitForRequest((request) => request === sandbox.requests[1]);

    // The delayed answer is 60 s away; close() must not wait for it, nor for the idle connection.
    const started = performance.now();
    await sandbox.close();
    // Far below the 60 s the answer is away: a bound for a hang, not for the speed of a busy machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    await expect(pending).rejects.toThrow();
    await expect(sandbox.close()).resolves.toBeUndefined();
    await expect(fetch(`${sandbox.url}/Environments`)).rejects.toThrow();
  });
});

describe('sandbox paging', () => {
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((one) => one.close()));
  });
  async function paged(options: SandboxOptions): Promise<Sandbox> {
    const sandbox = await startSandbox({ seed: 5, ...options });
    sandboxes.push(sandbox);
    return sandbox;
  }
  const names = (records: unknown) => (records as Environment[]).map((record) => record.name);
  const get = async (url: string) => fetch(url, { headers: authHeaders() });

  it('odata: at most pageSize records a page, an absolute @odata.nextLink on every page but the last', async () => {
    const sandbox = await paged({ pageSize: 2 });
    const first = await call(sandbox, '/Environments');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('link')).toBeNull();
    const one = (await first.json()) as Record<string, unknown>;
    expect(one).toEqual({ value: expect.any(Array), '@odata.nextLink': `${sandbox.url}/Environments?page=2` });
    const two = (await (await get(one['@odata.nextLink'] as string)).json()) as Record<string, unknown>;
    expect(two['@odata.nextLink']).toBe(`${sandbox.url}/Environments?page=3`);
    const three = (await (await get(two['@odata.nextLink'] as string)).json()) as Record<string, unknown>;
    expect(Object.keys(three)).toEqual(['value']);
    expect([one, two, three].flatMap((page) => names(page.value))).toEqual(['env-0001', 'env-0002', 'env-0003', 'env-0004', 'env-0005']);
    // Requests are recorded with their query string, so a test can count the pages read.
    expect(sandbox.requests.map((request) => request.url)).toEqual([
      '/ms/Environments',
      '/ms/Environments?page=2',
      '/ms/Environments?page=3',
    ]);
  });

  it('link: a bare array and a Link rel="next" header on every page but the last', async () => {
    const sandbox = await paged({ pageSize: 3, paging: 'link' });
    const first = await call(sandbox, '/Environments');
    expect(first.headers.get('link')).toBe(`<${sandbox.url}/Environments?page=2>; rel="next"`);
    expect(names(await first.json())).toEqual(['env-0001', 'env-0002', 'env-0003']);
    const last = await call(sandbox, '/Environments?page=2');
    expect(last.headers.get('link')).toBeNull();
    expect(names(await last.json())).toEqual(['env-0004', 'env-0005']);
  });

  it('next: {items, next} with next left out on the last page', async () => {
    const sandbox = await paged({ pageSize: 4, paging: 'next' });
    const first = (await (await call(sandbox, '/Environments')).json()) as Record<string, unknown>;
    expect(first).toEqual({ items: expect.any(Array), next: `${sandbox.url}/Environments?page=2` });
    expect(names(first.items)).toHaveLength(4);
    expect(await (await call(sandbox, '/Environments?page=2')).json()).toEqual({ items: [expect.objectContaining({ name: 'env-0005' })] });
  });

  it('keeps the other query parameters in the next link', async () => {
    const sandbox = await paged({ pageSize: 2 });
    const body = (await (await call(sandbox, '/Environments?filter=x&page=2')).json()) as Record<string, unknown>;
    expect(body['@odata.nextLink']).toBe(`${sandbox.url}/Environments?filter=x&page=3`);
  });

  it('serves an empty last page when the list fits pages exactly, and past the end', async () => {
    const sandbox = await paged({ pageSize: 5 });
    expect(await (await call(sandbox, '/Environments')).json()).toEqual({ value: expect.any(Array) });
    expect(await (await call(sandbox, '/Environments?page=9')).json()).toEqual({ value: [] });
    const empty = await paged({ seed: 0, pageSize: 5 });
    expect(await (await call(empty, '/Environments')).json()).toEqual({ value: [] });
  });

  it.each(['0', '-1', 'two', '1.5', ''])('answers 400 ValidationProblem to page=%j', async (page) => {
    const sandbox = await paged({ pageSize: 2 });
    const body = await expectProblem(await call(sandbox, `/Environments?page=${page}`), 400, 'One or more validation errors occurred.');
    expect(body.errors).toEqual({ page: [`The value '${page}' is not valid.`] });
  });

  it('ignores the page parameter when pageSize is not set', async () => {
    const sandbox = await paged({});
    expect(names(await (await call(sandbox, '/Environments?page=2')).json())).toHaveLength(5);
  });

  it('a next-link loop fault points the next link at the page just served, as many times as asked', async () => {
    const sandbox = await paged({ pageSize: 2 });
    sandbox.inject({ fault: { kind: 'next-link', to: 'loop' }, match: (request) => request.url.endsWith('page=2'), times: 2 });
    const two = `${sandbox.url}/Environments?page=2`;
    for (let i = 0; i < 2; i++) expect(((await (await get(two)).json()) as Record<string, unknown>)['@odata.nextLink']).toBe(two);
    expect(((await (await get(two)).json()) as Record<string, unknown>)['@odata.nextLink']).toBe(`${sandbox.url}/Environments?page=3`);
    // On the last page, which has no next link, the loop gives it one.
    sandbox.inject({ fault: { kind: 'next-link', to: 'loop' } });
    const three = `${sandbox.url}/Environments?page=3`;
    expect(((await (await get(three)).json()) as Record<string, unknown>)['@odata.nextLink']).toBe(three);
  });

  it('a next-link foreign fault moves the next link to 127.0.0.2, same port, path and query', async () => {
    const sandbox = await paged({ pageSize: 2, paging: 'link' });
    sandbox.inject({ fault: { kind: 'next-link', to: 'foreign' }, times: 2 });
    const first = await call(sandbox, '/Environments');
    expect(first.headers.get('link')).toBe(`<http://127.0.0.2:${sandbox.port}/ms/Environments?page=2>; rel="next"`);
    const last = await call(sandbox, '/Environments?page=3');
    expect(last.headers.get('link')).toBe(`<http://127.0.0.2:${sandbox.port}/ms/Environments?page=3>; rel="next"`);
  });

  it('a sandbox on 127.0.0.2 is a real other origin, and its foreign links go to 127.0.0.3', async () => {
    const sandbox = await paged({ host: '127.0.0.2', pageSize: 2 });
    sandbox.inject({ fault: { kind: 'next-link', to: 'foreign' } });
    const body = (await (await call(sandbox, '/Environments')).json()) as Record<string, unknown>;
    expect(body['@odata.nextLink']).toBe(`http://127.0.0.3:${sandbox.port}/ms/Environments?page=2`);
  });

  it('a next-link fault leaves an unpaged list as it is', async () => {
    const sandbox = await paged({});
    sandbox.inject({ fault: { kind: 'next-link', to: 'loop' } });
    const res = await call(sandbox, '/Environments');
    expect(res.headers.get('link')).toBeNull();
    expect(names(await res.json())).toHaveLength(5);
  });

  it('refuses paging options that cannot work', async () => {
    await expect(startSandbox({ pageSize: 0 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ pageSize: 1.5 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ paging: 'link' })).rejects.toThrow('paging needs pageSize');
    await expect(startSandbox({ pageSize: 2, envelope: 'value' })).rejects.toThrow('envelope and pageSize cannot be combined');
  });
});

describe('sandbox latency', () => {
  it('delays every answer, faulted or not, and close() does not wait for it', async () => {
    const sandbox = await startSandbox({ seed: 1, latencyMs: 120 });
    try {
      let started = performance.now();
      expect((await call(sandbox, '/Environments')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
      sandbox.inject({ fault: { kind: 'status', status: 503 } });
      started = performance.now();
      expect((await call(sandbox, '/Environments')).status).toBe(503);
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    } finally {
      await sandbox.close();
    }
    const slow = await startSandbox({ latencyMs: 60_000 });
    const pending = call(slow, '/Environments');
    pending.catch(() => undefined);
    await slow.waitForRequest(() => true);
    const closing = performance.now();
    await slow.close();
    expect(performance.now() - closing).toBeLessThan(10_000);
    await expect(pending).rejects.toThrow();
  });

  it('refuses a latency that is not a number of milliseconds', async () => {
    await expect(startSandbox({ latencyMs: -1 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ latencyMs: Number.NaN })).rejects.toThrow(RangeError);
  });
});
