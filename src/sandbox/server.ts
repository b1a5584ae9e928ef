// An in-memory stand-in for the Copyl Environments API (ASP.NET behind Azure API Management), used by the
// tests and the demo. It reproduces the status codes and the three error-body shapes the real service mixes:
// APIM's {statusCode, message}, ASP.NET ProblemDetails, and whatever a fault rule injects.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseExactJson, stringifyExactJson, type ExactNumber } from '../json/exact.js';

export const SANDBOX_DEFAULTS = {
  apiKey: 'sandbox-api-key-0123456789',
  readOnlyApiKey: 'sandbox-readonly-key-0123456789',
  subscriptionKey: 'sandbox-subscription-key-0123456789',
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
} as const;

export interface Environment {
  /** A GUID for records the sandbox creates; seeds may use numbers (kept digit for digit) to model 64-bit ids. */
  id: string | number | ExactNumber;
  [field: string]: unknown;
}

export type Fault =
  /** Answer with this status, body and headers instead of the normal response. */
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  /** Answer normally, but only after `ms` (for client time-outs). */
  | { kind: 'delay'; ms: number }
  /** Destroy the socket before any response byte. */
  | { kind: 'reset-before' }
  /** Send 200 JSON headers and part of a body, then destroy the socket. */
  | { kind: 'reset-mid-body' }
  /** 200 with a JSON content type and a body that is not JSON. */
  | { kind: 'invalid-json' }
  /** Carry the request out, then destroy the socket without answering: an answer lost on its way back. */
  | { kind: 'reset-after' }
  /** Answer normally, but only once `release` settles: a request the test holds in flight. */
  | { kind: 'hold'; release: Promise<unknown> }
  /** Write these bytes to the socket as the whole response (status lines node:http would refuse to send). */
  | { kind: 'raw'; response: string | Buffer };

