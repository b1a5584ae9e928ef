// A minimal forward proxy on 127.0.0.1, as a corporate proxy looks to a client: HTTPS goes through a CONNECT
// tunnel, so the proxy sees only the target host:port and then opaque TLS bytes; plain HTTP comes to it whole
// (absolute-form: `GET http://host:port/path`) and is forwarded. Like a real proxy it resolves the target
// itself, here by sending everything to 127.0.0.1 at the target's port, so a base URL with a host that resolves
// nowhere (api.cip.test) works only through it. `refuse` makes it answer every request with that status
// instead (407, 403); `tls` makes it an https:// proxy.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ConnectProxy {
  readonly url: string;
  /** host:port of each CONNECT request, in order. */
  readonly tunnels: string[];
  /** The Proxy-Authorization header of each request, CONNECT or plain ('' when absent), in order. */
  readonly authorizations: string[];
  /** Absolute-form plain HTTP requests ("METHOD url"), in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export interface ConnectProxyOptions {
  /** Answer every request with this status instead of opening the tunnel or forwarding it. */
  refuse?: number;
  /** Speak TLS to the client with this key and certificate: an https:// proxy. */
  tls?: { key: string; cert: string };
}

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const authorizations: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const refusal = (status: number): Record<string, string> => (status === 407 ? { 'Proxy-Authenticate': 'Basic realm="corp"' } : {});

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
    authorizations.push(req.headers['proxy-authorization'] ?? '');
    let target: URL | undefined;
    try {
      target = new URL(req.url ?? '');
    } catch {
      target = undefined;
    }
    if (options.refuse || target?.protocol !== 'http:') {
      res.writeHead(options.refuse ?? 400, { ...refusal(options.refuse ?? 400), 'Content-Length': '0', Connection: 'close' });
      res.end();
      return;
    }
    // Hop-by-hop headers stay here, as a proxy keeps them.
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = forward(
      {
        host: '127.0.0.1',
        port: Number(target.port || 80),
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Length': '0' }).end();
      else res.destroy();
    });
    // A client that hangs up mid-answer cuts the server's connection too, as through a tunnel.
    res.once('close', () => upstream.destroy());
    req.pipe(upstream);
  };
  const server = options.tls ? createTlsServer(options.tls, handle) : createServer(handle);
  server.on('connection', track);

  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    authorizations.push(req.headers['proxy-authorization'] ?? '');
    if (options.refuse) {
      const authenticate = Object.entries(refusal(options.refuse)).map(([name, value]) => `${name}: ${value}\r\n`);
      client.end(`HTTP/1.1 ${options.refuse} Refused\r\n${authenticate.join('')}Content-Length: 0\r\n\r\n`);
      return;
    }
    const port = /:(\d+)$/.exec(target)?.[1];
    if (!port) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), '127.0.0.1');
    track(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      // Before the tunnel is up the client still speaks HTTP and can be told why; after, only a cut says it.
      if (!established && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      else client.destroy();
    });
    client.on('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => {
      if (established) client.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    tunnels,
    authorizations,
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Tunnelled sockets are detached from the HTTP server, so closeAllConnections alone would miss them.
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
