// env list/create/update/delete against the sandbox, with credentials from the environment (the CI case).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';

test.override({ sandboxOptions: { seed: 3 } });

describe('cip env list', () => {
  it('prints the bare array as JSON when stdout is not a terminal, with the three headers sent', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(0);
    const list = JSON.parse(result.stdout) as { id: string }[];
    expect(list.map((item) => item.id)).toEqual([...sandbox.environments.keys()]);
    expect(result.stdout).toBe(`${JSON.stringify(list, null, 2)}\n`);
    expect(result.stderr).toBe('');
    const [request] = sandbox.requests;
    expect(sandbox.requests).toHaveLength(1);
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('/ms/Environments');
    expect(request!.headers.authorization).toBe(`ApiKey ${sandbox.keys.apiKey}`);
    expect(request!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
    expect(request!.headers.enterpriseid).toBe(sandbox.keys.enterpriseId);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/^cip\/\d+\.\d+\.\d+\S* node\/v\d+/);
  });

  it('renders a table with id first and name-like columns next when asked', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list', '-o', 'table'], { env });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+DISPLAY NAME\s+/);
    expect(lines).toHaveLength(4);
    for (const environment of sandbox.environments.values()) expect(result.stdout).toContain(environment.id);
    expect(result.stdout).not.toContain('\u001b[');
    expect(result.stdout).toContain('{3 fields}');
  });

  it('shows only --columns, in that order', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--columns', 'name,id', '-o', 'table'], { env });
    expect(result.exitCode).toBe(0);
    const [header, first] = result.stdout.split('\n');
    expect(header).toMatch(/^NAME\s+ID$/);
    expect(first).toMatch(/^env-0001\s+[0-9a-f-]{36}$/);
  });

  it('--json and CIP_OUTPUT=json override the table', async ({ env, cip }) => {
    for (const [args, extra] of [
      [['--json'], {}],
      [[], { CIP_OUTPUT: 'json' }],
      [['-o', 'json'], { CIP_OUTPUT: 'table' }],
    ] as const) {
      const result = await cip(['env', 'list', ...args], { env: { ...env, ...extra } });
      expect(result.exitCode).toBe(0);
      expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
    }
  });

  it('a CIP_OUTPUT it does not know is exit 2 before any request', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list'], { env: { ...env, CIP_OUTPUT: 'xml' } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: CIP_OUTPUT must be one of table, json, yaml, tsv, not 'xml'");
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a 404 for the list itself points at the base URL', async ({ sandbox, env, cip }) => {
    const wrong = sandbox.url.replace(/\/ms$/, '/wrong');
    const result = await cip(['env', 'list'], { env: { ...env, CIP_BASE_URL: wrong } });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toContain(`(is the base URL right? cip asked ${wrong}/Environments)`);
  });

  for (const envelope of ['value', 'items', 'data', 'results'] as const) {
    it(`unwraps a list wrapped in {"${envelope}": [...]}`, async ({ cip, startSandbox }) => {
      const wrapped = await startSandbox({ seed: 2, envelope });
      const result = await cip(['env', 'list'], { env: sandboxEnv(wrapped) });
      expect(result.exitCode).toBe(0);
      const list = JSON.parse(result.stdout) as { id: string }[];
      expect(list.map((item) => item.id)).toEqual([...wrapped.environments.keys()]);
    });
  }

  it('an empty list is [] in JSON and a friendly line on stderr in a table', async ({ cip, startSandbox }) => {
    const empty = await startSandbox({ seed: 0 });
    const json = await cip(['env', 'list'], { env: sandboxEnv(empty) });
    expect(json).toMatchObject({ exitCode: 0, stdout: '[]\n', stderr: '' });
    const table = await cip(['env', 'list', '-o', 'table'], { env: sandboxEnv(empty) });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toBe('');
    expect(table.stderr).toMatch(/No environments yet/);
  });

  it('a body that is not a list is a server error (7)', async ({ sandbox, env, cip }) => {
    sandbox.inject({
      fault: { kind: 'status', status: 200, body: '{"unexpected":true}', headers: { 'content-type': 'application/json' } },
    });
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toMatch(/not a list/);
    expect(result.stdout).toBe('');
  });
});

