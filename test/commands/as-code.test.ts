// Environments as code: export, diff (plan), apply, and create --if-exists, against the sandbox. What the server
// received proves what was sent; a second apply must send nothing but its list read.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ExactNumber, parseExactJson, stringifyExactJson } from '../../src/json/exact.js';
import { digestOf } from '../../src/domain/environments/since.js';
import { expectOneErrorLine, seedSandbox, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';

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

describe('env export', () => {
  it('writes environments: as YAML, without the fields the server manages, numbers exact', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'export'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        // What was read, so that apply refuses to undo a change made after the export.
        'exported:',
        `  from: ${sandbox.url}`,
        `  enterprise: ${sandbox.keys.enterpriseId}`,
        '  fields:',
        '    a1:',
        `      name: ${digestOf('alpha')}`,
        `      type: ${digestOf('Test')}`,
        `      quota: ${digestOf(new ExactNumber('12345678901234567890'))}`,
        `      settings: ${digestOf({ retention: 30 })}`,
        '    b2:',
        `      name: ${digestOf('beta')}`,
        `      type: ${digestOf('Production')}`,
        `      isActive: ${digestOf(true)}`,
        'environments:',
        '  - name: alpha',
        '    type: Test',
        '    quota: 12345678901234567890',
        '    settings:',
        '      retention: 30',
        '  - name: beta',
        '    type: Production',
        '    isActive: true',
        '',
      ].join('\n'),
    );
    // A digest is the field's value, not its spelling: 30.0 is 30 and key order does not matter.
    expect(digestOf({ a: 1, b: new ExactNumber('30.0') })).toBe(digestOf({ b: 30, a: 1 }));
    expect(digestOf('alpha')).toMatch(/^[0-9a-f]{12}$/);
  });

  it('gives the same document as JSON with -o json; --all-fields and --ignore-fields choose the fields', async ({ sandbox, env, cip }) => {
    const json = await cip(['env', 'export', '-o', 'json'], { env });
    expect(json.stdout).toContain('"quota": 12345678901234567890');
    expect(JSON.parse(json.stdout)).toEqual({
      environments: [
        { name: 'alpha', type: 'Test', quota: expect.any(Number), settings: { retention: 30 } },
        { name: 'beta', type: 'Production', isActive: true },
      ],
      exported: {
        from: sandbox.url,
        enterprise: sandbox.keys.enterpriseId,
        fields: { a1: expect.any(Object), b2: { name: digestOf('beta'), type: digestOf('Production'), isActive: digestOf(true) } },
      },
    });
    const all = await cip(['env', 'export', '--all-fields', '--json'], { env });
    expect((JSON.parse(all.stdout) as { environments: { id: string }[] }).environments.map((record) => record.id)).toEqual(['a1', 'b2']);
    const some = await cip(['env', 'export', '--ignore-fields', 'id,type,quota,settings,createdAt,updatedAt', '--json'], { env });
    expect(JSON.parse(some.stdout)).toMatchObject({
      environments: [{ name: 'alpha' }, { name: 'beta', isActive: true }],
      exported: { fields: { a1: { name: digestOf('alpha') }, b2: { name: digestOf('beta'), isActive: digestOf(true) } } },
    });
  });

  it('warns about environments apply could not tell apart', async ({ sandbox, env, cip }) => {
    await seedSandbox(sandbox, [...SEED, '{"id":"c3","type":"x"}', '{"id":"d4","name":"beta"}']);
    const result = await cip(['env', 'export'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      "warning: 1 environment has no 'name': apply cannot match it\nwarning: 2 environments have name 'beta': apply will refuse them until they differ\n",
    );
  });
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
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: refusing to apply changes .* without confirmation \(pass --yes to confirm/);
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

describe('env create --if-exists', () => {
  it('fail: exit 6 naming the existing id, nothing sent', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=alpha', '--if-exists', 'fail'], { env });
    expect(result.exitCode).toBe(6);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      /^error: an environment named 'alpha' already exists \(id a1\) in enterprise .* \(nothing was sent\)$/,
    );
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('skip: prints the existing record, so | jq -r .id works on every run', async ({ sandbox, env, cip }) => {
    const first = await cip(['env', 'create', '-f', 'name=review-42', '--if-exists', 'skip'], { env });
    expect(first.exitCode).toBe(0);
    const { id } = JSON.parse(first.stdout) as { id: string };
    const second = await cip(['env', 'create', '-f', 'name=review-42', '--if-exists', 'skip'], { env });
    expect(second.exitCode).toBe(0);
    expect((JSON.parse(second.stdout) as { id: string }).id).toBe(id);
    expect(writes(sandbox).map((request) => request.method)).toEqual(['POST']);
  });

  it('update: merges the payload into the existing one', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=beta', '-F', 'isActive=false', '--if-exists', 'update'], { env });
    expect(result.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual(['PUT /ms/Environments/b2']);
    expect(writes(sandbox)[0]!.body).toBe(
      '{"id":"b2","name":"beta","type":"Production","isActive":false,"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z"}',
    );
  });

  it('--key chooses the field; a payload without it, or --key alone, is exit 2', async ({ sandbox, env, cip }) => {
    const byType = await cip(['env', 'create', '-f', 'name=other', '-f', 'type=Test', '--if-exists', 'skip', '--key', 'type'], { env });
    expect((JSON.parse(byType.stdout) as { id: string }).id).toBe('a1');
    const missing = await cip(['env', 'create', '-f', 'name=x', '--if-exists', 'skip', '--key', 'owner'], { env });
    expect(missing.exitCode).toBe(2);
    const alone = await cip(['env', 'create', '-f', 'name=x', '--key', 'type'], { env });
    expect(alone.exitCode).toBe(2);
    expect(writes(sandbox)).toHaveLength(0);
  });
});

it('the plan data keeps 64-bit numbers exact in JSON', async ({ env, cip }) => {
  const path = file('e.yaml', 'environments:\n  - name: alpha\n    quota: 98765432109876543210\n');
  const result = await cip(['env', 'diff', '--file', path], { env });
  expect(result.stdout).toContain('"old": 12345678901234567890');
  expect(result.stdout).toContain('"new": 98765432109876543210');
  expect(stringifyExactJson(await parseExactJson(result.stdout))).toContain('98765432109876543210');
});
