// The Environments resource as the real service routes it: GET and POST on {base}/Environments, PUT and
// DELETE on {base}/Environments/{id}, with ASP.NET's model binding and answers. Beside it, a read-only
// {base}/Integrations (the gateway serves it too), so `cip api Integrations` has something to show.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { parseExactJson, stringifyExactJson } from '../json/exact.js';
import { isRecord } from '../json/record.js';
import { itemEtagHeader, itemTag, listEtagHeader, perItem, Versions } from './etags.js';
import { checkAccess, header, type GatewayKeys } from './gateway.js';
import { apim, json, methodNotAllowed, notFound, ping, problem, validationProblem, type Reply } from './replies.js';
import { PAGE_PARAMETER, type Environment, type EtagStyle, type Fault, type SandboxOptions } from './types.js';

/** What a `next-link` fault does to a paged list's next link. */
export type NextLinkFault = Extract<Fault, { kind: 'next-link' }>['to'];

// Fields the server owns; a client cannot set them through POST or PUT.
const SERVER_FIELDS = ['id', 'createdat', 'updatedat'];

export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

// Matches {basePath}/Environments[/{id}] with an optional trailing slash, case-insensitively like ASP.NET routing.
// The id is returned still encoded so that an encoded '/' stays inside the id.
function matchPath(url: string, basePath: string): { rawId?: string } | undefined {
  const path = url.split('?', 1)[0] ?? '';
  const prefix = `${basePath}/environments`.toLowerCase();
  if (!path.toLowerCase().startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length).replace(/\/$/, '');
  if (rest === '') return {};
  if (!rest.startsWith('/') || rest.includes('/', 1)) return undefined;
  return { rawId: rest.slice(1) };
}

// The action's [FromBody] parameter: ASP.NET names it in the errors when the body cannot become a model.
const BODY_PARAMETER = 'environment';
const BODY_REQUIRED = { [BODY_PARAMETER]: [`The ${BODY_PARAMETER} field is required.`] };
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The media types ASP.NET's System.Text.Json input formatter reads.
function isJsonMediaType(contentType: string): boolean {
  const mediaType = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === 'text/json' || /^application\/[^/]+\+json$/.test(mediaType);
}

// {base}/Integrations with an optional trailing slash, in any letter case (ASP.NET routing).
function isIntegrations(url: string, basePath: string): boolean {
  return (url.split('?', 1)[0] ?? '').replace(/\/$/, '').toLowerCase() === `${basePath}/integrations`.toLowerCase();
}

// The sandbox's integrations: fixed, since nothing can change them (the real fields are not public).
const INTEGRATIONS = [
  { id: 'a1f3c2d4-5b6e-4f70-8a91-b2c3d4e5f601', name: 'orders-to-erp', type: 'Scheduled', isActive: true },
  { id: 'b2e4d3c5-6c7f-4081-9ba2-c3d4e5f60712', name: 'crm-contacts-sync', type: 'Webhook', isActive: true },
  { id: 'c3f5e4d6-7d80-4192-acb3-d4e5f6071823', name: 'invoice-archive', type: 'Scheduled', isActive: false },
];
const INTEGRATIONS_BODY = JSON.stringify(INTEGRATIONS);

// The anonymous {base}/ping every Copyl service answers for monitoring (any letter case, as ASP.NET routes).
function isPing(url: string, basePath: string): boolean {
  return (url.split('?', 1)[0] ?? '').toLowerCase() === `${basePath}/ping`.toLowerCase();
}

// Parses and validates a POST/PUT body the way ASP.NET's [ApiController] model binding does with a model whose
// only known rule is a [Required] string Name: System.Text.Json's errors when the body cannot become the model
// (then the model is null and its own rules are not checked), else the model's. Property names match in any
// letter case, as ASP.NET's web JSON defaults read them.
function readEnvironmentInput(req: IncomingMessage, body: string): { fields: Record<string, unknown> } | { reply: Reply } {
  if (!isJsonMediaType(header(req, 'content-type'))) return { reply: problem(415) };
  let parsed: unknown;
  try {
    // Numbers keep their digits, as a service storing 64-bit integers and decimals would keep them.
    parsed = body === '' ? null : parseExactJson(body);
  } catch {
    parsed = undefined;
  }
  if (parsed === null) {
    return { reply: validationProblem({ '': ['A non-empty request body is required.'], ...BODY_REQUIRED }) };
  }
  if (!isRecord(parsed)) {
    return { reply: validationProblem({ $: ['The JSON value could not be converted.'], ...BODY_REQUIRED }) };
  }
  const nameKey = Object.keys(parsed)
    .filter((key) => key.toLowerCase() === 'name')
    .pop();
  const name = nameKey === undefined ? undefined : parsed[nameKey];
  if (name !== undefined && name !== null && typeof name !== 'string') {
    const path = `$.${nameKey ?? 'name'}`;
    // ASP.NET lists the parameter first here, and after the error for a body that is not an object.
    return {
      reply: validationProblem({ ...BODY_REQUIRED, [path]: [`The JSON value could not be converted to System.String. Path: ${path}.`] }),
    };
  }
  // [Required] rejects whitespace-only strings too.
  if (typeof name !== 'string' || name.trim() === '') {
    return { reply: validationProblem({ Name: ['The Name field is required.'] }) };
  }
  // An OData annotation (`@odata.etag`) describes the payload; it is not a field of it.
  return {
    fields: Object.fromEntries(
      Object.entries(parsed).filter(([field]) => !SERVER_FIELDS.includes(field.toLowerCase()) && !field.startsWith('@odata.')),
    ),
  };
}

