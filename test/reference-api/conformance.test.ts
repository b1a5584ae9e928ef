// One table of requests, sent to the sandbox and to the reference API on ASP.NET Core (this folder), and what
// cip depends on compared: status, content type, the body's shape, the message cip would show, the error
// fields, Location. A row that differs on purpose names the fields and its entry in DIFFERENCES.md, and the
// test checks that those fields still differ, so a fixed difference does not stay listed.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessageFromBody } from '../../src/api/error-body.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { epochSeconds, makeJwt, type JwtOptions } from '../helpers/jwt.js';
import { buildReferenceApi, hasDotnet, startReferenceApi, type ReferenceApi } from '../helpers/reference-api.js';

type Keys = Sandbox['keys'];

interface Scenario {
  what: string;
  method: string;
  /** After the base URL: `{id}` is an environment made for the row on each server, `{missing}` a GUID neither has. */
  path: string;
  /** Header changes: a value replaces the valid one, undefined removes it. */
  headers?: (keys: Keys) => Record<string, string | undefined>;
  /** A string is sent as it is; an object as JSON. */
  body?: string | Record<string, unknown>;
  /** Default: application/json when there is a body. null sends none. */
  contentType?: string | null;
  /** Text the answer's body should be checked for (compared as `includes`). */
  includes?: string;
  /** Fields of the view that differ on purpose, and the heading in DIFFERENCES.md that says why. */
  differs?: { fields: (keyof View)[]; entry: string };
  /**
   * An If-Match header: `{etag}` in it is the ETag of `{id}` (GET by id) and `{list}` the list's, read after `{id}`
   * was made; `then` changes `{id}` (`it`) or makes another environment (`another`) after that read and before
   * the request.
   */
  ifMatch?: { value: string; then?: 'it' | 'another' };
}

interface View {
  status: number;
  /** Media type without parameters; '' when there is none. */
  mediaType: string;
  shape: 'empty' | 'array' | 'record' | 'object' | 'apim' | 'problem' | 'text' | 'broken json';
  /** What cip shows from the body (errorMessageFromBody), without System.Text.Json's line and byte positions. */
  message: string | undefined;
  /** The keys of a ProblemDetails `errors`, sorted. */
  errorFields: string[] | undefined;
  /** The Location header with the base URL and the GUID replaced. */
  location: string | undefined;
  /** WWW-Authenticate: which gateway or handler refused, and (for a token) why. */
  challenge: string | undefined;
  includes: boolean | undefined;
  /** Whether the answer carries an ETag, and of which strength. */
  etag: 'strong' | 'weak' | undefined;
}

const MISSING = '0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34';
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';
const readOnly = (keys: Keys) => ({ Authorization: `ApiKey ${keys.readOnlyApiKey}` });

// Tokens are made from one clock reading, so both servers get the same token, and the same dates in a challenge.
const NOW = epochSeconds();
const HOUR = 3600;
/** A token signed with the servers' secret, for their enterprise, valid for an hour; a claim set to undefined is left out. */
const jwt = (keys: Keys, claims: Record<string, unknown> = {}, options: JwtOptions = {}) =>
  makeJwt(
    { sub: 'conformance', enterpriseId: keys.enterpriseId, iat: NOW, exp: NOW + HOUR, ...claims },
    { secret: keys.tokenSecret, ...options },
  );
/** Authorization: Bearer, and no EnterpriseId header unless given: a token names its enterprise. */
const bearer =
  (token: (keys: Keys) => string, more: Record<string, string | undefined> = {}) =>
  (keys: Keys) => ({ Authorization: `Bearer ${token(keys)}`, EnterpriseId: undefined, ...more });
/** A token signed with HMAC over another hash (HS384, HS512), which the framework's handler also takes. */
const hmacJwt = (keys: Keys, alg: string, hash: string) => {
  const input = [
    { alg, typ: 'JWT' },
    { enterpriseId: keys.enterpriseId, exp: NOW + HOUR },
  ]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.');
  return `${input}.${createHmac(hash, keys.tokenSecret).update(input).digest('base64url')}`;
};
const validToken = (keys: Keys) => jwt(keys);
const readOnlyToken = (keys: Keys) => jwt(keys, { scope: 'environments.read' });

