// Bearer tokens against a server on 127.0.0.1 that records the headers it receives: the keys, tokens and
// answers, a config of token profiles, and a check that output holds no secret.
import type { RawHttpServer } from './raw-http.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir } from './cli.js';
import { epochSeconds, makeJwt } from './jwt.js';

export const GUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

export const TOKEN_ENTERPRISE = '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e';

export const API_KEY = 'tokens-test-api-key-0123456789';

export const SUB_KEY = 'tokens-test-subscription-key-0123';

export const TOKEN = makeJwt({ sub: 'alice', enterpriseId: TOKEN_ENTERPRISE, exp: epochSeconds(3600) });

export const OPAQUE = 'opaque-token-0123456789abcdefghij';

export const NOT_ASCII = 'it contains spaces, line breaks, control characters or characters outside ASCII';

export const answer = (status: string, body: string) =>
  `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

export const OK = answer('200 OK', '[{"id":"e1","name":"alpha"}]');

export function configWith(profiles: Record<string, object>): string {
  const configDir = tempDir();
  const [active] = Object.keys(profiles);
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: active, profiles }), { mode: 0o600 });
  return configDir;
}

export function noSecrets(result: { stdout: string; stderr: string }, ...secrets: string[]): void {
  for (const secret of [TOKEN, API_KEY, SUB_KEY, ...secrets]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

/** The headers of a request the server received (the last by default), names in lower case. */
export function requestHeaders(server: RawHttpServer, index = -1): Record<string, string> {
  const head = server.requests.at(index);
  if (head === undefined) throw new Error('no request was received');
  return Object.fromEntries(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}
