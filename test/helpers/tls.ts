// A throw-away self-signed certificate for 127.0.0.1, localhost and api.cip.test (a name that never resolves:
// only a proxy that maps it can reach it), for tests that need an HTTPS server.
// Made with the openssl command line so no package is needed; undefined when openssl is not installed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { SecureVersion } from 'node:tls';

/** A host name under the reserved .test domain: it resolves nowhere, so only a proxy can reach it. */
export const PROXIED_HOST = 'api.cip.test';

export interface TestCertificate {
  key: string;
  cert: string;
  /** The certificate's PEM file, for NODE_EXTRA_CA_CERTS. */
  certPath: string;
}

export function makeCertificate(dir: string): TestCertificate | undefined {
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        `subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:${PROXIED_HOST}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
}

export interface OldTlsServer {
  /** A base URL, like a sandbox's. */
  readonly url: string;
  readonly port: number;
  /** TCP connections accepted: one per attempt to connect. */
  readonly connections: () => number;
  /** HTTP requests received: any means the keys were sent. */
  readonly requests: () => number;
  close(): Promise<void>;
}

/**
 * An HTTPS server that speaks only `version` (TLS 1.0 by default): Node's client, which offers TLS 1.2 and
 * 1.3, gets the server's `protocol_version` alert, as from an old appliance. The server needs no lowered
 * security level for that: it refuses the client's hello before any cipher is chosen.
 */
export async function oldTlsServer(certificate: TestCertificate, version: SecureVersion = 'TLSv1'): Promise<OldTlsServer> {
  let connections = 0;
  let requests = 0;
  const server = createServer(
    { key: certificate.key, cert: certificate.cert, minVersion: version, maxVersion: version },
    (_request, response) => {
      requests++;
      response.end('[]');
    },
  );
  server.on('connection', () => connections++);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/ms`,
    port,
    connections: () => connections,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
