// `cip env delete` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { execFileSync } from 'node:child_process';
import { describe, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneErrorLine, sandboxTarget, tempDir } from '../../helpers/cli.js';
import { it, test, type Fixtures } from '../../helpers/fixture.js';
import { sent, writes } from '../../helpers/requests.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { type Sandbox } from '../../../src/sandbox/index.js';
import { reads, NAMED_SANDBOX } from '../../helpers/named-environments.js';
import { LIST, TWO_ENVIRONMENTS_SANDBOX } from '../../helpers/two-environments.js';
import { sandboxProfile } from '../../helpers/stored-profiles.js';

describe('asking first', () => {
  // env delete at a terminal: what the question says, what each answer does, and what a failure part-way
  // reports. In-process, with stdin and stderr flagged as a terminal and the answer typed in advance.

  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }, { id: 'e2', name: 'beta' }, { id: 'e3' }] } });

  const deletes = (sandbox: Sandbox) =>
    sandbox.requests.filter((request) => request.method === 'DELETE').map((request) => request.url.split('/').pop());

  /** The words a POSIX shell makes of a command cip printed (`cip env delete ...`), without `cip`. */
  function asShellReads(command: string): string[] {
    const words = execFileSync('bash', ['-c', `cip() { printf '%s\\0' "$@"; }; ${command}`], { encoding: 'utf8' });
    return words.split('\0').slice(0, -1);
  }

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
        {
          given: 'e2',
          id: 'e2',
          name: 'beta',
          result: 'failed',
          error: "cannot delete environment 'e2': the API failed (HTTP 500): locked",
        },
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
      const profile = { ...sandboxProfile(sandbox), keys: 'file' };
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
});

describe('at the edges', () => {
  test.override({ sandboxOptions: TWO_ENVIRONMENTS_SANDBOX });

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
        stderr:
          "'ghost' is no environment's id or name: nothing to delete.\n'phantom' is no environment's id or name: nothing to delete.\n",
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
});

describe('the basics', () => {
  // With credentials from the environment (the CI case).

  test.override({ sandboxOptions: { seed: 3 } });

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
});

describe('the everyday workflow', () => {
  // Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
  test.override({ sandboxOptions: NAMED_SANDBOX });

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
    async function interrupted(
      { sandbox, env, cip }: Pick<Fixtures, 'sandbox' | 'env' | 'cip'>,
      options: { terminalColumns?: number } = {},
    ) {
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
      const { InterruptedError } = await import('../../../src/errors.js');
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
});