export interface FaultRule {
  fault: Fault;
  /** Only requests with this method match; any method when absent. */
  method?: string;
  /** Only requests this accepts match (for example one id's path). */
  match?: (request: RecordedRequest) => boolean;
  /** How many matching requests the rule applies to; default 1, Infinity allowed. */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface SandboxOptions {
  host?: string;
  port?: number;
  basePath?: string;
  seed?: number | Environment[];
  envelope?: 'value' | 'items' | 'data' | 'results';
  /**
   * Keep the serialized list between requests until the sandbox itself changes it (benchmarks, where
   * serializing 100,000 records on every request would be measured instead of the client). Changes made
   * directly to `environments` are then not seen by GET.
   */
  cacheList?: boolean;
  apiKey?: string;
  readOnlyApiKey?: string;
  subscriptionKey?: string;
  enterpriseId?: string;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP; `url` then starts with https://. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface Sandbox {
  /** Base URL the CLI appends /Environments to. */
  readonly url: string;
  readonly port: number;
  readonly keys: { apiKey: string; readOnlyApiKey: string; subscriptionKey: string; enterpriseId: string };
  /** Every request received, in order, including rejected and faulted ones. */
  readonly requests: RecordedRequest[];
  /** The live store, keyed by id. */
  readonly environments: Map<string, Environment>;
  inject(...rules: FaultRule[]): void;
  clearFaults(): void;
  /** Resolves with the first request, recorded or yet to come, that `match` accepts. */
  waitForRequest(match: (request: RecordedRequest) => boolean): Promise<RecordedRequest>;
  /** Clears recorded requests and fault rules; the store is kept. */
  reset(): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

interface ActiveRule {
  fault: Fault;
  method?: string;
  match?: (request: RecordedRequest) => boolean;
  remaining: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);
// Fields the server owns; a client cannot set them through POST or PUT.
const SERVER_FIELDS = ['id', 'createdAt', 'updatedAt'];

// Title and RFC 9110 section ASP.NET puts in ProblemDetails for each status it produces.
const PROBLEM_STATUS: Record<number, [title: string, section: string]> = {
  400: ['Bad Request', '15.5.1'],
  401: ['Unauthorized', '15.5.2'],
  403: ['Forbidden', '15.5.4'],
  404: ['Not Found', '15.5.5'],
  405: ['Method Not Allowed', '15.5.6'],
  415: ['Unsupported Media Type', '15.5.16'],
  500: ['An error occurred while processing your request.', '15.6.1'],
};

const APIM_MISSING_KEY =
  'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.';
const APIM_INVALID_KEY =
  'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.';
// What the real gateway sends with its 401s, so clients can tell a gateway rejection from an API one.
const APIM_CHALLENGE =
  'AzureApiManagementKey realm="https://api.copyl.com/ms",name="Ocp-Apim-Subscription-Key",type="header"';

// A body cut off inside the first record, as seen when a connection drops mid-list.
const PARTIAL_LIST = '[{"id":"0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34","name":"env-0001","displayName":"Pay';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const basePath = normalizeBasePath(options.basePath ?? '/ms');
  const keys = {
    apiKey: options.apiKey ?? SANDBOX_DEFAULTS.apiKey,
    readOnlyApiKey: options.readOnlyApiKey ?? SANDBOX_DEFAULTS.readOnlyApiKey,
    subscriptionKey: options.subscriptionKey ?? SANDBOX_DEFAULTS.subscriptionKey,
    enterpriseId: options.enterpriseId ?? SANDBOX_DEFAULTS.enterpriseId,
  };
  const environments = seedStore(options.seed ?? 0);
  const requests: RecordedRequest[] = [];
  let rules: ActiveRule[] = [];
  // Pending delay-fault timers, cleared on close so a delayed answer never holds the process open.
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const waiters: { match: (request: RecordedRequest) => boolean; resolve: (request: RecordedRequest) => void }[] = [];
  const record = (request: RecordedRequest): void => {
    requests.push(request);
    for (const waiter of waiters.filter((candidate) => candidate.match(request))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(request);
    }
  };

  const takeFault = (request: RecordedRequest): Fault | undefined => {
    const method = request.method.toUpperCase();
    const index = rules.findIndex(
      (rule) => (rule.method === undefined || rule.method.toUpperCase() === method) && (rule.match === undefined || rule.match(request)),
    );
    if (index < 0) return undefined;
    const rule = rules[index];
    rule.remaining -= 1;
    if (rule.remaining <= 0) rules.splice(index, 1);
    return rule.fault;
  };

  // Returns true when the fault has fully answered (or killed) the request.
  const applyFault = async (fault: Fault, req: IncomingMessage, body: string, res: ServerResponse): Promise<boolean> => {
    switch (fault.kind) {
      case 'delay':
        await wait(fault.ms);
        return false;
      case 'hold':
        await fault.release;
        return false;
      case 'reset-after':
        await route(req, body);
        res.destroy();
        return true;
      case 'raw':
        res.socket?.end(fault.response);
        return true;
      case 'reset-before':
        res.destroy();
        return true;
      case 'reset-mid-body':
        res.writeHead(200, { 'Content-Type': JSON_TYPE });
        // Destroy only once the partial chunk has reached the socket, so the client sees headers and some body.
        res.write(PARTIAL_LIST, () => res.destroy());
        return true;
      case 'invalid-json':
        send(res, { status: 200, body: '[{"id": "', headers: { 'Content-Type': JSON_TYPE } });
        return true;
      case 'status': {
        const body = fault.body ?? '';
        const headers: Record<string, string> = body === '' ? {} : { 'Content-Type': sniffContentType(body) };
        send(res, { status: fault.status, body, headers: { ...headers, ...fault.headers } });
        return true;
      }
    }
  };

  const route = async (req: IncomingMessage, body: string): Promise<Reply> => {
    const method = req.method ?? '';
    const target = matchPath(req.url ?? '', basePath);
    if (!target) return apim(404, 'Resource not found');

    const subscriptionKey = header(req, 'ocp-apim-subscription-key');
    if (subscriptionKey === '') return apim(401, APIM_MISSING_KEY, { 'WWW-Authenticate': APIM_CHALLENGE });
    if (subscriptionKey !== keys.subscriptionKey) {
      return apim(401, APIM_INVALID_KEY, { 'WWW-Authenticate': APIM_CHALLENGE });
    }

    const apiKey = /^ApiKey\s+(.*)$/i.exec(header(req, 'authorization'))?.[1];
    const readOnly = apiKey === keys.readOnlyApiKey;
    if (apiKey !== keys.apiKey && !readOnly) {
      return problem(401, { detail: 'The API key is invalid.' }, { 'WWW-Authenticate': 'ApiKey' });
    }

    const enterpriseId = header(req, 'enterpriseid');
    if (!GUID.test(enterpriseId)) {
      return validationProblem({ EnterpriseId: ['The EnterpriseId header must be a GUID.'] });
    }
    if (enterpriseId.toLowerCase() !== keys.enterpriseId.toLowerCase()) {
      return problem(403, { detail: 'The API key has no access to this enterprise.' });
    }
    if (readOnly && WRITE_METHODS.has(method)) {
      return problem(403, { detail: 'The API key lacks sufficient permissions.' });
    }

    if (target.rawId === undefined) {
      if (method === 'GET') return list();
      if (method === 'POST') return create(req, body);
      return methodNotAllowed('GET, POST');
    }
    let id: string;
    try {
      id = decodeURIComponent(target.rawId);
    } catch {
      return problem(400, { detail: 'The id in the path is not valid URL encoding.' });
    }
    if (method === 'PUT') return update(id, req, body);
    if (method === 'DELETE') return remove(id);
    return methodNotAllowed('PUT, DELETE');
  };

  let cachedList: string | undefined;
  const list = (): Reply => {
    if (cachedList !== undefined) return json(200, cachedList);
    const records = [...environments.values()];
    const body = stringifyExactJson(options.envelope ? { [options.envelope]: records } : records);
    if (options.cacheList) cachedList = body;
    return json(200, body);
  };

  const create = async (req: IncomingMessage, body: string): Promise<Reply> => {
    const input = await readEnvironmentInput(req, body, true);
    if ('reply' in input) return input.reply;
    const now = new Date().toISOString();
    const record: Environment = { id: randomUUID(), ...input.fields, createdAt: now, updatedAt: now };
    environments.set(String(record.id), record);
    cachedList = undefined;
    return json(201, stringifyExactJson(record), { Location: `${baseUrl}/Environments/${encodeURIComponent(String(record.id))}` });
  };

  const update = async (id: string, req: IncomingMessage, body: string): Promise<Reply> => {
    // Body validation comes first, as ASP.NET model binding runs before the action looks the record up.
    const input = await readEnvironmentInput(req, body, false);
    if ('reply' in input) return input.reply;
    const existing = environments.get(id);
    if (!existing) return notFound(id);
    const record: Environment = {
      id: existing.id,
      ...input.fields,
      createdAt: existing.createdAt,
      updatedAt: new Date().toISOString(),
    };
    environments.set(id, record);
    cachedList = undefined;
    return json(200, stringifyExactJson(record));
  };

  const remove = (id: string): Reply => {
    if (!environments.delete(id)) return notFound(id);
    cachedList = undefined;
    return { status: 204 };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const request = { method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body };
    record(request);
    const fault = takeFault(request);
    if (fault && (await applyFault(fault, req, body, res))) return;
    send(res, await route(req, body));
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      // A client that vanished mid-request lands here too; answering a destroyed socket is a no-op.
      if (res.headersSent) res.destroy();
      else send(res, problem(500));
    });
  };
  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler)
    : createServer(handler);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}${basePath}`;

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    port,
    keys,
    requests,
    environments,
    inject(...newRules) {
      for (const rule of newRules) {
        const times = rule.times ?? 1;
        if (!(times >= 1)) throw new RangeError(`Fault rule times must be at least 1, got ${times}`);
        rules.push({ fault: rule.fault, method: rule.method, match: rule.match, remaining: times });
      }
    },
    waitForRequest(match) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    clearFaults() {
      rules = [];
    },
    reset() {
      requests.length = 0;
      rules = [];
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive and in-flight sockets would otherwise hold close() open until they time out.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

// Matches {basePath}/Environments[/{id}] with an optional trailing slash, case-insensitively like ASP.NET routing.
// The id is returned still encoded so that an encoded '/' stays inside the id.
function matchPath(url: string, basePath: string): { rawId?: string } | undefined {
  const path = url.split('?', 1)[0];
  const prefix = `${basePath}/environments`.toLowerCase();
  if (!path.toLowerCase().startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length).replace(/\/$/, '');
  if (rest === '') return {};
  if (!rest.startsWith('/') || rest.indexOf('/', 1) !== -1) return undefined;
  return { rawId: rest.slice(1) };
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// Parses and validates a POST/PUT body the way ASP.NET's [ApiController] model binding would.
async function readEnvironmentInput(
  req: IncomingMessage,
  body: string,
  nameRequired: boolean,
): Promise<{ fields: Record<string, unknown> } | { reply: Reply }> {
  const mediaType = header(req, 'content-type').split(';', 1)[0].trim().toLowerCase();
  if (mediaType !== 'application/json') return { reply: problem(415) };
  let parsed: unknown;
  try {
    // Numbers keep their digits, as a service storing 64-bit integers and decimals would keep them.
    parsed = await parseExactJson(body);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { reply: validationProblem({ $: ['The JSON value could not be converted.'] }) };
  }
  const fields = { ...(parsed as Record<string, unknown>) };
  const name = fields.name;
  // [Required] rejects whitespace-only strings too.
  const nameValid = typeof name === 'string' && name.trim() !== '';
  if (!nameValid && (nameRequired || name !== undefined)) {
    return { reply: validationProblem({ Name: ['The Name field is required.'] }) };
  }
  for (const field of SERVER_FIELDS) delete fields[field];
  return { fields };
}

function send(res: ServerResponse, reply: Reply): void {
  const body = reply.body ?? '';
  // A 204 must not carry Content-Length; everything else gets one so keep-alive clients know where it ends.
  if (reply.status !== 204) res.setHeader('Content-Length', Buffer.byteLength(body));
  // setHeader replaces case-insensitively, so fault headers override the defaults whatever their casing.
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.writeHead(reply.status);
  res.end(body);
}

function json(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, body: Buffer.from(body, 'utf8'), headers: { 'Content-Type': JSON_TYPE, ...headers } };
}

function apim(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return json(status, JSON.stringify({ statusCode: status, message }), headers);
}

function problem(
  status: number,
  extra: { title?: string; detail?: string; errors?: Record<string, string[]> } = {},
  headers: Record<string, string> = {},
): Reply {
  const [defaultTitle, section] = PROBLEM_STATUS[status];
  const payload = {
    type: `https://tools.ietf.org/html/rfc9110#section-${section}`,
    title: extra.title ?? defaultTitle,
    status,
    ...(extra.detail === undefined ? {} : { detail: extra.detail }),
    ...(extra.errors === undefined ? {} : { errors: extra.errors }),
    traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`,
  };
  return { status, body: JSON.stringify(payload), headers: { 'Content-Type': PROBLEM_TYPE, ...headers } };
}

function validationProblem(errors: Record<string, string[]>): Reply {
  return problem(400, { title: 'One or more validation errors occurred.', errors });
}

function notFound(id: string): Reply {
  return problem(404, { detail: `Environment '${id}' was not found.` });
}

function methodNotAllowed(allow: string): Reply {
  return problem(405, {}, { Allow: allow });
}

// Fault bodies are plain strings; label them the way a real upstream would have.
function sniffContentType(body: string): string {
  if (body.trimStart().startsWith('<')) return 'text/html; charset=utf-8';
  try {
    JSON.parse(body);
    return JSON_TYPE;
  } catch {
    return 'text/plain; charset=utf-8';
  }
}

const TYPES = ['Development', 'Test', 'Staging', 'Production'] as const;
const SYSTEMS = ['Payments', 'Billing', 'Orders', 'Inventory', 'CRM', 'HR', 'Logistics', 'Analytics', 'Identity'];
const REGIONS = ['westeurope', 'northeurope', 'swedencentral', 'uksouth', 'eastus', 'westus2', 'australiaeast'];
const LOG_LEVELS = ['Debug', 'Information', 'Warning', 'Error'];
const RETENTION_DAYS = [7, 14, 30, 90, 365];
const SEED_EPOCH = Date.UTC(2024, 0, 1);
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

function seedStore(seed: number | Environment[]): Map<string, Environment> {
  const store = new Map<string, Environment>();
  if (Array.isArray(seed)) {
    // Copies, so tests that mutate the store do not mutate their fixtures.
    for (const record of seed) store.set(String(record.id), { ...record });
    return store;
  }
  if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative integer, got ${seed}`);
  const ids = randomGuids(seed);
  for (let i = 0; i < seed; i++) store.set(ids[i], generateEnvironment(i, ids[i]));
  return store;
}

