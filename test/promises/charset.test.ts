// Text that is not UTF-8 (text/charset.ts, api/http.ts): an answer is read as the charset its Content-Type declares
// (a byte-order mark first, as the Encoding Standard says), and cip sends JSON in UTF-8, saying so. Where the bytes
// are not valid for what they claim, a read shows what it can with a warning, and every write of the run is
// refused (exit 7) with nothing sent: cip never writes U+FFFD back in place of text it could not read, and never
// matches names against it (create --if-exists would POST a duplicate, apply --prune delete the wrong one).
// Each case runs on both transports: node:http, and fetch through a proxy (api/proxy.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { FaultRule, Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, sandboxEnv, seedSandbox, tempDir } from '../helpers/cli.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { it, test, type Fixtures } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';

let proxy!: ConnectProxy;

beforeAll(async () => {
  proxy = await startConnectProxy();
});

afterAll(async () => {
  await proxy.close();
});

const OWNER = 'José Muñoz';

const A = { id: 'a1', name: 'a', owner: OWNER, description: 'old', tags: ['señal'] };

const B = { id: 'b2', name: 'Peña', owner: 'Zoë', description: 'other' };

test.override({ sandboxOptions: { records: [JSON.stringify(A), JSON.stringify(B)] } });

const TRANSPORTS = {
  'node:http': (sandbox: Sandbox) => sandboxEnv(sandbox),
  // A name only the proxy resolves: the request goes through fetch and undici's proxy agent.
  'fetch through a proxy': (sandbox: Sandbox) =>
    sandboxEnv(sandbox, { CIP_BASE_URL: `http://api.cip.test:${sandbox.port}/ms`, HTTP_PROXY: proxy.url, CIP_ALLOW_HTTP: '1' }),
} as const;

type Transport = keyof typeof TRANSPORTS;

const run = ({ sandbox, cip, configDir }: Pick<Fixtures, 'sandbox' | 'cip' | 'configDir'>, transport: Transport, args: string[]) =>
  cip(args, { env: TRANSPORTS[transport](sandbox), configDir });

/** The list as the sandbox holds it, as JSON text. */
const listText = (sandbox: Sandbox) => JSON.stringify([...sandbox.environments.values()]);

/** windows-1252 (and ISO-8859-1, where they agree): one byte per character. */
function cp1252(text: string): Buffer {
  return Buffer.from(Array.from(text, (char) => ({ '€': 0x80, '–': 0x96 })[char] ?? char.charCodeAt(0)));
}

const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

const BOM = { utf8: Buffer.from([0xef, 0xbb, 0xbf]), utf16le: Buffer.from([0xff, 0xfe]), utf16be: Buffer.from([0xfe, 0xff]) };

/** Every GET of the list answered with these bytes and this Content-Type (absent when null). */
function listAnswered(sandbox: Sandbox, body: (text: string) => Buffer, contentType: string | null): void {
  const rule: FaultRule = {
    method: 'GET',
    match: (request) => request.url.startsWith('/ms/Environments'),
    times: Infinity,
    fault: {
      kind: 'status',
      status: 200,
      body: body(listText(sandbox)),
      headers: contentType === null ? { 'Content-Type': '' } : { 'Content-Type': contentType },
    },
  };
  sandbox.inject(rule);
}

/** Read exactly: each a declared charset (or a byte-order mark) and bytes valid in it. */
const EXACT: [what: string, body: (text: string) => Buffer, contentType: string | null][] = [
  ['charset=iso-8859-1', (text) => cp1252(text), 'application/json; charset=iso-8859-1'],
  ['Charset="ISO-8859-1" (quoted, odd case)', (text) => cp1252(text), 'application/json; Charset="ISO-8859-1"'],
  ['charset=latin1 after another parameter', (text) => cp1252(text), 'application/json;odata.metadata=minimal;charset=latin1'],
  ['charset=windows-1252', (text) => cp1252(text), 'application/json; charset=windows-1252'],
  ['charset=utf-8 with a byte-order mark', (text) => Buffer.concat([BOM.utf8, Buffer.from(text)]), 'application/json; charset=utf-8'],
  ['no charset, a UTF-8 byte-order mark', (text) => Buffer.concat([BOM.utf8, Buffer.from(text)]), 'application/json'],
  [
    'charset=utf-16 with a byte-order mark (little-endian)',
    (text) => Buffer.concat([BOM.utf16le, Buffer.from(text, 'utf16le')]),
    'application/json; charset=utf-16',
  ],
  ['no charset, a UTF-16 big-endian byte-order mark', (text) => Buffer.concat([BOM.utf16be, utf16be(text)]), null],
  ['charset=utf-16be without a byte-order mark', utf16be, 'application/json; charset=UTF-16BE'],
  ['charset=utf-16 without a byte-order mark, big-endian', utf16be, 'application/json; charset=utf-16'],
  ['charset=utf-16 without a byte-order mark, little-endian', (text) => Buffer.from(text, 'utf16le'), 'application/json; charset=utf-16'],
];

