// Small web classes of cip's own: Headers, Request and Response, as much of each as ky and the request path
// use. In Node the real ones are Node's internal copy of undici: naming any of them loads it (fetch, its HTTP/2
// and TLS clients, its WebAssembly parser), which cost every API command about a third of its time
// (docs/performance.md). The build gives these to ky in place of the globals (scripts/build.mjs, the ky vendor
// file), and the node:http transport and `http.ts` make them, so no API command loads undici, through a proxy
// or not. They keep the rules of the real ones that cip can meet: header names are tokens and values
// byte strings without CR, LF or NUL (a TypeError otherwise), names compare without case, iteration is sorted
// with lower-case names, a GET or HEAD has no body, a Response's status is 200-599.

/** The header names and values as `new Headers(init)` takes them. */
export type WebHeadersInit = Iterable<readonly string[]> | Record<string, string> | WebHeaders | Headers;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// HTTP whitespace around a value is dropped, as the real Headers drops it.
const EDGES = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\r\n]|[^\0-\xff]/;

function headerName(name: string): string {
  const text = name;
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name "${text}"`);
  return text.toLowerCase();
}

/** A value as the real Headers takes it: anything becomes its string (a number, an undefined from a caller's record). */
function headerValue(name: string, value: string): string {
  const given: unknown = value;
  const text = (typeof given === 'string' ? given : String(given)).replace(EDGES, '');
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Headers: invalid value for header "${name}"`);
  return text;
}

function* entriesOf(init: WebHeadersInit): Iterable<readonly [string, string]> {
  if (Symbol.iterator in init) {
    for (const pair of init) {
      if (pair.length !== 2) throw new TypeError('Headers: each header must be a name and a value');
      yield [pair[0], pair[1]];
    }
  } else {
    for (const name of Object.keys(init)) yield [name, init[name]!];
  }
}

/** What the iterators of WebHeaders give. */
type Each<T> = Generator<T, undefined, undefined>;

/** The web `Headers`: names without case, values combined with ', ' (set-cookie kept apart when iterated). */
export class WebHeaders implements Headers {
  readonly #values = new Map<string, string[]>();

  constructor(init?: WebHeadersInit) {
    if (init !== undefined) for (const [name, value] of entriesOf(init)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    const text = headerValue(key, value);
    const values = this.#values.get(key);
    if (values) values.push(text);
    else this.#values.set(key, [text]);
  }

  set(name: string, value: string): void {
    const key = headerName(name);
    this.#values.set(key, [headerValue(key, value)]);
  }

  delete(name: string): void {
    this.#values.delete(headerName(name));
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  get(name: string): string | null {
    return this.#values.get(headerName(name))?.join(', ') ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }

  *entries(): Each<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name);
      if (!values) continue;
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): Each<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): Each<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): Each<[string, string]> {
    return this.entries();
  }

  readonly [Symbol.toStringTag] = 'Headers';
}

/** A body as ky hands it over (a string, or bytes), kept as bytes. */
export type WebBodyInit = string | Uint8Array | ArrayBuffer | null | undefined;

/**
 * What `request.body` is when there is one: not a stream, but it answers `cancel()` as one, which ky calls when a
 * request is done. The bytes are read with `arrayBuffer()` or `text()`.
 */
export class WebBody {
  cancel(): Promise<void> {
    return Promise.resolve();
  }
}

function bytesOf(body: WebBodyInit): Uint8Array | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body.slice(0));
  if (body instanceof Uint8Array) return new Uint8Array(body);
  throw new TypeError('Request: a body must be a string or bytes');
}

/** The options of `new WebRequest(input, init)` that it reads; others (ky's own) are ignored, as Request ignores them. */
export interface WebRequestInit {
  method?: string | undefined;
  headers?: WebHeadersInit | undefined;
  body?: WebBodyInit;
  signal?: AbortSignal | null | undefined;
}

const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function methodOf(method: string): string {
  if (!TOKEN.test(method)) throw new TypeError(`Request: '${method}' is not a valid HTTP method`);
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new TypeError(`Request: '${method}' HTTP method is unsupported`);
  return NORMALIZED_METHODS.has(upper) ? upper : method;
}

/** The web `Request`: method, URL, headers, a body read once, the signal, and a clone for another attempt. */
export class WebRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: WebHeaders;
  readonly signal: AbortSignal;
  readonly #bytes: Uint8Array | null;
  #used = false;

  constructor(input: string | URL | WebRequest, init: WebRequestInit = {}) {
    const from = input instanceof WebRequest ? input : undefined;
    if (from && from.#used) throw new TypeError('Request: the body of the request to copy has already been read');
    this.url = input instanceof WebRequest ? input.url : new URL(input).href;
    this.method = init.method === undefined ? (from?.method ?? 'GET') : methodOf(init.method);
    this.headers = new WebHeaders(init.headers ?? from?.headers);
    this.signal = init.signal ?? from?.signal ?? new AbortController().signal;
    const given = init.body !== undefined && init.body !== null;
    if (given && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
    this.#bytes = given ? bytesOf(init.body) : from ? from.#bytes : null;
    if (given && typeof init.body === 'string' && !this.headers.has('content-type'))
      this.headers.set('content-type', 'text/plain;charset=UTF-8');
  }

  get body(): WebBody | null {
    return this.#bytes ? new WebBody() : null;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  clone(): WebRequest {
    if (this.#used) throw new TypeError('Request: the body has already been read');
    return new WebRequest(this);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#used) return Promise.reject(new TypeError('Request: the body has already been read'));
    this.#used = true;
    const bytes = this.#bytes ?? new Uint8Array(0);
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  readonly [Symbol.toStringTag] = 'Request';
}

export interface WebResponseInit {
  status?: number | undefined;
  statusText?: string | undefined;
  headers?: WebHeadersInit | undefined;
}

/**
 * The web `Response`, as the request path hands answers to ky: the status and headers, never a body (the
 * answer's bytes ride beside it: http.ts).
 */
export class WebResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: WebHeaders;
  readonly body = null;
  readonly bodyUsed = false;
  readonly redirected = false;
  readonly type = 'default';
  readonly url = '';

  /** Always without a body (the first argument, as the real constructor's). */
  constructor(_body: null, init: WebResponseInit = {}) {
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`Response: status ${status} is outside 200-599`);
    this.status = status;
    this.statusText = init.statusText ?? '';
    this.headers = new WebHeaders(init.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  clone(): WebResponse {
    return new WebResponse(null, this);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(new ArrayBuffer(0));
  }

  text(): Promise<string> {
    return Promise.resolve('');
  }

  readonly [Symbol.toStringTag] = 'Response';
}
