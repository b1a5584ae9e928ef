// The everyday workflow: get one, find by name, update one field without losing the others, dry runs, delete
// many at once, lists in pages, checked columns. In-process against the sandbox; what the server received
// is the proof of what was sent.
import { describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, sandboxEnv } from '../helpers/cli.js';
import { it, test, type Fixtures } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';

// The record as the API might hold it: nested values, a 64-bit number, a decimal with a trailing zero.
const STAGING_JSON =
  '{"id":"e1","name":"staging","displayName":"Staging","description":"pre-production","type":"Staging","isActive":true,' +
  '"region":"westeurope","tags":["a","b"],"settings":{"retention":30,"logLevel":"Warning"},"quota":12345678901234567890,"ratio":1.50}';

// Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
test.override({
  sandboxOptions: {
    records: [
      STAGING_JSON,
      '{"id":"e2","name":"prod","type":"Production"}',
      '{"id":"e3","Name":"Review","type":"Test"}',
      '{"id":"e4","name":"dup"}',
      '{"id":"e5","name":"dup"}',
      '{"id":"staging-id-is-a-name","name":"e2"}',
    ],
  },
});

const reads = (sandbox: Sandbox) => sandbox.requests.filter((request) => request.method === 'GET');
/** The paths cip read: the list, and an environment by id (which the sandbox does not serve: 405). */
const readPaths = (sandbox: Sandbox) => reads(sandbox).map((request) => request.url);