export interface Routes {
  /** The answer to a request that got past any fault; `nextLink` spoils a paged list's next link. */
  route(req: IncomingMessage, body: string, nextLink?: NextLinkFault): Reply;
}

// The same URL on another origin: 127.0.0.2 is this machine too, so a test can listen there and see whether a
// client followed the link.
function foreignOrigin(link: string): string {
  const url = new URL(link);
  url.hostname = url.hostname === '127.0.0.2' ? '127.0.0.3' : '127.0.0.2';
  return url.href;
}

type RouteOptions = Pick<SandboxOptions, 'envelope' | 'cacheList' | 'pageSize' | 'paging' | 'pingFails' | 'etags' | 'authErrors'> & {
  basePath: string;
  baseUrl: () => string;
};

/** What the routes share: the store, its versions, how it shows tags, and the cached list to drop on a write. */
interface Collection {
  environments: Map<string, Environment>;
  versions: Versions;
  etags: EtagStyle;
  options: RouteOptions;
  shown: (records: Environment[]) => unknown[];
  listTag: () => Record<string, string>;
  changed: () => void;
}

/** One page of the list, chosen by the page query parameter, in the configured style. */
function listPage(
  { environments, options, shown, listTag }: Collection,
  url: string,
  pageSize: number,
  nextLink: NextLinkFault | undefined,
): Reply {
  const queryAt = url.indexOf('?');
  const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
  const text = query.get(PAGE_PARAMETER) ?? '1';
  // ASP.NET's model binding answers a value it cannot convert to an int with a validation problem.
  if (!/^[1-9][0-9]{0,8}$/.test(text)) return validationProblem({ [PAGE_PARAMETER]: [`The value '${text}' is not valid.`] });
  const number = Number(text);
  const records = shown([...environments.values()].slice((number - 1) * pageSize, number * pageSize));
  const origin = new URL(options.baseUrl()).origin;
  let next: string | undefined;
  if (number * pageSize < environments.size) {
    query.set(PAGE_PARAMETER, String(number + 1));
    next = `${options.baseUrl()}/Environments?${query.toString()}`;
  }
  if (nextLink === 'loop') next = origin + url;
  else if (nextLink === 'foreign') next = foreignOrigin(next ?? origin + url);

  switch (options.paging ?? 'odata') {
    case 'odata':
      return json(200, stringifyExactJson({ value: records, ...(next === undefined ? {} : { '@odata.nextLink': next }) }), listTag());
    case 'next':
      return json(200, stringifyExactJson({ items: records, ...(next === undefined ? {} : { next }) }), listTag());
    case 'link':
      return json(200, stringifyExactJson(records), { ...listTag(), ...(next === undefined ? {} : { Link: `<${next}>; rel="next"` }) });
  }
}