/** Not read exactly: bytes invalid for what they claim, or a claim cip cannot read. */
const INEXACT: [what: string, body: (text: string) => Buffer, contentType: string | null, why: string][] = [
  ['no charset, Latin-1 bytes', cp1252, 'application/json', 'it is not valid UTF-8, and its Content-Type names no charset'],
  ['no Content-Type at all, Latin-1 bytes', cp1252, null, 'it is not valid UTF-8, and its Content-Type names no charset'],
  [
    'charset=utf-8, Latin-1 bytes',
    cp1252,
    'application/json; charset=utf-8',
    "it is not valid 'utf-8', the charset its Content-Type names",
  ],
  [
    'charset=us-ascii, Latin-1 bytes',
    cp1252,
    'application/json; charset=us-ascii',
    "it is not valid 'us-ascii', the charset its Content-Type names",
  ],
  ['an unknown charset', cp1252, 'application/json; charset=x-klingon', "its Content-Type names a charset cip cannot read ('x-klingon')"],
  [
    'two charsets',
    (text) => Buffer.from(text),
    'application/json; charset=utf-8; charset=iso-8859-1',
    "its Content-Type names 2 charsets ('utf-8', 'iso-8859-1')",
  ],
  [
    'a UTF-16 byte-order mark under charset=iso-8859-1',
    (text) => Buffer.concat([BOM.utf16le, Buffer.from(text, 'utf16le')]),
    'application/json; charset=iso-8859-1',
    "its Content-Type says charset='iso-8859-1', but it starts with a UTF-16LE byte-order mark",
  ],
  [
    'UTF-16 with half a surrogate pair',
    (text) => Buffer.from(text.replace('old', 'o\ud800ld'), 'utf16le'),
    'application/json; charset=utf-16le',
    "it is not valid 'utf-16le', the charset its Content-Type names",
  ],
  [
    'ISO-8859-1 with a byte that windows-1252 reads otherwise (0x80)',
    (text) => cp1252(text.replace('old', '€5')),
    'application/json; charset=iso-8859-1',
    "it holds bytes 0x80-0x9F, which 'iso-8859-1' and windows-1252 read as different characters",
  ],
];

