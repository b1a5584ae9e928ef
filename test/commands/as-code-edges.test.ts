// Edges of env export, diff and apply, in-process against the sandbox: the exact plan and result lines, the JSON
// results of every kind of change (created ids, failures, an interrupt), what stdout gets when nothing changes,
// the confirmation, a missing --file, and what a person at a terminal sees while the work runs (the spinner).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { expectOneErrorLine, seedSandbox, tempDir, sandboxTarget } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';
import { AT_TERMINAL } from '../helpers/harness.js';
import type { Sandbox } from '../../src/sandbox/index.js';

const SEED = [
  '{"id":"a1","name":"alpha","type":"Test","createdAt":"2024-01-01T00:00:00Z"}',
  '{"id":"b2","name":"beta","type":"Production","isActive":true}',
];

test.override({ sandboxOptions: { records: SEED } });

/** The note when the file leaves one environment of the seed out (beta, without --prune). */
const UNLISTED = '1 environment on the server is not in the file and left alone; --prune would delete it.\n';

function file(text: string): string {
  const path = join(tempDir(), 'environments.yaml');
  writeFileSync(path, text);
  return path;
}
const idOfName = (sandbox: Sandbox, name: string) => [...sandbox.environments.values()].find((record) => record.name === name)?.id;

describe('env apply', () => {
  it('shows the plan, reports each change, and gives one JSON result per change with its id', async ({ env, cip, sandbox }) => {
    const path = file('environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
    const result = await cip(['env', 'apply', '--file', path, '--prune', '--yes', '--concurrency', '1'], { env });
    expect(result.exitCode).toBe(0);
    const created = idOfName(sandbox, 'new');
    expect(typeof created).toBe('string');
    expect(result.stderr).toBe(
      [
        "+ create name 'new'",
        '    name: "new"',
        "~ update name 'alpha' (a1)",
        '    type: "Test" → "Other"',
        "- delete name 'beta' (b2)",
        'Plan: 1 to create, 1 to update, 1 to delete.',
        // One short line a change; the target once, in the summary.
        `Created environment 'new' (${String(created)}).`,
        "Updated environment 'alpha' (a1).",
        "Deleted environment 'beta' (b2).",
        'Done: 3 applied, 0 failed of 3',
        `  ${sandboxTarget(sandbox)}.`,
        '',
      ].join('\n'),
    );
    expect(JSON.parse(result.stdout)).toEqual([
      { action: 'create', key: 'new', id: created, result: 'done', error: null },
      { action: 'update', key: 'alpha', id: 'a1', result: 'done', error: null },
      { action: 'delete', key: 'beta', id: 'b2', result: 'done', error: null },
    ]);
    expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /ms/Environments',
      'PUT /ms/Environments/a1',
      'DELETE /ms/Environments/b2',
    ]);
  });

  it('names a deleted environment by its name, when --key is another field', async ({ env, cip, sandbox }) => {
    const path = file('environments:\n  - type: Test\n');
    const result = await cip(['env', 'apply', '--file', path, '--key', 'type', '--prune', '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`- delete type 'Production' (b2)\n`);
    expect(result.stderr).toContain(`\nDeleted environment 'beta' (b2)\n  ${sandboxTarget(sandbox)}.\n`);
    expect(JSON.parse(result.stdout)).toEqual([{ action: 'delete', key: 'Production', id: 'b2', result: 'done', error: null }]);
  });

  it('a create that fails has a null id and its error; the others are done; exit 9', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 500, body: '{"message":"broken"}' }, method: 'POST' });
    const path = file('environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
    const result = await cip(['env', 'apply', '--file', path, '--yes', '--concurrency', '1'], { env });
    expect(result.exitCode).toBe(9);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        action: 'create',
        key: 'new',
        id: null,
        result: 'failed',
        error: 'cannot create the environment: the API failed (HTTP 500): broken',
      },
      { action: 'update', key: 'alpha', id: 'a1', result: 'done', error: null },
    ]);
    expect(result.stderr).toContain('warning: cannot create the environment: the API failed (HTTP 500): broken\n');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: partly done: 1 applied, 1 failed of 2 ${sandboxTarget(sandbox)} (the failed ones are listed above; run the command again for them)`,
    );
    expect(writes(sandbox).map((request) => request.method)).toEqual(['POST', 'PUT']);
  });

  it('an interrupt: done, under way and not attempted are each reported, and failed in JSON', async ({ sandbox, env, cip }) => {
    let release: () => void = () => undefined;
    sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, method: 'PUT' });
    const controller = new AbortController();
    const path = file('environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
    const running = cip(['env', 'apply', '--file', path, '--prune', '--yes', '--concurrency', '1'], { env, signal: controller.signal });
    await sandbox.waitForRequest((request) => request.method === 'PUT');
    controller.abort(new InterruptedError());
    const result = await running;
    release();
    expect(result.exitCode).toBe(130);
    expect(JSON.parse(result.stdout)).toEqual([
      { action: 'create', key: 'new', id: idOfName(sandbox, 'new'), result: 'done', error: null },
      {
        action: 'update',
        key: 'alpha',
        id: 'a1',
        result: 'failed',
        error: 'interrupted while under way: it may or may not have been applied',
      },
      { action: 'delete', key: 'beta', id: 'b2', result: 'failed', error: 'not attempted: interrupted' },
    ]);
    expect(result.stderr).toContain(
      "warning: interrupted: applied create name 'new'; update name 'alpha' may or may not have been applied (its request was under way); not attempted: delete name 'beta'\n",
    );
    expect(writes(sandbox).map((request) => request.method)).toEqual(['POST', 'PUT']);
  });

  it('nothing to change: an empty list in JSON, nothing on stdout for --dry-run or at a terminal', async ({ env, cip, sandbox }) => {
    const path = file('environments:\n  - name: alpha\n    type: Test\n');
    const piped = await cip(['env', 'apply', '--file', path, '--yes'], { env });
    const said = `No changes: the environments ${sandboxTarget(sandbox)} match the file.\n${UNLISTED}`;
    expect(piped).toEqual({ exitCode: 0, stdout: '[]\n', stderr: said });
    const dry = await cip(['env', 'apply', '--file', path, '--dry-run'], { env });
    expect(dry).toEqual({ exitCode: 0, stdout: '', stderr: said });
    const terminal = await cip(['env', 'apply', '--file', path, '--yes'], { env, terminalColumns: 100 });
    expect(terminal).toEqual({ exitCode: 0, stdout: '', stderr: said });
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('--dry-run says what it did not send', async ({ env, cip, sandbox }) => {
    const path = file('environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
    const result = await cip(['env', 'apply', '--file', path, '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `Dry run: nothing was sent. Plan: 1 to create, 1 to update, 0 to delete\n  ${sandboxTarget(sandbox)}.\n${UNLISTED}`,
    );
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('asks once at a terminal: yes applies, no changes nothing', async ({ env, cip, sandbox }) => {
    const path = file('environments:\n  - name: new\n');
    const question = `Apply 1 to create, 0 to update, 0 to delete ${sandboxTarget(sandbox)}? [y/N] `;
    const no = await cip(['env', 'apply', '--file', path], { env, answers: [[question, 'n\n']] });
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain('Plan: 1 to create, 0 to update, 0 to delete.\n');
    expect(no.stderr).toContain(question);
    // Declining is no error: said plainly, exit 2 (as gh).
    expect(no.stderr).toMatch(/\[y\/N\] [^]*Nothing was changed\.\n$/);
    expect(no.stderr).not.toContain('error');
    // Before the question: what the file leaves out stays.
    expect(no.stderr).toContain(
      'Plan: 1 to create, 0 to update, 0 to delete.\n2 environments on the server are not in the file and left alone; --prune would delete them.\n',
    );
    expect(writes(sandbox)).toHaveLength(0);
    const yes = await cip(['env', 'apply', '--file', path], { env, answers: [[question, 'y\n']] });
    expect(yes.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => request.method)).toEqual(['POST']);
  });

  it('at a terminal: a spinner while the list loads and the changes run, and no results on stdout', async ({ env, cip }) => {
    const two = await cip(['env', 'apply', '--file', file('environments:\n  - name: alpha\n    type: Other\n  - name: new\n'), '--yes'], {
      env,
      ...AT_TERMINAL,
    });
    expect(two.exitCode).toBe(0);
    expect(two.stdout).toBe('');
    expect(two.stderr).toContain('Loading environments');
    expect(two.stderr).toContain('Applying 0/2');
    expect(two.stderr).toContain('Applying 2/2');
    const one = await cip(['env', 'apply', '--file', file('environments:\n  - name: third\n'), '--yes'], { env, ...AT_TERMINAL });
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toBe('');
    expect(one.stderr).toContain("Applying create name 'third'");
  });
});

describe('env diff', () => {
  it('says the plan counts, or that nothing differs, on stderr', async ({ env, cip }) => {
    const changed = await cip(['env', 'diff', '--file', file('environments:\n  - name: new\n')], { env });
    expect(changed.exitCode).toBe(0);
    expect(changed.stderr).toBe(
      'Plan: 1 to create, 0 to update, 0 to delete.\n2 environments on the server are not in the file and left alone; --prune would delete them.\n',
    );
    const same = await cip(['env', 'diff', '--file', file('environments:\n  - name: alpha\n')], { env });
    expect(same.exitCode).toBe(0);
    expect(same.stderr).toBe(`No changes: the environments match the file.\n${UNLISTED}`);
  });

  it('shows a spinner while the list loads, at a terminal', async ({ env, cip }) => {
    const result = await cip(['env', 'diff', '--file', file('environments:\n  - name: new\n')], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Loading environments');
  });
});

describe.each([['diff'], ['apply', '--yes']])('env %s without --file', (...command) => {
  it('is exit 2, saying what to give, before any request', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', ...command], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: give the file of environments with --file');
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('env export', () => {
  it('warns of nothing when every environment has its key', async ({ env, cip }) => {
    const result = await cip(['env', 'export'], { env });
    expect(result).toEqual({
      exitCode: 0,
      stdout: expect.stringMatching(
        /^exported:\n[^]*\nenvironments:\n {2}- name: alpha\n {4}type: Test\n {2}- name: beta\n {4}type: Production\n {4}isActive: true\n$/,
      ),
      stderr: '',
    });
  });

  it('counts the environments without the key field in one warning', async ({ env, cip, sandbox }) => {
    await seedSandbox(sandbox, [...SEED, '{"id":"c3","type":"x"}', '{"id":"d4","type":"y"}']);
    const result = await cip(['env', 'export'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("warning: 2 environments have no 'name': apply cannot match them\n");
  });

  it.for<[string, string]>([
    ['yaml', 'yaml'],
    [' ', 'a blank CIP_OUTPUT, which counts as unset'],
  ])('writes YAML in a pipe under CIP_OUTPUT=%j (%s)', async ([value], { env, cip }) => {
    const result = await cip(['env', 'export'], { env: { ...env, CIP_OUTPUT: value } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^exported:\n[^]*\nenvironments:\n {2}- name: alpha\n/);
  });

  it('writes JSON under CIP_OUTPUT=json', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'export'], { env: { ...env, CIP_OUTPUT: 'json' } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      environments: [
        { name: 'alpha', type: 'Test' },
        { name: 'beta', type: 'Production', isActive: true },
      ],
      exported: expect.objectContaining({ from: sandbox.url }),
    });
  });

  it('shows a spinner while the list loads, at a terminal', async ({ env, cip }) => {
    const result = await cip(['env', 'export'], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Loading environments');
  });
});