describe('env get', () => {
  it('finds an environment by id, and prints it as JSON in a pipe', async ({ env, cip, sandbox }) => {
    const result = await cip(['env', 'get', 'e2'], { env });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ id: 'e2', name: 'prod', type: 'Production' });
    // A record with no version of its own is asked for by id too, for its ETag; the sandbox has no read by id.
    expect(readPaths(sandbox)).toEqual(['/ms/Environments', '/ms/Environments/e2']);
  });

  it('finds one by its exact name, in either letter case of the key, with numbers exact', async ({ env, cip }) => {
    const byName = await cip(['env', 'get', 'staging'], { env });
    expect(byName.exitCode).toBe(0);
    expect(byName.stdout).toContain('"quota": 12345678901234567890');
    expect(byName.stdout).toContain('"ratio": 1.50');
    const pascal = await cip(['env', 'get', 'Review'], { env });
    expect(JSON.parse(pascal.stdout)).toEqual({ id: 'e3', Name: 'Review', type: 'Test' });
  });

  it('prefers an id over a name that equals it', async ({ env, cip }) => {
    // 'e2' is e2's id and the name of another environment: the id wins.
    const result = await cip(['env', 'get', 'e2'], { env });
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 'e2' });
  });

  it('a name matches exactly: not another case, not a prefix (exit 5)', async ({ env, cip }) => {
    for (const name of ['Staging', 'stag', 'review']) {
      const result = await cip(['env', 'get', name], { env });
      expect(result.exitCode).toBe(5);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: no environment has the id or name '${name}' (nothing was sent; 'cip env list' shows the ids and names)`,
      );
    }
  });

  it('a name two environments share is exit 2, naming their ids', async ({ env, cip }) => {
    const result = await cip(['env', 'get', 'dup'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: 'dup' matches 2 environments: e4, e5 (nothing was sent; name the one you mean by its id)",
    );
  });

  it('shows a record view at a terminal, and --columns picks fields, nested ones by path', async ({ env, cip }) => {
    const view = await cip(['env', 'get', 'staging'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 100 });
    expect(view.exitCode).toBe(0);
    expect(view.stdout).toMatch(/^id\s+e1$/m);
    expect(view.stdout).toMatch(/^settings\s+\{"retention":30,"logLevel":"Warning"\}$/m);
    const picked = await cip(['env', 'get', 'staging', '--columns', 'name,settings.retention'], { env });
    expect(picked.stdout).toBe('{\n  "name": "staging",\n  "settings": {\n    "retention": 30\n  }\n}\n');
  });
});

describe('env update merges', () => {
  it('changes one field and sends every other one back exactly as it was read', async ({ env, cip, sandbox }) => {
    const result = await cip(['env', 'update', 'staging', '-f', 'description=changed'], { env });
    expect(result.exitCode).toBe(0);
    const [put] = writes(sandbox);
    expect(put!.method).toBe('PUT');
    expect(put!.url).toBe('/ms/Environments/e1');
    expect(put!.body).toBe(STAGING_JSON.replace('"pre-production"', '"changed"'));
    expect(readPaths(sandbox)).toEqual(['/ms/Environments', '/ms/Environments/e1']);
  });

  it("a field named in another letter case changes the record's own field, not a second one", async ({ env, cip, sandbox }) => {
    await cip(['env', 'update', 'e3', '-f', 'name=Reviewed'], { env });
    expect(writes(sandbox)[0]!.body).toBe('{"id":"e3","Name":"Reviewed","type":"Test"}');
  });

  it('--unset removes a top-level field, with or without other changes', async ({ sandbox, env, cip }) => {
    const only = await cip(['env', 'update', 'e2', '--unset', 'type'], { env });
    expect(only.exitCode).toBe(0);
    expect(writes(sandbox)[0]!.body).toBe('{"id":"e2","name":"prod"}');
    sandbox.reset();
    const warned = await cip(['env', 'update', 'e2', '--unset', 'nope', '-f', 'name=p'], { env });
    expect(warned.stderr).toContain('warning: --unset nope: the environment has no such field\n');
    // The sandbox stamped updatedAt on the first update.
    expect(JSON.parse(writes(sandbox)[0]!.body)).toEqual({ id: 'e2', name: 'p', updatedAt: expect.any(String) });
  });

  it("--unset in another letter case removes the record's own field: TYPE removes type", async ({ env, cip, sandbox }) => {
    const result = await cip(['env', 'update', 'e2', '--unset', 'TYPE'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toContain('warning');
    const [put] = writes(sandbox);
    expect(put!.url).toBe('/ms/Environments/e2');
    expect(put!.body).toBe('{"id":"e2","name":"prod"}');
    expect(JSON.parse(put!.body)).not.toHaveProperty('type');
  });

  it('--replace sends exactly the payload', async ({ env, cip, sandbox }) => {
    const result = await cip(['env', 'update', 'staging', '--data', '{"name":"staging","ratio":2.0}', '--replace'], { env });
    expect(result.exitCode).toBe(0);
    expect(writes(sandbox)[0]!.body).toBe('{"name":"staging","ratio":2.0}');
  });

  it('needs something to change: no payload and no --unset is exit 2, nothing sent', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'staging'], { env });
    expect(result.exitCode).toBe(2);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('--dry-run', () => {
  it('create prints the POST it would send and sends nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=new', '-F', 'n=12345678901234567890', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `[\n  {\n    "method": "POST",\n    "url": "${sandbox.url}/Environments",\n    "body": {\n      "name": "new",\n      "n": 12345678901234567890\n    }\n  }\n]\n`,
    );
    expect(result.stderr).toMatch(/^Dry run: nothing was sent to create environment 'new'\n {2}in enterprise /);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('update reads the list, prints the merged PUT and writes nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'prod', '-F', 'isActive=false', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { method: 'PUT', url: `${sandbox.url}/Environments/e2`, body: { id: 'e2', name: 'prod', type: 'Production', isActive: false } },
    ]);
    expect(readPaths(sandbox)).toEqual(['/ms/Environments', '/ms/Environments/e2']);
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('delete needs no --yes, prints each DELETE, and deletes nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'staging', 'e2', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { method: 'DELETE', url: `${sandbox.url}/Environments/e1` },
      { method: 'DELETE', url: `${sandbox.url}/Environments/e2` },
    ]);
    expect(writes(sandbox)).toHaveLength(0);
    expect(sandbox.environments.size).toBe(6);
  });

  it('is readable at a terminal', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'prod', '-f', 'type=Test', '--dry-run'], {
      env: { ...env, NO_COLOR: '1' },
      terminalColumns: 100,
    });
    expect(result.stdout).toBe(`PUT ${sandbox.url}/Environments/e2\n{\n  "id": "e2",\n  "name": "prod",\n  "type": "Test"\n}\n`);
  });
});

describe('env delete with many', () => {
  it('resolves every argument first: one unknown name fails the whole command before any delete', async ({ env, cip, sandbox }) => {
    const result = await cip(['env', 'delete', 'staging', 'no-such', 'prod', '--yes'], { env });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: no environment has the id or name 'no-such' (nothing was sent; 'cip env list' shows the ids and names)",
    );
    expect(writes(sandbox)).toHaveLength(0);
    expect(reads(sandbox)).toHaveLength(1);
  });

  it('--if-missing ok counts an unknown one as done (result missing), and a 404 too', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 404 }, method: 'DELETE', match: (request) => request.url.endsWith('/e2') });
    const result = await cip(['env', 'delete', 'no-such', 'prod', 'staging', '--if-missing', 'ok', '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { given: 'no-such', id: null, name: null, result: 'missing', error: null },
      { given: 'prod', id: 'e2', name: 'prod', result: 'missing', error: null },
      { given: 'staging', id: 'e1', name: 'staging', result: 'deleted', error: null },
    ]);
    expect(result.stderr).toContain("'no-such' is no environment's id or name: nothing to delete.\n");
    expect(result.stderr).toContain("The environment 'prod' (e2) was not there (HTTP 404): nothing to delete.\n");
    expect(result.stderr).toContain('Done: 1 deleted, 2 missing, 0 failed of 3\n  in enterprise');
  });

  it('an id and its name given together are deleted once', async ({ env, cip, sandbox }) => {
    const result = await cip(['env', 'delete', 'staging', 'e1', '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => request.url)).toEqual(['/ms/Environments/e1']);
  });

  it('reads ids and names from stdin with --stdin, one per line', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: 'e2\n\nstaging\r\nReview' });
    expect(result.exitCode).toBe(0);
    expect(
      writes(sandbox)
        .map((request) => request.url)
        .sort(),
    ).toEqual(['/ms/Environments/e1', '/ms/Environments/e2', '/ms/Environments/e3']);
    // A pipe that selected nothing has nothing to do: exit 0, an empty result, nothing read or sent.
    sandbox.reset();
    const empty = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: '\n' });
    expect(empty).toEqual({ exitCode: 0, stdout: '[]\n', stderr: 'stdin held no ids or names: nothing to delete.\n' });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('needs ids, names or --stdin', async ({ env, cip }) => {
    const result = await cip(['env', 'delete', '--yes'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: give the ids or names of the environments to delete, or --stdin');
  });

  it('keeps at most --concurrency deletes under way', async ({ sandbox, env, cip }) => {
    for (let index = 0; index < 6; index++) sandbox.environments.set(`b${index}`, { id: `b${index}` });
    const gates = Array.from({ length: 6 }, () => {
      let resolve: (value: undefined) => void = () => undefined;
      const promise = new Promise<undefined>((settle) => (resolve = settle));
      return { promise, resolve };
    });
    let released = 0;
    // For each DELETE as it arrives: how many earlier ones had been answered by then.
    const answeredAtArrival: number[] = [];
    sandbox.inject(
      ...gates.map(({ promise }) => ({
        fault: { kind: 'hold' as const, release: promise },
        method: 'DELETE',
        match: () => {
          answeredAtArrival.push(released);
          return true;
        },
      })),
    );
    const ids = gates.map((_gate, index) => `b${index}`);
    const run = cip(['env', 'delete', ...ids, '--yes', '--concurrency', '2'], { env });
    const arrived = (count: number) => sandbox.waitForRequest(() => writes(sandbox).length >= count);
    for (let index = 0; index < gates.length; index++) {
      await arrived(Math.min(index + 2, gates.length));
      released++;
      gates[index]!.resolve(undefined);
    }
    const result = await run;
    expect(result.exitCode).toBe(0);
    // With 2 at a time, the k-th DELETE can only start once k - 2 have been answered.
    answeredAtArrival.forEach((answered, index) => {
      expect(answered).toBeGreaterThanOrEqual(index - 1);
    });
    expect(answeredAtArrival).toHaveLength(6);
  });

  it('refuses a --concurrency outside 1-32', async ({ sandbox, env, cip }) => {
    for (const value of ['0', '33', '1.5', 'x']) {
      const result = await cip(['env', 'delete', 'e1', '--yes', '--concurrency', value], { env });
      expect(result.exitCode).toBe(2);
    }
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('lists in pages', () => {
  const page = (items: unknown[], next?: string, style: 'odata' | 'next' | 'nextLink' = 'odata') => {
    const key = { odata: '@odata.nextLink', next: 'next', nextLink: 'nextLink' }[style];
    return JSON.stringify(next === undefined ? { value: items } : { value: items, [key]: next });
  };
  const onPage = (query: string) => (request: { url: string }) => request.url === `/ms/Environments${query}`;

  it('follows @odata.nextLink, nextLink, next and Link headers to the last page, on the same origin only', async ({
    sandbox,
    env,
    cip,
  }) => {
    sandbox.inject(
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p1' }], `${sandbox.url}/Environments?page=2`) }, match: onPage('') },
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p2' }], '?page=3', 'nextLink') }, match: onPage('?page=2') },
      {
        fault: {
          kind: 'status',
          status: 200,
          body: '[{"id":"p3"}]',
          headers: { link: `<${sandbox.url}/Environments?page=4>; rel="next"` },
        },
        match: onPage('?page=3'),
      },
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p4' }], '/ms/Environments?page=5', 'next') }, match: onPage('?page=4') },
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p5' }]) }, match: onPage('?page=5') },
    );
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }, { id: 'p4' }, { id: 'p5' }]);
    expect(reads(sandbox).map((request) => request.url)).toEqual([
      '/ms/Environments',
      '/ms/Environments?page=2',
      '/ms/Environments?page=3',
      '/ms/Environments?page=4',
      '/ms/Environments?page=5',
    ]);
    for (const request of reads(sandbox)) expect(request.headers.authorization).toBe(`ApiKey ${sandbox.keys.apiKey}`);
  });

  it('refuses a next link to another origin: exit 7, and nothing is sent there', async ({ sandbox, env, cip, startSandbox }) => {
    const elsewhere = await startSandbox();
    sandbox.inject({ fault: { kind: 'status', status: 200, body: page([{ id: 'p1' }], `${elsewhere.url}/Environments?page=2`) } });
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: cannot list environments: the API's next-page link goes to another origin (${new URL(elsewhere.url).origin}); cip sends the keys only to ${new URL(sandbox.url).origin} (nothing was sent there; the list is incomplete, so nothing is shown)`,
    );
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('stops a chain of next links that loops: exit 7', async ({ sandbox, env, cip }) => {
    sandbox.inject(
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p1' }], '?page=2') }, match: onPage('') },
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p2' }], `${sandbox.url}/Environments`) }, match: onPage('?page=2') },
    );
    const result = await cip(['env', 'list'], { env });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: cannot list environments: the API's next-page links loop (page 2 links back to an earlier page)",
    );
    expect(reads(sandbox)).toHaveLength(2);
  });

  it('names are found on any page', async ({ sandbox, env, cip }) => {
    sandbox.inject(
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p1', name: 'one' }], '?page=2') }, match: onPage('') },
      { fault: { kind: 'status', status: 200, body: page([{ id: 'p2', name: 'two' }]) }, match: onPage('?page=2') },
    );
    const result = await cip(['env', 'get', 'two'], { env });
    expect(JSON.parse(result.stdout)).toEqual({ id: 'p2', name: 'two' });
  });
});

