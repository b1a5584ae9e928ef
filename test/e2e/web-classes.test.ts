// The built cip, whose ky uses cip's own Request, Response and Headers (src/api/web.ts, scripts/build.mjs)
// rather than Node's: the in-process tests run that ky too (test/helpers/shipped-ky.ts), these the whole binary,
// where ky's copy of the classes meets cli.cjs's. A retried PUT carries its body and the credentials on every
// attempt, the answer's headers and JSON come through, and an error answer is the usual error.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cip, expectOneErrorLine } from '../helpers/cli.js';
import { recordingServer, type Received, type RecordingServer } from '../helpers/recording-server.js';

let answers: ((response: ServerResponse) => void)[] = [];
let server: RecordingServer;
let received: Received[];
let env: Record<string, string>;

beforeAll(async () => {
  server = await recordingServer((_request, response) => {
    const answer = answers.shift() ?? ((r: ServerResponse) => r.writeHead(500).end());
    answer(response);
  });
  received = server.received;
  env = {
    CIP_BASE_URL: `${server.origin}/ms`,
    CIP_API_KEY: 'api-key-web-0123456789',
    CIP_SUBSCRIPTION_KEY: 'sub-key-web-0123456789',
    CIP_ENTERPRISE_ID: '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b',
  };
});
afterAll(() => server.close());

describe("the shipped ky with cip's web classes", () => {
  it('retries a PUT after a 503 with the same body and credentials, and prints the JSON of the answer that followed', async () => {
    received.length = 0;
    answers = [
      (response) => response.writeHead(503, { 'Retry-After': '0' }).end('busy'),
      (response) =>
        response.writeHead(200, { 'Content-Type': 'application/json', ETag: '"v2"' }).end('{"id":"e1","n":12345678901234567890}'),
    ];
    const result = await cip(['api', '-X', 'PUT', 'Environments/e1', '--input', '-', '--verbose'], { env, input: '{"name":"web"}' });
    expect(result.exitCode, result.stderr).toBe(0);
    // Numbers stay exact.
    expect(result.stdout).toContain('12345678901234567890');
    expect(result.stderr).toMatch(/retry 1 of 2 after HTTP 503/);
    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual(['PUT /ms/Environments/e1', 'PUT /ms/Environments/e1']);
    for (const request of received) {
      expect(request.body).toBe('{"name":"web"}');
      expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(request.headers['content-length']).toBe('14');
      expect(request.headers['enterpriseid']).toBe('3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b');
      expect(request.headers['ocp-apim-subscription-key']).toBe('sub-key-web-0123456789');
      expect(request.headers.accept).toBe('application/json');
    }
    expect(result.stderr).not.toContain('api-key-web-0123456789');
  });

  it('shows the headers of the answer with -i, and a 404 is exit 5 with one error line', async () => {
    answers = [(response) => response.writeHead(200, { 'Content-Type': 'application/json', 'X-Two': ['a', 'b'] }).end('{}')];
    const shown = await cip(['api', '-i', 'Environments'], { env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(`${shown.stdout}\n${shown.stderr}`).toMatch(/x-two: a, b/);
    answers = [(response) => response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"no such environment"}')];
    const missing = await cip(['env', 'get', 'e404'], { env });
    expect(missing.exitCode).toBe(5);
    expectOneErrorLine(missing.stderr);
  });
});
