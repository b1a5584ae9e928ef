// Every write acts on exactly what the user named: a line of --stdin is a name as it stands, a payload's id
// must be the environment's own (a null one is no id), a name is looked up as a name whatever it looks like
// ('..', 'a/b') while the path is built from the id found, and one id is one environment even when a paged
// list gives it twice. In-process against the sandbox; what the server received is the proof.
import { describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

const writesTo = (target: Sandbox) => target.requests.filter((request) => request.method !== 'GET');

const writes = (sandbox: Sandbox) => writesTo(sandbox).map((request) => `${request.method} ${request.url}`);

describe('env delete --stdin takes each line as it stands', () => {
  test.beforeEach(({ sandbox }) => {
    sandbox.environments.set('e-x', { id: 'e-x', name: 'x' });
    sandbox.environments.set('e-spaced', { id: 'e-spaced', name: ' x' });
  });

  it("a line ' x' is the environment named ' x', never 'x'", async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: ' x\n' });
    expect(result.exitCode).toBe(0);
    expect(writes(sandbox)).toEqual(['DELETE /ms/Environments/e-spaced']);
    expect(sandbox.environments.has('e-x')).toBe(true);
  });

  it('spaces around a name are part of it: no environment has them, so nothing is deleted (exit 5)', async ({ sandbox, env, cip }) => {
    sandbox.environments.delete('e-spaced');
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: ' x\r\nx \n\tx\n' });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: no environment has these ids or names: ' x', 'x ', '?x' (nothing was sent; 'cip env list' shows the ids and names)",
    );
    expect(writes(sandbox)).toEqual([]);
  });

  it('drops only the line end (LF or CR LF) and skips empty lines; the last line needs no end', async ({ sandbox, env, cip }) => {
    sandbox.environments.set('e-y', { id: 'e-y', name: 'y' });
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: '\r\nx\r\n\n y' });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: no environment has the id or name ' y' /);
    const exact = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: '\r\nx\r\n\ny' });
    expect(exact.exitCode).toBe(0);
    expect(writes(sandbox).sort()).toEqual(['DELETE /ms/Environments/e-x', 'DELETE /ms/Environments/e-y']);
  });

  it('a line of only spaces is no name: exit 2, nothing read or sent', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: 'x\n  \n' });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: an environment id or name cannot be empty');
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a payload's id must be the environment's own; null is no id", () => {
  test.beforeEach(({ sandbox }) => {
    sandbox.environments.set('S1', { id: 'S1', name: 'staging', description: 'old' });
    sandbox.environments.set('P1', { id: 'P1', name: 'prod', description: 'live' });
  });

  it("create --if-exists update refuses another environment's id, as update does: exit 2, nothing sent", async ({ sandbox, env, cip }) => {
    for (const extra of [[], ['--dry-run']]) {
      const result = await cip(['env', 'create', '--data', '{"id":"P1","name":"staging"}', '--if-exists', 'update', ...extra], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: the payload's id ('P1') is not the environment being updated ('S1') (nothing was sent; remove the id from the payload, or update the environment it belongs to)",
      );
      expect(result.stdout).toBe('');
    }
    expect(writes(sandbox)).toEqual([]);
    const same = await cip(['env', 'create', '--data', '{"id":"S1","name":"staging","description":"new"}', '--if-exists', 'update'], {
      env,
    });
    expect(same.exitCode).toBe(0);
    expect(writesTo(sandbox).map((request) => [request.url, JSON.parse(request.body)])).toEqual([
      ['/ms/Environments/S1', { id: 'S1', name: 'staging', description: 'new' }],
    ]);
  });

  it.for<[string, string[]]>([
    ['update', ['env', 'update', 'staging', '--data', '{"id":null,"description":"new"}']],
    ['update (Id)', ['env', 'update', 'S1', '--data', '{"Id":null,"description":"new"}']],
    ['create --if-exists update', ['env', 'create', '--data', '{"id":null,"name":"staging","description":"new"}', '--if-exists', 'update']],
  ])("%s with a null id keeps the record's id in the merged PUT", async ([_what, args], { sandbox, env, cip }) => {
    const result = await cip(args, { env });
    expect(result.exitCode).toBe(0);
    const [put] = writesTo(sandbox);
    expect(put!.url).toBe('/ms/Environments/S1');
    expect(JSON.parse(put!.body)).toEqual({ id: 'S1', name: 'staging', description: 'new' });
  });

  it("apply keeps the record's id for a null one, and refuses another environment's", async ({ sandbox, env, cip }) => {
    const file = (id: string) =>
      `{"environments":[{"id":${id},"name":"staging","description":"new"},{"name":"prod","description":"live"}]}`;
    const options = ['env', 'apply', '--file', '-', '--yes', '--ignore-fields', 'createdAt,updatedAt'];
    const nullId = await cip(options, { env, input: file('null') });
    expect(nullId.exitCode).toBe(0);
    expect(writesTo(sandbox).map((request) => [request.method, request.url, JSON.parse(request.body)])).toEqual([
      ['PUT', '/ms/Environments/S1', { id: 'S1', name: 'staging', description: 'new' }],
    ]);
    sandbox.reset();
    const other = await cip(options, { env, input: file('"P1"') });
    expect(other.exitCode).toBe(2);
    expect(expectOneErrorLine(other.stderr)).toBe(
      "error: for name 'staging', the file's id ('P1') is not the environment being updated ('S1') (nothing was changed; remove the id from the file, or give it the id the environment has)",
    );
    expect(writesTo(sandbox)).toEqual([]);
  });
});

