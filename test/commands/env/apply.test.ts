// `cip env apply` in-process against the sandbox (environments as code): the plan and result lines, the JSON
// results, the confirmation, YAML as other tools write it, and what the server received; a second apply sends
// nothing but its list read.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../../../src/json/exact.js';
import { expectOneErrorLine, seedSandbox, tempDir, sandboxTarget } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { writes } from '../../helpers/requests.js';
import { InterruptedError } from '../../../src/errors.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { UNLISTED, file, idOfName, AS_CODE_SANDBOX } from '../../helpers/environments-file.js';

describe('environments as code', () => {
  const SEED = [
    '{"id":"a1","name":"alpha","type":"Test","quota":12345678901234567890,"settings":{"retention":30},"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-02T00:00:00Z"}',
    '{"id":"b2","name":"beta","type":"Production","isActive":true,"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z"}',
  ];

  test.override({ sandboxOptions: { records: SEED } });

  function file(name: string, text: string): string {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  }

  it('the plan data keeps 64-bit numbers exact in JSON', async ({ env, cip }) => {
    const path = file('e.yaml', 'environments:\n  - name: alpha\n    quota: 98765432109876543210\n');
    const result = await cip(['env', 'diff', '--file', path], { env });
    expect(result.stdout).toContain('"old": 12345678901234567890');
    expect(result.stdout).toContain('"new": 98765432109876543210');
    expect(stringifyExactJson(await parseExactJson(result.stdout))).toContain('98765432109876543210');
  });

  describe('env diff and apply', () => {
    it('export, then apply on an empty sandbox, recreates the same set with 64-bit numbers exact; a second apply sends nothing', async ({
      sandbox,
      env,
      cip,
    }) => {
      const exported = await cip(['env', 'export'], { env });
      const path = file('environments.yaml', exported.stdout);
      sandbox.environments.clear();
      sandbox.reset();

      const applied = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(applied.exitCode).toBe(0);
      const posts = writes(sandbox);
      expect(posts.map((request) => request.method)).toEqual(['POST', 'POST']);
      expect(posts.map((request) => request.body).sort()).toEqual([
        '{"name":"alpha","type":"Test","quota":12345678901234567890,"settings":{"retention":30}}',
        '{"name":"beta","type":"Production","isActive":true}',
      ]);
      const results = JSON.parse(applied.stdout) as { action: string; key: string; id: string; result: string }[];
      expect(results.map(({ action, key, result }) => `${action} ${key} ${result}`)).toEqual(['create alpha done', 'create beta done']);
      expect(applied.stderr).toContain('Plan: 2 to create, 0 to update, 0 to delete.');

      // The same environments; the ids the API gave the new ones differ, and so does what was read.
      const again = await cip(['env', 'export'], { env });
      const environments = (text: string) => text.slice(text.indexOf('\nenvironments:'));
      expect(environments(again.stdout)).toBe(environments(exported.stdout));
      expect(applied.stderr).toContain("Note: environment 'alpha' (a1): deleted since the export: applying creates it again.");
      sandbox.reset();
      const second = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(second.exitCode).toBe(0);
      expect(second.stderr).toMatch(/^No changes: the environments .* match the file\.\n$/);
      expect(sandbox.requests.map((request) => request.method)).toEqual(['GET']);
    });

    it('compares only the declared fields, and updates by merging them into the server record', async ({ sandbox, env, cip }) => {
      const path = file('e.yaml', 'environments:\n  - name: alpha\n    type: Staging\n    quota: 12345678901234567890\n    owner: ops\n');
      const plan = await cip(['env', 'diff', '--file', path], { env });
      expect(plan.exitCode).toBe(0);
      expect(JSON.parse(plan.stdout)).toEqual({
        create: [],
        update: [{ key: 'alpha', id: 'a1', changes: { type: { old: 'Test', new: 'Staging' }, owner: { new: 'ops' } } }],
        delete: [],
        // What the file does not list is left alone without --prune, and said.
        unlisted: [{ key: 'beta', id: 'b2', name: 'beta' }],
        conflicts: [],
      });
      expect(plan.stderr).toBe(
        'Plan: 0 to create, 1 to update, 0 to delete.\n1 environment on the server is not in the file and left alone; --prune would delete it.\n',
      );
      const applied = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(applied.exitCode).toBe(0);
      expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual(['PUT /ms/Environments/a1']);
      // Everything the file did not declare goes back as it was: settings, timestamps, the exact quota.
      expect(writes(sandbox)[0]!.body).toBe(
        '{"id":"a1","name":"alpha","type":"Staging","quota":12345678901234567890,"settings":{"retention":30},"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-02T00:00:00Z","owner":"ops"}',
      );
    });

    it('compares a declared object only on the fields it declares, and merges it field by field', async ({ sandbox, env, cip }) => {
      await seedSandbox(sandbox, ['{"id":"a1","name":"alpha","settings":{"retention":30,"logLevel":"Warning"}}']);
      const same = file('same.yaml', 'environments:\n  - name: alpha\n    settings:\n      retention: 30\n');
      expect((await cip(['env', 'diff', '--file', same, '--exit-code'], { env })).exitCode).toBe(0);
      const changed = file('changed.yaml', 'environments:\n  - name: alpha\n    settings:\n      retention: 7\n');
      const plan = await cip(['env', 'diff', '--file', changed], { env });
      expect(JSON.parse(plan.stdout)).toMatchObject({ update: [{ key: 'alpha', changes: { 'settings.retention': { old: 30, new: 7 } } }] });
      expect((await cip(['env', 'apply', '--file', changed, '--yes'], { env })).exitCode).toBe(0);
      expect(writes(sandbox)[0]!.body).toBe('{"id":"a1","name":"alpha","settings":{"retention":7,"logLevel":"Warning"}}');
    });

    it('numbers compare by value: 30.0 is 30', async ({ env, cip }) => {
      const path = file('e.json', '{"environments":[{"name":"alpha","settings":{"retention":30.0},"quota":1.2345678901234567890e19}]}');
      const plan = await cip(['env', 'diff', '--file', path, '--exit-code'], { env });
      expect(plan.exitCode).toBe(0);
      expect(JSON.parse(plan.stdout)).toEqual({
        create: [],
        update: [],
        delete: [],
        unlisted: [{ key: 'beta', id: 'b2', name: 'beta' }],
        conflicts: [],
      });
    });

    it('deletes only with --prune, and only what the file does not list', async ({ sandbox, env, cip }) => {
      const path = file('e.yaml', 'environments:\n  - name: alpha\n');
      const without = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(without.exitCode).toBe(0);
      expect(writes(sandbox)).toHaveLength(0);
      const pruned = await cip(['env', 'apply', '--file', path, '--yes', '--prune'], { env });
      expect(pruned.exitCode).toBe(0);
      expect(pruned.stderr).toContain("- delete name 'beta' (b2)");
      expect(pruned.stderr).toContain('Plan: 0 to create, 0 to update, 1 to delete.');
      expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual(['DELETE /ms/Environments/b2']);
      expect([...sandbox.environments.keys()]).toEqual(['a1']);
    });

    it('--exit-code: 0 in sync, 10 with changes', async ({ sandbox, env, cip }) => {
      const inSync = file('in-sync.yaml', 'environments:\n  - name: alpha\n    type: Test\n');
      expect((await cip(['env', 'diff', '--file', inSync, '--exit-code'], { env })).exitCode).toBe(0);
      const drifted = file('drift.yaml', 'environments:\n  - name: alpha\n    type: Other\n  - name: gamma\n');
      const result = await cip(['env', 'plan', '--file', drifted, '--exit-code'], { env });
      expect(result.exitCode).toBe(10);
      // Drift is what --exit-code looks for: the code says it, with the plan line, and no error line.
      expect(result.stderr).toBe(
        'Plan: 1 to create, 1 to update, 0 to delete.\n1 environment on the server is not in the file and left alone; --prune would delete it.\n',
      );
      const quiet = await cip(['env', 'plan', '--file', drifted, '--exit-code', '--quiet'], { env });
      expect(quiet).toMatchObject({ exitCode: 10, stderr: '' });
      expect(writes(sandbox)).toHaveLength(0);
    });

    it('YAML and JSON files give the same plan', async ({ env, cip }) => {
      const yaml = file('e.yml', 'environments:\n  - name: alpha\n    quota: 1\n  - name: new\n    tags: [a, b]\n');
      const json = file('e.json', '{"environments":[{"name":"alpha","quota":1},{"name":"new","tags":["a","b"]}]}');
      const fromYaml = await cip(['env', 'diff', '--file', yaml, '--prune'], { env });
      const fromJson = await cip(['env', 'diff', '--file', json, '--prune'], { env });
      expect(fromYaml.exitCode).toBe(0);
      expect(fromYaml.stdout).toBe(fromJson.stdout);
      expect(JSON.parse(fromYaml.stdout)).toEqual({
        create: [{ name: 'new', tags: ['a', 'b'] }],
        update: [{ key: 'alpha', id: 'a1', changes: { quota: { old: expect.any(Number), new: 1 } } }],
        delete: [{ key: 'beta', id: 'b2', name: 'beta' }],
        unlisted: [],
        conflicts: [],
      });
    });

    it('shows a coloured plan at a terminal', async ({ env, cip }) => {
      const path = file('e.yaml', 'environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
      const result = await cip(['env', 'diff', '--file', path, '--prune'], { env: { ...env, FORCE_COLOR: '1' }, terminalColumns: 100 });
      expect(result.stdout).toBe(
        [
          "\u001b[32m+ create name 'new'\u001b[39m",
          '\u001b[32m    name: "new"\u001b[39m',
          "\u001b[33m~ update name 'alpha' (a1)\u001b[39m",
          '\u001b[33m    type: "Test" → "Other"\u001b[39m',
          "\u001b[31m- delete name 'beta' (b2)\u001b[39m",
          '',
        ].join('\n'),
      );
    });

    it.for<[string, string, string]>([
      [
        'a name the file declares twice',
        'environments:\n  - name: alpha\n  - name: x\n  - name: alpha\n',
        "error: the file declares name 'alpha' 2 times (environments[0], environments[2])",
      ],
      ['a record without the key', 'environments:\n  - name: alpha\n  - type: x\n', "error: --file FILE: environments[1] has no 'name'"],
      [
        'a record that is not an object',
        'environments:\n  - name: alpha\n  - just text\n',
        'error: --file FILE: environments[1] is not an object',
      ],
      ['no environments list', 'name: alpha\n', "error: --file FILE must hold 'environments:' with a list of environments"],
    ])('refuses %s: exit 2, nothing changed', async ([_what, text, message], { sandbox, env, cip }) => {
      const path = file('bad.yaml', text);
      for (const command of [['diff'], ['apply', '--yes']]) {
        const result = await cip(['env', ...command, '--file', path], { env });
        expect(result.exitCode).toBe(2);
        expect(expectOneErrorLine(result.stderr)).toContain(message.replace('FILE', path));
      }
      expect(writes(sandbox)).toHaveLength(0);
    });

    it('refuses a declared name that two environments on the server share', async ({ sandbox, env, cip }) => {
      await seedSandbox(sandbox, [...SEED, '{"id":"c3","name":"alpha"}']);
      const path = file('e.yaml', 'environments:\n  - name: alpha\n    type: x\n');
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: 2 environments on the server have name 'alpha': a1, c3 (nothing was changed; give them distinct values, or choose another --key)",
      );
      expect(writes(sandbox)).toHaveLength(0);
    });

    it('--dry-run prints the requests and sends no write', async ({ sandbox, env, cip }) => {
      const path = file('e.yaml', 'environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
      const result = await cip(['env', 'apply', '--file', path, '--prune', '--dry-run'], { env });
      expect(result.exitCode).toBe(0);
      const requests = JSON.parse(result.stdout) as { method: string; url: string }[];
      expect(requests.map(({ method, url }) => `${method} ${url.replace(sandbox.url, '')}`)).toEqual([
        'POST /Environments',
        'PUT /Environments/a1',
        'DELETE /Environments/b2',
      ]);
      expect(writes(sandbox)).toHaveLength(0);
    });

    it('needs --yes without a terminal, before anything is read', async ({ sandbox, env, cip }) => {
      const path = file('e.yaml', 'environments:\n  - name: alpha\n');
      const result = await cip(['env', 'apply', '--file', path], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /^error: refusing to apply changes .* without confirmation \(pass --yes to confirm/,
      );
      expect(sandbox.requests).toHaveLength(0);
    });

    it('asks once at a terminal, naming how many deletes there are', async ({ sandbox, env, cip }) => {
      const path = file('e.yaml', 'environments:\n  - name: alpha\n');
      const result = await cip(['env', 'apply', '--file', path, '--prune'], { env, interactive: true, input: 'n\n' });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(
        /Apply 0 to create, 0 to update, 1 to delete in enterprise .*\? The deleted environment can be re-created from the journal \('cip env history', then 'cip env restore ENTRY'\), perhaps with a new id\. \[y\/N\] /,
      );
      const both = await cip(['env', 'apply', '--file', file('none.yaml', 'environments: []\n'), '--prune'], {
        env,
        interactive: true,
        input: 'n\n',
      });
      expect(both.exitCode).toBe(2);
      expect(both.stderr).toMatch(
        /Apply 0 to create, 0 to update, 2 to delete in enterprise .*\? Each deleted environment can be re-created from the journal \('cip env history', then 'cip env restore ENTRY'\), perhaps with a new id\. \[y\/N\] /,
      );
      const off = await cip(['env', 'apply', '--file', path, '--prune', '--no-journal'], { env, interactive: true, input: 'n\n' });
      expect(off.stderr).toMatch(
        /Apply 0 to create, 0 to update, 1 to delete in enterprise .*\? The deletion cannot be undone: the journal is off \(--no-journal or CIP_JOURNAL=off\)\. \[y\/N\] /,
      );
      expect(writes(sandbox)).toHaveLength(0);
    });

    it('reports each change, goes on past a failure, and exits 9 when some failed', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 500, body: '{"message":"broken"}' }, method: 'PUT', times: Infinity });
      const path = file('e.yaml', 'environments:\n  - name: alpha\n    type: Other\n  - name: new\n');
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(result.exitCode).toBe(9);
      const results = JSON.parse(result.stdout) as { action: string; key: string; result: string; error: string | null }[];
      expect(results.map(({ action, key, result: outcome }) => `${action} ${key} ${outcome}`)).toEqual([
        'create new done',
        'update alpha failed',
      ]);
      expect(results[1]!.error).toBe("cannot update environment 'a1': the API failed (HTTP 500): broken");
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: partly done: 1 applied, 1 failed of 2 /);
    });
  });
});

