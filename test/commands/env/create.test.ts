// `cip env create` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parseExactJson } from '../../../src/json/exact.js';
import { expectOneErrorLine, tempDir, sandboxTarget, sandboxEnv } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { writes, sent } from '../../helpers/requests.js';
import { type Environment, type Sandbox } from '../../../src/sandbox/index.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { lines } from '../../helpers/fitted-tables.js';
import { LIST, BY_ID } from '../../helpers/two-environments.js';
import { WIDE_SANDBOX } from '../../helpers/wide-record.js';

describe('environments as code', () => {
  const SEED = [
    '{"id":"a1","name":"alpha","type":"Test","quota":12345678901234567890,"settings":{"retention":30},"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-02T00:00:00Z"}',
    '{"id":"b2","name":"beta","type":"Production","isActive":true,"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z"}',
  ];
  test.override({ sandboxOptions: { records: SEED } });

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
});

describe('env create at its edges', () => {
  // Edges of env create, in-process against the sandbox: --if-exists fail, skip and update with --key and --dry-run
  // (what stdout and stderr say, the exit code, and which requests the server received), an environment two records
  // share, a match without an id, and the spinners a person at a terminal sees.

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
      expect(result.stderr).toBe(
        `Dry run: nothing was sent to update the existing environment 'beta' (b2)\n  ${sandboxTarget(sandbox)}.\n`,
      );
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
});

describe('the basics', () => {
  // With credentials from the environment (the CI case).

  test.override({ sandboxOptions: { seed: 3 } });

  describe('cip env create', () => {
    it('sends --data as JSON and prints the created resource', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'create', '--data', '{"name":"alpha","description":"first"}'], { env });
      expect(result.exitCode).toBe(0);
      const created = JSON.parse(result.stdout) as { id: string; name: string };
      expect(created).toMatchObject({ name: 'alpha', description: 'first' });
      expect(sandbox.environments.get(created.id)).toMatchObject({ name: 'alpha' });
      const [request] = writes(sandbox);
      expect(request!.method).toBe('POST');
      expect(request!.url).toBe('/ms/Environments');
      expect(request!.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(request!.body)).toEqual({ name: 'alpha', description: 'first' });
      expect(result.stderr).toMatch(/created/i);
    });

    it('builds the payload from --file, then --data, then typed and raw fields', async ({ sandbox, env, cip }) => {
      const dir = tempDir();
      const file = join(dir, 'env.json');
      writeFileSync(file, JSON.stringify({ name: 'from-file', region: 'westeurope', retention: 1 }));
      const result = await cip(
        [
          'env',
          'create',
          '--file',
          file,
          '--data',
          '{"retention":2,"tags":["a"]}',
          '-F',
          'retention=30',
          '-F',
          'isActive=true',
          '-F',
          'owner=null',
          '-F',
          'settings={"level":"debug"}',
          '-f',
          'code=007',
          '-f',
          'flag=true',
          '--field',
          'ratio=0.5',
        ],
        { env },
      );
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(writes(sandbox)[0]!.body)).toEqual({
        name: 'from-file',
        region: 'westeurope',
        retention: 30,
        tags: ['a'],
        isActive: true,
        owner: null,
        settings: { level: 'debug' },
        code: '007',
        flag: 'true',
        ratio: 0.5,
      });
    });

    it('reads the payload from stdin with --file -', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'create', '--file', '-'], { env, input: '{"name":"piped"}' });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(writes(sandbox)[0]!.body)).toEqual({ name: 'piped' });
      expect(JSON.parse(result.stdout)).toMatchObject({ name: 'piped' });
    });

    it('prints the record as a field/value table with -o table', async ({ env, cip }) => {
      const result = await cip(['env', 'create', '-f', 'name=tabled', '-o', 'table'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^id\s+[0-9a-f-]{36}$/m);
      expect(result.stdout).toMatch(/^name\s+tabled$/m);
    });

    const invalid: [string, string[], RegExp][] = [
      ['invalid JSON in --data', ['--data', '{"name":'], /--data is not valid JSON/],
      // The reason is Node's own, long numbers or not (it was another parser's once they were there).
      [
        'invalid JSON with a long number in --data',
        ['--data', '{"quota": 12345678901234567890,}'],
        /^error: --data is not valid JSON: Expected double-quoted property name in JSON at position 31 \(line 1 column 32\)$/,
      ],
      ['an array in --data', ['--data', '[1,2]'], /must be a JSON object, not an array/],
      ['a string in --data', ['--data', '"x"'], /must be a JSON object, not a string/],
      ['a missing file', ['--file', '/nonexistent/env.json'], /cannot read --file .*no such file/],
      ['a field without =', ['-F', 'name'], /--field expects key=value/],
      ['a broken JSON field value', ['-F', 'tags=[1,'], /looks like JSON but is not valid/],
      ['no payload at all', [], /nothing to send/],
    ];
    for (const [what, args, message] of invalid) {
      it(`refuses ${what} with exit 2 and sends nothing`, async ({ sandbox, env, cip }) => {
        const result = await cip(['env', 'create', ...args], { env });
        expect(result.exitCode).toBe(2);
        expect(expectOneErrorLine(result.stderr)).toMatch(message);
        expect(result.stdout).toBe('');
        expect(sandbox.requests).toHaveLength(0);
      });
    }

    it('a ProblemDetails 400 is exit 6 with the field errors', async ({ env, cip }) => {
      const result = await cip(['env', 'create', '-f', 'description=no name'], { env });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toBe(
        'error: cannot create the environment: the API rejected the request (HTTP 400): One or more validation errors occurred (Name: The Name field is required.)',
      );
    });

    it('an empty 201/204 answer is success with nothing on stdout', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 204 } });
      const result = await cip(['env', 'create', '-f', 'name=quiet'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
    });
  });
});

