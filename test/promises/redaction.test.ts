// The promise "redaction", across the commands that keep it: in-process against the sandbox.
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, tempDir, seedSandbox } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { type Sandbox } from '../../src/sandbox/index.js';
import { configWith, sandboxProfile } from '../helpers/stored-profiles.js';

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('keys read from a profile are secrets too', () => {
    it('a profile key the server echoes in an error body is shown as ***', async ({ sandbox, cip }) => {
      const configDir = configWith({ p: sandboxProfile(sandbox) }, 'p');
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 400,
          body: JSON.stringify({ message: `bad key ${sandbox.keys.apiKey} for ${sandbox.keys.subscriptionKey}` }),
        },
      });
      const result = await cip(['env', 'list'], { configDir });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toBe(
        'error: cannot list environments: the API rejected the request (HTTP 400): bad key *** for ***',
      );
    });

    it('a profile key the server echoes in data never reaches stdout', async ({ sandbox, cip }) => {
      const configDir = configWith({ p: sandboxProfile(sandbox) }, 'p');
      const id = [...sandbox.environments.keys()][0]!;
      const record = sandbox.environments.get(id)!;
      const saved = record.description;
      record.description = `key=${sandbox.keys.apiKey}`;
      try {
        const result = await cip(['env', 'list', '--json'], { configDir });
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toContain('"description": "key=***"');
        expect(result.stdout).not.toContain(sandbox.keys.apiKey);
      } finally {
        record.description = saved;
      }
    });
  });
});

describe("the base URL's origin", () => {
  // The keys go only to the base URL's origin, and no URL cip shows carries a password: `cip api` paths that a URL
  // parser reads as another host, an http:// URL beside an https:// base URL, next-page links and redirects with
  // credentials, and a base URL with a password in doctor and auth status. In-process, against two sandboxes on
  // 127.0.0.1 that record what they received.

  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('no URL cip shows carries a password', () => {
    it('a redirect to a URL with a password is reported without it', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 302, headers: { Location: 'https://user:hunter2-pw@elsewhere.example/x' } } });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(7);
      expect(result.stderr).not.toContain('hunter2');
      expect(expectOneErrorLine(result.stderr)).toContain('to https://***@elsewhere.example/x');
    });

    it('doctor fails the base URL check without the password, and stops there: nothing is sent', async ({ sandbox, env, cip }) => {
      const withPassword = sandbox.url.replace('//', '//user:hunter2-pw@');
      const result = await cip(['doctor', '-o', 'json'], { env: { ...env, CIP_BASE_URL: withPassword } });
      expect(result.exitCode).toBe(2);
      expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
      const checks = JSON.parse(result.stdout) as { check: string; status: string; detail: string }[];
      expect(checks.map(({ check, status }) => `${check}: ${status}`)).toEqual(['credentials: failed', 'base URL: failed']);
      expect(checks[1]!.detail).toBe(`${sandbox.url.replace('//', '//***@')} holds a user name or password`);
      expect(sandbox.requests).toEqual([]);
    });

    it('auth status shows a hand-edited profile base URL without its password', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      mkdirSync(configDir, { recursive: true });
      const profile = {
        baseUrl: 'https://user:hunter2-pw@api.example.com/ms',
        enterpriseId: sandbox.keys.enterpriseId,
        apiKey: sandbox.keys.apiKey,
        subscriptionKey: sandbox.keys.subscriptionKey,
      };
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'p', profiles: { p: profile } }), { mode: 0o600 });
      for (const format of ['json', 'table']) {
        const result = await cip(['auth', 'status', '-o', format], { configDir });
        expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
        expect(result.stdout).toContain('https://***@api.example.com/ms');
      }
    });
  });
});

