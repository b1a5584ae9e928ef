// Edges of env create, in-process against the sandbox: --if-exists fail, skip and update with --key and --dry-run
// (what stdout and stderr say, the exit code, and which requests the server received), an environment two records
// share, a match without an id, and the spinners a person at a terminal sees.
import { describe, expect } from 'vitest';
import { parseExactJson } from '../../src/json/exact.js';
import { type Environment, type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, sandboxTarget } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { sent } from '../helpers/requests.js';
import { AT_TERMINAL } from '../helpers/harness.js';

test.override({
  sandboxOptions: {
    seed: [
      { id: 'a1', name: 'alpha', type: 'Test' },
      { id: 'b2', name: 'beta', type: 'Production', isActive: true, updatedAt: '2024-01-01T00:00:00Z' },
    ],
  },
});

/** Fills the store with these records (a record may lack an id: the store's key is then made up). */
function seed(sandbox: Sandbox, ...records: Record<string, unknown>[]): void {
  sandbox.environments.clear();
  records.forEach((record, index) => sandbox.environments.set(String(record.id ?? `no-id-${index}`), record as Environment));
  sandbox.reset();
}

const LIST = 'GET /ms/Environments';
/** A write asks for the environment by id, for a validator of its own (the sandbox answers 405). */
const BY_ID = (id: string) => `GET /ms/Environments/${id}`;

describe('env create without --if-exists', () => {
  it('sends one POST and reads no list, even when a record without a name or id exists', async ({ sandbox, env, cip }) => {
    seed(sandbox, { type: 'nameless' }, { id: 'a1', name: 'alpha' });
    const result = await cip(['env', 'create', '-f', 'name=alpha'], { env });
    expect(result.exitCode).toBe(0);
    expect(sent(sandbox)).toEqual(['POST /ms/Environments']);
    const created = JSON.parse(result.stdout) as { id: string; name: string };
    expect(created.name).toBe('alpha');
    expect(result.stderr).toBe(`Created environment 'alpha' (${created.id})\n  ${sandboxTarget(sandbox)}.\n`);
  });
});

