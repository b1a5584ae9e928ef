// env delete at a terminal: what the question says, what each answer does, and what a failure part-way
// reports. In-process, with stdin and stderr flagged as a terminal and the answer typed in advance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, sandboxEnv } from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';

let sandbox: Sandbox;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 0 });
  env = sandboxEnv(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
  sandbox.environments.clear();
  for (const [id, name] of [
    ['e1', 'alpha'],
    ['e2', 'beta'],
    ['e3', undefined],
  ] as const) {
    sandbox.environments.set(id, name === undefined ? { id } : { id, name });
  }
});

const deletes = () => sandbox.requests.filter((request) => request.method === 'DELETE').map((request) => request.url.split('/').pop());
const target = () => `in enterprise ${sandbox.keys.enterpriseId} at ${new URL(sandbox.url).host} (credentials from the environment)`;

describe('env delete asks first at a terminal', () => {
  it('names the environment and where it is; yes deletes it', async () => {
    const result = await cip(['env', 'delete', 'e1'], { env, interactive: true, input: 'y\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Delete environment 'alpha' (e1) ${target()}? This cannot be undone. [y/N] `);
    expect(result.stderr).toContain(`Deleted environment 'alpha' (e1) ${target()}.`);
    expect(deletes()).toEqual(['e1']);
  });

  it.each(['n\n', '\n', 'yes please\n'])('any answer but y or yes (%j) deletes nothing: exit 2', async (answer) => {
    const result = await cip(['env', 'delete', 'e1'], { env, interactive: true, input: answer });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/error: nothing deleted: not confirmed\n$/);
    expect(deletes()).toEqual([]);
  });

  it('names every environment when several are deleted, by id when it has no name', async () => {
    const result = await cip(['env', 'delete', 'e1', 'e3', 'e1'], { env, interactive: true, input: 'YES\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Delete 2 environments: 'alpha' (e1), e3 ${target()}? This cannot be undone.`);
    expect(deletes()).toEqual(['e1', 'e3']);
  });

  it('asks by id when the names cannot be read, and says why', async () => {
    sandbox.inject({ fault: { kind: 'status', status: 500, body: '{"message":"list broken"}' }, method: 'GET', times: Infinity });
    const result = await cip(['env', 'delete', 'e2'], { env, interactive: true, input: 'y\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      'warning: cannot look up the names of the environments, so only their ids are shown: cannot list environments: the API failed (HTTP 500): list broken',
    );
    expect(result.stderr).toContain(`Delete environment e2 ${target()}?`);
    expect(deletes()).toEqual(['e2']);
  });

  it('with --yes asks nothing and reads no list', async () => {
    const result = await cip(['env', 'delete', 'e2', '--yes'], { env, interactive: true });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`Deleted environment e2 ${target()}.\n`);
    expect(sandbox.requests.map((request) => request.method)).toEqual(['DELETE']);
  });

  it('without a terminal and without --yes is refused, naming what it would delete: exit 2, nothing sent', async () => {
    const one = await cip(['env', 'delete', 'e1'], { env });
    expect(one.exitCode).toBe(2);
    expect(expectOneErrorLine(one.stderr)).toBe(
      `error: refusing to delete environment e1 ${target()} without confirmation (pass --yes to confirm)`,
    );
    const two = await cip(['env', 'delete', 'e1', 'e2'], { env });
    expect(expectOneErrorLine(two.stderr)).toBe(
      `error: refusing to delete 2 environments ${target()} without confirmation (pass --yes to confirm)`,
    );
    expect(sandbox.requests).toHaveLength(0);
  });

  it('refuses an id that would change the request path before asking anything', async () => {
    for (const id of ['.', '..', ' ']) {
      const result = await cip(['env', 'delete', id, '--yes'], { env });
      expect(result.exitCode).toBe(2);
    }
    expect(sandbox.requests).toHaveLength(0);
  });

  it('a single delete that fails says only the error', async () => {
    const result = await cip(['env', 'delete', 'nope', '--yes'], { env });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: cannot delete environment 'nope': not found \(HTTP 404\)/);
  });

  it('a multi-delete that fails part-way says what was deleted, what failed and what was not attempted', async () => {
    const result = await cip(['env', 'delete', 'e1', 'gone', 'e2', '--yes'], { env });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('warning: stopped: deleted e1; gone failed (see below); not attempted: e2\n');
    expect(result.stderr).toMatch(/\nerror: cannot delete environment 'gone': not found \(HTTP 404\)/);
    expect(deletes()).toEqual(['e1', 'gone']);
  });

  it('a multi-delete that fails at once says nothing was deleted', async () => {
    const result = await cip(['env', 'delete', 'gone', 'e1', '--yes'], { env });
    expect(result.stderr).toContain('warning: stopped: deleted none; gone failed (see below); not attempted: e1\n');
  });

  it('only environments with both an id and a name are named in the question', async () => {
    sandbox.inject({
      fault: { kind: 'status', status: 200, body: '[{"id":"e1"},{"name":"orphan"},{"id":"e2","name":"beta"},{"id":"x","name":"other"}]' },
      method: 'GET',
    });
    const result = await cip(['env', 'delete', 'e1', 'e2'], { env, interactive: true, input: 'n\n' });
    expect(result.stderr).toContain(`Delete 2 environments: e1, 'beta' (e2) ${target()}?`);
  });
});
