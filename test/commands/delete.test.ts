// env delete at a terminal: what the question says, what each answer does, and what a failure part-way
// reports. In-process, with stdin and stderr flagged as a terminal and the answer typed in advance.
import { execFileSync } from 'node:child_process';
import { describe, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneErrorLine, sandboxTarget, tempDir } from '../helpers/cli.js';
import { it, test, type Fixtures } from '../helpers/fixture.js';
import type { Sandbox } from '../../src/sandbox/index.js';

test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }, { id: 'e2', name: 'beta' }, { id: 'e3' }] } });

const deletes = (sandbox: Sandbox) =>
  sandbox.requests.filter((request) => request.method === 'DELETE').map((request) => request.url.split('/').pop());

describe('env delete asks first at a terminal', () => {
  it('names the environment and where it is; yes deletes it', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e1'], { env, interactive: true, input: 'y\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      `Delete environment 'alpha' (e1) ${sandboxTarget(sandbox)}? It can be re-created from the journal ('cip env history', then 'cip env restore ENTRY'), perhaps with a new id. [y/N] `,
    );
    // The target is in the question; the line that says it is done names it again, on a line of its own.
    expect(result.stderr).toContain(`Deleted environment 'alpha' (e1)\n  ${sandboxTarget(sandbox)}.\n`);
    expect(deletes(sandbox)).toEqual(['e1']);
  });

  it.for(['n\n', '\n', 'yes please\n'])(
    'any answer but y or yes (%j) deletes nothing: exit 2, said plainly, not as an error',
    async (answer, { env, cip, sandbox }) => {
      const result = await cip(['env', 'delete', 'e1'], { env, interactive: true, input: answer });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/\[y\/N\] .*\r?\nNothing was deleted\.\n$/);
      expect(result.stderr).not.toContain('error');
      expect(result.stdout).toBe('');
      expect(deletes(sandbox)).toEqual([]);
    },
  );

  it('names every environment when several are deleted, by id when it has no name', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e1', 'e3', 'e1'], { env, interactive: true, input: 'YES\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      `Delete 2 environments ${sandboxTarget(sandbox)}?\n  'alpha' (e1)\n  e3\nEach can be re-created from the journal ('cip env history', then 'cip env restore ENTRY'), perhaps with a new id. [y/N] `,
    );
    expect(deletes(sandbox)).toEqual(['e1', 'e3']);
  });

  it.for<[string, string[], Record<string, string>]>([
    ['--no-journal', ['--no-journal'], {}],
    ['CIP_JOURNAL=off', [], { CIP_JOURNAL: 'off' }],
  ])('with the journal off (%s) the question says it cannot be undone', async ([_how, flags, extra], { sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e1', ...flags], { env: { ...env, ...extra }, interactive: true, input: 'n\n' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `Delete environment 'alpha' (e1) ${sandboxTarget(sandbox)}? This cannot be undone: the journal is off (--no-journal or CIP_JOURNAL=off). [y/N] `,
    );
  });

  it('an environment that holds one of the keys cannot be undone (the journal never keeps it), and the question says so', async ({
    sandbox,
    env,
    cip,
  }) => {
    sandbox.environments.set('e2', { id: 'e2', name: 'beta', connection: `Endpoint=x;Key=${sandbox.keys.subscriptionKey}` });
    const one = await cip(['env', 'delete', 'e2'], { env, interactive: true, input: 'n\n' });
    expect(one.stderr).toContain(
      `Delete environment 'beta' (e2) ${sandboxTarget(sandbox)}? This cannot be undone: it holds one of your keys, which the journal never keeps. [y/N] `,
    );
    const configDir = tempDir();
    const both = await cip(['env', 'delete', 'e1', 'e2'], { env, configDir, interactive: true, input: 'y\n' });
    expect(both.exitCode).toBe(0);
    expect(both.stderr).toContain(
      `Delete 2 environments ${sandboxTarget(sandbox)}?\n  'alpha' (e1)\n  'beta' (e2)\nEach can be re-created from the journal ('cip env history', then 'cip env restore ENTRY'), perhaps with a new id, but not 'beta' (e2): it holds one of your keys, which the journal never keeps. [y/N] `,
    );
    // What it says is what restore does: alpha comes back, beta cannot.
    const entries = JSON.parse((await cip(['env', 'history', '--json'], { configDir })).stdout) as {
      entry: string;
      environment: { id: string };
    }[];
    const entryOf = (id: string) => entries.find((entry) => entry.environment.id === id)!.entry;
    const alpha = await cip(['env', 'restore', entryOf('e1'), '--yes'], { env, configDir });
    expect(alpha.exitCode).toBe(0);
    expect([...sandbox.environments.values()]).toContainEqual(expect.objectContaining({ name: 'alpha' }));
    const beta = await cip(['env', 'restore', entryOf('e2'), '--yes'], { env, configDir });
    expect(beta.exitCode).not.toBe(0);
    expect([...sandbox.environments.values()]).not.toContainEqual(expect.objectContaining({ name: 'beta' }));
  });

  it('stops before asking or deleting anything when the list cannot be read', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 500, body: '{"message":"list broken"}' }, method: 'GET', times: Infinity });
    const result = await cip(['env', 'delete', 'e2'], { env, interactive: true, input: 'y\n' });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toBe('error: cannot list environments: the API failed (HTTP 500): list broken');
    expect(result.stderr).not.toContain('Delete ');
    expect(deletes(sandbox)).toEqual([]);
  });

  it('with --yes asks nothing, and names what it deleted from the one list read', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'e2', '--yes'], { env, interactive: true });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(`Deleted environment 'beta' (e2)\n  ${sandboxTarget(sandbox)}.\n`);
    expect(sandbox.requests.map((request) => request.method)).toEqual(['GET', 'DELETE']);
  });

  it('several in a pipe: one short line each, and the target once, in the summary; no line wraps at 120 columns', async ({
    sandbox,
    env,
    cip,
  }) => {
    const result = await cip(['env', 'delete', 'e1', 'e2', 'e3', '--yes', '--concurrency', '1'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      "Deleted environment 'alpha' (e1).\nDeleted environment 'beta' (e2).\nDeleted environment e3.\n" +
        `Done: 3 deleted, 0 failed of 3\n  ${sandboxTarget(sandbox)}.\n`,
    );
    for (const line of result.stderr.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
    expect(deletes(sandbox)).toEqual(['e1', 'e2', 'e3']);
  });

  it('without a terminal and without --yes is refused, naming what it would delete: exit 2, nothing sent', async ({
    sandbox,
    env,
    cip,
  }) => {
    const one = await cip(['env', 'delete', 'e1'], { env });
    expect(one.exitCode).toBe(2);
    expect(expectOneErrorLine(one.stderr)).toBe(
      `error: refusing to delete environment e1 ${sandboxTarget(sandbox)} without confirmation (pass --yes to confirm)`,
    );
    const two = await cip(['env', 'delete', 'e1', 'e2'], { env });
    expect(expectOneErrorLine(two.stderr)).toBe(
      `error: refusing to delete 2 environments ${sandboxTarget(sandbox)} without confirmation (pass --yes to confirm)`,
    );
    expect(sandbox.requests).toHaveLength(0);
  });

  it('refuses an id that would change the request path, and an empty one, before deleting anything', async ({ sandbox, env, cip }) => {
    sandbox.environments.set('..', { id: '..', name: 'dots' });
    const dots = await cip(['env', 'delete', 'dots', '--yes'], { env });
    expect(dots.exitCode).toBe(2);
    expect(expectOneErrorLine(dots.stderr)).toBe(
      "error: cannot address the environment 'dots' (..): its id would change the request's path (nothing was sent)",
    );
    const blank = await cip(['env', 'delete', ' ', '--yes'], { env });
    expect(blank.exitCode).toBe(2);
    expect(expectOneErrorLine(blank.stderr)).toBe('error: an environment id or name cannot be empty');
    // '.' is looked up like any name: none has it.
    const dot = await cip(['env', 'delete', '.', '--yes'], { env });
    expect(dot.exitCode).toBe(5);
    expect(deletes(sandbox)).toEqual([]);
  });

  it('a single delete that fails says only the error, and reports the result as data', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 404 }, method: 'DELETE' });
    const result = await cip(['env', 'delete', 'e1', '--yes'], { env });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toBe("error: cannot delete environment 'e1': not found (HTTP 404)\n");
    expect(JSON.parse(result.stdout)).toEqual([
      { given: 'e1', id: 'e1', name: 'alpha', result: 'failed', error: "cannot delete environment 'e1': not found (HTTP 404)" },
    ]);
  });

  it('a multi-delete goes on past a failure: the rest are deleted, exit 9, one result each', async ({ sandbox, env, cip }) => {
    sandbox.inject({
      fault: { kind: 'status', status: 500, body: '{"message":"locked"}' },
      method: 'DELETE',
      match: (request) => request.url.endsWith('/e2'),
      times: Infinity,
    });
    const result = await cip(['env', 'delete', 'alpha', 'e2', 'e3', '--yes'], { env });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain("warning: cannot delete environment 'e2': the API failed (HTTP 500): locked\n");
    expect(
      expectOneErrorLine(
        result.stderr
          .split('\n')
          .filter((line) => !line.startsWith('warning:') && !line.startsWith('Deleted'))
          .join('\n'),
      ),
    ).toBe(
      `error: partly done: 2 deleted, 1 failed of 3 ${sandboxTarget(sandbox)} (the failed ones are listed above; run the command again for them)`,
    );
    expect(JSON.parse(result.stdout)).toEqual([
      { given: 'alpha', id: 'e1', name: 'alpha', result: 'deleted', error: null },
      { given: 'e2', id: 'e2', name: 'beta', result: 'failed', error: "cannot delete environment 'e2': the API failed (HTTP 500): locked" },
      { given: 'e3', id: 'e3', name: null, result: 'deleted', error: null },
    ]);
    expect(deletes(sandbox).sort()).toEqual(['e1', 'e2', 'e2', 'e2', 'e3']);
    expect([...sandbox.environments.keys()]).toEqual(['e2']);
  });

  it("a multi-delete where every one fails exits with the failure's own code", async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 403 }, method: 'DELETE', times: Infinity });
    const result = await cip(['env', 'delete', 'e1', 'e2', '--yes'], { env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(
      /\nerror: nothing was deleted: 0 deleted, 2 failed of 2 .*; the first failure: cannot delete environment 'e[12]': forbidden \(HTTP 403\)/,
    );
    expect(sandbox.environments.size).toBe(3);
  });

  it('only environments with both an id and a name are named in the question', async ({ sandbox, env, cip }) => {
    sandbox.inject({
      fault: { kind: 'status', status: 200, body: '[{"id":"e1"},{"name":"orphan"},{"id":"e2","name":"beta"},{"id":"x","name":"other"}]' },
      method: 'GET',
    });
    const result = await cip(['env', 'delete', 'e1', 'e2'], { env, interactive: true, input: 'n\n' });
    expect(result.stderr).toContain(`Delete 2 environments ${sandboxTarget(sandbox)}?\n  e1\n  'beta' (e2)\n`);
  });
});

