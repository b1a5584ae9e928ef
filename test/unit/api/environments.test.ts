// The Environments resource (src/api/environments.ts) against a scripted HTTP client: which calls it makes,
// with which words for the error lines, how it reads a list in pages, and what it makes of the failures.
import { describe, expect, it } from 'vitest';
import { listsIn, checkEnvironmentId, createEnvironmentsApi, environmentUrl } from '../../../src/api/environments.js';
import type { Answer, Http } from '../../../src/api/http.js';
import type { ResolvedSettings } from '../../../src/config/credentials/settings.js';
import { buildPayload } from '../../../src/domain/environments/payload.js';
import { UsageError, ApiError, CipError, NetworkError, ProtocolError } from '../../../src/errors.js';
import { caught } from '../../helpers/errors.js';
import { fromFlat } from '../../helpers/settings.js';

describe('listsIn', () => {
  const items = [{ id: 'a' }, { id: 'b' }];
  const cases: [string, unknown][] = [
    ['a bare array', items],
    ...['value', 'items', 'data', 'results', 'Value', 'Items', 'DATA', 'Results'].map((key): [string, unknown] => [
      `{"${key}": [...]}`,
      { [key]: items, count: 2 },
    ]),
  ];
  it.each(cases)('returns the list from %s', (_what, body) => {
    expect(listsIn(body).map((list) => list.items)).toEqual([items]);
  });

  it.each([
    ['an object without a list', { value: 'x', count: 2 }],
    ['a single record', { id: 'a', name: 'x' }],
    ['a string', 'list'],
    ['null', null],
  ])('finds no list in %s', (_what, body) => {
    expect(listsIn(body)).toEqual([]);
  });
});

describe('--data @file', () => {
  it('is not valid JSON, and the error points to --file', async () => {
    const error = await buildPayload({ data: '@env.json' }, async () => '').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).hint).toBe('use --file env.json to read a file');
  });
});

const BASE = 'https://api.example.com/ms';

const settings: ResolvedSettings = fromFlat({
  profile: undefined,
  baseUrl: BASE,
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  apiKey: 'environments-edges-api-key-0123',
  subscriptionKey: 'environments-edges-sub-key-0123',
  sources: { baseUrl: 'CIP_BASE_URL', enterpriseId: 'CIP_ENTERPRISE_ID', apiKey: 'CIP_API_KEY', subscriptionKey: 'CIP_SUBSCRIPTION_KEY' },
});

type Step = Answer | Error;

/** An Http that answers send() from a script, and records every call. */
function scripted(steps: Step[] = [], requestAnswer: unknown = { id: 'x' }) {
  const calls: unknown[][] = [];
  const http: Http = {
    send(...args) {
      calls.push(['send', ...args]);
      const step = steps.shift();
      if (step === undefined) throw new Error('no more answers scripted');
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    },
    request(...args) {
      calls.push(['request', ...args]);
      return requestAnswer instanceof Error ? Promise.reject(requestAnswer) : Promise.resolve(requestAnswer);
    },
    exchange() {
      throw new Error('not used');
    },
  };
  return { api: createEnvironmentsApi(http, settings), calls };
}

function page(data: unknown, link?: string): Answer {
  return { data, headers: new Headers(link === undefined ? {} : { link: `<${link}>; rel="next"` }) };
}

const failure = (promise: Promise<unknown>) => caught(promise, CipError);

describe('listsIn', () => {
  it.each([
    [
      'every envelope, in the order of the answer',
      { results: [4], data: [3], items: [2], value: [1] },
      ['results', 'data', 'items', 'value'],
    ],
    ['an envelope whose name comes after a field that is not one', { count: 2, total: [9], Items: [1, 2] }, ['Items']],
    ['an envelope that holds a list, not one of the same name that does not', { value: 'x', data: [5] }, ['data']],
    ['the same envelope in two letter cases', { value: [], Value: [1] }, ['value', 'Value']],
    ['a bare array, with no name', [1], ['']],
  ])('finds %s', (_what, body, names) => {
    expect(listsIn(body).map((list) => list.name)).toEqual(names);
  });

  it.each([undefined, null, 'value', 42, true])('finds no list in %j', (body) => {
    expect(listsIn(body)).toEqual([]);
  });
});