describe('keys in the data', () => {
  // Redaction belongs to what is shown, not to the data: a key the server holds in an environment's fields is
  // sent back exact by every write (update, apply, the export → edit → apply round trip), and never printed, in
  // whatever spelling the server echoes it (System.Text.Json writes + as \u002B): not in lists, not by `cip api`
  // (in a pipe or through --jq), not in --verbose logs. Against the sandbox, whose subscription key has the
  // characters ASP.NET escapes.

  const KEY = 'sub+Key/0123456789=abcdef';

  /** The key as ASP.NET's System.Text.Json writes it in a JSON string. */
  const ESCAPED = 'sub\\u002BKey/0123456789\\u003Dabcdef';

  const CONNECTION = `Endpoint=https://bus.example/;Key=${KEY}`;

  test.override({
    sandboxOptions: {
      subscriptionKey: KEY,
      records: [
        JSON.stringify({ id: 'a1', name: 'alpha', description: 'old', connection: CONNECTION, tags: ['plain', `k=${KEY}`] }),
        JSON.stringify({ id: 'b2', name: 'beta', description: 'other' }),
      ],
    },
  });

  const puts = (sandbox: Sandbox) => sandbox.requests.filter((request) => request.method === 'PUT');

  /** Every spelling of the key this file uses: none may reach stdout or stderr. */
  const leaks = (text: string) => [KEY, ESCAPED, encodeURIComponent(KEY), 'sub\\u002bKey'].filter((spelling) => text.includes(spelling));

  describe('writes send stored values exact, keys and all', () => {
    it('update -f description=new sends the connection string back with its key, and prints it masked', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'update', 'alpha', '-f', 'description=new'], { env });
      expect(result.exitCode).toBe(0);
      expect(puts(sandbox).map((request) => JSON.parse(request.body) as unknown)).toEqual([
        { id: 'a1', name: 'alpha', description: 'new', connection: CONNECTION, tags: ['plain', `k=${KEY}`] },
      ]);
      expect(JSON.parse(result.stdout)).toMatchObject({ connection: 'Endpoint=https://bus.example/;Key=***', tags: ['plain', 'k=***'] });
      expect(leaks(result.stdout + result.stderr)).toEqual([]);
    });

    it('update --dry-run shows the request with the key masked, and sends nothing', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'update', 'alpha', '-f', 'description=new', '--dry-run'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('"connection": "Endpoint=https://bus.example/;Key=***"');
      expect(leaks(result.stdout + result.stderr)).toEqual([]);
      expect(puts(sandbox)).toEqual([]);
    });

    it('apply of a file that changes another field sends the stored key back exact', async ({ env, cip, sandbox }) => {
      const path = join(tempDir(), 'environments.yaml');
      writeFileSync(path, 'environments:\n  - name: alpha\n    description: new\n');
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(result.exitCode).toBe(0);
      expect(puts(sandbox).map((request) => JSON.parse(request.body) as unknown)).toEqual([
        { id: 'a1', name: 'alpha', description: 'new', connection: CONNECTION, tags: ['plain', `k=${KEY}`] },
      ]);
      expect(leaks(result.stdout + result.stderr)).toEqual([]);
    });

    it('export → edit another field → apply changes only that field; the masked values are kept, and said so', async ({
      sandbox,
      env,
      cip,
    }) => {
      const exported = await cip(['env', 'export'], { env });
      expect(exported.exitCode).toBe(0);
      expect(exported.stdout).toContain('connection: Endpoint=https://bus.example/;Key=***');
      expect(exported.stdout).toContain('- k=***');
      expect(leaks(exported.stdout)).toEqual([]);
      expect(exported.stderr).toContain("Values that hold a key in use are written with the key as ***; 'env apply' keeps them");
      const path = join(tempDir(), 'environments.yaml');
      writeFileSync(path, exported.stdout.replace('description: old', 'description: new'));
      expect(readFileSync(path, 'utf8')).toContain('description: new');

      const diff = await cip(['env', 'diff', '--file', path, '-o', 'table'], { env: { ...env, NO_COLOR: '1' } });
      expect(diff.exitCode).toBe(0);
      expect(diff.stdout).toBe('~ update name \'alpha\' (a1)\n    description: "old" → "new"\n');
      expect(diff.stderr).toContain("Kept 2 values shown masked (***) as the server holds them (name 'alpha': connection, tags[1]).");

      const applied = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(applied.exitCode).toBe(0);
      expect(applied.stderr).toContain("(name 'alpha': connection, tags[1])");
      expect(puts(sandbox).map((request) => JSON.parse(request.body) as unknown)).toEqual([
        { id: 'a1', name: 'alpha', description: 'new', connection: CONNECTION, tags: ['plain', `k=${KEY}`] },
      ]);
      expect(leaks(applied.stdout + applied.stderr + diff.stdout + diff.stderr)).toEqual([]);

      sandbox.reset();
      const again = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(again.exitCode).toBe(0);
      expect(again.stderr).toContain('No changes');
      expect(puts(sandbox)).toEqual([]);
    });
  });

  describe('a field whose name holds a key', () => {
    it('is exported with its name masked, and apply of the edited file puts back the field, never a field named ***', async ({
      sandbox,
      env,
      cip,
    }) => {
      seedSandbox(sandbox, [JSON.stringify({ id: 'a1', name: 'alpha', description: 'old', [`route-${KEY}`]: 'primary' })]);
      const exported = await cip(['env', 'export'], { env });
      expect(exported.exitCode).toBe(0);
      expect(exported.stdout).toContain('route-***: primary');
      const path = join(tempDir(), 'environments.yaml');
      writeFileSync(path, exported.stdout.replace('description: old', 'description: new'));

      const diff = await cip(['env', 'diff', '--file', path, '-o', 'table'], { env: { ...env, NO_COLOR: '1' } });
      expect(diff.stdout).toBe('~ update name \'alpha\' (a1)\n    description: "old" → "new"\n');
      const applied = await cip(['env', 'apply', '--file', path, '--yes'], { env });
      expect(applied.exitCode).toBe(0);
      expect(applied.stderr).toContain("(name 'alpha': route-***)");
      expect(puts(sandbox).map((request) => JSON.parse(request.body) as unknown)).toEqual([
        { id: 'a1', name: 'alpha', description: 'new', [`route-${KEY}`]: 'primary' },
      ]);
      expect(leaks(applied.stdout + applied.stderr + diff.stdout + diff.stderr + exported.stdout)).toEqual([]);
    });
  });

  describe('questions at a terminal', () => {
    it('the delete question names an environment whose name holds a key with the key as ***', async ({ sandbox, env, cip }) => {
      seedSandbox(sandbox, [JSON.stringify({ id: 'a1', name: `conn-${KEY}` })]);
      const result = await cip(['env', 'delete', 'a1'], { env, interactive: true, input: 'y\n' });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain("Delete environment 'conn-***' (a1)");
      expect(leaks(result.stdout + result.stderr)).toEqual([]);
      expect(sandbox.requests.filter((request) => request.method === 'DELETE').map((request) => request.url)).toEqual([
        expect.stringMatching(/\/Environments\/a1$/),
      ]);
    });
  });

  describe('env get → edit → env update --file', () => {
    it.for<[string[]]>([[[]], [['--replace']]])(
      'sends the masked values back as the server holds them (%j)',
      async ([extra], { env, cip, sandbox }) => {
        const shown = await cip(['env', 'get', 'alpha', '-o', 'json'], { env });
        expect(leaks(shown.stdout)).toEqual([]);
        const path = join(tempDir(), 'alpha.json');
        writeFileSync(path, shown.stdout.replace('"old"', '"new"'));
        const result = await cip(['env', 'update', 'alpha', '--file', path, ...extra], { env });
        expect(result.exitCode).toBe(0);
        expect(puts(sandbox).map((request) => JSON.parse(request.body) as unknown)).toEqual([
          { id: 'a1', name: 'alpha', description: 'new', connection: CONNECTION, tags: ['plain', `k=${KEY}`] },
        ]);
        expect(result.stderr).toContain('Kept 2 values shown masked (***) as the server holds them (connection, tags[1]).');
        expect(leaks(result.stdout + result.stderr)).toEqual([]);
      },
    );

    it('a *** the user typed is sent as typed', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'update', 'alpha', '-f', 'description=***'], { env });
      expect(result.exitCode).toBe(0);
      expect((JSON.parse(puts(sandbox)[0]!.body) as { description: string }).description).toBe('***');
      expect(result.stderr).not.toContain('Kept');
    });
  });

  describe('every output format shows the key as ***', () => {
    it.for<[string, string[], undefined | number]>([
      ['-o yaml', ['-o', 'yaml'], undefined],
      ['-o tsv', ['-o', 'tsv'], undefined],
      ['-o json', ['-o', 'json'], undefined],
      ['the record view, wrapped at a narrow terminal', ['-o', 'table'], 30],
    ] as const)('env get %s', async ([_how, format, terminalColumns], { env, cip }) => {
      const result = await cip(['env', 'get', 'alpha', ...format], {
        env: { ...env, NO_COLOR: '1' },
        ...(terminalColumns ? { terminalColumns } : {}),
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('***');
      expect(leaks(result.stdout)).toEqual([]);
      expect(result.stdout).not.toMatch(/0123|=abc/);
    });
  });

  describe('a key the server echoes as System.Text.Json writes it (\\u002B) is never printed', () => {
    const echo = `[{"id":"a1","name":"alpha","connection":"Key=${ESCAPED}"}]`;
    const answer = (sandbox: Sandbox) =>
      sandbox.inject({ fault: { kind: 'status', status: 200, body: echo, headers: { 'Content-Type': 'application/json' } } });

    it('env list --json', async ({ env, cip, sandbox }) => {
      answer(sandbox);
      const result = await cip(['env', 'list', '--json'], { env });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([{ id: 'a1', name: 'alpha', connection: 'Key=***' }]);
    });

    it('env list at a terminal, in a column too narrow for the value', async ({ env, cip, sandbox }) => {
      answer(sandbox);
      const result = await cip(['env', 'list', '--columns', 'name,connection'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 20 });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('Key=***');
      expect(leaks(result.stdout)).toEqual([]);
      expect(result.stdout).not.toMatch(/0123|=abc/);
    });

    it('cip api in a pipe: the body as it came, the key as ***', async ({ env, cip, sandbox }) => {
      answer(sandbox);
      const result = await cip(['api', 'Environments'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: '[{"id":"a1","name":"alpha","connection":"Key=***"}]', stderr: '' });
    });

    it('cip api --jq', async ({ env, cip, sandbox }) => {
      answer(sandbox);
      const result = await cip(['api', 'Environments', '--jq', '.[0].connection'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: 'Key=***\n', stderr: '' });
    });

    it('env list --jq', async ({ env, cip, sandbox }) => {
      answer(sandbox);
      const result = await cip(['env', 'list', '--jq', '.[0].connection'], { env });
      expect(result).toEqual({ exitCode: 0, stdout: 'Key=***\n', stderr: '' });
    });

    it('--verbose logs the answer with the key as ***', async ({ env, cip, sandbox }) => {
      answer(sandbox);
      const result = await cip(['env', 'list', '--json', '--verbose'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('<   body: [{"id":"a1","name":"alpha","connection":"Key=***"}]');
      expect(leaks(result.stderr)).toEqual([]);
    });

    it('--verbose redacts a body before cutting it, so the cut cannot show part of a key', async ({ sandbox, env, cip }) => {
      // The key starts 8 characters before the cut at 2,000 characters.
      const long = `[{"id":"a1","name":"${'x'.repeat(2000 - 8 - 35)}","connection":"${ESCAPED}${'y'.repeat(100)}"}]`;
      sandbox.inject({ fault: { kind: 'status', status: 200, body: long } });
      const result = await cip(['env', 'list', '--json', '--verbose'], { env });
      expect(result.exitCode).toBe(0);
      const logged = result.stderr.split('\n').find((line) => line.startsWith('<   body: '))!;
      expect(logged).toContain(`"connection":"***${'y'.repeat(4)}…`);
      expect(logged).not.toContain('"connection":"sub');
    });
  });

  describe('error lines', () => {
    it('a key the server echoes where its message is cut short (500 characters) shows no part of it', async ({ sandbox, env, cip }) => {
      const message = `${'m'.repeat(480)} ${ESCAPED} and more after it, past the cut`;
      sandbox.inject({
        fault: { kind: 'status', status: 400, body: `{"message":"${message}"}`, headers: { 'Content-Type': 'application/json' } },
      });
      const result = await cip(['env', 'list'], { env });
      expect(result.exitCode).toBe(6);
      expect(result.stderr).toMatch(/ m{480} \*\*\* and more after…\n$/);
      expect(result.stderr).not.toContain('sub+K');
    });
  });

  describe('create --if-exists update', () => {
    it('merges into the existing environment and sends its stored key back exact', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'create', '-f', 'name=alpha', '-f', 'description=new', '--if-exists', 'update'], { env });
      expect(result.exitCode).toBe(0);
      expect(puts(sandbox).map((request) => JSON.parse(request.body) as unknown)).toEqual([
        { id: 'a1', name: 'alpha', description: 'new', connection: CONNECTION, tags: ['plain', `k=${KEY}`] },
      ]);
      expect(leaks(result.stdout + result.stderr)).toEqual([]);
    });
  });
});