/** The words a POSIX shell makes of a command cip printed (`cip env delete ...`), without `cip`. */
function asShellReads(command: string): string[] {
  const words = execFileSync('bash', ['-c', `cip() { printf '%s\\0' "$@"; }; ${command}`], { encoding: 'utf8' });
  return words.split('\0').slice(0, -1);
}

describe('an interrupted bulk delete', () => {
  const IDS = ['i1', "it's 2", 'i 3', '-i4'];
  test.override({ sandboxOptions: { seed: IDS.map((id, index) => ({ id, name: `review-${index + 1}` })) } });

  /** Deletes every IDS one at a time, interrupted (as Ctrl-C is) while the server holds the second. */
  async function interrupted(
    { sandbox, env, cip }: Pick<Fixtures, 'sandbox' | 'env' | 'cip'>,
    options: { terminalColumns?: number; extra?: string[] } = {},
  ) {
    let release!: () => void;
    sandbox.inject({
      fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) },
      method: 'DELETE',
      match: (request) => request.url.endsWith(`/${encodeURIComponent(IDS[1]!)}`),
    });
    const controller = new AbortController();
    const running = cip(
      [
        'env',
        'delete',
        ...IDS.map((id) => (id.startsWith('-') ? `review-4` : id)),
        '--yes',
        '--concurrency',
        '1',
        ...(options.extra ?? []),
      ],
      {
        env,
        signal: controller.signal,
        ...(options.terminalColumns === undefined ? {} : { terminalColumns: options.terminalColumns }),
      },
    );
    await sandbox.waitForRequest((request) => request.method === 'DELETE' && request.url.endsWith(`/${encodeURIComponent(IDS[1]!)}`));
    controller.abort();
    const result = await running;
    release();
    return result;
  }

  it('says last what became of each, and the command that finishes the job, quoted for a shell', async ({ sandbox, env, cip }) => {
    const result = await interrupted({ sandbox, env, cip });
    expect(result.exitCode).toBe(130);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      "warning: interrupted: deleted review-1 (i1); review-2 (it's 2) may or may not have been deleted (its request was under way); " +
        "not attempted: review-3 (i 3), review-4 (-i4); to finish: cip env delete --if-missing ok --yes -- 'it'\\''s 2' 'i 3' -i4",
    );
    // In JSON, each one's result (the summary is on stderr, after it).
    expect((JSON.parse(result.stdout) as { result: string }[]).map((item) => item.result)).toEqual([
      'deleted',
      'failed',
      'failed',
      'failed',
    ]);
    expect(sandbox.environments.has('i1')).toBe(false);
    expect(sandbox.environments.has('i 3')).toBe(true);

    // The command does what it says: it deletes the rest, and one that was gone meanwhile counts as done.
    const command = /to finish: (.*)$/.exec(lines.at(-1)!)![1]!;
    sandbox.environments.delete("it's 2");
    const finished = await cip(asShellReads(command), { env });
    expect(finished.exitCode).toBe(0);
    expect([...sandbox.environments.keys()]).toEqual([]);
  });

  it('at a terminal, one line for each, then the command', async ({ sandbox, env, cip }) => {
    const result = await interrupted({ sandbox, env, cip }, { terminalColumns: 100 });
    expect(result.exitCode).toBe(130);
    expect(
      result.stderr.endsWith(
        [
          'warning: interrupted: 1 deleted, 1 under way (may or may not have been deleted), 2 not attempted',
          '  deleted: review-1 (i1)',
          "  under way: review-2 (it's 2)",
          '  not attempted: review-3 (i 3)',
          '  not attempted: review-4 (-i4)',
          "To finish (the one under way may be deleted already): cip env delete --if-missing ok --yes -- 'it'\\''s 2' 'i 3' -i4",
          '',
        ].join('\n'),
      ),
    ).toBe(true);
  });

  it('the command keeps the profile it acted in, and what the run confirmed with', async ({ sandbox, cip }) => {
    const configDir = tempDir();
    const profile = {
      baseUrl: sandbox.url,
      enterpriseId: sandbox.keys.enterpriseId,
      apiKey: sandbox.keys.apiKey,
      subscriptionKey: sandbox.keys.subscriptionKey,
      keys: 'file',
    };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'my prod', profiles: { 'my prod': profile } }), {
      mode: 0o600,
    });
    let release!: () => void;
    sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, method: 'DELETE' });
    const controller = new AbortController();
    const running = cip(['env', 'delete', 'i1', 'i 3', '--confirm', 'my prod', '--no-journal'], { configDir, signal: controller.signal });
    await sandbox.waitForRequest((request) => request.method === 'DELETE');
    controller.abort();
    const result = await running;
    release();
    expect(result.exitCode).toBe(130);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
      /; to finish: cip env delete i1 'i 3' --profile 'my prod' --if-missing ok --no-journal --confirm 'my prod'$/,
    );
  });
});