/** POST, PUT and DELETE: each write changes the store, its versions, and the list's cached body. */
function itemWrites({ environments, versions, etags, options, changed }: Collection) {
  // If-Match on a write to an item that exists (etags.ts); a sandbox that sends no ETags ignores it, as a service
  // that knows nothing of validators does.
  const preconditionHolds = (id: string, req: IncomingMessage): boolean => {
    const ifMatch = req.headers['if-match'];
    return etags === 'none' || ifMatch === undefined || versions.holds(id, ifMatch, etags);
  };

  const create = (req: IncomingMessage, body: string): Reply => {
    const input = readEnvironmentInput(req, body);
    if ('reply' in input) return input.reply;
    const now = new Date().toISOString();
    const record: Environment = { id: randomUUID(), ...input.fields, createdAt: now, updatedAt: now };
    environments.set(String(record.id), record);
    versions.wrote(String(record.id));
    changed();
    return json(201, stringifyExactJson(record), {
      Location: `${options.baseUrl()}/Environments/${encodeURIComponent(String(record.id))}`,
      ...itemEtagHeader(etags, versions.of(String(record.id))!),
    });
  };

  const update = (id: string, req: IncomingMessage, body: string): Reply => {
    // Body validation comes first, as ASP.NET model binding runs before the action looks the record up.
    const input = readEnvironmentInput(req, body);
    if ('reply' in input) return input.reply;
    const existing = environments.get(id);
    if (!existing) return notFound(id);
    if (!preconditionHolds(id, req)) return problem(412);
    const record: Environment = { id: existing.id, ...input.fields, createdAt: existing.createdAt, updatedAt: new Date().toISOString() };
    environments.set(id, record);
    versions.wrote(id);
    changed();
    return json(200, stringifyExactJson(record), itemEtagHeader(etags, versions.of(id)!));
  };

  const remove = (id: string, req: IncomingMessage): Reply => {
    if (!environments.has(id)) return notFound(id);
    if (!preconditionHolds(id, req)) return problem(412);
    environments.delete(id);
    versions.wrote(id);
    changed();
    return { status: 204 };
  };

  return { create, update, remove };
}

export function createRoutes(environments: Map<string, Environment>, keys: GatewayKeys, options: RouteOptions): Routes {
  let cachedList: string | undefined;
  const versions = new Versions(environments);
  const etags = options.etags ?? 'strong';
  // Every page of a list names the version of the whole collection.
  const listTag = () => listEtagHeader(etags, versions.collection());
  // In the odata style each list item carries its own tag, as OData's JSON format writes it (first).
  const shown = (records: Environment[]): unknown[] =>
    etags === 'odata' ? records.map((record) => ({ '@odata.etag': itemTag(versions.of(String(record.id))!), ...record })) : records;
  const collection: Collection = {
    environments,
    versions,
    etags,
    options,
    shown,
    listTag,
    changed: () => {
      cachedList = undefined;
    },
  };

  const list = (url: string, nextLink: NextLinkFault | undefined): Reply => {
    if (options.pageSize !== undefined) return listPage(collection, url, options.pageSize, nextLink);
    if (cachedList !== undefined) return json(200, cachedList, listTag());
    const records = shown([...environments.values()]);
    const body = stringifyExactJson(options.envelope ? { [options.envelope]: records } : records);
    if (options.cacheList) cachedList = body;
    return json(200, body, listTag());
  };

  // GET by id, served only where items have tags of their own (the published API has no read by id).
  const read = (id: string): Reply => {
    const record = environments.get(id);
    if (!record) return notFound(id);
    return json(200, stringifyExactJson(record), itemEtagHeader(etags, versions.of(id)!));
  };

  const { create, update, remove } = itemWrites(collection);

  return {
    route(req, body, nextLink) {
      const method = req.method ?? '';
      const url = req.url ?? '';
      if (isPing(url, options.basePath)) return method === 'GET' ? ping(options.pingFails === true) : methodNotAllowed('GET');
      if (isIntegrations(url, options.basePath)) {
        const refused = checkAccess(req, keys, options.authErrors);
        if (refused) return refused;
        return method === 'GET' ? json(200, INTEGRATIONS_BODY) : methodNotAllowed('GET');
      }
      const target = matchPath(url, options.basePath);
      if (!target) return apim(404, 'Resource not found');
      const refused = checkAccess(req, keys, options.authErrors);
      if (refused) return refused;

      if (target.rawId === undefined) {
        if (method === 'GET') return list(url, nextLink);
        if (method === 'POST') return create(req, body);
        return methodNotAllowed('GET, POST');
      }
      const byId = perItem(etags);
      if (method !== 'PUT' && method !== 'DELETE' && !(byId && method === 'GET')) {
        return methodNotAllowed(byId ? 'GET, PUT, DELETE' : 'PUT, DELETE');
      }
      let id: string | undefined;
      try {
        id = decodeURIComponent(target.rawId);
      } catch {
        id = undefined;
      }
      // ASP.NET's {id:guid} route constraint: an id that is no GUID matches no action, and routing answers 404
      // with no body. Ids a test put in the store are served whatever their form.
      if (id === undefined || (!GUID.test(id) && !environments.has(id))) return { status: 404 };
      if (method === 'GET') return read(id);
      if (method === 'PUT') return update(id, req, body);
      return remove(id, req);
    },
  };
}