describe('env create --if-exists', () => {
  it('skip: prints the one found by a --key given with blanks, says so, and sends nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=other', '-f', 'type=Test', '--if-exists', 'skip', '--key', ' type '], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: 'a1', name: 'alpha', type: 'Test' });
    expect(result.stderr).toBe(`The environment 'alpha' (a1) already exists; nothing was sent\n  ${sandboxTarget(sandbox)}.\n`);
    expect(sent(sandbox)).toEqual([LIST]);
  });

  it.for(['fail', 'skip', 'update'])('%s with no match creates it', async (what, { sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=fresh', '--if-exists', what], { env });
    expect(result.exitCode).toBe(0);
    expect(sent(sandbox)).toEqual([LIST, 'POST /ms/Environments']);
    expect((JSON.parse(result.stdout) as { name: string }).name).toBe('fresh');
  });

  it.for(['fail', 'skip', 'update'])(
    '%s: a match without an id cannot be named, so a new one is created',
    async (what, { sandbox, env, cip }) => {
      seed(sandbox, { name: 'orphan', type: 'x' });
      const result = await cip(['env', 'create', '-f', 'name=orphan', '--if-exists', what], { env });
      expect(result.exitCode).toBe(0);
      expect(sent(sandbox)).toEqual([LIST, 'POST /ms/Environments']);
      const created = JSON.parse(result.stdout) as { id: string; name: string };
      expect(created.name).toBe('orphan');
      expect(result.stderr).toBe(`Created environment 'orphan' (${created.id})\n  ${sandboxTarget(sandbox)}.\n`);
    },
  );

  it.for(['fail', 'skip', 'update'])(
    '%s: two environments with the key is exit 2, naming their ids, nothing sent',
    async (what, { sandbox, env, cip }) => {
      seed(sandbox, { id: 't1', name: 'twin' }, { name: 'twin', type: 'no id' }, { id: 'a1', name: 'alpha' });
      const result = await cip(['env', 'create', '-f', 'name=twin', '--if-exists', what], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe("error: 2 environments have name 'twin': t1, (no id) (nothing was sent)");
      expect(result.stdout).toBe('');
      expect(sent(sandbox)).toEqual([LIST]);
    },
  );

  it.for<[string[], string]>([
    [['--key', 'type'], 'error: --key is for --if-exists (add --if-exists fail, skip or update)'],
    [
      ['--if-exists', 'skip', '--key', 'owner'],
      "error: --if-exists needs the payload's 'owner' to look for (set it, for example -f owner=...)",
    ],
    [
      ['--if-exists', 'fail', '--key', ' owner '],
      "error: --if-exists needs the payload's 'owner' to look for (set it, for example -f owner=...)",
    ],
  ])('%j is exit 2 before any request', async ([args, message], { sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=x', ...args], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(message);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('update: prints what the API answered and names the environment updated', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=beta', '-F', 'isActive=false', '--if-exists', 'update'], { env });
    expect(result.exitCode).toBe(0);
    expect(sent(sandbox)).toEqual([LIST, BY_ID('b2'), 'PUT /ms/Environments/b2']);
    const stored = sandbox.environments.get('b2')!;
    expect(stored.updatedAt).not.toBe('2024-01-01T00:00:00Z');
    expect(await parseExactJson(result.stdout)).toEqual(stored);
    expect(result.stderr).toBe(`Updated the existing environment 'beta' (b2)\n  ${sandboxTarget(sandbox)}.\n`);
  });

  it('update: prints the record sent when the API answers without a body', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 204 }, method: 'PUT' });
    const result = await cip(['env', 'create', '-f', 'name=beta', '-F', 'isActive=false', '--if-exists', 'update'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      id: 'b2',
      name: 'beta',
      type: 'Production',
      isActive: false,
      updatedAt: '2024-01-01T00:00:00Z',
    });
    expect(result.stderr).toBe(`Updated the existing environment 'beta' (b2)\n  ${sandboxTarget(sandbox)}.\n`);
  });

  it('update --dry-run: prints the PUT it would send to the one found, and sends only the lookups', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=beta', '-F', 'isActive=false', '--if-exists', 'update', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        method: 'PUT',
        url: `${sandbox.url}/Environments/b2`,
        body: { id: 'b2', name: 'beta', type: 'Production', isActive: false, updatedAt: '2024-01-01T00:00:00Z' },
      },
    ]);
    expect(result.stderr).toBe(`Dry run: nothing was sent to update the existing environment 'beta' (b2)\n  ${sandboxTarget(sandbox)}.\n`);
    expect(sent(sandbox)).toEqual([LIST, BY_ID('b2')]);
    expect(sandbox.environments.get('b2')!.isActive).toBe(true);
  });

  it('skip --dry-run prints the one found, and fail --dry-run still fails: neither sends anything', async ({ sandbox, env, cip }) => {
    const skip = await cip(['env', 'create', '-f', 'name=alpha', '--if-exists', 'skip', '--dry-run'], { env });
    expect(skip.exitCode).toBe(0);
    expect(JSON.parse(skip.stdout)).toEqual({ id: 'a1', name: 'alpha', type: 'Test' });
    const fail = await cip(['env', 'create', '-f', 'name=alpha', '--if-exists', 'fail', '--dry-run'], { env });
    expect(fail.exitCode).toBe(6);
    expect(expectOneErrorLine(fail.stderr)).toBe(
      `error: an environment named 'alpha' already exists (id a1) ${sandboxTarget(sandbox)} (nothing was sent)`,
    );
    expect(sent(sandbox)).toEqual([LIST, LIST]);
  });

  it('--dry-run with no match prints the POST it would send', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=fresh', '--if-exists', 'update', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ method: 'POST', url: `${sandbox.url}/Environments`, body: { name: 'fresh' } }]);
    expect(result.stderr).toBe(`Dry run: nothing was sent to create environment 'fresh'\n  ${sandboxTarget(sandbox)}.\n`);
    expect(sent(sandbox)).toEqual([LIST]);
  });
});

describe('env create at a terminal', () => {
  it('shows a spinner while it creates', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=shown'], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Creating environment');
    expect(sent(sandbox)).toEqual(['POST /ms/Environments']);
  });

  it('shows a spinner while it looks up, then while it updates', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=beta', '--if-exists', 'update'], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Looking up the environments');
    expect(result.stderr).toContain('Updating environment');
    expect(sent(sandbox)).toEqual([LIST, BY_ID('b2'), 'PUT /ms/Environments/b2']);
  });
});