describe('checkEnvironmentId and environmentUrl', () => {
  it.each(['', ' ', '\t\n '])('refuses the blank id %j', (id) => {
    expect(() => checkEnvironmentId(id)).toThrow(new UsageError('an environment id cannot be empty'));
    expect(() => environmentUrl(BASE, id)).toThrow(UsageError);
  });

  it.each(['.', '..', 'a/b', '/', 'a\\b'])(
    'refuses %j: URL resolution, or a server decoding %2F or %5C, would make it another path',
    (id) => {
      expect(() => checkEnvironmentId(id)).toThrow(new UsageError(`'${id}' is not an environment id: it would change the request's path`));
    },
  );

  it.each([
    ['7d1c', `${BASE}/Environments/7d1c`],
    [' padded ', `${BASE}/Environments/%20padded%20`],
    ['a?c#d', `${BASE}/Environments/a%3Fc%23d`],
    ['%2e%2e', `${BASE}/Environments/%252e%252e`],
    ['...', `${BASE}/Environments/...`],
  ])('takes %j, encoded, as one segment below the collection', (id, url) => {
    expect(checkEnvironmentId(id)).toBe(id);
    expect(environmentUrl(BASE, id)).toBe(url);
  });

  it('addresses the collection without an id', () => {
    expect(environmentUrl(BASE)).toBe(`${BASE}/Environments`);
  });
});

