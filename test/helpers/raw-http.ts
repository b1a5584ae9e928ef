// A server on 127.0.0.1 that answers every request with bytes the test chooses: status lines and headers
// that node:http refuses to send (a reason phrase in Chinese, a status of 600, control characters).
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RawHttpServer {
  /** Base URL, like a sandbox's. */
  readonly url: string;
  /** The head (request line and headers) of each request received, in order. */
  readonly requests: string[];
  /** The bytes every following request is answered with (the connection is then closed). */
  respond(response: string | Buffer): void;
  close(): Promise<void>;
}

export async function rawHttpServer(): Promise<RawHttpServer> {
  let response: string | Buffer = 'HTTP/1.1 500 Not Set\r\nContent-Length: 0\r\n\r\n';
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      requests.push(head);
      received = Buffer.alloc(0);
      socket.end(response);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ms`,
    requests,
    respond(next) {
      response = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