describe.each(Object.keys(TRANSPORTS) as Transport[])('%s', (transport) => {
  describe.each(EXACT)('a list answered with %s', (_what, body, contentType) => {
    it('update sends back every field exactly, in UTF-8 it names; create --if-exists update finds the record and POSTs nothing', async ({
      sandbox,
      cip,
      configDir,
    }) => {
      listAnswered(sandbox, body, contentType);
      const listed = await run({ sandbox, cip, configDir }, transport, ['env', 'list', '--json']);
      expect(listed.exitCode).toBe(0);
      expect(listed.stderr).toBe('');
      expect(JSON.parse(listed.stdout)).toEqual([A, B]);

      const updated = await run({ sandbox, cip, configDir }, transport, ['env', 'update', 'a', '-f', 'description=x']);
      expect(updated.exitCode).toBe(0);
      expect(updated.stderr).not.toContain('warning');
      const [put] = writes(sandbox);
      // The sandbox reads the body as UTF-8: equal text is equal bytes (anything else would read as U+FFFD).
      expect(put).toMatchObject({ method: 'PUT', url: '/ms/Environments/a1' });
      expect(put!.body).toBe(JSON.stringify({ ...A, description: 'x' }));
      expect(Buffer.from(put!.body)).toEqual(Buffer.from(JSON.stringify({ ...A, description: 'x' }), 'utf8'));
      expect(put!.headers['content-type']).toBe('application/json; charset=utf-8');

      sandbox.reset();
      listAnswered(sandbox, body, contentType);
      const merged = await run({ sandbox, cip, configDir }, transport, [
        'env',
        'create',
        '-f',
        'name=Peña',
        '-f',
        'description=y',
        '--if-exists',
        'update',
      ]);
      expect(merged.exitCode).toBe(0);
      expect(writes(sandbox).map((request) => [request.method, request.url, request.body])).toEqual([
        ['PUT', '/ms/Environments/b2', JSON.stringify({ ...B, description: 'y' })],
      ]);
    });
  });

  describe.each(INEXACT)('a list answered with %s', (_what, body, contentType, why) => {
    it('a read shows it with a warning; update, create --if-exists, apply, delete and restore send nothing (exit 7)', async ({
      sandbox,
      cip,
      configDir,
    }) => {
      // An entry to restore, made before the server's answers went wrong.
      expect((await run({ sandbox, cip, configDir }, transport, ['env', 'update', 'b2', '-f', 'description=journaled'])).exitCode).toBe(0);
      const [entry] = JSON.parse((await run({ sandbox, cip, configDir }, transport, ['env', 'history', '--json'])).stdout) as {
        entry: string;
      }[];
      sandbox.reset();
      listAnswered(sandbox, body, contentType);

      const listed = await run({ sandbox, cip, configDir }, transport, ['env', 'list', '--json']);
      expect(listed.exitCode).toBe(0);
      expect(listed.stderr).toBe(
        `warning: cip could not read the API's answer to list environments exactly (${why}): it is shown as well as cip can, and this run writes nothing back\n`,
      );
      expect((JSON.parse(listed.stdout) as { id: string }[]).map((record) => record.id)).toEqual(['a1', 'b2']);

      const file = join(tempDir(), 'envs.json');
      writeFileSync(file, JSON.stringify({ environments: [{ name: 'Peña', description: 'applied' }] }));
      for (const args of [
        ['env', 'update', 'a', '-f', 'description=x'],
        ['env', 'create', '-f', 'name=Peña', '--if-exists', 'update'],
        ['env', 'create', '-f', 'name=nope', '--if-exists', 'skip'],
        ['env', 'apply', '--file', file, '--prune', '--yes'],
        ['env', 'delete', 'a1', '--yes'],
        ['env', 'restore', entry!.entry, '--yes', '--force'],
      ]) {
        const refused = await run({ sandbox, cip, configDir }, transport, args);
        expect(refused.exitCode, args.join(' ')).toBe(7);
        expect(expectOneErrorLine(refused.stderr), args.join(' ')).toMatch(
          new RegExp(
            `^error: cannot .*: cip could not read the API's answer to list environments exactly \\(.*\\), and would send back text it could not read \\(nothing was sent;`,
          ),
        );
        expect(writes(sandbox), args.join(' ')).toEqual([]);
      }
      expect(sandbox.environments.get('a1')).toEqual(A);
      expect(sandbox.environments.get('b2')).toMatchObject({ name: 'Peña', description: 'journaled' });
    });
  });
});