const SCENARIOS: Scenario[] = [
  // The gateway and the keys.
  { what: 'a list with valid keys', method: 'GET', path: '/Environments' },
  { what: 'a list at a lower-case path with a trailing slash', method: 'GET', path: '/environments/' },
  { what: 'a path the gateway does not know', method: 'GET', path: '/Nope' },
  { what: 'no subscription key', method: 'GET', path: '/Environments', headers: () => ({ 'Ocp-Apim-Subscription-Key': undefined }) },
  { what: 'a wrong subscription key', method: 'GET', path: '/Environments', headers: () => ({ 'Ocp-Apim-Subscription-Key': 'wrong' }) },
  { what: 'a wrong API key', method: 'GET', path: '/Environments', headers: () => ({ Authorization: 'ApiKey wrong' }) },
  { what: 'no Authorization header', method: 'GET', path: '/Environments', headers: () => ({ Authorization: undefined }) },
  { what: 'no EnterpriseId', method: 'GET', path: '/Environments', headers: () => ({ EnterpriseId: undefined }) },
  { what: 'an EnterpriseId that is no GUID', method: 'GET', path: '/Environments', headers: () => ({ EnterpriseId: 'acme' }) },
  {
    what: 'an EnterpriseId in upper case',
    method: 'GET',
    path: '/Environments',
    headers: (keys) => ({ EnterpriseId: keys.enterpriseId.toUpperCase() }),
  },
  { what: 'another enterprise', method: 'GET', path: '/Environments', headers: () => ({ EnterpriseId: OTHER_ENTERPRISE }) },
  { what: 'a list with the read-only key', method: 'GET', path: '/Environments', headers: readOnly },
  { what: 'a create with the read-only key', method: 'POST', path: '/Environments', headers: readOnly, body: { name: 'ro' } },
  { what: 'an update with the read-only key', method: 'PUT', path: '/Environments/{id}', headers: readOnly, body: { name: 'ro' } },
  { what: 'a delete with the read-only key', method: 'DELETE', path: '/Environments/{id}', headers: readOnly },
  { what: 'the anonymous ping', method: 'GET', path: '/ping', headers: () => ({ 'Ocp-Apim-Subscription-Key': undefined }) },

  // Bearer tokens, judged by ASP.NET Core's JWT bearer handler.
  { what: 'a list with a token', method: 'GET', path: '/Environments', headers: bearer(validToken) },
  { what: 'a create with a token', method: 'POST', path: '/Environments', headers: bearer(validToken), body: { name: 'tok' } },
  { what: 'a delete with a token', method: 'DELETE', path: '/Environments/{id}', headers: bearer(validToken) },
  {
    what: 'a token after "bearer" in lower case',
    method: 'GET',
    path: '/Environments',
    headers: (keys) => ({ Authorization: `bearer ${jwt(keys)}` }),
  },
  {
    what: 'a token that expired an hour ago',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { iat: NOW - 2 * HOUR, exp: NOW - HOUR })),
  },
  {
    what: 'a token that expired a minute ago (within the clock skew)',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { iat: NOW - HOUR, exp: NOW - 60 })),
  },
  { what: 'a token without exp', method: 'GET', path: '/Environments', headers: bearer((keys) => jwt(keys, { exp: undefined })) },
  {
    what: 'a token not valid for another hour',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { nbf: NOW + HOUR, exp: NOW + 2 * HOUR })),
  },
  {
    what: 'a token valid from a minute on (within the clock skew)',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { nbf: NOW + 60 })),
  },
  {
    what: 'a token whose nbf is after its exp',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { nbf: NOW + 2 * HOUR })),
  },
  {
    what: 'a token signed with another secret',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, {}, { secret: 'another-secret-0123456789abcdefghijkl' })),
  },
  {
    what: 'an expired token signed with another secret',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { exp: NOW - HOUR }, { secret: 'another-secret-0123456789abcdefghijkl' })),
  },
  {
    what: 'a token signed with another secret, with a kid',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, {}, { secret: 'another-secret-0123456789abcdefghijkl', header: { alg: 'HS256', kid: 'k1' } })),
  },
  {
    what: 'a token with a kid',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, {}, { header: { alg: 'HS256', kid: 'k1' } })),
  },
  { what: 'a token signed with HS384', method: 'GET', path: '/Environments', headers: bearer((keys) => hmacJwt(keys, 'HS384', 'sha384')) },
  { what: 'a token signed with HS512', method: 'GET', path: '/Environments', headers: bearer((keys) => hmacJwt(keys, 'HS512', 'sha512')) },
  {
    what: 'a token whose header says RS256',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, {}, { header: { alg: 'RS256', typ: 'JWT' } })),
  },
  {
    what: 'a token whose signature is cut short',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys).slice(0, -4)),
  },
  {
    what: 'an unsigned token (alg none)',
    method: 'GET',
    path: '/Environments',
    headers: bearer(
      (keys) =>
        `${jwt(keys, {}, { header: { alg: 'none', typ: 'JWT' } })
          .split('.')
          .slice(0, 2)
          .join('.')}.`,
    ),
  },
  {
    what: 'a token with its payload changed',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => {
      const [header, , signature] = jwt(keys).split('.');
      return `${header}.${Buffer.from(JSON.stringify({ enterpriseId: keys.enterpriseId, exp: NOW + 2 * HOUR })).toString('base64url')}.${signature}`;
    }),
  },
  { what: 'a Bearer token that is no JWT', method: 'GET', path: '/Environments', headers: bearer(() => 'x') },
  {
    what: 'a token of two parts',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys).split('.').slice(0, 2).join('.')),
  },
  {
    what: 'a token whose payload is not JSON',
    method: 'GET',
    path: '/Environments',
    headers: bearer(() => 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln'),
  },
  {
    what: 'a token without a subscription key',
    method: 'GET',
    path: '/Environments',
    headers: bearer(validToken, { 'Ocp-Apim-Subscription-Key': undefined }),
  },
  {
    what: 'a token with a wrong subscription key',
    method: 'GET',
    path: '/Environments',
    headers: bearer(validToken, { 'Ocp-Apim-Subscription-Key': 'wrong' }),
  },
  {
    what: 'a token with its own enterprise in EnterpriseId',
    method: 'GET',
    path: '/Environments',
    headers: (keys) => ({ Authorization: `Bearer ${jwt(keys)}`, EnterpriseId: keys.enterpriseId.toUpperCase() }),
  },
  {
    what: 'a token with another enterprise in EnterpriseId',
    method: 'GET',
    path: '/Environments',
    headers: bearer(validToken, { EnterpriseId: OTHER_ENTERPRISE }),
  },
  {
    what: 'a token with an EnterpriseId that is no GUID',
    method: 'GET',
    path: '/Environments',
    headers: bearer(validToken, { EnterpriseId: 'acme' }),
  },
  {
    what: 'a token for another enterprise',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { enterpriseId: OTHER_ENTERPRISE })),
  },
  {
    what: 'a token for another enterprise, with that enterprise in EnterpriseId',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { enterpriseId: OTHER_ENTERPRISE }), { EnterpriseId: OTHER_ENTERPRISE }),
  },
  {
    what: 'a token that names no enterprise',
    method: 'GET',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { enterpriseId: undefined })),
  },
  { what: 'a list with a read-only token', method: 'GET', path: '/Environments', headers: bearer(readOnlyToken) },
  { what: 'a create with a read-only token', method: 'POST', path: '/Environments', headers: bearer(readOnlyToken), body: { name: 'ro' } },
  {
    what: 'an update with a read-only token',
    method: 'PUT',
    path: '/Environments/{id}',
    headers: bearer(readOnlyToken),
    body: { name: 'ro' },
  },
  { what: 'a delete with a read-only token', method: 'DELETE', path: '/Environments/{id}', headers: bearer(readOnlyToken) },
  {
    what: 'a create with a token whose scope is a list holding the write scope',
    method: 'POST',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { scope: ['environments.read', 'environments.write'] })),
    body: { name: 'rw' },
  },
  {
    what: 'a create with a token whose scope is a list without it',
    method: 'POST',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { scope: ['environments.read'] })),
    body: { name: 'ro' },
  },
  {
    what: 'a create with a token that holds the write scope',
    method: 'POST',
    path: '/Environments',
    headers: bearer((keys) => jwt(keys, { scope: 'environments.read environments.write' })),
    body: { name: 'rw' },
  },

  // Create.
  { what: 'a create', method: 'POST', path: '/Environments', body: { name: 'made' }, includes: '"name":"made"' },
  {
    what: 'a create with a 64-bit number beyond 2^53',
    method: 'POST',
    path: '/Environments',
    body: '{"name":"exact","quotaBytes":9007199254740993}',
    includes: '"quotaBytes":9007199254740993',
  },
  {
    what: 'a create with a nested object',
    method: 'POST',
    path: '/Environments',
    body: { name: 'nested', settings: { retention: 30 } },
    includes: '"retention":30',
  },
  { what: 'a create with "Name" in another letter case', method: 'POST', path: '/Environments', body: { Name: 'caps' } },
  { what: 'a create as text/json', method: 'POST', path: '/Environments', body: { name: 'tj' }, contentType: 'text/json' },
  {
    what: 'a create as application/merge-patch+json',
    method: 'POST',
    path: '/Environments',
    body: { name: 'mp' },
    contentType: 'application/merge-patch+json',
  },
  {
    what: 'a create with a charset',
    method: 'POST',
    path: '/Environments',
    body: { name: 'cs' },
    contentType: 'application/json; charset=utf-8',
  },
  {
    what: 'a create with a field the model does not have',
    method: 'POST',
    path: '/Environments',
    body: { name: 'extra', extraField: 1 },
    includes: '"extraField":1',
    differs: { fields: ['includes'], entry: 'Unknown fields' },
  },
  {
    what: 'a create with a number too big for a long',
    method: 'POST',
    path: '/Environments',
    body: '{"name":"big","quotaBytes":12345678901234567890}',
    differs: { fields: ['status', 'mediaType', 'shape', 'message', 'errorFields', 'location', 'etag'], entry: 'Field types' },
  },
  { what: 'a create without a content type', method: 'POST', path: '/Environments', body: '{"name":"x"}', contentType: null },
  { what: 'a create as text/plain', method: 'POST', path: '/Environments', body: '{"name":"x"}', contentType: 'text/plain' },
  { what: 'a create without a name', method: 'POST', path: '/Environments', body: { description: 'x' } },
  { what: 'a create with a blank name', method: 'POST', path: '/Environments', body: { name: '   ' } },
  { what: 'a create with a null name', method: 'POST', path: '/Environments', body: { name: null } },
  { what: 'a create with a number for a name', method: 'POST', path: '/Environments', body: { name: 42 } },
  { what: 'a create with an empty body', method: 'POST', path: '/Environments', body: '' },
  { what: 'a create with a JSON null', method: 'POST', path: '/Environments', body: 'null' },
  {
    what: 'a create with a JSON array',
    method: 'POST',
    path: '/Environments',
    body: '[]',
    differs: { fields: ['message'], entry: 'JSON error texts' },
  },
  {
    what: 'a create with malformed JSON',
    method: 'POST',
    path: '/Environments',
    body: '{',
    differs: { fields: ['message'], entry: 'JSON error texts' },
  },

  // Update.
  {
    what: 'an update',
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'renamed' },
    differs: { fields: ['status', 'mediaType', 'shape'], entry: 'PUT answers' },
  },
  { what: 'an update without a name', method: 'PUT', path: '/Environments/{id}', body: { description: 'x' } },
  {
    what: 'an update of a GUID no one has',
    method: 'PUT',
    path: '/Environments/{missing}',
    body: { name: 'x' },
    differs: { fields: ['message'], entry: '404 texts' },
  },
  { what: 'an update with a bad body of a GUID no one has', method: 'PUT', path: '/Environments/{missing}', body: { name: '' } },
  { what: 'an update of an id that is no GUID', method: 'PUT', path: '/Environments/not-a-guid', body: { name: 'x' } },
  { what: 'an update as text/plain', method: 'PUT', path: '/Environments/{id}', body: '{"name":"x"}', contentType: 'text/plain' },

  // Delete, other methods.
  { what: 'a delete', method: 'DELETE', path: '/Environments/{id}' },
  {
    what: 'a delete of a GUID no one has',
    method: 'DELETE',
    path: '/Environments/{missing}',
    differs: { fields: ['message'], entry: '404 texts' },
  },
  { what: 'a delete of an id that is no GUID', method: 'DELETE', path: '/Environments/not-a-guid' },
  { what: 'a read of one environment', method: 'GET', path: '/Environments/{id}' },
  {
    what: 'a read of one environment that does not exist',
    method: 'GET',
    path: '/Environments/{missing}',
    differs: { fields: ['message'], entry: '404 texts' },
  },
  { what: 'a PATCH of the collection', method: 'PATCH', path: '/Environments' },

  // If-Match on writes to one environment (DIFFERENCES.md, "ETags and If-Match").
  {
    what: "an update with the environment's ETag",
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'matched' },
    ifMatch: { value: '{etag}' },
    differs: { fields: ['status', 'mediaType', 'shape'], entry: 'PUT answers' },
  },
  {
    what: "an update with the environment's ETag after another environment changed",
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'matched' },
    ifMatch: { value: '{etag}', then: 'another' },
    differs: { fields: ['status', 'mediaType', 'shape'], entry: 'PUT answers' },
  },
  {
    what: "an update with the environment's ETag after the environment changed",
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'stale' },
    ifMatch: { value: '{etag}', then: 'it' },
  },
  {
    what: 'an update with a stale ETag among others',
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'x' },
    ifMatch: { value: '"v0", "zz"' },
  },
  {
    what: 'an update with If-Match: *',
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'any' },
    ifMatch: { value: '*', then: 'it' },
    differs: { fields: ['status', 'mediaType', 'shape'], entry: 'PUT answers' },
  },
  {
    what: "an update with the environment's ETag made weak",
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'weak' },
    ifMatch: { value: 'W/{etag}' },
  },
  {
    what: 'an update with an If-Match that does not parse',
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'x' },
    ifMatch: { value: 'v1' },
  },
  {
    what: 'an update with If-Match of a GUID no one has',
    method: 'PUT',
    path: '/Environments/{missing}',
    body: { name: 'x' },
    ifMatch: { value: '*' },
    differs: { fields: ['message'], entry: '404 texts' },
  },
  {
    what: 'an update without a name, with a stale ETag',
    method: 'PUT',
    path: '/Environments/{id}',
    body: { description: 'x' },
    ifMatch: { value: '{etag}', then: 'it' },
  },
  {
    what: "an update with the list's ETag, which is no environment's",
    method: 'PUT',
    path: '/Environments/{id}',
    body: { name: 'listed' },
    ifMatch: { value: '{list}' },
  },
  {
    what: "a delete with the environment's ETag",
    method: 'DELETE',
    path: '/Environments/{id}',
    ifMatch: { value: '{etag}', then: 'another' },
  },
  { what: 'a delete with a stale ETag', method: 'DELETE', path: '/Environments/{id}', ifMatch: { value: '{etag}', then: 'it' } },
  { what: 'a POST to one environment', method: 'POST', path: '/Environments/{id}', body: { name: 'x' } },
];