describe('what a new user hits first', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha' }] } });

  describe('the record view keeps the id whole', () => {
    it.for([20, 40, 60])('at %i columns: on one line, nothing cut, other values still wrapped', async (columns, { sandbox, cip }) => {
      const result = await cip(['env', 'create', '-f', 'name=staging', '-f', 'description=a longer description of this environment'], {
        env: sandboxEnv(sandbox, { NO_COLOR: '1' }),
        terminalColumns: columns,
      });
      expect(result.exitCode).toBe(0);
      const id = /\(([0-9a-f-]{36})\)/.exec(result.stderr)?.[1];
      expect(id).toBeDefined();
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(`id           ${id!}`);
      expect(result.stdout).not.toContain('…');
      expect(lines.slice(1).every((line) => line.length <= Math.max(columns, 'description  '.length + 10))).toBe(true);
      expect(lines.some((line) => line.startsWith('description  a longer'))).toBe(true);
    });
  });
});

describe('at a terminal', () => {
  test.override({ sandboxOptions: WIDE_SANDBOX });

  // A terminal that can show colour, where colour is asked for.
  test.override('env', ({ sandbox }) => ({ ...sandboxEnv(sandbox), TERM: 'xterm-256color' }));

  describe('a record at a terminal', () => {
    it('is field/value lines within the width, long values wrapped, no JSON', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'create', '--no-color', '--data', JSON.stringify({ name: 'rec', description: 'w'.repeat(120) })], {
        env,
        terminalColumns: 60,
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain('{');
      for (const line of lines(result.stdout)) expect(line.length).toBeLessThanOrEqual(60);
      expect(result.stdout.replace(/\s+/g, '')).toContain('w'.repeat(120));
      expect(result.stdout).toMatch(/^name\s+rec$/m);
      sandbox.environments.forEach((record, id) => {
        if (record.name === 'rec') sandbox.environments.delete(id);
      });
    });

    it('with --json is JSON, with control characters escaped for the terminal', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'create', '--json', '--data', JSON.stringify({ name: 'esc\u009b2J' })], {
        env,
        terminalColumns: 60,
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('"name": "esc\\u009b2J"');
      sandbox.environments.forEach((record, id) => {
        if (record.name === 'esc\u009b2J') sandbox.environments.delete(id);
      });
    });

    it('shows nested values as compact JSON and numbers with their digits', async ({ sandbox, env, cip }) => {
      sandbox.inject({
        fault: {
          kind: 'status',
          status: 201,
          body: '{"id":"n1","settings":{"retention":7,"tags":["a","b"]},"big":12345678901234567890,"none":null}',
        },
        method: 'POST',
      });
      const result = await cip(['env', 'create', '--no-color', '-f', 'name=x'], { env, terminalColumns: 80 });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('id        n1\nsettings  {"retention":7,"tags":["a","b"]}\nbig       12345678901234567890\nnone\n');
    });

    it('an answer of {} prints nothing', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 201, body: '{}' }, method: 'POST' });
      const result = await cip(['env', 'create', '--no-color', '-f', 'name=x'], { env, terminalColumns: 80 });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
    });

    it('a value never gets less than 10 columns, however long the field names', async ({ sandbox, env, cip }) => {
      const key = 'k'.repeat(50);
      sandbox.inject({ fault: { kind: 'status', status: 201, body: JSON.stringify({ [key]: 'v'.repeat(25) }) }, method: 'POST' });
      const result = await cip(['env', 'create', '--no-color', '-f', 'name=x'], { env, terminalColumns: 40 });
      expect(result.stdout).toBe(`${key}  vvvvvvvvvv\n${' '.repeat(52)}vvvvvvvvvv\n${' '.repeat(52)}vvvvv\n`);
    });
  });
});
