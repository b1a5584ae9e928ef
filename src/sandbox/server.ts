// An in-memory stand-in for the Copyl Environments API (ASP.NET behind Azure API Management), used by the
// tests and the demo. It reproduces the status codes and the three error-body shapes the real service mixes:
// APIM's {statusCode, message}, ASP.NET ProblemDetails, and whatever a fault rule injects. The pieces:
// gateway.ts (keys and tokens; token.ts), routes.ts (the resource), replies.ts (answer shapes), faults.ts, seed.ts.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { FaultBook, applyFault } from './faults.js';
import { problem, send } from './replies.js';
import { createRoutes, normalizeBasePath, type NextLinkFault } from './routes.js';
import { seedStore } from './seed.js';
import { ENTERPRISE_CLAIM, MIN_TOKEN_SECRET_BYTES, READ_SCOPE, SCOPE_CLAIM, signToken } from './token.js';
import { ETAG_STYLES, SANDBOX_DEFAULTS, type RecordedRequest, type Sandbox, type SandboxOptions, type TokenOptions } from './types.js';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Recorded requests, and the tests waiting for one. */
class RequestLog {
  readonly requests: RecordedRequest[] = [];
  readonly #waiters: { match: (request: RecordedRequest) => boolean; resolve: (request: RecordedRequest) => void }[] = [];

  record(request: RecordedRequest): void {
    this.requests.push(request);
    for (const waiter of this.#waiters.filter((candidate) => candidate.match(request))) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(request);
    }
  }

  waitFor(match: (request: RecordedRequest) => boolean): Promise<RecordedRequest> {
    const seen = this.requests.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }
}

/** A read-only key that belongs to this API key: two sandboxes with their own API keys do not share one. */
export function readOnlyKeyFor(apiKey: string): string {
  return `sandbox-readonly-${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;
}

function checkOptions(options: SandboxOptions): void {
  const { pageSize, latencyMs } = options;
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1)) {
    throw new RangeError(`pageSize must be a whole number of at least 1, got ${pageSize}`);
  }
  if (options.etags !== undefined && !ETAG_STYLES.includes(options.etags)) {
    throw new RangeError(`etags must be ${ETAG_STYLES.join(', ')}, got ${options.etags as string}`);
  }
  if (options.authErrors !== undefined && !['problem', 'framework'].includes(options.authErrors)) {
    throw new RangeError(`authErrors must be problem or framework, got ${options.authErrors as string}`);
  }
  if (options.paging !== undefined && pageSize === undefined) throw new RangeError('paging needs pageSize');
  if (options.envelope !== undefined && pageSize !== undefined) throw new RangeError('envelope and pageSize cannot be combined');
  if (latencyMs !== undefined && !(Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new RangeError(`latencyMs must be a number of milliseconds, 0 or more, got ${latencyMs}`);
  }
  if (options.tokenSecret !== undefined && Buffer.byteLength(options.tokenSecret) < MIN_TOKEN_SECRET_BYTES) {
    throw new RangeError(`tokenSecret must have ${MIN_TOKEN_SECRET_BYTES} bytes at least (HS256)`);
  }
}

/** The claims of a token the sandbox mints: a user of its enterprise, for an hour unless asked otherwise. */
function tokenClaims(enterpriseId: string, { expiresIn = 3600, readOnly = false, ...options }: TokenOptions): Record<string, unknown> {
  if (!Number.isFinite(expiresIn)) throw new RangeError(`expiresIn must be a number of seconds, got ${expiresIn}`);
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: 'sandbox-user',
    [ENTERPRISE_CLAIM]: options.enterpriseId ?? enterpriseId,
    ...(readOnly ? { [SCOPE_CLAIM]: READ_SCOPE } : {}),
    iat: now,
    exp: now + Math.floor(expiresIn),
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const basePath = normalizeBasePath(options.basePath ?? '/ms');
  const keys = {
    apiKey: options.apiKey ?? SANDBOX_DEFAULTS.apiKey,
    readOnlyApiKey:
      options.readOnlyApiKey ?? (options.apiKey === undefined ? SANDBOX_DEFAULTS.readOnlyApiKey : readOnlyKeyFor(options.apiKey)),
    subscriptionKey: options.subscriptionKey ?? SANDBOX_DEFAULTS.subscriptionKey,
    enterpriseId: options.enterpriseId ?? SANDBOX_DEFAULTS.enterpriseId,
    tokenSecret: options.tokenSecret ?? SANDBOX_DEFAULTS.tokenSecret,
  };
  const environments = seedStore(options.seed ?? 0);
  const log = new RequestLog();
  const faults = new FaultBook();
  let baseUrl = '';
  const routes = createRoutes(environments, keys, { ...options, basePath, baseUrl: () => baseUrl });
  const route = (req: IncomingMessage, body: string, nextLink?: NextLinkFault) => routes.route(req, body, nextLink);

  // Pending latency and delay-fault timers, cleared on close so a delayed answer never holds the process open.
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const request = { method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers }, body };
    log.record(request);
    if (options.latencyMs) await wait(options.latencyMs);
    const fault = faults.take(request);
    if (fault && (await applyFault(fault, res, { wait, carryOut: () => route(req, body) }))) return;
    send(res, route(req, body, fault?.kind === 'next-link' ? fault.to : undefined));
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      // A client that vanished mid-request lands here too; answering a destroyed socket is a no-op.
      if (res.headersSent) res.destroy();
      else send(res, problem(500));
    });
  };
  const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createServer(handler);

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
    requests: log.requests,
    environments,
    token(tokenOptions = {}) {
      return signToken(tokenClaims(keys.enterpriseId, tokenOptions), keys.tokenSecret);
    },
    inject(...rules) {
      faults.add(rules);
    },
    waitForRequest(match) {
      return log.waitFor(match);
    },
    clearFaults() {
      faults.clear();
    },
    reset() {
      log.requests.length = 0;
      faults.clear();
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
