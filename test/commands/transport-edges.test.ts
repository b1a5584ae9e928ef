// What a user sees when the API's body does not decode as its Content-Encoding says (src/api/transport.ts):
// a broken answer, exit 7, after one request, whichever decoder failed. Served raw from 127.0.0.1.
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { expectOneErrorLine, sandboxEnv } from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { startSandbox } from '../../src/sandbox/index.js';

const sandbox = await startSandbox({ seed: 3 });
const raw = await rawHttpServer();
const env = { ...sandboxEnv(sandbox), CIP_BASE_URL: raw.url };
afterAll(async () => {
  await sandbox.close();
  await raw.close();
});
beforeEach(() => {
  raw.requests.length = 0;
});

function answer(encoding: string, body: Buffer): Buffer {
  const head = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

describe('Content-Encoding', () => {
  it.each(['br', 'deflate', 'gzip'])('%s that does not decode is a broken answer: exit 7, one request, no retry', async (encoding) => {
    raw.respond(answer(encoding, Buffer.from('[{"id":"not compressed"}]')));
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API answered with a body that is not valid ${encoding} data, though its Content-Encoding says so`,
    );
    expect(raw.requests).toHaveLength(1);
  });

  it('br that decodes is read as the list', async () => {
    raw.respond(answer('br', brotliCompressSync(Buffer.from('[{"id":"e1","name":"a"}]'))));
    const result = await cip(['env', 'list', '-o', 'json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ id: 'e1' })]);
  });
});
