// Edges of env delete, list, update and their shared options, in-process against the sandbox (what stdout and
// stderr say, the exit code, and the requests the server received), and of how records are named (target.ts).
import { describe, expect } from 'vitest';
import { environmentLabel, idOf, nameOf } from '../../src/domain/environments/target.js';
import { expectOneErrorLine, sandboxTarget } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { sent } from '../helpers/requests.js';
import { AT_TERMINAL } from '../helpers/harness.js';

test.override({
  sandboxOptions: {
    seed: [
      { id: 'e1', name: 'alpha', type: 'Test' },
      { id: 'e2', name: 'beta' },
    ],
  },
});

const LIST = 'GET /ms/Environments';
/** A write asks for the environment by id, for a validator of its own (the sandbox answers 405). */
const BY_ID = (id: string) => `GET /ms/Environments/${id}`;

describe('how a record is named', () => {
  it.each([
    [null, undefined, undefined],
    [[{ id: 'x', name: 'y' }], undefined, undefined],
    [{ undefined: 'u' }, undefined, undefined],
    [{ ID: 7, Name: 'seven' }, '7', 'seven'],
    [{ id: true, name: 5 }, undefined, undefined],
    [{ id: 'e', name: '' }, 'e', undefined],
    [{ id: 'e', name: ' \t' }, 'e', undefined],
    [{ id: 'e', name: ' padded ' }, 'e', ' padded '],
  ])('%j: id %j, name %j', (record, id, name) => {
    expect(idOf(record)).toBe(id);
    expect(nameOf(record)).toBe(name);
  });

  it.each([
    [undefined, undefined, 'environment'],
    ['e1', undefined, 'environment e1'],
    [undefined, 'alpha', "environment 'alpha'"],
    ['e1', 'alpha', "environment 'alpha' (e1)"],
  ])('id %j and name %j: %j', (id, name, label) => {
    expect(environmentLabel(id, name)).toBe(label);
  });
});

describe('env delete', () => {
  it('--stdin when stdin is a terminal is exit 2, naming --stdin, before any request', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', '--stdin', '--yes'], { env, interactive: true });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: --stdin - reads stdin, but stdin is a terminal; pipe the input in');
    expect(sent(sandbox)).toEqual([]);
  });

  it.for<[string[], string]>([
    [['-o', 'table'], ''],
    [['-o', 'json'], '[]\n'],
  ])('--stdin with nothing on it, %j: nothing to delete, exit 0, stdout %j', async ([format, stdout], { sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', '--stdin', '--yes', ...format], { env, input: '\n\r\n\n' });
    expect(result).toEqual({ exitCode: 0, stdout, stderr: 'stdin held no ids or names: nothing to delete.\n' });
    expect(sent(sandbox)).toEqual([]);
  });

  it('--dry-run --if-missing ok: prints the DELETE for the one found, and says which is missing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'alpha', 'ghost', '--if-missing', 'ok', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ method: 'DELETE', url: `${sandbox.url}/Environments/e1` }]);
    expect(result.stderr).toBe(
      `'ghost' is no environment's id or name: nothing to delete.\nDry run: nothing was deleted\n  ${sandboxTarget(sandbox)}.\n`,
    );
    expect(sent(sandbox)).toEqual([LIST]);
  });

  it.for<[string[], unknown]>([
    // What was given is reported as given, not as an id: no environment has it.
    [['-o', 'json'], [{ given: 'ghost', id: null, name: null, result: 'missing', error: null }]],
    [['-o', 'table'], undefined],
  ])(
    '--if-missing ok when none is there, %j: each is missing, exit 0, nothing deleted',
    async ([format, results], { sandbox, env, cip }) => {
      const result = await cip(['env', 'delete', 'ghost', '--if-missing', 'ok', '--yes', ...format], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout === '' ? undefined : JSON.parse(result.stdout)).toEqual(results);
      expect(result.stderr).toBe("'ghost' is no environment's id or name: nothing to delete.\n");
      expect(sent(sandbox)).toEqual([LIST]);
    },
  );

  it('--if-missing ok when none is there asks nothing at a terminal: there is nothing to confirm', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'ghost', 'phantom', '--if-missing', 'ok', '-o', 'table'], {
      env,
      interactive: true,
      input: 'n\n',
    });
    expect(result).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: "'ghost' is no environment's id or name: nothing to delete.\n'phantom' is no environment's id or name: nothing to delete.\n",
    });
    expect(sent(sandbox)).toEqual([LIST]);
  });

  it('--if-missing ok: a DELETE answered 404 is missing, said on stderr', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 404, body: '{"message":"gone"}' }, method: 'DELETE' });
    const result = await cip(['env', 'delete', 'e1', '--if-missing', 'ok', '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ given: 'e1', id: 'e1', name: 'alpha', result: 'missing', error: null }]);
    expect(result.stderr).toContain(
      `The environment 'alpha' (e1) was not there (HTTP 404): nothing to delete\n  ${sandboxTarget(sandbox)}.\n`,
    );
    expect(sent(sandbox)).toEqual([LIST, 'DELETE /ms/Environments/e1']);
  });

  it('--if-missing ok: a DELETE answered 409 still fails', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 409, body: '{"message":"in use"}' }, method: 'DELETE' });
    const result = await cip(['env', 'delete', 'e1', '--if-missing', 'ok', '--yes'], { env });
    expect(result.exitCode).toBe(6);
    const results = JSON.parse(result.stdout) as { id: string; result: string; error: string | null }[];
    expect(results.map(({ id, result: outcome }) => `${id} ${outcome}`)).toEqual(['e1 failed']);
    expect(results[0]!.error).toContain('HTTP 409');
    expect(result.stderr).not.toContain('was not there');
  });

  it('-o table writes no results to stdout, only the lines on stderr', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e1', 'e2', '--yes', '-o', 'table'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Deleted environment 'alpha' (e1).\n`);
    expect(result.stderr).toContain(`Done: 2 deleted, 0 failed of 2\n  ${sandboxTarget(sandbox)}.\n`);
    expect(sandbox.environments.size).toBe(0);
  });

  it('--concurrency takes 1 to 32', async ({ sandbox, env, cip }) => {
    const most = await cip(['env', 'delete', 'e1', '--yes', '--concurrency', '32'], { env });
    expect(most.exitCode).toBe(0);
    expect(sent(sandbox)).toEqual([LIST, 'DELETE /ms/Environments/e1']);
    const over = await cip(['env', 'delete', 'e2', '--yes', '--concurrency', '33'], { env });
    expect(over.exitCode).toBe(2);
    expect(expectOneErrorLine(over.stderr)).toBe(
      "error: option '--concurrency <n>' argument '33' is invalid. expected a whole number from 1 to 32",
    );
    expect(sent(sandbox)).toEqual([LIST, 'DELETE /ms/Environments/e1']);
  });

  it('shows what it is deleting at a terminal', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e1', '--yes'], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("Deleting environment 'alpha' (e1)");
    expect(sent(sandbox)).toEqual([LIST, 'DELETE /ms/Environments/e1']);
  });
});