interface Target {
  url: string;
  keys: Keys;
}

async function send(target: Target, scenario: Scenario, id: string, ifMatch?: string): Promise<{ response: Response; text: string }> {
  const headers: Record<string, string> = ifMatch === undefined ? {} : { 'If-Match': ifMatch };
  const body = typeof scenario.body === 'object' ? JSON.stringify(scenario.body) : scenario.body;
  const contentType = scenario.contentType === undefined ? (body === undefined ? undefined : 'application/json') : scenario.contentType;
  const given: Record<string, string | undefined> = {
    'Ocp-Apim-Subscription-Key': target.keys.subscriptionKey,
    Authorization: `ApiKey ${target.keys.apiKey}`,
    EnterpriseId: target.keys.enterpriseId,
    ...(contentType === null || contentType === undefined ? {} : { 'Content-Type': contentType }),
    ...scenario.headers?.(target.keys),
  };
  for (const [name, value] of Object.entries(given)) if (value !== undefined) headers[name] = value;
  const path = scenario.path.replace('{id}', id).replace('{missing}', MISSING);
  // fetch would label a string body text/plain: a Blob without a type sends no Content-Type of its own.
  const response = await fetch(target.url + path, {
    method: scenario.method,
    headers,
    body: body === undefined ? undefined : new Blob([body]),
  });
  return { response, text: await response.text() };
}