describe('--columns is checked', () => {
  it('an unknown column is exit 2, naming the fields', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--columns', 'id,colour'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: unknown column 'colour'; the fields are: id, name, displayName, description, type, isActive, region, tags, settings, quota, ratio, Name (nested fields are named with dots (settings.retention); names match in any letter case)",
    );
    expect(result.stdout).toBe('');
  });

  it('applies to JSON: each object keeps only those fields, in that order', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--json', '--columns', 'NAME,id,settings.retention'], { env });
    expect(result.exitCode).toBe(0);
    const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(
      result.stdout.startsWith('[\n  {\n    "name": "staging",\n    "id": "e1",\n    "settings": {\n      "retention": 30\n    }\n  }'),
    ).toBe(true);
    expect(rows[1]).toEqual({ name: 'prod', id: 'e2' });
  });

  it('matches header labels and nested paths in a table', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '-o', 'table', '--columns', 'display name,settings.retention'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^DISPLAY NAME\s+SETTINGS\.RETENTION$/);
    expect(result.stdout.split('\n')[1]).toMatch(/^Staging\s+30$/);
  });
});

describe('--verbose', () => {
  it('logs request and response bodies, keys redacted, long ones cut', async ({ sandbox, env, cip }) => {
    const long = 'x'.repeat(2500);
    const result = await cip(['env', 'create', '-f', `name=${long}`, '-f', `note=${sandbox.keys.apiKey}`, '--verbose'], { env });
    expect(result.exitCode).toBe(0);
    const requestBody = result.stderr.split('\n').find((line) => line.startsWith('>   body: '))!;
    expect(requestBody).toBe(`>   body: {"name":"${'x'.repeat(2000 - 9)}… (2547 characters in all)`);
    const answerBody = result.stderr.split('\n').find((line) => line.startsWith('<   body: '))!;
    expect(answerBody).toMatch(/^< {3}body: \{.*… \(\d+ characters in all\)$/);
    expect(result.stderr).not.toContain(sandbox.keys.apiKey);
  });

  it('logs the headers as they are sent, accept-encoding among them', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list', '--verbose'], { env });
    expect(result.exitCode).toBe(0);
    expect(sandbox.requests.at(-1)!.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(result.stderr).toContain('\n>   accept-encoding: gzip, deflate, br\n');
    expect(result.stderr).toContain('\n>   ocp-apim-subscription-key: ***\n');
    expect(result.stderr).not.toContain(sandbox.keys.subscriptionKey);
  });
});

describe('a paged sandbox', () => {
  it.for(['odata', 'link', 'next'] as const)(
    'every item of a 5-page list (%s), and no key sent to a foreign next link',
    async (paging, { cip, startSandbox }) => {
      const paged = await startSandbox({ seed: 23, pageSize: 5, paging });
      try {
        const pagedEnv = sandboxEnv(paged);
        const result = await cip(['env', 'list'], { env: pagedEnv });
        expect(result.exitCode).toBe(0);
        expect((JSON.parse(result.stdout) as { id: string }[]).map((item) => item.id)).toEqual([...paged.environments.keys()]);
        expect(paged.requests.map((request) => request.url)).toEqual([
          '/ms/Environments',
          ...[2, 3, 4, 5].map((page) => `/ms/Environments?page=${page}`),
        ]);
        paged.reset();
        paged.inject({ fault: { kind: 'next-link', to: 'foreign' }, match: (request) => request.url.endsWith('page=3') });
        const foreign = await cip(['env', 'list'], { env: pagedEnv });
        expect(foreign.exitCode).toBe(7);
        expect(expectOneErrorLine(foreign.stderr)).toMatch(
          /^error: cannot list environments: the API's next-page link goes to another origin \(http:\/\/127\.0\.0\.2:\d+\)/,
        );
        expect(paged.requests).toHaveLength(3);
        paged.reset();
        paged.inject({ fault: { kind: 'next-link', to: 'loop' }, match: (request) => request.url.endsWith('page=2') });
        expect((await cip(['env', 'list'], { env: pagedEnv })).exitCode).toBe(7);
      } finally {
        await paged.close();
      }
    },
  );
});

describe('refusals say why nothing was asked', () => {
  it('under CI at a terminal, delete says prompts are off', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e1'], { env: { ...env, CI: 'true' }, interactive: true });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/without confirmation \(prompts are off under CI; pass --yes to confirm\)$/);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('an interrupted delete', () => {
  /** Deletes review-1..3 (ids i1..i3) one at a time, and interrupts while the second is under way. */
  async function interrupted({ sandbox, env, cip }: Pick<Fixtures, 'sandbox' | 'env' | 'cip'>, options: { terminalColumns?: number } = {}) {
    for (const id of ['i1', 'i2', 'i3']) sandbox.environments.set(id, { id, name: `review-${id.slice(1)}` });
    let release: () => void = () => undefined;
    sandbox.inject({
      fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) },
      method: 'DELETE',
      match: (request) => request.url.endsWith('/i2'),
    });
    const controller = new AbortController();
    const args = ['env', 'delete', 'review-1', 'review-2', 'review-3', '--yes', '--concurrency', '1', '-o', 'json'];
    const running = cip(args, { env, signal: controller.signal, ...options });
    await sandbox.waitForRequest((request) => request.method === 'DELETE' && request.url.endsWith('/i2'));
    const { InterruptedError } = await import('../../src/errors.js');
    controller.abort(new InterruptedError());
    const result = await running;
    release();
    return result;
  }

  it('reports every environment by the name given and its id: deleted, under way, not attempted', async ({ sandbox, env, cip }) => {
    const result = await interrupted({ sandbox, env, cip });
    expect(result.exitCode).toBe(130);
    expect(JSON.parse(result.stdout)).toEqual([
      { given: 'review-1', id: 'i1', name: 'review-1', result: 'deleted', error: null },
      {
        given: 'review-2',
        id: 'i2',
        name: 'review-2',
        result: 'failed',
        error: 'interrupted while under way: it may or may not have been deleted',
      },
      { given: 'review-3', id: 'i3', name: 'review-3', result: 'failed', error: 'not attempted: interrupted' },
    ]);
    // In a log, one line that says it all, last, with the command that finishes the job.
    expect(result.stderr).toMatch(
      /\nwarning: interrupted: deleted review-1 \(i1\); review-2 \(i2\) may or may not have been deleted \(its request was under way\); not attempted: review-3 \(i3\); to finish: cip env delete i2 i3 --if-missing ok --yes\n$/,
    );
  });

  it('at a terminal, one environment a line under the counts', async ({ sandbox, env, cip }) => {
    const result = await interrupted({ sandbox, env, cip }, { terminalColumns: 80 });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain(
      [
        'warning: interrupted: 1 deleted, 1 under way (may or may not have been deleted), 1 not attempted',
        '  deleted: review-1 (i1)',
        '  under way: review-2 (i2)',
        '  not attempted: review-3 (i3)',
        'To finish (the one under way may be deleted already): cip env delete i2 i3 --if-missing ok --yes',
        '',
      ].join('\n'),
    );
  });
});