describe('answers the request path reads whole', () => {
  it('windows-1252: its euro sign (0x80) is read as the euro sign, and sent back as one', async ({ sandbox, cip, configDir }) => {
    await seedSandbox(sandbox, [JSON.stringify({ ...A, price: '€5 – 10' })]);
    listAnswered(sandbox, cp1252, 'application/json; charset=windows-1252');
    const updated = await cip(['env', 'update', 'a', '-f', 'description=x'], { env: sandboxEnv(sandbox), configDir });
    expect(updated.exitCode).toBe(0);
    expect(writes(sandbox)[0]!.body).toBe(JSON.stringify({ ...A, price: '€5 – 10', description: 'x' }));
  });

  it('a UTF-8 character split across two chunks of a chunked answer is read whole', async ({ sandbox, cip, configDir }) => {
    const text = listText(sandbox);
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from('é')) + 1;
    const chunk = (part: Buffer) => Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
    sandbox.inject({
      method: 'GET',
      fault: {
        kind: 'raw',
        response: Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n'),
          chunk(bytes.subarray(0, split)),
          chunk(bytes.subarray(split)),
          Buffer.from('0\r\n\r\n'),
        ]),
      },
    });
    const updated = await cip(['env', 'update', 'a', '-f', 'description=x'], { env: sandboxEnv(sandbox), configDir });
    expect(updated.exitCode).toBe(0);
    expect(writes(sandbox)[0]!.body).toBe(JSON.stringify({ ...A, description: 'x' }));
  });

  it('cip api: a body without a charset is sent in UTF-8, and says so', async ({ sandbox, cip, configDir }) => {
    const result = await cip(['api', 'Environments/a1', '-X', 'PUT', '--input', '-'], {
      env: sandboxEnv(sandbox),
      configDir,
      input: JSON.stringify({ ...A, owner: 'Zoë' }),
    });
    expect(result.exitCode).toBe(0);
    expect(writes(sandbox)[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(sandbox.environments.get('a1')).toMatchObject({ owner: 'Zoë' });
  });
});

describe('input that is not UTF-8', () => {
  it('a --file, --input or stdin in Latin-1 is refused (exit 2) before anything is sent: it would go as U+FFFD', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const file = join(tempDir(), 'latin1.json');
    writeFileSync(file, Buffer.from(JSON.stringify({ name: 'c', owner: OWNER }), 'latin1'));
    const env = sandboxEnv(sandbox);
    for (const [args, input] of [
      [['env', 'create', '--file', file], undefined],
      [['env', 'update', 'a', '--file', file], undefined],
      [['env', 'apply', '--file', file, '--yes'], undefined],
      [['api', 'Environments', '--input', file], undefined],
      [['api', 'Environments', '--input', '-'], Buffer.from('{"owner":"José"}', 'latin1')],
    ] as const) {
      const result = await cip([...args], { env, configDir, ...(input === undefined ? {} : { input }) });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(expectOneErrorLine(result.stderr), args.join(' ')).toMatch(
        /is not valid UTF-8, and cip reads its input as UTF-8 \(convert it first/,
      );
    }
    expect(writes(sandbox)).toEqual([]);
    // In UTF-8 the same file goes out exactly.
    writeFileSync(file, JSON.stringify({ name: 'c', owner: OWNER }));
    expect((await cip(['env', 'create', '--file', file], { env, configDir })).exitCode).toBe(0);
    expect(writes(sandbox)[0]!.body).toBe(JSON.stringify({ name: 'c', owner: OWNER }));
  });
});

describe('a key in an answer that is not UTF-8', () => {
  it('is found in UTF-16: cip api at a terminal, with --jq, in a pipe, in --verbose and in an error', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const key = sandbox.keys.apiKey;
    const utf16 = Buffer.concat([BOM.utf16le, Buffer.from(JSON.stringify({ id: 'a1', echo: key }), 'utf16le')]);
    const answer = (status: number) =>
      sandbox.inject({
        method: 'GET',
        fault: { kind: 'status', status, body: utf16, headers: { 'Content-Type': 'application/json; charset=utf-16' } },
      });
    const env = sandboxEnv(sandbox);
    const plain = (text: string) => text.replace(/\0/g, '');
    for (const [args, options] of [
      [['api', 'Environments/a1'], { terminalColumns: 100 }],
      [['api', 'Environments/a1', '--jq', '.echo'], {}],
      [['api', 'Environments/a1'], {}],
      [['api', 'Environments/a1', '--verbose'], {}],
    ] as const) {
      answer(200);
      const result = await cip([...args], { env, configDir, ...options });
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(plain(result.stdout), args.join(' ')).not.toContain(key);
      expect(plain(result.stderr), args.join(' ')).not.toContain(key);
      expect(plain(result.stdout), args.join(' ')).toContain('***');
    }
    answer(400);
    const failed = await cip(['env', 'update', 'a', '-f', 'description=x'], { env, configDir });
    expect(plain(failed.stderr)).not.toContain(key);
  });
});
