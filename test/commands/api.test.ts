// `cip api` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import { run } from '../../src/run.js';
import { TEST_CREDENTIAL_STORE, expectOneErrorLine, sandboxEnv, tempDir } from '../helpers/cli.js';
import { fakeIO, testContext } from '../helpers/io.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { it, test, type Cip } from '../helpers/fixture.js';
import { sent } from '../helpers/requests.js';
import { EXACT_RECORDS_SANDBOX } from '../helpers/exact-records.js';
import { hint, otherHost } from '../helpers/other-origin.js';

describe('cip api at its edges', () => {
  // `cip api` at its edges: how -X and -H are read and refused (the exact messages), which method a body picks,
  // how the path becomes the URL, where fields go for each method, and what reaches stdout (keys redacted, other
  // bytes untouched, JSON recognised by its content type at a terminal). In-process, against the sandbox.

  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('cip api: refused before anything is sent (exit 2, one error line)', () => {
    const header = (value: string) => `error: option '-H, --header <name:value>' argument '${value}' is invalid.`;
    it.for<[string[], string]>([
      [
        ['-X', 'FOO'],
        "error: option '-X, --method <method>' argument 'FOO' is invalid. expected one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
      ],
      [['-H', 'X-Trace'], `${header('X-Trace')} expected 'Name: value'`],
      [['-H', ': abc'], `${header(': abc')} expected 'Name: value'`],
      [['-H', 'X Trace: abc'], `${header('X Trace: abc')} expected 'Name: value'`],
      [['-H', 'X-Trace: a\nb'], `${header('X-Trace: a b')} a header value cannot hold a line break`],
      [['-H', 'X-Trace: a\rb'], `${header('X-Trace: a\\rb')} a header value cannot hold a line break`],
      [['-H', 'X-Trace: 漢字'], `${header('X-Trace: 漢字')} a header value can hold only printable ASCII and Latin-1 characters`],
      [['-H', 'X-Trace: a\u0007b'], `${header('X-Trace: a\\u0007b')} a header value can hold only printable ASCII and Latin-1 characters`],
      [
        ['-H', 'Ocp-Apim-Subscription-Key: x'],
        `${header('Ocp-Apim-Subscription-Key: x')} Ocp-Apim-Subscription-Key comes from the profile or the CIP_* variables, never from -H`,
      ],
      [['--input', 'body.json', '-f', 'name=x'], 'error: give the body with --input or with -f/-F, not both'],
      [['--input', '/nonexistent/body.json'], 'error: cannot read --input /nonexistent/body.json: no such file'],
    ])('cip api Environments %j', async ([args, line], { sandbox, env, cip }) => {
      const result = await cip(['api', 'Environments', ...args], { env });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(line);
      expect(sandbox.requests).toHaveLength(0);
    });

    it('a path that starts like a URL but is none', async ({ sandbox, env, cip }) => {
      const result = await cip(['api', 'http://'], { env });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: "error: 'http://' is not a URL\n" });
      expect(sandbox.requests).toHaveLength(0);
    });
  });

  describe('cip api: what is sent', () => {
    it('reads -X in any case and with spaces around it, and -H with spaces around the name and the value', async ({
      sandbox,
      env,
      cip,
    }) => {
      await cip(['api', 'Environments', '-X', ' patch ', '-f', 'name=beta', '-H', ' X-Trace :  abc  '], { env });
      const [request] = sandbox.requests;
      expect(`${request!.method} ${request!.url}`).toBe('PATCH /ms/Environments');
      expect(request!.headers['x-trace']).toBe('abc');
    });

    it('-H sets a header cip would otherwise send its own way (User-Agent, Accept); the keys still go with it', async ({
      sandbox,
      env,
      cip,
    }) => {
      await cip(['api', 'Environments', '-H', 'User-Agent: my-script/1.0', '-H', 'Accept: text/plain'], { env });
      const [request] = sandbox.requests;
      expect(request!.headers['user-agent']).toBe('my-script/1.0');
      expect(request!.headers.accept).toBe('text/plain');
      expect(request!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
    });

    it('POSTs --input without -X, and GETs without a body', async ({ sandbox, env, cip }) => {
      const path = join(tempDir(), 'body.json');
      writeFileSync(path, '{"name":"from-file"}');
      expect((await cip(['api', 'Environments', '--input', path], { env })).exitCode).toBe(0);
      expect(sent(sandbox)).toEqual(['POST /ms/Environments']);
      expect(sandbox.requests[0]!.body).toBe('{"name":"from-file"}');
      sandbox.reset();
      expect((await cip(['api', 'Environments'], { env })).exitCode).toBe(0);
      expect(sent(sandbox)).toEqual(['GET /ms/Environments']);
    });

    it('takes a path with a colon or with several leading slashes as a path below the base URL', async ({ sandbox, env, cip }) => {
      await cip(['api', '//Environments'], { env });
      await cip(['api', 'Environments/a:b'], { env });
      expect(sent(sandbox)).toEqual(['GET /ms/Environments', 'GET /ms/Environments/a:b']);
    });

    it.for(['GET', 'HEAD', 'DELETE'])(
      '%s puts the fields in the query, JSON values as compact JSON',
      async (method, { sandbox, env, cip }) => {
        await cip(['api', 'Environments', '-X', method, '-f', 'q=a b', '-F', 'n=5', '-F', 'o={"x": [1]}'], { env });
        expect(sent(sandbox)).toEqual([`${method} /ms/Environments?q=a+b&n=5&o=${encodeURIComponent('{"x":[1]}')}`]);
        expect(sandbox.requests[0]!.body).toBe('');
      },
    );

    it('PUT and OPTIONS send the fields as a JSON body', async ({ sandbox, env, cip }) => {
      for (const method of ['PUT', 'OPTIONS']) {
        await cip(['api', 'Environments/e1', '-X', method, '-F', 'n=5'], { env });
      }
      expect(sent(sandbox)).toEqual(['PUT /ms/Environments/e1', 'OPTIONS /ms/Environments/e1']);
      expect(sandbox.requests.map((request) => request.body)).toEqual(['{"n":5}', '{"n":5}']);
    });

    it('names the method and the path in an error', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 404, body: '' } });
      const result = await cip(['api', 'Environments/nope'], { env });
      expect(result.exitCode).toBe(5);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: cannot GET Environments\/nope: /);
    });
  });

  describe('cip api: what reaches stdout', () => {
    it('redacts a key the server echoes, and leaves the rest of the body as it was', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: `{"echo":"${sandbox.keys.apiKey}", "n": 1.50}` } });
      const result = await cip(['api', 'Integrations'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: '{"echo":"***", "n": 1.50}', stderr: '' });
    });

    it('at a terminal, pretty-prints what the content type says is JSON, though it does not start like JSON', async ({
      sandbox,
      env,
      cip,
    }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: '  42', headers: { 'Content-Type': 'application/json' } } });
      const json = await cip(['api', 'Integrations'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 80 });
      expect(json).toEqual({ exitCode: 0, stdout: '42\n', stderr: '' });
      sandbox.inject({ fault: { kind: 'status', status: 200, body: '  42', headers: { 'Content-Type': 'text/plain' } } });
      const text = await cip(['api', 'Integrations'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 80 });
      expect(text).toEqual({ exitCode: 0, stdout: '  42\n', stderr: '' });
    });

    it('--jq filters an answer of several JSON values (JSON Lines) value by value', async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: { kind: 'status', status: 200, body: '{"n":1}\n{"n":" two "}\n', headers: { 'Content-Type': 'application/x-ndjson' } },
      });
      const result = await cip(['api', 'Integrations', '--jq', '.n'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: '1\n two \n', stderr: '' });
    });

    describe('bytes that are not UTF-8', () => {
      let server: Server;
      let url: string;
      const body = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
      beforeAll(async () => {
        server = createServer((_request, response) => {
          response.writeHead(200, { 'Content-Type': 'application/octet-stream' });
          response.end(body);
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
      });
      afterAll(async () => {
        await new Promise((resolve) => server.close(resolve));
      });

      it('go to a pipe unchanged', async ({ sandbox }) => {
        // The harness reads stdout as text, which would hide the bytes: these streams keep them.
        const streams = fakeIO();
        const chunks: Buffer[] = [];
        streams.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
        const configDir = tempDir();
        const exitCode = await run(
          ['api', 'blob'],
          testContext(streams, {
            HOME: configDir,
            CIP_CONFIG_DIR: configDir,
            ...TEST_CREDENTIAL_STORE,
            ...sandboxEnv({ url, keys: sandbox.keys }),
          }),
        );
        expect(exitCode).toBe(0);
        expect(Buffer.concat(chunks)).toEqual(body);
      });
    });
  });

  describe('cip api -i', () => {
    // The status and headers are output the user asked for, on stderr to keep stdout the body alone: --quiet,
    // which silences cip's own notes, leaves them.
    it.for<[string[]]>([[[]], [['-q']], [['--quiet']]])(
      'with %j prints the status line and the headers on stderr, the body on stdout',
      async ([quiet], { sandbox, env, cip }) => {
        const result = await cip(['api', 'Environments', '-i', ...quiet], { env });
        expect(result.exitCode).toBe(0);
        expect(JSON.parse(result.stdout)).toEqual([{ id: 'e1', name: 'alpha' }]);
        expect(result.stderr).toMatch(/^HTTP\/1\.1 200 OK\n/);
        expect(result.stderr).toMatch(/\ncontent-type: application\/json/);
        expect(result.stderr.endsWith('\n')).toBe(true);
        expect(sent(sandbox)).toEqual(['GET /ms/Environments']);
      },
    );

    it.for<[string, string]>([
      ['HTTP/1.0 201 已创建', 'HTTP/1.0 201 已创建'],
      ['HTTP/1.1 200 \u001b[31mFine\u007f', 'HTTP/1.1 200 ?[31mFine?'],
      ['HTTP/1.1 200', 'HTTP/1.1 200'],
    ])(
      'prints the status line %j as the server sent it (as curl -i does), control characters shown as ?',
      async ([line, shown], { sandbox, cip }) => {
        const raw = await rawHttpServer();
        try {
          raw.respond(`${line}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
          const result = await cip(['api', 'Environments', '-i'], { env: sandboxEnv({ url: raw.url, keys: sandbox.keys }) });
          expect(result.exitCode).toBe(0);
          expect(result.stdout).toBe('{}');
          expect(result.stderr.split('\n')[0]).toBe(shown);
        } finally {
          await raw.close();
        }
      },
    );

    // cip cannot read the wait in these (it uses its usual backoff instead), but they are the server's headers.
    it('prints every header as the server sent it, a Retry-After without a readable wait among them', async ({ sandbox, cip }) => {
      const raw = await rawHttpServer();
      try {
        raw.respond('HTTP/1.1 200 OK\r\nRetry-After: soon\r\nRateLimit-Reset: 1soon\r\nContent-Length: 2\r\n\r\n{}');
        const result = await cip(['api', 'Environments', '-i'], { env: sandboxEnv({ url: raw.url, keys: sandbox.keys }) });
        expect(result.exitCode).toBe(0);
        const lines = result.stderr.split('\n');
        expect(lines).toContain('retry-after: soon');
        expect(lines).toContain('ratelimit-reset: 1soon');
      } finally {
        await raw.close();
      }
    });
  });

  describe('cip api -i on a failure', () => {
    // Where the error's parts go: the status line and headers where a success prints them (stderr), then the
    // failure's body on stderr after a blank line (a failure has no data for stdout), then the one error line;
    // the exit code is the status's own.
    it('prints the status line, the headers and the body on stderr, then the error line; stdout stays empty', async ({
      sandbox,
      env,
      cip,
    }) => {
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 404,
          body: '{"title":"Not Found","detail":"no environment nope"}',
          headers: { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'req-42' },
        },
      });
      const result = await cip(['api', 'Environments/nope', '-i'], { env });
      expect(result.exitCode).toBe(5);
      expect(result.stdout).toBe('');
      const lines = result.stderr.split('\n');
      expect(lines[0]).toBe('HTTP/1.1 404 Not Found');
      expect(lines).toContain('content-type: application/problem+json');
      expect(lines).toContain('x-request-id: req-42');
      // The body after a blank line, then the error line last.
      expect(lines.slice(-4)).toEqual([
        '',
        '{"title":"Not Found","detail":"no environment nope"}',
        'error: cannot GET Environments/nope: not found (HTTP 404): no environment nope',
        '',
      ]);
      expect(expectOneErrorLine(result.stderr)).toBe('error: cannot GET Environments/nope: not found (HTTP 404): no environment nope');
    });

    it('without -i, a failure prints the error line alone', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 404, body: '{"title":"gone"}', headers: { 'X-Request-Id': 'req-42' } } });
      const result = await cip(['api', 'Environments/nope'], { env });
      expect(result).toEqual({ exitCode: 5, stdout: '', stderr: 'error: cannot GET Environments/nope: not found (HTTP 404): gone\n' });
    });

    it.for<[number, number]>([
      [401, 3],
      [403, 4],
      [409, 6],
      [500, 7],
    ])(
      'HTTP %i keeps its exit code (%i), with --quiet too, and an empty body prints no blank line',
      async ([status, code], { sandbox, env, cip }) => {
        sandbox.inject({ fault: { kind: 'status', status, body: '', headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } } });
        const result = await cip(['api', 'Environments', '-X', 'POST', '-q', '-i', '-f', 'name=x'], { env });
        expect(result.exitCode).toBe(code);
        expect(result.stdout).toBe('');
        const lines = result.stderr.split('\n');
        expect(lines[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(lines).toContain('www-authenticate: Bearer error="invalid_token"');
        expect(lines.at(-2)).toMatch(/^error: cannot POST Environments: /);
        expect(lines.slice(0, -1)).not.toContain('');
      },
    );

    it('prints the answer of the last attempt of a request that was retried, once', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 503, body: 'early', headers: { 'X-Attempt': 'early' } }, times: 2 });
      sandbox.inject({ fault: { kind: 'status', status: 502, body: 'last', headers: { 'X-Attempt': 'last' } } });
      const result = await cip(['api', 'Environments', '-i'], { env });
      expect(result.exitCode).toBe(7);
      expect(sent(sandbox)).toHaveLength(3);
      expect(result.stderr.match(/^HTTP\//gm)).toHaveLength(1);
      expect(result.stderr).toMatch(/^HTTP\/1\.1 502 Bad Gateway\n/);
      expect(result.stderr).toContain('\nx-attempt: last\n');
      expect(result.stderr).not.toContain('early');
    });

    it('prints a redirect that cip does not follow, with its Location', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 302, body: '', headers: { Location: 'https://elsewhere.example/login' } } });
      const result = await cip(['api', 'Environments', '-i'], { env });
      expect(result.exitCode).toBe(7);
      expect(result.stderr).toMatch(/^HTTP\/1\.1 302 Found\n/);
      expect(result.stderr).toContain('\nlocation: https://elsewhere.example/login\n');
    });

    it("cleans the body for the terminal: lines kept (CR LF as LF), escapes and a lone CR shown as '?'", async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 400,
          body: 'first\r\n\u001b[2Jsecond\tcol\rover\u009b31m\n',
          headers: { 'Content-Type': 'text/plain' },
        },
      });
      const result = await cip(['api', 'Environments', '-i'], { env });
      expect(result.exitCode).toBe(6);
      expect(result.stderr).toContain('\n\nfirst\n?[2Jsecond\tcol?over?31m\nerror: ');
      expect(result.stderr).not.toMatch(/[\u001b\r\u009b]/);
    });

    it('cuts a large body at 64 KiB of characters and says how much was left out', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 500, body: 'x'.repeat(70_000), headers: { 'Content-Type': 'text/plain' } } });
      const result = await cip(['api', 'Environments', '-X', 'POST', '-i'], { env });
      expect(result.exitCode).toBe(7);
      expect(result.stderr).toContain(`\n\n${'x'.repeat(65_536)}\n… (4464 more characters not shown)\nerror: `);
    });
  });

  describe('cip api -i and a hostile server', () => {
    const answerWith = async (cip: Cip, sandbox: Sandbox, head: string) => {
      const raw = await rawHttpServer();
      try {
        raw.respond(Buffer.from(`${head}\r\nContent-Length: 0\r\n\r\n`, 'latin1'));
        return await cip(['api', 'Environments', '-i'], { env: sandboxEnv({ url: raw.url, keys: sandbox.keys }) });
      } finally {
        await raw.close();
      }
    };

    it.for<[string, string]>([
      ['an ANSI escape', 'X-Evil: a\u001b[2Jb'],
      ['a bare CR', 'X-Evil: a\rb'],
      ['DEL', 'X-Evil: a\u007fb'],
      ['a NUL', 'X-Evil: a\u0000b'],
    ])(
      'a header with %s is no HTTP that cip reads: exit 7, and the bytes never reach the terminal',
      async ([, header], { sandbox, cip }) => {
        const result = await answerWith(cip, sandbox, `HTTP/1.1 404 Not Found\r\n${header}`);
        expect(result.exitCode).toBe(7);
        expect(result.stdout).toBe('');
        expect(expectOneErrorLine(result.stderr)).toMatch(/is not HTTP that cip can read/);
        expect(result.stderr).not.toMatch(/[\u0000\u001b\r\u007f]/);
      },
    );

    it('a failure with bytes beyond ASCII (UTF-8 of a bidi override, read as Latin-1), a tab, a key and 150 headers: every line printed, cleaned', async ({
      sandbox,
      cip,
    }) => {
      const many = Array.from({ length: 150 }, (_, at) => `X-H${at}: v${at}`).join('\r\n');
      const bidi = Buffer.from('a\u202eb', 'utf8').toString('latin1');
      const result = await answerWith(
        cip,
        sandbox,
        `HTTP/1.1 401 Unauthorized\r\nX-Bidi: ${bidi}\r\nX-Tab: a\tb\r\nX-Key: ${sandbox.keys.apiKey}\r\n${many}`,
      );
      expect(result.exitCode).toBe(3);
      const lines = result.stderr.split('\n');
      expect(lines).toContain('x-bidi: aâ?®b');
      expect(lines).toContain('x-tab: a b');
      expect(lines).toContain('x-key: ***');
      expect(lines.filter((line) => /^x-h\d+: v\d+$/.test(line))).toHaveLength(150);
      expect(result.stderr).not.toMatch(/[\u0080-\u009f\u202e]/);
    });
  });

  describe('cip api -i never prints a key the server echoes in a header', () => {
    // What a user sees, whatever the server spells: the key as it is, percent-encoded, or in a cookie.
    const echoes = (sandbox: Sandbox) => ({
      'X-Echo': sandbox.keys.apiKey,
      'Set-Cookie': `sub=${sandbox.keys.subscriptionKey}; Path=/; HttpOnly`,
      'X-Encoded': encodeURIComponent(`k=${sandbox.keys.apiKey}+`),
      Authorization: `ApiKey ${sandbox.keys.apiKey}`,
    });
    const leaks = (sandbox: Sandbox, text: string) =>
      [sandbox.keys.apiKey, sandbox.keys.subscriptionKey].filter((key) => text.includes(key));

    it.for<[number, number]>([
      [200, 0],
      [404, 5],
      [401, 3],
    ])('HTTP %i (exit %i): each header is printed, its key as ***', async ([status, code], { sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status, body: '{}', headers: echoes(sandbox) } });
      const result = await cip(['api', 'Integrations', '-i'], { env });
      expect(result.exitCode).toBe(code);
      expect(leaks(sandbox, result.stderr + result.stdout)).toEqual([]);
      const lines = result.stderr.split('\n');
      expect(lines).toContain('x-echo: ***');
      expect(lines).toContain('set-cookie: sub=***; Path=/; HttpOnly');
      expect(lines).toContain('x-encoded: k%3D***%2B');
      expect(lines).toContain('authorization: ApiKey ***');
    });

    it('a Bearer token echoed back in a header is ***', async ({ sandbox, cip }) => {
      const token = sandbox.token();
      sandbox.inject({ fault: { kind: 'status', status: 401, body: `{"token":"${token}"}`, headers: { 'X-Echo': `Bearer ${token}` } } });
      const tokenEnv = { CIP_BASE_URL: sandbox.url, CIP_TOKEN: token, CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey };
      const result = await cip(['api', 'Integrations', '-i'], { env: tokenEnv });
      expect(result.exitCode).toBe(3);
      expect(result.stderr).not.toContain(token);
      expect(result.stderr.split('\n')).toContain('x-echo: Bearer ***');
      expect(result.stderr).toContain('\n\n{"token":"***"}\n');
    });
  });
});

describe("the base URL's origin", () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('cip api: a path is resolved, then its origin checked; off the origin is exit 2 and nothing is sent', () => {
    it.for<[string, string[]]>([
      ['\\\\HOST/steal', ['-X', 'GET', '-f', 'q=1']],
      ['/\\/HOST/x', ['-X', 'DELETE', '-f', 'q=1']],
      ['\\\\HOST/steal', []],
      ['/\\/HOST/x', []],
      ['\\/HOST/x', ['-X', 'HEAD', '-f', 'q=1']],
      ['http:\\\\HOST/x', []],
      ['http:HOST/x', []],
    ])('%s %j', async ([path, args], { sandbox, env, cip, startSandbox }) => {
      const elsewhere = await startSandbox();
      const result = await cip(['api', path.replace('HOST', otherHost(elsewhere)), ...args], { env });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: http://${otherHost(elsewhere)} is not the base URL's origin (${new URL(sandbox.url).origin}) ${hint}`,
      );
      expect(elsewhere.requests).toEqual([]);
      expect(sandbox.requests).toEqual([]);
    });

    it.for(['\t//HOST/x', '/\n/HOST/x', 'Environ\tments'])(
      'refuses a path with a tab or line break: %j',
      async (path, { sandbox, env, cip, startSandbox }) => {
        const elsewhere = await startSandbox();
        const result = await cip(['api', path.replace('HOST', otherHost(elsewhere)), '-X', 'GET', '-f', 'q=1'], { env });
        expect(result.exitCode).toBe(2);
        expect(expectOneErrorLine(result.stderr)).toMatch(/^error: '.*' holds a control character \(nothing was sent/);
        expect(elsewhere.requests).toEqual([]);
        expect(sandbox.requests).toEqual([]);
      },
    );

    it('an encoded //host stays a path, and .. climbs above the base path but never off the origin', async ({
      sandbox,
      env,
      cip,
      startSandbox,
    }) => {
      const elsewhere = await startSandbox();
      await cip(['api', `%2F%2F${otherHost(elsewhere)}/x`, '-X', 'GET', '-f', 'q=1'], { env });
      await cip(['api', '../../Integrations/../x', '-X', 'GET', '-f', 'q=1'], { env });
      await cip(['api', 'Environments/../Integrations'], { env });
      expect(sandbox.requests.map((request) => request.url)).toEqual([
        `/ms/%2F%2F${otherHost(elsewhere)}/x?q=1`,
        '/x?q=1',
        '/ms/Integrations',
      ]);
      expect(elsewhere.requests).toEqual([]);
    });

    it('with an https:// base URL, an http:// URL to the same host and port is another origin: the keys never go in cleartext', async ({
      sandbox,
      env,
      cip,
      startSandbox,
    }) => {
      const elsewhere = await startSandbox();
      const host = new URL(sandbox.url).host;
      const result = await cip(['api', `http://${host}/ms/Environments`], { env: { ...env, CIP_BASE_URL: `https://${host}/ms` } });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(`error: http://${host} is not the base URL's origin (https://${host}) ${hint}`);
      expect(sandbox.requests).toEqual([]);
      expect(elsewhere.requests).toEqual([]);
    });

    it('a URL on the origin with a user name and password is exit 2, without showing the password', async ({ sandbox, env, cip }) => {
      const result = await cip(['api', `${sandbox.url.replace('//', '//user:hunter2-pw@')}/Environments`], { env });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).not.toContain('hunter2');
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: '${sandbox.url.replace('//', '//***@')}/Environments' holds a user name or password ${hint}`,
      );
      expect(sandbox.requests).toEqual([]);
    });
  });
});

