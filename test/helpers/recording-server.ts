// A server on 127.0.0.1 that records each request it received (method, URL, headers, body, which connection) and
// then hands it to the test's handler: for tests that need answers the sandbox does not give.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Which connection it came on: 1 for the server's first, and so on. */
  connection: number;
}

export interface RecordingServer {
  /** http://127.0.0.1:PORT (a server that `make` made for TLS answers https:// there). */
  origin: string;
  received: Received[];
  /** Resolves when the connection of the request numbered `index` (from 0) closes. */
  closed(index: number): Promise<void>;
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export async function recordingServer(
  handler: Handler,
  make: (listener: Handler) => ReturnType<typeof createServer> = createServer,
): Promise<RecordingServer> {
  const received: Received[] = [];
  const closes: Promise<void>[] = [];
  const sockets = new Map<Socket, number>();
  const server = make((request, response) => {
    const chunks: Buffer[] = [];
    closes.push(new Promise((resolve) => request.socket.once('close', () => resolve())));
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        connection: sockets.get(request.socket) ?? 0,
      });
      handler(request, response);
    });
  });
  server.on('connection', (socket: Socket) => sockets.set(socket, sockets.size + 1));
  server.on('secureConnection', (socket: Socket) => sockets.set(socket, sockets.size + 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    closed: (index) => closes[index]!,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