function shapeOf(text: string): View['shape'] {
  if (text === '') return 'empty';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return /^\s*[[{]/.test(text) ? 'broken json' : 'text';
  }
  if (Array.isArray(parsed)) return 'array';
  if (typeof parsed !== 'object' || parsed === null) return 'text';
  const body = parsed as Record<string, unknown>;
  if (typeof body.statusCode === 'number' && typeof body.message === 'string') return 'apim';
  if (
    typeof body.type === 'string' &&
    typeof body.title === 'string' &&
    typeof body.status === 'number' &&
    typeof body.traceId === 'string'
  ) {
    return 'problem';
  }
  if (typeof body.id === 'string' && GUID.test(body.id)) return 'record';
  return 'object';
}

function viewOf(target: Target, scenario: Scenario, response: Response, text: string): View {
  const contentType = response.headers.get('content-type') ?? '';
  const location = response.headers.get('location') ?? undefined;
  const etag = response.headers.get('etag');
  let errorFields: string[] | undefined;
  try {
    const errors = (JSON.parse(text) as { errors?: Record<string, unknown> }).errors;
    errorFields = errors === undefined ? undefined : Object.keys(errors).sort();
  } catch {
    errorFields = undefined;
  }
  return {
    status: response.status,
    mediaType: (contentType.split(';', 1)[0] ?? '').trim(),
    shape: shapeOf(text),
    message: errorMessageFromBody(text, contentType)?.replace(/ \| LineNumber: \d+ \| BytePositionInLine: \d+/g, ''),
    errorFields,
    location: location?.replace(target.url, '{base}').replace(GUID, '{guid}'),
    challenge: response.headers.get('www-authenticate') ?? undefined,
    includes: scenario.includes === undefined ? undefined : text.includes(scenario.includes),
    etag: etag === null ? undefined : etag.startsWith('W/') ? 'weak' : 'strong',
  };
}

/** The If-Match a row sends: the tags read now, then the change the row makes before its request. */
async function ifMatchFor(target: Target, scenario: Scenario, id: string): Promise<string | undefined> {
  if (scenario.ifMatch === undefined) return undefined;
  const { response: listed } = await send(target, { what: 'read', method: 'GET', path: '/Environments' }, '');
  const list = listed.headers.get('etag');
  expect(list).toMatch(/^"[^"]+"$/);
  let etag: string | null = null;
  if (id !== '') {
    const { response } = await send(target, { what: 'read', method: 'GET', path: '/Environments/{id}' }, id);
    etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag).not.toBe(list);
  }
  const then = scenario.ifMatch.then;
  if (then === 'it') {
    const { response: changed } = await send(
      target,
      { what: 'change', method: 'PUT', path: '/Environments/{id}', body: { name: 'changed' } },
      id,
    );
    expect(changed.ok).toBe(true);
  }
  if (then === 'another') await makeEnvironment(target, 'another');
  return scenario.ifMatch.value.replace('{etag}', etag ?? '').replace('{list}', list!);
}