describe('environments as code, at the edges', () => {
  test.override({ sandboxOptions: AS_CODE_SANDBOX });

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

  describe.each([['diff'], ['apply', '--yes']])('env %s without --file', (...command) => {
    it('is exit 2, saying what to give, before any request', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', ...command], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe('error: give the file of environments with --file');
      expect(sandbox.requests).toHaveLength(0);
    });
  });
});

describe('YAML files', () => {
  // YAML files as other tools write and read them: aliases that would expand without end, `<<` merge keys as
  // PyYAML and ruamel.yaml write them, and what cip writes read back by real PyYAML and ruamel.yaml (Debian's
  // python3-yaml and python3-ruamel.yaml; .ci/run installs them, and the tests that need them skip, saying so,
  // where they are missing).

  test.override({ sandboxOptions: { records: ['{"id":"a1","name":"alpha","type":"Test"}'] } });

  function file(name: string, text: string): string {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  }

  describe('a YAML file with a mistake says where it is', () => {
    const text = 'environments:\n  - name: staging\n    type: Test\n  - name: review-41\n   type: Test\n';
    it.for<[string, string[]]>([
      ['env apply', ['env', 'apply', '--yes', '--file']],
      ['env diff', ['env', 'diff', '--file']],
      ['env create', ['env', 'create', '--file']],
    ])('%s: exit 2, the line and column, and the line itself; nothing is sent', async ([_command, args], { sandbox, env, cip }) => {
      const path = file('envs.yaml', text);
      const result = await cip([...args, path], { env });
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr: `error: --file ${path} is not valid YAML: Sequence item without - indicator at line 5, column 1: '   type: Test'\n`,
      });
      expect(sandbox.requests).toEqual([]);
    });
  });

  describe('aliases are bounded by what they expand to', () => {
    // The file of the report: 500 aliases of a 50,000-item list, about 200 kB. Before, it ran for 76 s, took 1 GiB
    // and ended in exit 1 "Invalid string length (this is a bug)".
    const items = Array.from({ length: 50_000 }, (_, index) => String(index % 10)).join(', ');
    const bomb = [
      'environments:',
      `  - name: e0\n    big: &big [${items}]`,
      ...Array.from({ length: 500 }, (_, index) => `  - name: e${index + 1}\n    big: *big`),
      '',
    ].join('\n');
    const one = `name: e0\nbig: &big [${items}]\ncopies: [${Array<string>(500).fill('*big').join(', ')}]\n`;

    it.for<[string, string[], string]>([
      ['env apply', ['env', 'apply', '--yes', '--file'], bomb],
      ['env diff', ['env', 'diff', '--file'], bomb],
      ['env create', ['env', 'create', '--file'], one],
    ])(
      '%s refuses it (exit 2) before expanding it, and sends nothing',
      { timeout: 30_000 },
      async ([_command, args, text], { sandbox, env, cip }) => {
        const path = file('bomb.yaml', text);
        const result = await cip([...args, path], { env });
        expect(result.exitCode).toBe(2);
        expect(expectOneErrorLine(result.stderr)).toBe(
          `error: --file ${path} is not valid YAML: its aliases expand it too far: they add 25000500 values, more than the 1000000 allowed`,
        );
        expect(sandbox.requests).toEqual([]);
      },
    );
  });

  describe('merge keys (`<<`), as PyYAML and ruamel.yaml read them', () => {
    it('env apply sends the merged fields, and no field named "<<"', async ({ sandbox, env, cip }) => {
      // As ruamel.yaml writes merges; the map's own keys win, then the earlier merged map.
      const path = file(
        'merged.yaml',
        [
          'base: &base',
          '  type: Test',
          '  quota: 12345678901234567890',
          '  settings: {retention: 30}',
          'audit: &audit',
          '  type: Audit',
          '  owner: ops',
          'environments:',
          '- <<: *base',
          '  name: review-1',
          '- <<: [*audit, *base]',
          '  name: review-2',
          '  settings: {retention: 7}',
          '',
        ].join('\n'),
      );
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(result.exitCode).toBe(0);
      const posts = sandbox.requests.filter((request) => request.method === 'POST').map((request) => request.body);
      expect(posts).toEqual([
        '{"type":"Test","quota":12345678901234567890,"settings":{"retention":30},"name":"review-1"}',
        '{"type":"Audit","owner":"ops","quota":12345678901234567890,"name":"review-2","settings":{"retention":7}}',
      ]);
    });

    it('env create --file merges the same way', async ({ sandbox, env, cip }) => {
      const path = file('one.yaml', 'defaults: &d {type: Test, isActive: true}\n<<: *d\nname: solo\ntype: Staging\n');
      const result = await cip(['env', 'create', '--file', path], { env });
      expect(result.exitCode).toBe(0);
      expect(sandbox.requests.find((request) => request.method === 'POST')?.body).toBe(
        '{"defaults":{"type":"Test","isActive":true},"isActive":true,"name":"solo","type":"Staging"}',
      );
    });

    it('two merge keys in one map, which the two libraries read differently, are exit 2 and nothing is sent', async ({
      sandbox,
      env,
      cip,
    }) => {
      const path = file('two.yaml', 'environments:\n- <<: {type: Test}\n  <<: {type: Audit}\n  name: x\n');
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: --file ${path} is not valid YAML: a map has two '<<' merge keys: merge a list instead, as <<: [*a, *b]`,
      );
      expect(sandbox.requests).toEqual([]);
    });
  });
});
