// Every write acts on exactly what the user named: a line of --stdin is a name as it stands, a payload's id
// must be the environment's own (a null one is no id), a name is looked up as a name whatever it looks like
// ('..', 'a/b') while the path is built from the id found, and one id is one environment even when a paged
// list gives it twice. In-process against the sandbox; what the server received is the proof.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, sandboxEnv } from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';

let sandbox: Sandbox;
let paged: Sandbox;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  [sandbox, paged] = await Promise.all([startSandbox({ seed: 0 }), startSandbox({ seed: 0, pageSize: 2 })]);
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), paged.close()]);
});
beforeEach(() => {
  sandbox.reset();
  sandbox.environments.clear();
  paged.reset();
  paged.environments.clear();
});

const writesTo = (target: Sandbox) => target.requests.filter((request) => request.method !== 'GET');
const writes = () => writesTo(sandbox).map((request) => `${request.method} ${request.url}`);

describe('env delete --stdin takes each line as it stands', () => {
  beforeEach(() => {
    sandbox.environments.set('e-x', { id: 'e-x', name: 'x' });
    sandbox.environments.set('e-spaced', { id: 'e-spaced', name: ' x' });
  });

  it("a line ' x' is the environment named ' x', never 'x'", async () => {
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: ' x\n' });
    expect(result.exitCode).toBe(0);
    expect(writes()).toEqual(['DELETE /ms/Environments/e-spaced']);
    expect(sandbox.environments.has('e-x')).toBe(true);
  });

  it('spaces around a name are part of it: no environment has them, so nothing is deleted (exit 5)', async () => {
    sandbox.environments.delete('e-spaced');
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: ' x\r\nx \n\tx\n' });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: no environment has these ids or names: ' x', 'x ', '?x' (nothing was sent; 'cip env list' shows the ids and names)",
    );
    expect(writes()).toEqual([]);
  });

  it('drops only the line end (LF or CR LF) and skips empty lines; the last line needs no end', async () => {
    sandbox.environments.set('e-y', { id: 'e-y', name: 'y' });
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: '\r\nx\r\n\n y' });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: no environment has the id or name ' y' /);
    const exact = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: '\r\nx\r\n\ny' });
    expect(exact.exitCode).toBe(0);
    expect(writes().sort()).toEqual(['DELETE /ms/Environments/e-x', 'DELETE /ms/Environments/e-y']);
  });

  it('a line of only spaces is no name: exit 2, nothing read or sent', async () => {
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, input: 'x\n  \n' });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: an environment id or name cannot be empty');
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a payload's id must be the environment's own; null is no id", () => {
  beforeEach(() => {
    sandbox.environments.set('S1', { id: 'S1', name: 'staging', description: 'old' });
    sandbox.environments.set('P1', { id: 'P1', name: 'prod', description: 'live' });
  });

  it("create --if-exists update refuses another environment's id, as update does: exit 2, nothing sent", async () => {
    for (const extra of [[], ['--dry-run']]) {
      const result = await cip(['env', 'create', '--data', '{"id":"P1","name":"staging"}', '--if-exists', 'update', ...extra], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: the payload's id ('P1') is not the environment being updated ('S1') (nothing was sent; remove the id from the payload, or update the environment it belongs to)",
      );
      expect(result.stdout).toBe('');
    }
    expect(writes()).toEqual([]);
    const same = await cip(['env', 'create', '--data', '{"id":"S1","name":"staging","description":"new"}', '--if-exists', 'update'], {
      env,
    });
    expect(same.exitCode).toBe(0);
    expect(writesTo(sandbox).map((request) => [request.url, JSON.parse(request.body)])).toEqual([
      ['/ms/Environments/S1', { id: 'S1', name: 'staging', description: 'new' }],
    ]);
  });

  it.each([
    ['update', ['env', 'update', 'staging', '--data', '{"id":null,"description":"new"}']],
    ['update (Id)', ['env', 'update', 'S1', '--data', '{"Id":null,"description":"new"}']],
    ['create --if-exists update', ['env', 'create', '--data', '{"id":null,"name":"staging","description":"new"}', '--if-exists', 'update']],
  ])("%s with a null id keeps the record's id in the merged PUT", async (_what, args) => {
    const result = await cip(args, { env });
    expect(result.exitCode).toBe(0);
    const [put] = writesTo(sandbox);
    expect(put!.url).toBe('/ms/Environments/S1');
    expect(JSON.parse(put!.body)).toEqual({ id: 'S1', name: 'staging', description: 'new' });
  });

  it("apply keeps the record's id for a null one, and refuses another environment's", async () => {
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