describe('a name is looked up as a name, and the path is built from the id found', () => {
  it.for(['..', '.', 'a/b', '%2e%2e', '?x', '#x', 'a\\b'])(
    'the environment named %j: get, update and delete reach its id',
    async (name, { sandbox, env, cip }) => {
      sandbox.environments.set('e9', { id: 'e9', name });
      sandbox.environments.set('other', { id: 'other', name: 'other' });
      const shown = await cip(['env', 'get', name], { env });
      expect(shown.exitCode).toBe(0);
      expect(JSON.parse(shown.stdout)).toEqual({ id: 'e9', name });
      const updated = await cip(['env', 'update', name, '-f', 'description=d'], { env });
      expect(updated.exitCode).toBe(0);
      const deleted = await cip(['env', 'delete', name, '--yes'], { env });
      expect(deleted.exitCode).toBe(0);
      expect(writes(sandbox)).toEqual(['PUT /ms/Environments/e9', 'DELETE /ms/Environments/e9']);
      expect([...sandbox.environments.keys()]).toEqual(['other']);
    },
  );

  it("an id is encoded into one segment: the record whose id is '%2e%2e' or '?x#y'", async ({ sandbox, env, cip }) => {
    sandbox.environments.set('%2e%2e', { id: '%2e%2e', name: 'pct' });
    sandbox.environments.set('?x#y', { id: '?x#y', name: 'query' });
    expect((await cip(['env', 'update', 'pct', '-f', 'description=d'], { env })).exitCode).toBe(0);
    expect((await cip(['env', 'delete', '?x#y', '--yes'], { env })).exitCode).toBe(0);
    expect(writes(sandbox)).toEqual(['PUT /ms/Environments/%252e%252e', 'DELETE /ms/Environments/%3Fx%23y']);
  });

  it.for<[string, string]>([
    ['..', 'dots'],
    ['.', 'dot'],
    ['a/b', 'slash'],
    ['a\\b', 'backslash'],
  ])('a record whose id is %j is shown, but never written to: exit 2, nothing sent', async ([id, name], { sandbox, env, cip }) => {
    sandbox.environments.set(id, { id, name });
    const shown = await cip(['env', 'get', name], { env });
    expect(shown.exitCode).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ id, name });
    const refusal = `error: cannot address the environment '${name}' (${id}): its id would change the request's path (nothing was sent)`;
    for (const args of [
      ['env', 'update', name, '-f', 'description=d'],
      ['env', 'update', name, '-f', 'description=d', '--dry-run'],
      ['env', 'delete', name, '--yes'],
      ['env', 'delete', name, '--dry-run'],
      ['env', 'create', '-f', `name=${name}`, '--if-exists', 'update'],
      ['env', 'apply', '--file', '-', '--yes', '--prune'],
    ]) {
      const result = await cip(args, { env, input: '{"environments":[]}' });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(refusal);
      expect(result.stdout).toBe('');
    }
    expect(writes(sandbox)).toEqual([]);
  });
});