/** A new environment on the target, for a row that needs one. */
async function makeEnvironment(target: Target, name: string): Promise<string> {
  const { response, text } = await send(target, { what: 'setup', method: 'POST', path: '/Environments', body: { name } }, '');
  expect(response.status).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

describe.skipIf(!hasDotnet())('the sandbox answers as ASP.NET Core does', () => {
  let sandbox: Sandbox;
  let reference: ReferenceApi;

  beforeAll(async () => {
    // The reference API has ETags of each environment's own, as an ASP.NET Core service usually does: the
    // sandbox's item style.
    const [dll, started] = await Promise.all([buildReferenceApi(), startSandbox({ etags: 'item' })]);
    sandbox = started;
    reference = await startReferenceApi(dll);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([sandbox?.close(), reference?.close()]);
  });

  it.each(SCENARIOS.map((scenario) => [scenario.what, scenario] as const))('%s', async (_what, scenario) => {
    const views = await Promise.all(
      [sandbox, reference].map(async (target) => {
        const id = scenario.path.includes('{id}') ? await makeEnvironment(target, 'row') : '';
        const { response, text } = await send(target, scenario, id, await ifMatchFor(target, scenario, id));
        return viewOf(target, scenario, response, text);
      }),
    );
    const [fromSandbox, fromReference] = views as [View, View];
    const differing = new Set<string>(scenario.differs?.fields ?? []);
    for (const field of differing) {
      const key = field as keyof View;
      expect(fromSandbox[key], `${field} is listed as different (DIFFERENCES.md, ${scenario.differs?.entry})`).not.toEqual(
        fromReference[key],
      );
    }
    const alike = (view: View) => Object.fromEntries(Object.entries(view).filter(([field]) => !differing.has(field)));
    expect(alike(fromSandbox)).toEqual(alike(fromReference));
  });

  it('lists every kept difference in DIFFERENCES.md', () => {
    const differences = readFileSync(new URL('DIFFERENCES.md', import.meta.url), 'utf8');
    for (const entry of new Set(SCENARIOS.flatMap((scenario) => (scenario.differs ? [scenario.differs.entry] : [])))) {
      expect(differences).toContain(`## ${entry}`);
    }
  });
});