// Varied but deterministic apart from the id: co-prime strides spread the combinations across records.
function generateEnvironment(i: number, id: string): Environment {
  const type = TYPES[i % TYPES.length];
  const system = SYSTEMS[(i * 7) % SYSTEMS.length];
  const createdAt = SEED_EPOCH + i * 5 * MINUTE_MS;
  const tags = i % 5 === 0 ? [] : [system.toLowerCase(), type.toLowerCase()];
  if (type === 'Production' && i % 3 === 0) tags.push('critical');
  return {
    id,
    name: `env-${String(i + 1).padStart(4, '0')}`,
    displayName: `${system} ${type} ${Math.floor(i / TYPES.length) + 1}`,
    // Some records lack a description, as real data does.
    description: i % 11 === 0 ? null : `${type} environment for the ${system} integrations.`,
    type,
    isActive: i % 7 !== 3,
    region: REGIONS[(i * 3) % REGIONS.length],
    tags,
    settings: {
      retention: RETENTION_DAYS[(i * 3) % RETENTION_DAYS.length],
      logLevel: type === 'Production' ? 'Warning' : LOG_LEVELS[i % LOG_LEVELS.length],
      maxConcurrency: 1 + ((i * 5) % 16),
    },
    createdAt: seedTimestamp(createdAt),
    updatedAt: seedTimestamp(createdAt + ((i * 13) % 720) * 60 * MINUTE_MS),
  };
}