describe('cip env create', () => {
  it('sends --data as JSON and prints the created resource', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '--data', '{"name":"alpha","description":"first"}'], { env });
    expect(result.exitCode).toBe(0);
    const created = JSON.parse(result.stdout) as { id: string; name: string };
    expect(created).toMatchObject({ name: 'alpha', description: 'first' });
    expect(sandbox.environments.get(created.id)).toMatchObject({ name: 'alpha' });
    const [request] = writes(sandbox);
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/ms/Environments');
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(request!.body)).toEqual({ name: 'alpha', description: 'first' });
    expect(result.stderr).toMatch(/created/i);
  });

  it('builds the payload from --file, then --data, then typed and raw fields', async ({ sandbox, env, cip }) => {
    const dir = tempDir();
    const file = join(dir, 'env.json');
    writeFileSync(file, JSON.stringify({ name: 'from-file', region: 'westeurope', retention: 1 }));
    const result = await cip(
      [
        'env',
        'create',
        '--file',
        file,
        '--data',
        '{"retention":2,"tags":["a"]}',
        '-F',
        'retention=30',
        '-F',
        'isActive=true',
        '-F',
        'owner=null',
        '-F',
        'settings={"level":"debug"}',
        '-f',
        'code=007',
        '-f',
        'flag=true',
        '--field',
        'ratio=0.5',
      ],
      { env },
    );
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(writes(sandbox)[0]!.body)).toEqual({
      name: 'from-file',
      region: 'westeurope',
      retention: 30,
      tags: ['a'],
      isActive: true,
      owner: null,
      settings: { level: 'debug' },
      code: '007',
      flag: 'true',
      ratio: 0.5,
    });
  });

  it('reads the payload from stdin with --file -', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '--file', '-'], { env, input: '{"name":"piped"}' });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(writes(sandbox)[0]!.body)).toEqual({ name: 'piped' });
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'piped' });
  });

  it('prints the record as a field/value table with -o table', async ({ env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=tabled', '-o', 'table'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^id\s+[0-9a-f-]{36}$/m);
    expect(result.stdout).toMatch(/^name\s+tabled$/m);
  });

  const invalid: [string, string[], RegExp][] = [
    ['invalid JSON in --data', ['--data', '{"name":'], /--data is not valid JSON/],
    // The reason is Node's own, long numbers or not (it was another parser's once they were there).
    [
      'invalid JSON with a long number in --data',
      ['--data', '{"quota": 12345678901234567890,}'],
      /^error: --data is not valid JSON: Expected double-quoted property name in JSON at position 31 \(line 1 column 32\)$/,
    ],
    ['an array in --data', ['--data', '[1,2]'], /must be a JSON object, not an array/],
    ['a string in --data', ['--data', '"x"'], /must be a JSON object, not a string/],
    ['a missing file', ['--file', '/nonexistent/env.json'], /cannot read --file .*no such file/],
    ['a field without =', ['-F', 'name'], /--field expects key=value/],
    ['a broken JSON field value', ['-F', 'tags=[1,'], /looks like JSON but is not valid/],
    ['no payload at all', [], /nothing to send/],
  ];
  for (const [what, args, message] of invalid) {
    it(`refuses ${what} with exit 2 and sends nothing`, async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'create', ...args], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(message);
      expect(result.stdout).toBe('');
      expect(sandbox.requests).toHaveLength(0);
    });
  }

  it('a ProblemDetails 400 is exit 6 with the field errors', async ({ env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'description=no name'], { env });
    expect(result.exitCode).toBe(6);
    expect(expectOneErrorLine(result.stderr)).toBe(
      'error: cannot create the environment: the API rejected the request (HTTP 400): One or more validation errors occurred (Name: The Name field is required.)',
    );
  });

  it('an empty 201/204 answer is success with nothing on stdout', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 204 } });
    const result = await cip(['env', 'create', '-f', 'name=quiet'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
  });
});

describe('cip env update', () => {
  it('merges the payload into the record read from the list and PUTs the whole of it to the URL-encoded id', async ({
    sandbox,
    env,
    cip,
  }) => {
    const [id] = sandbox.environments.keys();
    const before = structuredClone(sandbox.environments.get(id!)!);
    const result = await cip(['env', 'update', id!, '-f', 'name=renamed', '-F', 'isActive=false'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id, name: 'renamed', isActive: false });
    const [request] = writes(sandbox);
    expect(request!.method).toBe('PUT');
    expect(request!.url).toBe(`/ms/Environments/${id}`);
    expect(JSON.parse(request!.body)).toEqual({ ...before, name: 'renamed', isActive: false });
  });

  it('encodes ids that are not URL-safe', async ({ sandbox, env, cip }) => {
    // An id with '/' is refused instead (test/commands/exact-targets.test.ts): a server may decode %2F.
    sandbox.environments.set('a b?c#d', { id: 'a b?c#d', name: 'odd' });
    try {
      const result = await cip(['env', 'update', 'a b?c#d', '-f', 'name=x'], { env });
      expect(result.exitCode).toBe(0);
      expect(writes(sandbox)[0]!.url).toBe('/ms/Environments/a%20b%3Fc%23d');
    } finally {
      sandbox.environments.delete('a b?c#d');
    }
  });

  it('an unknown id or name is exit 5, and nothing is written', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', '00000000-0000-4000-8000-000000000000', '-f', 'name=x'], { env });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: no environment has the id or name '00000000-0000-4000-8000-000000000000' (nothing was sent; 'cip env list' shows the ids and names)",
    );
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('needs an id (exit 2, nothing sent)', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', '-f', 'name=x'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/missing required argument 'id-or-name'/);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('cip env delete', () => {
  it('refuses without --yes when there is no terminal (exit 2, nothing deleted)', async ({ sandbox, env, cip }) => {
    const before = sandbox.environments.size;
    const [id] = sandbox.environments.keys();
    const result = await cip(['env', 'delete', id!], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/without confirmation.*--yes/);
    expect(sandbox.environments.size).toBe(before);
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('deletes several ids with --yes, and prints one result each', async ({ sandbox, env, cip }) => {
    const first = await cip(['env', 'create', '-f', 'name=doomed-1'], { env });
    const second = await cip(['env', 'create', '-f', 'name=doomed-2'], { env });
    const ids = [first, second].map((result) => (JSON.parse(result.stdout) as { id: string }).id);
    sandbox.reset();
    const result = await cip(['env', 'rm', ...ids, '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { given: ids[0], id: ids[0], name: 'doomed-1', result: 'deleted', error: null },
      { given: ids[1], id: ids[1], name: 'doomed-2', result: 'deleted', error: null },
    ]);
    expect(
      writes(sandbox)
        .map((request) => `${request.method} ${request.url}`)
        .sort(),
    ).toEqual(ids.map((id) => `DELETE /ms/Environments/${id}`).sort());
    for (const id of ids) expect(sandbox.environments.has(id)).toBe(false);
  });

  it('an unknown id is exit 5, and nothing is deleted', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'missing-id', '-y'], { env });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: no environment has the id or name 'missing-id' (nothing was sent; 'cip env list' shows the ids and names)",
    );
    expect(writes(sandbox)).toHaveLength(0);
  });
});
