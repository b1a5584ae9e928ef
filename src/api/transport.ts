// The last step of the request path (api/chain.ts): how a request reaches the API and its whole answer comes
// back, on node:http(s), directly or through the proxy api/proxy.ts chose. Node's fetch would cost every run
// about 2.5x what node:http does: it loads Node's internal copy of undici, and reading a fetch answer makes V8
// recompile undici's WebAssembly HTTP parser, a job the process waits for before it exits. node:http parses with
// Node's native parser, and since Node 22.21 its Agent goes through a proxy itself (`proxyEnv`): an https://
// request in a CONNECT tunnel, an http:// one sent to the proxy whole (absolute-form), as curl does.
//
// The transport follows no redirect (a 3xx comes back as it is), decodes gzip, deflate and br as fetch does
// (api/body.ts), and reads the body, decoded, no further than the answer limit.
import type { Agent, AgentOptions, ClientRequest, ClientRequestArgs, IncomingMessage, RequestOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { BrokenAnswer, headersToSend, type Bytes, type Outgoing, type RawAnswer, type Step } from './chain.js';
import { decodedBody } from './body.js';
import { agentProxyEnv, type ProxyChoice } from './proxy.js';
import { WebHeaders } from './web.js';

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * node:http reads the reason phrase's bytes as Latin-1; a server that wrote UTF-8 ('201 已创建') meant UTF-8, as
 * fetch reads it.
 */
function reasonPhrase(message: string | undefined): string {
  if (!message) return '';
  // ASCII reads the same either way ('OK'), without making a decoder.
  if (/^[\x20-\x7e]*$/.test(message)) return message;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(message, 'latin1'));
  } catch {
    return message;
  }
}

/** The answer's headers, in cip's own Headers (api/web.ts): the real class would load Node's internal undici. */
function answerHeaders(raw: string[]): Headers {
  const headers = new WebHeaders();
  for (let at = 0; at + 1 < raw.length; at += 2) headers.append(raw[at]!, raw[at + 1]!);
  return headers;
}

type RequestFunction = (url: URL, options: RequestOptions, callback: (response: IncomingMessage) => void) => ClientRequest;

/** The answer node:http gives, whole: its body read (none for a status or method that has none). */
async function wholeAnswer(response: IncomingMessage, method: string, limit: number): Promise<RawAnswer> {
  const status = response.statusCode ?? 0;
  let body: Bytes | null = null;
  if (NULL_BODY_STATUS.has(status) || method === 'HEAD') response.resume();
  else body = await decodedBody(response, limit);
  let headers: Headers;
  try {
    headers = answerHeaders(response.rawHeaders);
  } catch {
    // Node's parser lets through little that Headers refuses, but what it does is a broken answer.
    throw new BrokenAnswer('the API answered with a header that is not valid HTTP');
  }
  return { status, statusText: reasonPhrase(response.statusMessage), httpVersion: response.httpVersion, headers, body };
}

/** An Agent that tells `opening` of each connection it opens. */
interface OpeningAgent extends Agent {
  opening: ((socket: Duplex) => void) | undefined;
}

/**
 * node:http's or node:https's Agent, telling of the connections it opens. Through a proxy, an https:// request is
 * handed its socket only once the CONNECT tunnel and the TLS handshake inside it are done; until then the
 * connection to the proxy is the agent's alone, and neither destroying the request nor a refused CONNECT closes
 * it (a proxy that never answers, or answers 407 and keeps the connection, would keep the process alive). The
 * agent opens it while request() runs, so the transport can tell which request it is for, and close it too.
 */
function openingAgent(Base: typeof import('node:http').Agent, options: AgentOptions): OpeningAgent {
  return new (class extends Base {
    opening: OpeningAgent['opening'];
    override createConnection(connection: ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void) {
      const socket = super.createConnection(connection, callback);
      if (socket) this.opening?.(socket);
      return socket;
    }
  })(options);
}

interface Client {
  request: RequestFunction;
  /** Keeps its connections alive between requests (a multi-delete reuses them). */
  agent: OpeningAgent;
  /** Opens a connection for each request and closes it after. */
  fresh: OpeningAgent;
}

/** One request on node:http(s): sent, its whole answer read, or cut off when the signal aborts. */
function exchangeOn(client: Client, { method, url, headers, body, signal }: Outgoing, limit: number) {
  return new Promise<RawAnswer>((resolve, reject) => {
    let answer: IncomingMessage | undefined;
    /** The connection opened for this request, if it did not reuse one. */
    let opened: Duplex | undefined;
    const abort = () => {
      const reason: unknown = signal.reason;
      outgoing.destroy();
      opened?.destroy();
      answer?.destroy();
      reject(reason instanceof Error ? reason : new Error('aborted'));
    };
    const settle = (finish: () => void) => {
      signal.removeEventListener('abort', abort);
      finish();
    };
    // A POST or PATCH is never retried, so it never rides a kept-alive connection: the server may close an
    // idle one just as the request goes out (after a prompt, say), and the create would fail for nothing.
    const agent = method === 'POST' || method === 'PATCH' ? client.fresh : client.agent;
    const options = { method, headers: headersToSend(headers, body), agent };
    const onAnswer = (response: IncomingMessage) => {
      answer = response;
      wholeAnswer(response, method, limit).then(
        (whole) => settle(() => resolve(whole)),
        (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    };
    agent.opening = (socket) => (opened = socket);
    let outgoing: ClientRequest;
    try {
      outgoing = client.request(new URL(url), options, onAnswer);
    } finally {
      agent.opening = undefined;
    }
    signal.addEventListener('abort', abort, { once: true });
    outgoing.on('error', (error) => {
      // An answer without a body (204, 304, a HEAD's) is whole with its headers: bytes a server sends after them (a
      // body a 204 must not have) are not part of it, and only spoil the connection, which Node then closes.
      if (answer && (NULL_BODY_STATUS.has(answer.statusCode ?? 0) || method === 'HEAD')) return;
      // A connection the agent was still opening is closed by no one else: Node leaves the connection of a CONNECT
      // the proxy refused (407) open, and it would keep the process alive.
      opened?.destroy();
      settle(() => reject(error));
    });
    outgoing.end(body);
  });
}

/**
 * The options of this transport's agents. `proxyEnv` (Node 22.21 and on; @types/node 20 does not know it) is the
 * proxy api/proxy.ts chose, or null: the agent then reads no proxy variable itself, whatever NODE_USE_ENV_PROXY
 * says, so cip's rules decide alone.
 */
function agentOptions(proxy: ProxyChoice | undefined, keepAlive: boolean): AgentOptions {
  return { keepAlive, proxyEnv: proxy ? agentProxyEnv(proxy) : null } as AgentOptions;
}

/**
 * node:http and node:https, each loaded on first use (an http:// run never loads TLS), through `proxy` when one
 * is given: it is the one api/proxy.ts chose for the base URL, whose origin every request goes to.
 */
export function nodeTransport(limit: number, proxy?: ProxyChoice): Step {
  const clients = new Map<string, Promise<Client>>();
  const client = (protocol: string) => {
    let found = clients.get(protocol);
    if (!found) {
      found = (protocol === 'https:' ? import('node:https') : import('node:http')).then((module) => ({
        request: module.request,
        agent: openingAgent(module.Agent, agentOptions(proxy, true)),
        fresh: openingAgent(module.Agent, agentOptions(proxy, false)),
      }));
      clients.set(protocol, found);
    }
    return found;
  };
  return async (outgoing) => {
    const found = await client(new URL(outgoing.url).protocol);
    outgoing.signal.throwIfAborted();
    return exchangeOn(found, outgoing, limit);
  };
}
