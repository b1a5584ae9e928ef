// A throw-away self-signed certificate for 127.0.0.1, localhost and api.cip.test (a name that never resolves:
// only a proxy that maps it can reach it), for tests that need an HTTPS server.
// Made with the openssl command line so no package is needed; undefined when openssl is not installed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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