describe('one id is one environment, even when the pages of the list repeat it', () => {
  // Pages of two: page 1 is a and b, with a next link.
  test.override({ sandboxOptions: { pageSize: 2, seed: ['a', 'b', 'c'].map((id) => ({ id, name: `name-${id}` })) } });

  /** Page 2 of the list gives these records instead of its own. */
  const page2 = (sandbox: Sandbox, records: unknown[]) =>
    sandbox.inject({
      method: 'GET',
      match: (request) => request.url.includes('page=2'),
      fault: { kind: 'status', status: 200, body: JSON.stringify({ value: records }), headers: { 'Content-Type': 'application/json' } },
      times: Infinity,
    });

  it('a record given twice alike is one match, by id or by name', async ({ cip, sandbox, env }) => {
    page2(sandbox, [
      { id: 'b', name: 'name-b' },
      { id: 'c', name: 'name-c' },
    ]);
    const byId = await cip(['env', 'get', 'b'], { env: env });
    expect(byId.exitCode).toBe(0);
    expect(JSON.parse(byId.stdout)).toEqual({ id: 'b', name: 'name-b' });
    // A dry run: a real update would make page 1 differ from the repeat page 2 holds.
    const byName = await cip(['env', 'update', 'name-b', '-f', 'description=d', '--dry-run'], { env: env });
    expect(byName.exitCode).toBe(0);
    expect(JSON.parse(byName.stdout)).toEqual([
      { method: 'PUT', url: `${sandbox.url}/Environments/b`, body: { id: 'b', name: 'name-b', description: 'd' } },
    ]);
    const deleted = await cip(['env', 'delete', 'b', '--yes'], { env: env });
    expect(deleted.exitCode).toBe(0);
    expect(writes(sandbox)).toEqual(['DELETE /ms/Environments/b']);
  });

  it('apply --prune plans one delete for a record given twice, and create --if-exists finds it once', async ({ cip, sandbox, env }) => {
    page2(sandbox, [
      { id: 'b', name: 'name-b' },
      { id: 'c', name: 'name-c' },
    ]);
    const created = await cip(['env', 'create', '-f', 'name=name-b', '--if-exists', 'skip'], { env: env });
    expect(created.exitCode).toBe(0);
    const applied = await cip(['env', 'apply', '--file', '-', '--yes', '--prune'], {
      env: env,
      input: '{"environments":[{"name":"name-a"},{"name":"name-c"}]}',
    });
    expect(applied.exitCode).toBe(0);
    expect(writes(sandbox)).toEqual(['DELETE /ms/Environments/b']);
  });

  it('two different records under one id are a broken answer (exit 7) for a command that needs that id', async ({ cip, sandbox, env }) => {
    page2(sandbox, [
      { id: 'b', name: 'name-b', description: 'changed meanwhile' },
      { id: 'c', name: 'name-c' },
    ]);
    for (const args of [
      ['env', 'get', 'b'],
      ['env', 'update', 'name-b', '-f', 'description=d'],
      ['env', 'delete', 'b', '--yes'],
      ['env', 'create', '-f', 'name=name-b', '--if-exists', 'update'],
    ]) {
      const result = await cip(args, { env: env });
      expect(result.exitCode, args.join(' ')).toBe(7);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: the list gives 2 different records with the id 'b', so cip cannot tell which is current (nothing was sent; try again)",
      );
    }
    expect(writes(sandbox)).toEqual([]);
    // Another environment is found as before.
    expect((await cip(['env', 'get', 'c'], { env: env })).exitCode).toBe(0);
  });
});
