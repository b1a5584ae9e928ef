// The sandbox's public shapes: its options, the fault rules tests inject, what it records, and its handle.
import type { ExactNumber } from '../json/exact.js';

/**
 * How the sandbox sends ETags: `strong` (the default: the list's tag guards each item), `weak` (`W/"v7"`, which
 * If-Match never matches), `none`; or per item, as an RFC 9110 service does: `item` (each item has a tag of its
 * own, served on GET {base}/Environments/{id}; the list's tag is not any item's) and `odata` (the same, with each
 * list item's tag in its `@odata.etag`).
 */
export type EtagStyle = 'strong' | 'weak' | 'none' | 'item' | 'odata';

export const ETAG_STYLES: readonly EtagStyle[] = ['strong', 'weak', 'none', 'item', 'odata'];

/**
 * How the service's own checks refuse a credential (API Management's answers are the same either way): `problem`
 * with a ProblemDetails body, as hand-written checks do; `framework` as ASP.NET Core's authentication and
 * authorization do by themselves, with no body: a 401 with the scheme's challenge, a 403 bare.
 */
export type AuthErrorStyle = 'problem' | 'framework';

export const SANDBOX_DEFAULTS = {
  apiKey: 'sandbox-api-key-0123456789',
  readOnlyApiKey: 'sandbox-readonly-key-0123456789',
  subscriptionKey: 'sandbox-subscription-key-0123456789',
  enterpriseId: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  /** Signs and checks Bearer tokens (HS256): 32 characters at least. */
  tokenSecret: 'sandbox-token-secret-0123456789abcdef',
} as const;

export interface Environment {
  /** A GUID for records the sandbox creates; seeds may use numbers (kept digit for digit) to model 64-bit ids. */
  id: string | number | ExactNumber;
  [field: string]: unknown;
}

export type Fault =
  /** Answer with this status, body (bytes as given, for a charset other than UTF-8) and headers instead of the normal response. */
  | { kind: 'status'; status: number; body?: string | Buffer; headers?: Record<string, string> }
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
  | { kind: 'raw'; response: string | Buffer }
  /**
   * A paged list (`pageSize` set) answers normally but with a bad next link: `loop` points it at the page
   * just served (same URL), `foreign` at the same path and query on another origin (host 127.0.0.2, or
   * 127.0.0.3 when the sandbox itself is on 127.0.0.2). Either applies on the last page too, which then has
   * a next link. Without `pageSize` the answer is normal.
   */
  | { kind: 'next-link'; to: 'loop' | 'foreign' };

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

/** How a paged list is shaped: see SandboxOptions.paging. */
export type PagingStyle = 'odata' | 'link' | 'next';

/** The query parameter that addresses a page of a paged list: 1 is the first page, and the default. */
export const PAGE_PARAMETER = 'page';

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
  /**
   * Serve GET {base}/Environments at most this many records per page, the page chosen by the `page` query
   * parameter (1, the default, is the first), with an absolute next link on every page but the last.
   * Without it the whole list is one answer. Cannot be combined with `envelope`.
   */
  pageSize?: number;
  /**
   * The shape of a paged list (default odata): `odata` is {"value": [...], "@odata.nextLink": url}; `link` is
   * a bare array with a `Link: <url>; rel="next"` header; `next` is {"items": [...], "next": url}. Requires
   * `pageSize`.
   */
  paging?: PagingStyle;
  /** Wait this many ms before every answer, faulted or not (benchmarks of round trips); timers end on close. */
  latencyMs?: number;
  /**
   * How ETags are sent (src/sandbox/etags.ts): `strong` (the default) on the list, a created and an updated
   * environment, with If-Match honoured on PUT and DELETE (412 when the environment changed since the version it
   * names); `weak` sends them weak (`W/"v7"`), which If-Match never matches; `none` sends none and ignores
   * If-Match, as a service that knows nothing of validators. `item` gives each environment a tag of its own
   * (`"e7"`, on GET {base}/Environments/{id}, which only these two styles serve, and on its create and update),
   * the list a tag that is no item's (`"l9"`), and If-Match holds only for the item's current tag or `*`;
   * `odata` is `item` with each list item's tag in `@odata.etag` too.
   */
  etags?: EtagStyle;
  /**
   * How a credential is refused (src/sandbox/gateway.ts). A token the JWT bearer handler refuses is its 401 with
   * no body and `WWW-Authenticate: Bearer error="invalid_token", error_description="..."` in both. `problem` (the
   * default): a refused API key is a 401 ProblemDetails, a credential without the right (another enterprise, a
   * read-only key or token writing) a 403 ProblemDetails that says why. `framework`: what the framework sends when
   * its authentication handler challenges and its authorization forbids: the API key's 401 with no body and
   * `WWW-Authenticate: ApiKey`, and every such 403 with no body and no header.
   */
  authErrors?: AuthErrorStyle;
  /** The anonymous {base}/ping answers 503, so that `cip doctor` has a failure to show. */
  pingFails?: boolean;
  apiKey?: string;
  /** Default: the fixed sandbox key, or, when `apiKey` is given, one derived from it (readOnlyKeyFor). */
  readOnlyApiKey?: string;
  subscriptionKey?: string;
  enterpriseId?: string;
  /** The HS256 secret Bearer tokens must be signed with, 32 bytes or more (default: the sandbox's own). */
  tokenSecret?: string;
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP; `url` then starts with https://. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface TokenOptions {
  /** Seconds from now until `exp`; negative for a token that has expired (default 3600). */
  expiresIn?: number;
  /** The enterprise the token acts in (default: the sandbox's). */
  enterpriseId?: string;
  /** A token narrowed to reading (scope environments.read): writes get 403, as with the read-only key. */
  readOnly?: boolean;
}

export interface Sandbox {
  /** Base URL the CLI appends /Environments to. */
  readonly url: string;
  readonly port: number;
  readonly keys: { apiKey: string; readOnlyApiKey: string; subscriptionKey: string; enterpriseId: string; tokenSecret: string };
  /** A Bearer token this sandbox accepts (HS256, signed with `keys.tokenSecret`). */
  token(options?: TokenOptions): string;
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
