// The everyday workflow with the built cip against the reference API on ASP.NET Core (this folder), as a
// user runs it: login, list, create, get, update (merge and --replace), apply, delete, dry runs, and the exit codes
// for the API's 400, 401, 403 and 404. What the sandbox cannot show is here: a typed model that drops fields it
// does not know and resets those left out, a PUT that answers 204, and ASP.NET's own error bodies.
import { writeFileSync } from 'node:fs';
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cip, expectOneErrorLine, loginArgs, putAsAnotherClient, sandboxEnv, tempDir } from '../helpers/cli.js';
import { epochSeconds, makeJwt } from '../helpers/jwt.js';
import { buildReferenceApi, hasDotnet, startReferenceApi, type ReferenceApi } from '../helpers/reference-api.js';

const OTHER_ENTERPRISE = '11111111-2222-4333-8444-555555555555';
// Beyond 2^53: a client that parses it as a JavaScript number changes it.
const BIG = '9007199254740993';

/**
 * A pass-through in front of the reference API that runs `before` when cip's first PUT arrives, then forwards
 * it: another client's write lands between cip's read and its write, whatever the timing.
 */
async function racingProxy(
  target: string,
  before: () => Promise<void>,
): Promise<{ url: string; puts: IncomingMessage[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const puts: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const go = () => {
        const out = forward(
          { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.end(Buffer.concat(chunks));
      };
      if (req.method === 'PUT' && puts.push(req) === 1) void before().then(go);
      else go();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    puts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Listed {
  id: string;
  name: string;
  [field: string]: unknown;
}

describe.skipIf(!hasDotnet())('cip against the reference API', () => {
  let api: ReferenceApi;
  const configDir = tempDir();
  const asUser = (args: string[], input?: string) => cip(args, { configDir, ...(input === undefined ? {} : { input }) });
  const list = async (): Promise<Listed[]> => {
    const result = await asUser(['env', 'list', '--json']);
    expect(result.exitCode).toBe(0);
    return JSON.parse(result.stdout) as Listed[];
  };

  beforeAll(async () => {
    api = await startReferenceApi(await buildReferenceApi());
  }, 180_000);
  afterAll(() => api?.close());

  it('login checks the keys against the API and stores the profile', async () => {
    const wrong = await cip(loginArgs({ ...api, keys: { ...api.keys, subscriptionKey: 'wrong-subscription-key' } }), { configDir });
    expect(wrong.exitCode).toBe(3);
    expect(expectOneErrorLine(wrong.stderr)).toContain('Access denied due to invalid subscription key');

    // The subscription key from stdin, the API key from a file.
    const [, , ...rest] = loginArgs(api);
    const at = rest.indexOf('--subscription-key-file');
    rest.splice(at, 2, '--subscription-key-file', '-');
    const login = await asUser(['auth', 'login', ...rest], api.keys.subscriptionKey);
    expect(login).toMatchObject({ exitCode: 0, stdout: '' });
    expect(login.stderr).toContain("Logged in: profile 'default'");
  });

  it('create sends the fields, and the typed model keeps a 64-bit number digit for digit', async () => {
    const created = await asUser([
      'env',
      'create',
      '-f',
      'name=e2e-one',
      '-F',
      `quotaBytes=${BIG}`,
      '-F',
      'settings={"retention":30,"logLevel":"Debug"}',
      '-F',
      'tags=["a","b"]',
      '-F',
      'notInTheModel=1',
    ]);
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain(`"quotaBytes": ${BIG}`);
    const record = JSON.parse(created.stdout) as Listed;
    expect(record).toMatchObject({ name: 'e2e-one', settings: { retention: 30, logLevel: 'Debug' }, tags: ['a', 'b'] });
    // System.Text.Json drops what the model does not have.
    expect(record).not.toHaveProperty('notInTheModel');
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('list and get show it, by name and by id', async () => {
    const [listed] = await list();
    expect(listed).toMatchObject({ name: 'e2e-one' });
    const byName = await asUser(['env', 'get', 'e2e-one']);
    expect(byName.exitCode).toBe(0);
    expect(byName.stdout).toContain(`"quotaBytes": ${BIG}`);
    const byId = await asUser(['env', 'get', listed!.id]);
    expect(JSON.parse(byId.stdout)).toEqual(JSON.parse(byName.stdout));
  });

  it('update merges: the PUT answers 204, and every field not named is kept', async () => {
    const before = await asUser(['env', 'get', 'e2e-one']);
    const updated = await asUser(['env', 'update', 'e2e-one', '-f', 'description=changed']);
    expect(updated).toMatchObject({ exitCode: 0, stdout: '' });
    expect(updated.stderr).toContain("Updated environment 'e2e-one'");
    const after = await asUser(['env', 'get', 'e2e-one']);
    expect(after.stdout).toContain(`"quotaBytes": ${BIG}`);
    const { updatedAt: _was, ...kept } = JSON.parse(before.stdout) as Listed;
    const { updatedAt: _now, ...now } = JSON.parse(after.stdout) as Listed;
    expect(now).toEqual({ ...kept, description: 'changed' });
  });

  it('update --replace sends exactly the payload: a payload without the name is a 400, and fields left out are reset', async () => {
    const unnamed = await asUser(['env', 'update', 'e2e-one', '--replace', '-f', 'description=only']);
    expect(unnamed.exitCode).toBe(6);
    expect(expectOneErrorLine(unnamed.stderr)).toContain(
      '(HTTP 400): One or more validation errors occurred (Name: The Name field is required.)',
    );

    const replaced = await asUser(['env', 'update', 'e2e-one', '--replace', '-f', 'name=e2e-one', '-f', 'description=only']);
    expect(replaced.exitCode).toBe(0);
    const [record] = await list();
    expect(record).toMatchObject({ name: 'e2e-one', description: 'only', quotaBytes: null, settings: null, tags: null });
  });

  it('--dry-run prints the requests of create, update and delete and sends no write', async () => {
    const before = await list();
    const create = await asUser(['env', 'create', '-f', 'name=never', '--dry-run']);
    expect(create.exitCode).toBe(0);
    expect(JSON.parse(create.stdout)).toEqual([{ method: 'POST', url: `${api.url}/Environments`, body: { name: 'never' } }]);
    const id = before[0]!.id;
    const update = await asUser(['env', 'update', 'e2e-one', '-f', 'description=never', '--dry-run']);
    expect(update.exitCode).toBe(0);
    expect(JSON.parse(update.stdout)).toEqual([
      { method: 'PUT', url: `${api.url}/Environments/${id}`, body: { ...before[0], description: 'never' } },
    ]);
    const remove = await asUser(['env', 'delete', 'e2e-one', '--yes', '--dry-run']);
    expect(remove.exitCode).toBe(0);
    expect(JSON.parse(remove.stdout)).toEqual([{ method: 'DELETE', url: `${api.url}/Environments/${id}` }]);
    expect(await list()).toEqual(before);
  });

  it.each([
    [
      6,
      'a 400 from model binding',
      ['env', 'create', '-F', 'name=42'],
      '(HTTP 400): One or more validation errors occurred (environment: The environment field is required.; $.name: The JSON value could not be converted to System.String. Path: $.name | LineNumber: 0 | BytePositionInLine: 10.)',
    ],
    [
      6,
      'a 400 for a number too big for a long',
      ['env', 'create', '-f', 'name=big', '-F', 'quotaBytes=12345678901234567890'],
      '$.quotaBytes',
    ],
    [
      3,
      "API Management's 401",
      ['env', 'list'],
      'Access denied due to invalid subscription key',
      () => ({ CIP_SUBSCRIPTION_KEY: 'wrong-subscription-key' }),
    ],
    [3, "the service's 401", ['env', 'list'], '(HTTP 401): The API key is invalid', () => ({ CIP_API_KEY: 'wrong-api-key-0123456789' })],
    [
      4,
      'a 403 for a read-only key',
      ['env', 'delete', 'e2e-one', '--yes'],
      '(HTTP 403): The API key lacks sufficient permissions',
      (reference) => ({ CIP_API_KEY: reference.keys.readOnlyApiKey }),
    ],
    [
      4,
      'a 403 for another enterprise',
      ['env', 'list'],
      '(HTTP 403): The API key has no access to this enterprise',
      () => ({ CIP_ENTERPRISE_ID: OTHER_ENTERPRISE }),
    ],
    [
      5,
      "API Management's 404 for a wrong base URL",
      ['env', 'list'],
      'Resource not found (is the base URL right?',
      (reference) => ({ CIP_BASE_URL: `${reference.url}/x` }),
    ],
    [5, 'a name no environment has', ['env', 'delete', 'no-such-env', '--yes'], "no environment has the id or name 'no-such-env'"],
  ] as [number, string, string[], string, ((reference: ReferenceApi) => Record<string, string>)?][])(
    'exit %i: %s',
    async (code, _what, args, message, overrides) => {
      const result = await cip(args, { env: sandboxEnv(api, overrides?.(api)) });
      expect(result.exitCode).toBe(code);
      expect(expectOneErrorLine(result.stderr)).toContain(message);
    },
  );

  it('apply creates and updates what a file declares; export, then apply again, changes nothing', async () => {
    const path = join(tempDir(), 'environments.yaml');
    writeFileSync(
      path,
      'environments:\n  - name: e2e-two\n    description: from a file\n    settings:\n      retention: 7\n      logLevel: Debug\n',
    );
    const applied = await asUser(['env', 'apply', '--file', path, '--yes']);
    expect(applied.exitCode).toBe(0);
    expect(applied.stderr).toContain('Plan: 1 to create, 0 to update, 0 to delete.');
    expect((await asUser(['env', 'diff', '--file', path, '--exit-code'])).exitCode).toBe(0);

    // The typed model answers every field (null for unset ones); an export of that applies as no change.
    const exported = await asUser(['env', 'export']);
    expect(exported.exitCode).toBe(0);
    const everything = join(tempDir(), 'all.yaml');
    writeFileSync(everything, exported.stdout);
    const same = await asUser(['env', 'apply', '--file', everything, '--prune', '--yes']);
    expect(same.exitCode).toBe(0);
    expect(same.stderr).toMatch(/No changes: the environments .* match the file\./);

    // A changed field is a drift (exit 10), and apply merges it: the fields the file leaves out are kept.
    writeFileSync(path, 'environments:\n  - name: e2e-two\n    description: changed in git\n');
    expect((await asUser(['env', 'diff', '--file', path, '--exit-code'])).exitCode).toBe(10);
    expect((await asUser(['env', 'apply', '--file', path, '--yes'])).exitCode).toBe(0);
    const after = JSON.parse((await asUser(['env', 'get', 'e2e-two'])).stdout) as Listed;
    expect(after).toMatchObject({ description: 'changed in git', settings: { retention: 7, logLevel: 'Debug' } });
    expect((await asUser(['env', 'delete', 'e2e-two', '--yes'])).exitCode).toBe(0);
  });

  it('doctor passes, and names the wrong key the way the gateway and ASP.NET answer it; api reaches the ping', async () => {
    const good = await cip(['doctor', '--json'], { env: sandboxEnv(api) });
    expect(good.exitCode).toBe(0);
    for (const [variable, value, check] of [
      ['CIP_SUBSCRIPTION_KEY', 'wrong-subscription-key', 'subscription key'],
      ['CIP_API_KEY', 'wrong-api-key-0123456789', 'API key and enterprise'],
      ['CIP_ENTERPRISE_ID', OTHER_ENTERPRISE, 'API key and enterprise'],
    ] as const) {
      const result = await cip(['doctor', '--json'], { env: sandboxEnv(api, { [variable]: value }) });
      const checks = JSON.parse(result.stdout) as { check: string; status: string }[];
      expect(checks.filter((entry) => entry.status === 'failed').map((entry) => entry.check)).toEqual([check]);
    }
    const ping = await cip(['api', 'ping'], { env: sandboxEnv(api) });
    expect(ping.exitCode).toBe(0);
  });

  it("a token (CIP_TOKEN) passes ASP.NET Core's JWT bearer handler: create, list and delete with no EnterpriseId; an expired one never leaves cip", async () => {
    const token = (expiresIn: number) =>
      makeJwt({ sub: 'ci', enterpriseId: api.keys.enterpriseId, exp: epochSeconds(expiresIn) }, { secret: api.keys.tokenSecret });
    const env = { CIP_BASE_URL: api.url, CIP_TOKEN: token(3600), CIP_SUBSCRIPTION_KEY: api.keys.subscriptionKey };
    const created = await cip(['env', 'create', '-f', 'name=by-token', '-F', `quotaBytes=${BIG}`, '--json'], { env });
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain(`"quotaBytes": ${BIG}`);
    const listed = await cip(['env', 'list', '--json'], { env });
    expect((JSON.parse(listed.stdout) as Listed[]).map((record) => record.name)).toContain('by-token');
    expect((await cip(['env', 'delete', 'by-token', '--yes'], { env })).exitCode).toBe(0);
    const wrong = await cip(['env', 'list'], {
      env: { ...env, CIP_TOKEN: makeJwt({ enterpriseId: api.keys.enterpriseId, exp: epochSeconds(3600) }, { secret: 'x'.repeat(40) }) },
    });
    expect(wrong.exitCode).toBe(3);
    const expired = await cip(['env', 'list'], { env: { ...env, CIP_TOKEN: token(-3600) } });
    expect(expired.exitCode).toBe(3);
    expect(expectOneErrorLine(expired.stderr)).toMatch(/^error: the token in CIP_TOKEN expired at /);
  });

  it("update sends the environment's own ETag (GET by id) as If-Match: ASP.NET answers 412 to a change made meanwhile, cip exits 6 and the other write stays", async () => {
    const made = await asUser(['env', 'create', '-f', 'name=e2e-race', '-f', 'description=as read']);
    expect(made.exitCode).toBe(0);
    const { id } = JSON.parse(made.stdout) as Listed;
    const other = (name: string, description: string) => async () => {
      expect(await putAsAnotherClient(api, name === 'e2e-race' ? id : otherId, { name, description })).toBe(204);
    };
    const otherMade = await asUser(['env', 'create', '-f', 'name=e2e-bystander']);
    const otherId = (JSON.parse(otherMade.stdout) as Listed).id;

    const racing = await racingProxy(api.url, other('e2e-race', 'theirs'));
    try {
      const result = await cip(['env', 'update', 'e2e-race', '-f', 'description=mine'], {
        env: sandboxEnv(api, { CIP_BASE_URL: racing.url }),
      });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toContain(`changed since cip read it: description "as read" → "theirs"`);
      // The item's own tag, never the list's (which ASP.NET would refuse whatever happened).
      expect(racing.puts[0]!.headers['if-match']).toMatch(/^"e\d+"$/);
    } finally {
      await racing.close();
    }
    expect(JSON.parse((await asUser(['env', 'get', 'e2e-race'])).stdout)).toMatchObject({ description: 'theirs' });

    // Another environment changed meanwhile: the update goes through.
    const bystander = await racingProxy(api.url, other('e2e-bystander', 'changed'));
    try {
      const result = await cip(['env', 'update', 'e2e-race', '-f', 'description=mine'], {
        env: sandboxEnv(api, { CIP_BASE_URL: bystander.url }),
      });
      expect(result.exitCode).toBe(0);
    } finally {
      await bystander.close();
    }
    expect(JSON.parse((await asUser(['env', 'get', 'e2e-race'])).stdout)).toMatchObject({ description: 'mine' });
    expect((await asUser(['env', 'delete', 'e2e-race', 'e2e-bystander', '--yes'])).exitCode).toBe(0);
  });

  it("get, edit, update --file: a change made since the file was written is refused; the user's own edit alone goes through", async () => {
    const made = await asUser(['env', 'create', '-f', 'name=e2e-file', '-f', 'description=as read', '-f', 'region=westeurope']);
    expect(made.exitCode).toBe(0);
    const { id } = JSON.parse(made.stdout) as Listed;
    const path = join(tempDir(), 's.json');
    const writeEdited = async () => {
      const got = await asUser(['env', 'get', 'e2e-file', '-o', 'json']);
      writeFileSync(path, got.stdout.replace('"as read"', '"mine"'));
    };
    await writeEdited();
    // Someone else changes another field through the API: ASP.NET's UpdatedAt moves.
    expect(await putAsAnotherClient(api, id, { name: 'e2e-file', description: 'as read', region: 'northeurope' })).toBe(204);
    const stale = await asUser(['env', 'update', 'e2e-file', '--file', path]);
    expect(stale.exitCode).toBe(6);
    expect(expectOneErrorLine(stale.stderr)).toMatch(
      /changed since the file was written \(updatedAt ".*" → ".*"\); the file would set description "as read" → "mine", region "northeurope" → "westeurope"/,
    );
    expect(JSON.parse((await asUser(['env', 'get', 'e2e-file'])).stdout)).toMatchObject({ description: 'as read', region: 'northeurope' });

    await writeEdited();
    const fresh = await asUser(['env', 'update', 'e2e-file', '--file', path]);
    expect(fresh.exitCode).toBe(0);
    expect(JSON.parse((await asUser(['env', 'get', 'e2e-file'])).stdout)).toMatchObject({ description: 'mine', region: 'northeurope' });
    expect((await asUser(['env', 'delete', 'e2e-file', '--yes'])).exitCode).toBe(0);
  });

  it('export, edit, apply: a field changed on the server since the export is not put back; the edit alone is applied', async () => {
    const made = await asUser(['env', 'create', '-f', 'name=e2e-export', '-f', 'description=as read', '-f', 'region=westeurope']);
    const { id } = JSON.parse(made.stdout) as Listed;
    const exported = await asUser(['env', 'export']);
    expect(exported.exitCode).toBe(0);
    const path = join(tempDir(), 'environments.yaml');
    writeFileSync(path, exported.stdout.replace('region: westeurope', 'region: eastus'));
    const put = (description: string) => putAsAnotherClient(api, id, { name: 'e2e-export', description, region: 'westeurope' });
    expect(await put('theirs')).toBe(204);
    const refused = await asUser(['env', 'apply', '--file', path, '--yes']);
    expect(refused.exitCode).toBe(6);
    expect(expectOneErrorLine(refused.stderr)).toContain('description "as read" → "theirs" (the file would put back "as read")');
    expect(JSON.parse((await asUser(['env', 'get', 'e2e-export'])).stdout)).toMatchObject({ description: 'theirs', region: 'westeurope' });

    // Changed back: only the user's edit differs from what was exported, and apply makes it.
    expect(await put('as read')).toBe(204);
    const applied = await asUser(['env', 'apply', '--file', path, '--yes']);
    expect(applied.exitCode).toBe(0);
    expect(JSON.parse((await asUser(['env', 'get', 'e2e-export'])).stdout)).toMatchObject({ description: 'as read', region: 'eastus' });
    expect((await asUser(['env', 'delete', 'e2e-export', '--yes'])).exitCode).toBe(0);
  });

  it('delete removes it; a second delete finds nothing to delete', async () => {
    const [{ id }] = (await list()) as [Listed];
    const removed = await asUser(['env', 'delete', 'e2e-one', '--yes']);
    expect(removed.exitCode).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual([{ given: 'e2e-one', id, name: 'e2e-one', result: 'deleted', error: null }]);
    expect(await list()).toEqual([]);
    const again = await asUser(['env', 'delete', id, '--yes']);
    expect(again.exitCode).toBe(5);
  });
});