describe('env list', () => {
  it('--columns with no names says what it expects', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list', '--columns', ' , '], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: option '--columns <fields>' argument ' , ' is invalid. expected a comma-separated list of field names",
    );
    expect(sent(sandbox)).toEqual([]);
  });

  const PARTIAL = '(nothing is shown: cip never reports part of a list as the whole)';
  it.for<[unknown, Record<string, string>, string]>([
    [
      { value: [{ id: 'e1' }, { id: 'e2' }], nextPageToken: 'abc' },
      {},
      'says the list goes on (nextPageToken), but has no next link cip can follow',
    ],
    [
      { items: [{ id: 'e1' }], continuationToken: '+RID:x' },
      {},
      'says the list goes on (continuationToken), but has no next link cip can follow',
    ],
    [{ data: [{ id: 'e1' }], hasMore: true }, {}, 'says the list goes on (hasMore: true), but has no next link cip can follow'],
    [
      { data: [{ id: 'e1' }], links: { next: '/ms/Environments?page=2' } },
      {},
      'says the list goes on (links.next), but has no next link cip can follow',
    ],
    [
      [{ id: 'e1' }],
      { 'x-ms-continuation': 'tok' },
      'says the list goes on (the x-ms-continuation header), but has no next link cip can follow',
    ],
  ])(
    '%j (headers %j): the answer says there is more than it holds: exit 7, no partial list',
    async ([body, headers, message], { sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify(body), headers } });
      const result = await cip(['env', 'list', '--json'], { env });
      expect(result.exitCode).toBe(7);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(`error: cannot list environments: the API's answer ${message} ${PARTIAL}`);
    },
  );

  it.for<[unknown, Record<string, string>, string]>([
    [{ totalCount: 500, value: [{ id: 'e1' }, { id: 'e2' }] }, {}, 'the API says the list holds 500 (totalCount), but its answer held 2'],
    [{ '@odata.count': 3, value: [{ id: 'e1' }, { id: 'e2' }] }, {}, 'the API says the list holds 3 (@odata.count), but its answer held 2'],
    [[{ id: 'e1' }], { 'X-Total-Count': '2' }, 'the API says the list holds 2 (the x-total-count header), but its answer held 1'],
    [
      { value: [], items: [{ id: 'e1' }] },
      {},
      'the API answered with 2 lists (value, items), and cip cannot tell which one is the environments',
    ],
  ])('%j (headers %j): a count above what came, or two lists: exit 7, no list', async ([body, headers, message], { sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify(body), headers } });
    const result = await cip(['env', 'list', '--json'], { env });
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(`error: cannot list environments: ${message} ${PARTIAL}`);
  });

  it.for([
    { value: [{ id: 'e1' }], nextPageToken: null, hasMore: false, '@odata.count': 1 },
    { items: [{ id: 'e1' }], continuationToken: '', totalCount: 0 },
    { data: [{ id: 'e1' }], meta: { total: 1, next: null } },
  ])('%j: an answer that says it is whole is the list', async (body, { sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 200, body: JSON.stringify(body) } });
    const result = await cip(['env', 'list', '--json'], { env });
    expect(result).toEqual({ exitCode: 0, stdout: expect.stringContaining('"e1"') as string, stderr: '' });
  });

  it('shows a spinner while the list loads, at a terminal', async ({ env, cip }) => {
    const result = await cip(['env', 'list'], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Loading environments');
    expect(result.stdout).toContain('alpha');
  });
});

describe('env update', () => {
  it('--replace --dry-run names the environment by its current name when the payload has none', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'e1', '--replace', '-f', 'description=new', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ method: 'PUT', url: `${sandbox.url}/Environments/e1`, body: { description: 'new' } }]);
    expect(result.stderr).toBe(`Dry run: nothing was sent to update environment 'alpha' (e1)\n  ${sandboxTarget(sandbox)}.\n`);
    expect(sent(sandbox)).toEqual([LIST, BY_ID('e1')]);
  });

  it('shows a spinner while it updates, at a terminal', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'e1', '-f', 'description=new'], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Updating environment');
    expect(sent(sandbox)).toEqual([LIST, BY_ID('e1'), 'PUT /ms/Environments/e1']);
  });
});