describe('list', () => {
  it("returns a one-page list as that page's own array, after one GET of the collection", async () => {
    const items = [{ id: 'a' }, { id: 'b' }];
    const { api, calls } = scripted([page(items)]);
    expect(await api.list()).toBe(items);
    expect(calls).toEqual([['send', 'GET', 'Environments', 'list environments']]);
  });

  it('follows next-page links, from each page to the next, and joins the pages in order', async () => {
    const { api, calls } = scripted([
      page({ value: [1, 2] }, `${BASE}/Environments?page=2`),
      page({ value: [] }, `${BASE}/Environments?page=3`),
      page({ value: [3] }),
    ]);
    expect(await api.list()).toEqual([1, 2, 3]);
    expect(calls).toEqual([
      ['send', 'GET', 'Environments', 'list environments'],
      ['send', 'GET', `${BASE}/Environments?page=2`, 'list environments (page 2)'],
      ['send', 'GET', `${BASE}/Environments?page=3`, 'list environments (page 3)'],
    ]);
  });

  it.each([
    [1, undefined, 'cannot list environments: the API answered with an empty body instead of a list'],
    [1, { count: 0 }, 'cannot list environments: the API answered with something that is not a list'],
    [2, undefined, 'cannot list environments (page 2): the API answered with an empty body instead of a list'],
    [2, 'nothing', 'cannot list environments (page 2): the API answered with something that is not a list'],
  ])('refuses page %i answered with %j: a server error', async (at, body, message) => {
    const steps = at === 1 ? [page(body)] : [page([1], `${BASE}/Environments?page=2`), page(body)];
    const error = await failure(scripted(steps).api.list());
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toBe(message);
    expect(error.exitCode).toBe(7);
  });

  it('a count is of the whole list: pages that add up to it are whole, pages that fall short are refused', async () => {
    const pages = (count: number) => [
      page({ value: [1, 2], '@odata.count': count, '@odata.nextLink': `${BASE}/Environments?page=2` }),
      page({ value: [3], '@odata.count': count }),
    ];
    expect(await scripted(pages(3)).api.list()).toEqual([1, 2, 3]);
    // A count below what came is no sign that anything is missing.
    expect(await scripted(pages(2)).api.list()).toEqual([1, 2, 3]);
    const error = await failure(scripted(pages(4)).api.list());
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toBe('cannot list environments: the API says the list holds 4 (@odata.count), but its 2 pages held 3');
  });

  it('a token beside a next link that is followed is no sign of more; one on the last page is', async () => {
    const followed = scripted([page({ value: [1], nextPageToken: 't' }, `${BASE}/Environments?page=2`), page({ value: [2] })]);
    expect(await followed.api.list()).toEqual([1, 2]);
    const error = await failure(
      scripted([page({ value: [1] }, `${BASE}/Environments?page=2`), page({ value: [2], next_page_token: 't' })]).api.list(),
    );
    expect(error.message).toBe(
      "cannot list environments (page 2): the API's answer says the list goes on (next_page_token), but has no next link cip can follow",
    );
    expect(error.exitCode).toBe(7);
  });

  it('refuses two lists on a later page too', async () => {
    const error = await failure(scripted([page([1], `${BASE}/Environments?page=2`), page({ Value: [2], results: [] })]).api.list());
    expect(error.message).toBe(
      'cannot list environments (page 2): the API answered with 2 lists (Value, results), and cip cannot tell which one is the environments',
    );
  });

  it('adds a hint to a 404 for the collection: the base URL points elsewhere', async () => {
    const notFound = new ApiError(404, 'cannot list environments: not found (HTTP 404)');
    const error = await failure(scripted([notFound]).api.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(notFound.message);
    expect(error.hint).toBe(`is the base URL right? cip asked ${BASE}/Environments`);
    expect(error.exitCode).toBe(5);
  });

  it.each([
    ['a 404 for a later page', [page([1], `${BASE}/Environments?page=2`), new ApiError(404, 'gone', 'page hint')]],
    ['a 403 for the collection', [new ApiError(403, 'forbidden', 'page hint')]],
    ['a network failure', [new NetworkError('down', 'page hint')]],
  ])('passes on %s as it came', async (_what, steps) => {
    const thrown = steps.at(-1);
    expect(await failure(scripted(steps).api.list())).toBe(thrown);
  });
});

describe('create, update and remove', () => {
  it('creates with one POST to the collection, and returns what the API answered', async () => {
    const { api, calls } = scripted([], { id: 'new' });
    expect(await api.create({ name: 'n' })).toEqual({ id: 'new' });
    expect(calls).toEqual([['request', 'POST', 'Environments', 'create the environment', { name: 'n' }]]);
  });

  it("updates with one PUT to the item, named in the error line's words; If-Match only when given a validator", async () => {
    const answer = (): Answer => ({ data: { id: 'a b', name: 'm' }, headers: new Headers() });
    const { api, calls } = scripted([answer(), answer()]);
    expect(await api.update('a b', { name: 'm' })).toEqual({ id: 'a b', name: 'm' });
    expect(await api.update('a b', { name: 'm' }, '"v7"')).toEqual({ id: 'a b', name: 'm' });
    expect(calls).toEqual([
      ['send', 'PUT', 'Environments/a%20b', "update environment 'a b'", { name: 'm' }, true, {}],
      ['send', 'PUT', 'Environments/a%20b', "update environment 'a b'", { name: 'm' }, true, { 'If-Match': '"v7"' }],
    ]);
  });

  it("reads the list's strong ETag as its validator: the first page's when every page has one, else none", async () => {
    const tagged = (data: unknown, etag: string | undefined, link?: string): Answer => {
      const answer = page(data, link);
      if (etag !== undefined) answer.headers.set('ETag', etag);
      return answer;
    };
    const next = `${BASE}/Environments?page=2`;
    expect(await scripted([tagged([1], '"v1"')]).api.read()).toEqual({ items: [1], validator: '"v1"' });
    expect(await scripted([tagged([1], '"v1"', next), tagged([2], '"v2"')]).api.read()).toEqual({ items: [1, 2], validator: '"v1"' });
    expect(await scripted([tagged([1], '"v1"', next), tagged([2], undefined)]).api.read()).toEqual({ items: [1, 2], validator: undefined });
    for (const weakOrBroken of ['W/"v1"', 'v1', '"a"b"', '']) {
      expect((await scripted([tagged([1], weakOrBroken)]).api.read()).validator).toBeUndefined();
    }
  });

  it('removes with one DELETE whose body is not read', async () => {
    const { api, calls } = scripted([], { ignored: true });
    expect(await api.remove('a b')).toEqual({ alreadyGone: false });
    expect(calls).toEqual([['request', 'DELETE', 'Environments/a%20b', "delete environment 'a b'", undefined, false]]);
  });

  it('refuses an id that would change the path before any request', async () => {
    const { api, calls } = scripted();
    await expect(api.update('..', {})).rejects.toThrow(UsageError);
    await expect(api.remove('.')).rejects.toThrow(UsageError);
    expect(calls).toEqual([]);
  });

  it('takes a 404 after an attempt whose answer was lost as already gone', async () => {
    const { api } = scripted([], new ApiError(404, 'not found', undefined, true));
    expect(await api.remove('lost')).toEqual({ alreadyGone: true });
  });

  it.each([
    ['a 404 on a first attempt', new ApiError(404, 'not found')],
    ['a 500 after a lost answer', new ApiError(500, 'failed', undefined, true)],
    ['a 409 after a lost answer', new ApiError(409, 'conflict', undefined, true)],
    ['a network failure', new NetworkError('down')],
  ])('passes on %s', async (_what, thrown) => {
    expect(await failure(scripted([], thrown).api.remove('x'))).toBe(thrown);
  });
});