describe('platform features', () => {
  test.override({ sandboxOptions: EXACT_RECORDS_SANDBOX });

  describe('cip api', () => {
    it('sends the three headers to a path below the base URL, with or without a leading slash', async ({ sandbox, env, cip }) => {
      for (const path of ['Environments', '/Environments']) {
        sandbox.reset();
        const result = await cip(['api', path], { env });
        expect(result.exitCode).toBe(0);
        const [request] = sandbox.requests;
        expect(`${request!.method} ${request!.url}`).toBe('GET /ms/Environments');
        expect(request!.headers.authorization).toBe(`ApiKey ${sandbox.keys.apiKey}`);
        expect(request!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
        expect(request!.headers.enterpriseid).toBe(sandbox.keys.enterpriseId);
      }
    });

    it('passes the body through byte for byte in a pipe', async ({ sandbox, env, cip }) => {
      const body = '{"odd" :  [1.50, 12345678901234567890,{}],\n "x":"\\u00e9"}';
      sandbox.inject({ fault: { kind: 'status', status: 200, body, headers: { 'content-type': 'application/json' } } });
      const result = await cip(['api', 'Integrations'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: body, stderr: '' });
      expect(sandbox.requests[0]!.url).toBe('/ms/Integrations');
    });

    it('pretty-prints JSON at a terminal, numbers exact', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: '{"n":12345678901234567890}' } });
      const result = await cip(['api', 'Integrations'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 80 });
      expect(result.stdout).toBe('{\n  "n": 12345678901234567890\n}\n');
    });

    it('refuses a URL on another origin: exit 2, nothing sent anywhere', async ({ sandbox, env, cip, startSandbox }) => {
      const elsewhere = await startSandbox();
      const result = await cip(['api', `${elsewhere.url}/Environments`], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: ${new URL(elsewhere.url).origin} is not the base URL's origin (${new URL(sandbox.url).origin}) (nothing was sent: the keys go only to the base URL)`,
      );
      expect(sandbox.requests).toHaveLength(0);
      expect(elsewhere.requests).toHaveLength(0);
      // A URL on the base URL's own origin is fine.
      expect((await cip(['api', `${sandbox.url}/Environments`], { env })).exitCode).toBe(0);
    });

    it('POSTs fields (the create parser), and never retries a POST', async ({ sandbox, env, cip }) => {
      const created = await cip(['api', 'Environments', '-f', 'name=from-api', '-F', 'n=12345678901234567890'], { env });
      expect(created.exitCode).toBe(0);
      expect(sandbox.requests[0]!.method).toBe('POST');
      expect(sandbox.requests[0]!.body).toBe('{"name":"from-api","n":12345678901234567890}');
      sandbox.reset();
      sandbox.inject({ fault: { kind: 'status', status: 503, body: 'busy' }, times: Infinity });
      const failed = await cip(['api', 'Environments', '-X', 'POST', '-f', 'name=x'], { env });
      expect(failed.exitCode).toBe(7);
      expect(sandbox.requests).toHaveLength(1);
      expect(failed.stdout).toBe('');
    });

    it('-X PUT --input sends the file as it is; -H adds a header; -i shows the status and headers on stderr', async ({
      sandbox,
      env,
      cip,
    }) => {
      const path = join(tempDir(), 'body.json');
      writeFileSync(path, '{"name":"alpha","big":1.50}');
      const result = await cip(['api', 'Environments/e1', '-X', 'PUT', '--input', path, '-H', 'X-Trace: abc', '-i'], { env });
      expect(result.exitCode).toBe(0);
      const [request] = sandbox.requests;
      expect(`${request!.method} ${request!.url}`).toBe('PUT /ms/Environments/e1');
      expect(request!.body).toBe('{"name":"alpha","big":1.50}');
      expect(request!.headers['x-trace']).toBe('abc');
      expect(result.stderr).toMatch(/^HTTP\/1\.1 200 OK\n/);
      expect(result.stderr).toContain('\ncontent-type: application/json');
    });

    it('refuses to set a credential header with -H, and GET fields become the query', async ({ sandbox, env, cip }) => {
      const refused = await cip(['api', 'Environments', '-H', 'Authorization: Bearer x'], { env });
      expect(refused.exitCode).toBe(2);
      expect(sandbox.requests).toHaveLength(0);
      await cip(['api', 'Environments', '-X', 'GET', '-f', 'q=a b'], { env });
      expect(sandbox.requests[0]!.url).toBe('/ms/Environments?q=a+b');
    });

    it('fails with the usual exit codes', async ({ env, cip }) => {
      const missing = await cip(['api', 'Environments/nope', '-X', 'DELETE'], { env });
      expect(missing.exitCode).toBe(5);
      const denied = await cip(['api', 'Environments'], { env: { ...env, CIP_API_KEY: 'wrong-api-key-0123456789' } });
      expect(denied.exitCode).toBe(3);
    });
  });
});