// crypto.randomUUID() builds each id by concatenation, and keeping 100,000 such strings alive costs the GC more than
// the rest of the seed; writing the ASCII into a buffer yields flat strings instead.
function randomGuids(count: number): string[] {
  const bytes = randomBytes(count * 16);
  const text = Buffer.alloc(36);
  const guids = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const at = i * 16;
    bytes[at + 6] = (bytes[at + 6] & 0x0f) | 0x40; // version 4
    bytes[at + 8] = (bytes[at + 8] & 0x3f) | 0x80; // RFC 4122 variant
    let pos = 0;
    for (let j = 0; j < 16; j++) {
      if (j === 4 || j === 6 || j === 8 || j === 10) text[pos++] = 0x2d; // '-'
      text[pos++] = HEX_DIGITS[bytes[at + j] >> 4];
      text[pos++] = HEX_DIGITS[bytes[at + j] & 15];
    }
    guids[i] = text.toString('latin1');
  }
  return guids;
}

// toISOString would be the largest cost of a big seed; seed times fall on whole minutes, so each date and each
// time of day is formatted once and the two are joined.
const seedDates = new Map<number, string>();
const seedTimesOfDay = new Map<number, string>();
function seedTimestamp(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const minute = (ms - day * DAY_MS) / MINUTE_MS;
  let date = seedDates.get(day);
  if (date === undefined) seedDates.set(day, (date = new Date(day * DAY_MS).toISOString().slice(0, 11)));
  let time = seedTimesOfDay.get(minute);
  if (time === undefined) seedTimesOfDay.set(minute, (time = new Date(minute * MINUTE_MS).toISOString().slice(11)));
  return date + time;
}
