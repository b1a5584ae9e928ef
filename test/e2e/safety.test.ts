// Never act on the wrong environment, and never report success for what did not happen: exact numbers, one
// rule for which credentials a command uses, writes that name their target, and exit codes that tell the
// truth. Each case runs the built binary against sandboxes on 127.0.0.1.
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ExactNumber, parseExactJson, stringifyExactJson } from '../../src/json/exact.js';
import { type Sandbox } from '../../src/sandbox/index.js';
import { CIP, expectOneErrorLine, readConfig, sandboxEnv, spawnCip, tempDir, cip as cipSpawned } from '../helpers/cli.js';
import { cipInProcess as cip } from '../helpers/harness.js';
import { rawHttpServer } from '../helpers/raw-http.js';
import { test as base } from '../helpers/fixture.js';

const BIG = '12345678901234567890';
const STAGING_ENTERPRISE = '11111111-2222-4333-8444-555555555555';

// Each test gets the main sandbox (the fixture's, holding the exact numbers below) and a staging one of its own.
const test = base.extend<{ staging: Sandbox }>({
  staging: async ({ startSandbox }, use) => {
    await use(
      await startSandbox({
        seed: 2,
        enterpriseId: STAGING_ENTERPRISE,
        apiKey: 'staging-api-key-abcdefghijkl',
        subscriptionKey: 'staging-sub-key-mnopqrstuvwx',
      }),
    );
  },
});
const it = test;

test.override({
  sandboxOptions: {
    seed: [
      { id: new ExactNumber('9007199254740992'), name: 'keep-me' },
      { id: new ExactNumber('9007199254740993'), name: 'delete-me' },
      {
        id: 'numbers',
        name: 'numbers',
        big: new ExactNumber(BIG),
        huge: new ExactNumber('1e400'),
        price: new ExactNumber('1.50'),
        zero: new ExactNumber('-0'),
        small: 42,
        nested: { list: [new ExactNumber('9007199254740993'), 0.1] },
      },
    ],
  },
});

const writes = (target: Sandbox) => target.requests.filter((request) => request.method !== 'GET');

/** A config dir with profile 'stg2' (the staging sandbox, active) and 'prod' (the main one). */
function profiles(sandbox: Sandbox, staging: Sandbox, active = 'stg2'): string {
  const configDir = tempDir();
  const profile = (target: Sandbox) => ({
    baseUrl: target.url,
    enterpriseId: target.keys.enterpriseId,
    apiKey: target.keys.apiKey,
    subscriptionKey: target.keys.subscriptionKey,
  });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({ activeProfile: active, profiles: { stg2: profile(staging), prod: profile(sandbox) } }),
    { mode: 0o600 },
  );
  return configDir;
}

describe('numbers keep their exact digits', () => {
  it('the id a script picks from the list is the id that gets deleted (2^53 and 2^53 + 1 stay apart)', async ({ sandbox, env }) => {
    const listed = await cip(['env', 'list', '--json'], { env });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain('"id": 9007199254740992,\n    "name": "keep-me"');
    const id = /"id": (\d+),\n {4}"name": "delete-me"/.exec(listed.stdout)![1]!;
    expect(id).toBe('9007199254740993');
    const deleted = await cip(['env', 'delete', id, '--yes'], { env });
    expect(deleted.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual(['DELETE /ms/Environments/9007199254740993']);
    expect(sandbox.environments.has('9007199254740992')).toBe(true);
    expect(sandbox.environments.has('9007199254740993')).toBe(false);
  });

  it('a list shows every number as the server wrote it, in JSON and in a table', async ({ env }) => {
    const json = await cip(['env', 'list', '--json'], { env });
    for (const text of [`"big": ${BIG}`, '"huge": 1e400', '"price": 1.50', '"zero": -0', '"small": 42', '9007199254740993,\n        0.1']) {
      expect(json.stdout).toContain(text);
    }
    const table = await cip(['env', 'list', '-o', 'table', '--columns', 'id,big,huge,price,zero'], { env });
    expect(table.stdout).toMatch(new RegExp(`^numbers\\s+${BIG}\\s+1e400\\s+1\\.50\\s+-0$`, 'm'));
    expect(table.stdout).not.toMatch(/Infinity|12345678901234567000/);
  });

  it('create sends the digits given by --data, --file and -F, and prints the record with them', async ({ sandbox, env }) => {
    const file = join(tempDir(), 'env.json');
    writeFileSync(file, `{"fromFile": ${BIG}, "rate": 0.10}`);
    const result = await cip(
      ['env', 'create', '--file', file, '--data', '{"name":"exact","huge":1e400}', '-F', 'long=9007199254740993', '-F', 'list=[1.0,2e5]'],
      { env },
    );
    expect(result.exitCode).toBe(0);
    const [sent] = writes(sandbox);
    expect(sent!.body).toBe(`{"fromFile":${BIG},"rate":0.10,"name":"exact","huge":1e400,"long":9007199254740993,"list":[1.0,2e5]}`);
    for (const text of [`"fromFile": ${BIG}`, '"rate": 0.10', '"huge": 1e400', '"long": 9007199254740993', '1.0,\n    2e5']) {
      expect(result.stdout).toContain(text);
    }
  });

  it('list --json | pick one | update ID --file - sends back exactly what it read', async ({ sandbox, env }) => {
    const listed = await cip(['env', 'list', '--json'], { env });
    const items = (await parseExactJson(listed.stdout)) as Record<string, unknown>[];
    const item = items.find((candidate) => candidate.name === 'numbers')!;
    const text = stringifyExactJson(item, 2);
    const result = await cip(['env', 'update', 'numbers', '--file', '-'], { env, input: text });
    expect(result.exitCode).toBe(0);
    const [sent] = writes(sandbox);
    expect(sent!.url).toBe('/ms/Environments/numbers');
    expect(sent!.body).toBe(stringifyExactJson(item));
    expect(sent!.body).toContain(`"big":${BIG},"huge":1e400,"price":1.50,"zero":-0`);
  });
});

describe('which credentials a command uses', () => {
  it('a named profile wins over every credential variable, and the variables ignored are named', async ({ sandbox, staging, env }) => {
    const configDir = profiles(sandbox, staging, 'prod');
    const [victim] = staging.environments.keys();
    for (const [how, extra] of [
      ['--profile', ['--profile', 'stg2']],
      ['CIP_PROFILE', []],
    ] as const) {
      const result = await cip(['env', 'delete', victim!, '--yes', ...extra], {
        configDir,
        env: { ...env, ...(how === 'CIP_PROFILE' ? { CIP_PROFILE: 'stg2' } : {}) },
      });
      expect(result.exitCode).toBe(how === '--profile' ? 0 : 5);
      expect(result.stderr).toContain(
        `warning: using profile 'stg2' (named by ${how}): ignoring CIP_API_KEY, CIP_SUBSCRIPTION_KEY, CIP_ENTERPRISE_ID and CIP_BASE_URL from the environment\n`,
      );
      expect(sandbox.requests).toHaveLength(0);
    }
    // The first run deleted it; the second found it gone in the list (exit 5) and sent no DELETE.
    expect(staging.requests.map((request) => request.method)).toEqual(['GET', 'DELETE', 'GET']);
    expect(staging.requests.map((request) => request.headers.enterpriseid)).toEqual(Array(3).fill(STAGING_ENTERPRISE));
    expect(staging.requests.map((request) => request.headers.authorization)).toEqual(Array(3).fill(`ApiKey ${staging.keys.apiKey}`));
  });

  it('flags still override a named profile', async ({ sandbox, staging }) => {
    const configDir = profiles(sandbox, staging);
    const result = await cip(['env', 'list', '--profile', 'stg2', '--enterprise-id', sandbox.keys.enterpriseId], { configDir });
    expect(result.exitCode).toBe(4);
    expect(staging.requests.at(-1)!.headers.enterpriseid).toBe(sandbox.keys.enterpriseId);
  });

  it('without a named profile, variables that are set override the active profile, with a warning', async ({ sandbox, staging }) => {
    const configDir = profiles(sandbox, staging);
    const result = await cip(['env', 'list'], { configDir, env: { CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId, CIP_PROFILE: '' } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("warning: CIP_ENTERPRISE_ID from the environment overrides profile 'stg2'\n");
  });

  it.for<[string[], string]>([
    [['--profile', ''], '--profile'],
    [['--profile='], '--profile'],
    [['-p', ' '], '--profile'],
    [['--base-url', ''], '--base-url'],
    [['--enterprise-id', ''], '--enterprise-id'],
  ])('an empty value given explicitly (%j) is exit 2, and nothing is sent', async ([args, flag], { sandbox, staging, env }) => {
    const configDir = profiles(sandbox, staging);
    const result = await cip(['env', 'delete', 'x', '--yes', ...args], { configDir, env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(new RegExp(`^error: ${flag} was given an empty value`));
    expect(sandbox.requests).toHaveLength(0);
    expect(staging.requests).toHaveLength(0);
  });

  it('auth logout --profile "" removes nothing', async ({ sandbox, staging }) => {
    const configDir = profiles(sandbox, staging);
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');
    const result = await cip(['auth', 'logout', '--profile', ''], { configDir });
    expect(result.exitCode).toBe(2);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
  });

  it.for(['constructor', 'toString', 'hasOwnProperty', '__proto__'])(
    '%s is only a name: an unknown profile, nothing changed',
    async (name, { sandbox, staging }) => {
      const configDir = profiles(sandbox, staging);
      const before = readFileSync(join(configDir, 'config.json'), 'utf8');
      for (const args of [
        ['auth', 'switch', name],
        ['auth', 'logout', '--profile', name],
        ['env', 'list', '--profile', name],
      ]) {
        const result = await cip(args, { configDir });
        expect(result.exitCode).toBe(2);
        expect(expectOneErrorLine(result.stderr)).toBe(`error: unknown profile '${name}' (known profiles: stg2, prod)`);
      }
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
      expect(staging.requests).toHaveLength(0);
    },
  );

  it("a profile may be called 'constructor', and then it is found", async ({ sandbox, staging }) => {
    const configDir = profiles(sandbox, staging);
    const dir = tempDir();
    writeFileSync(join(dir, 'api'), staging.keys.apiKey);
    writeFileSync(join(dir, 'sub'), staging.keys.subscriptionKey);
    const login = await cip(
      [
        'auth',
        'login',
        '--profile',
        'constructor',
        '--no-verify',
        '--base-url',
        staging.url,
        '--enterprise-id',
        STAGING_ENTERPRISE,
        '--api-key-file',
        join(dir, 'api'),
        '--subscription-key-file',
        join(dir, 'sub'),
      ],
      { configDir },
    );
    expect(login.exitCode).toBe(0);
    expect(Object.keys((readConfig(configDir) as { profiles: object }).profiles)).toEqual(['stg2', 'prod', 'constructor']);
    expect((await cip(['auth', 'switch', 'constructor'], { configDir })).exitCode).toBe(0);
    expect((await cip(['env', 'list'], { configDir })).exitCode).toBe(0);
  });

  it('auth status says which profile a command would use and where each value comes from, CIP_PROFILE included', async ({
    sandbox,
    staging,
    env,
  }) => {
    const configDir = profiles(sandbox, staging);
    const result = await cip(['auth', 'status', '--json'], { configDir, env: { CIP_PROFILE: 'prod', CIP_API_KEY: 'x'.repeat(24) } });
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as { name: string; inUse: boolean }[]).map(({ name, inUse }) => [name, inUse])).toEqual([
      ['stg2', false],
      ['prod', true],
    ]);
    expect(result.stderr).toContain("warning: using profile 'prod' (named by CIP_PROFILE): ignoring CIP_API_KEY from the environment\n");
    expect(result.stderr).toContain("A command run now would use profile 'prod' (named by CIP_PROFILE):\n");
    expect(result.stderr).toMatch(new RegExp(`^  base URL +${sandbox.url.replace(/[.]/g, '\\.')}  \\(from profile 'prod'\\)$`, 'm'));
    expect(result.stderr).toMatch(/^ {2}API key +\*{4}6789 {2}\(from profile 'prod'\)$/m);

    const flagged = await cip(['auth', 'status', '--enterprise-id', STAGING_ENTERPRISE], {
      configDir,
      env: { CIP_SUBSCRIPTION_KEY: 'y'.repeat(24) },
    });
    expect(flagged.stderr).toContain("A command run now would use profile 'stg2' (the active profile):\n");
    expect(flagged.stderr).toMatch(/^ {2}enterprise id +11111111-2222-4333-8444-555555555555 {2}\(from --enterprise-id\)$/m);
    expect(flagged.stderr).toMatch(/^ {2}subscription key +\*{4}yyyy {2}\(from CIP_SUBSCRIPTION_KEY\)$/m);

    const fromEnv = await cip(['auth', 'status'], { env });
    expect(fromEnv.exitCode).toBe(0);
    expect(fromEnv.stderr).toContain('A command run now would use no profile (every credential from the environment):\n');
  });

  it('the 401 hint names where the keys came from', async ({ sandbox, staging, env }) => {
    const configDir = profiles(sandbox, staging);
    const fromProfile = await cip(['env', 'list'], { configDir, env: { CIP_API_KEY: 'wrong-key-0123456789' } });
    expect(fromProfile.exitCode).toBe(3);
    expect(expectOneErrorLine(fromProfile.stderr)).toMatch(
      /\(check the keys: the API key came from CIP_API_KEY, the subscription key from profile 'stg2'\)$/,
    );
    const fromEnv = await cip(['env', 'list'], { env: { ...env, CIP_API_KEY: 'wrong-key-0123456789' } });
    expect(expectOneErrorLine(fromEnv.stderr)).toMatch(
      /\(check CIP_API_KEY and CIP_SUBSCRIPTION_KEY: the keys came from the environment\)$/,
    );
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({
        activeProfile: 'bad',
        profiles: {
          bad: {
            baseUrl: sandbox.url,
            enterpriseId: sandbox.keys.enterpriseId,
            apiKey: 'wrong-key-0123456789',
            subscriptionKey: sandbox.keys.subscriptionKey,
          },
        },
      }),
    );
    const stored = await cip(['env', 'list'], { configDir });
    expect(expectOneErrorLine(stored.stderr)).toMatch(/\(check the keys of profile 'bad'; 'cip auth login --profile bad' replaces them\)$/);
  });
});

describe('writes say what they did, and to whom', () => {
  it('create, update and delete each end naming the environment, then the profile and enterprise on a line of their own', async ({
    sandbox,
    staging,
  }) => {
    const configDir = profiles(sandbox, staging, 'prod');
    const created = await cip(['env', 'create', '-f', 'name=review-42'], { configDir });
    expect(created.exitCode).toBe(0);
    const id = String(JSON.parse(created.stdout).id);
    const where = `in profile 'prod', enterprise ${sandbox.keys.enterpriseId} at 127.0.0.1:${sandbox.port}`;
    expect(created.stderr).toBe(`Created environment 'review-42' (${id})\n  ${where}.\n`);
    const updated = await cip(['env', 'update', id, '-f', 'name=review-43'], { configDir });
    expect(updated.stderr).toBe(`Updated environment 'review-43' (${id})\n  ${where}.\n`);
    const deleted = await cip(['env', 'delete', id, '--yes'], { configDir });
    expect(deleted.stderr).toBe(`Deleted environment 'review-43' (${id})\n  ${where}.\n`);
    const quiet = await cip(['env', 'create', '-f', 'name=q', '--quiet'], { configDir });
    expect(quiet.stderr).toBe('');
  });

  it("update refuses a payload whose id is another environment's, and sends nothing", async ({ sandbox, env }) => {
    for (const body of ['{"id":"keep-me-too","name":"x"}', '{"Id":9007199254740992,"name":"x"}', '{"ID":["numbers"]}']) {
      const result = await cip(['env', 'update', 'numbers', '--file', '-'], { env, input: body });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /^error: the payload's (id|Id|ID) \(.*\) is not the environment being updated \('numbers'\) \(nothing was sent;/,
      );
    }
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
    const same = await cip(['env', 'update', '9007199254740992', '--data', '{"id":9007199254740992,"name":"keep-me"}'], { env });
    expect(same.exitCode).toBe(0);
    const nullId = await cip(['env', 'update', 'numbers', '--data', '{"id":null,"name":"numbers"}', '-F', `big=${BIG}`], { env });
    expect(nullId.exitCode).toBe(0);
  });

  it.for(['.', '..'])('%j is looked up as a name: no environment has it, so nothing is written (exit 5)', async (id, { sandbox, env }) => {
    for (const args of [
      ['env', 'delete', id, '--yes'],
      ['env', 'update', id, '-f', 'name=x'],
      ['env', 'delete', 'numbers', id, '--yes'],
    ]) {
      const result = await cip(args, { env });
      expect(result.exitCode).toBe(5);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: no environment has the id or name '${id}' (nothing was sent; 'cip env list' shows the ids and names)`,
      );
    }
    expect(writes(sandbox)).toHaveLength(0);
  });
});

describe('exit codes tell the truth', () => {
  it('a closed stderr does not stop a multi-delete half-way, nor turn it into success', async ({ sandbox, staging }) => {
    const ids = ['a', 'b', 'c'];
    for (const id of ids) staging.environments.set(id, { id, name: id });
    const configDir = profiles(sandbox, staging);
    const script = `node ${CIP} env delete a b c --yes 2>&1 >/dev/null | head -c0; echo "cip=\${PIPESTATUS[0]}"`;
    const result = await execa('bash', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: configDir, CIP_CONFIG_DIR: configDir },
      extendEnv: false,
      reject: false,
    });
    expect(result.stdout).toBe('cip=0');
    for (const id of ids) expect(staging.environments.has(id)).toBe(false);
    expect(staging.requests.filter((request) => request.method === 'DELETE')).toHaveLength(3);

    staging.environments.set('a', { id: 'a', name: 'a' });
    const failing = `node ${CIP} env delete a missing --yes 2>&1 >/dev/null | head -c0; echo "cip=\${PIPESTATUS[0]}"`;
    const failed = await execa('bash', ['-c', failing], {
      env: { PATH: process.env.PATH, HOME: configDir, CIP_CONFIG_DIR: configDir },
      extendEnv: false,
      reject: false,
    });
    expect(failed.stdout).toBe('cip=5');
  });

  it('a delete whose answer was lost and whose retry finds nothing is done: exit 0, said so', async ({ sandbox, env }) => {
    sandbox.environments.set('lost', { id: 'lost', name: 'lost-answer' });
    sandbox.inject({ fault: { kind: 'reset-after' }, method: 'DELETE' });
    const result = await cip(['env', 'delete', 'lost', '--yes'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(
      /^The environment 'lost-answer' \(lost\) was already gone: an earlier attempt deleted it, but its answer was lost\n {2}in enterprise .*\.\n$/,
    );
    expect(sandbox.requests.map((request) => request.method)).toEqual(['GET', 'DELETE', 'DELETE']);
    // A 404 at the first attempt still means it was not there.
    sandbox.environments.set('lost', { id: 'lost', name: 'lost-answer' });
    sandbox.inject({ fault: { kind: 'status', status: 404 }, method: 'DELETE' });
    const wrong = await cip(['env', 'delete', 'lost', '--yes'], { env });
    expect(wrong.exitCode).toBe(5);
  });

  it('an interrupted multi-delete says what was deleted, what was under way and what was not attempted', async ({ sandbox, env }) => {
    for (const id of ['i1', 'i2', 'i3']) sandbox.environments.set(id, { id, name: `review-${id.slice(1)}` });
    let release!: () => void;
    sandbox.inject({
      fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) },
      method: 'DELETE',
      match: (request) => request.url.endsWith('/i2'),
    });
    // One at a time, so that i3 waits behind the held i2.
    const child = spawnCip(['env', 'delete', 'i1', 'i2', 'i3', '--yes', '--concurrency', '1'], { env });
    await sandbox.waitForRequest((request) => request.method === 'DELETE' && request.url.endsWith('/i2'));
    child.kill('SIGINT');
    const result = await child;
    release();
    expect(result.exitCode).toBe(130);
    // Said last, after any other line, with the command that finishes the job.
    expect(result.stderr).toMatch(
      /\nwarning: interrupted: deleted review-1 \(i1\); review-2 \(i2\) may or may not have been deleted \(its request was under way\); not attempted: review-3 \(i3\); to finish: cip env delete i2 i3 --if-missing ok --yes\n$/,
    );
    expect(sandbox.environments.has('i1')).toBe(false);
    expect(sandbox.environments.has('i3')).toBe(true);
    expect(sandbox.requests.filter((request) => request.url.endsWith('/i3'))).toHaveLength(0);
    // That command, run, finishes it.
    const finished = await cip(['env', 'delete', 'i2', 'i3', '--if-missing', 'ok', '--yes'], { env });
    expect(finished.exitCode).toBe(0);
    expect(sandbox.environments.has('i2') || sandbox.environments.has('i3')).toBe(false);
  });

  it('a multi-delete with an id that is not there deletes nothing: every id is looked up first', async ({ sandbox, env }) => {
    for (const id of ['f1', 'f3']) sandbox.environments.set(id, { id, name: id });
    const result = await cip(['env', 'delete', 'f1', 'f2', 'f3', '--yes'], { env });
    expect(result.exitCode).toBe(5);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: no environment has the id or name 'f2'/);
    expect(sandbox.environments.has('f1')).toBe(true);
    expect(sandbox.environments.has('f3')).toBe(true);
  });

  // Spawned: each run of cip opens its own connections; in one process they would be pooled across runs.
  it('a 2xx is success whatever its reason phrase; a status outside 200-599 is a broken answer, never retried', async ({ env }) => {
    const server = await rawHttpServer();
    try {
      const rawEnv = { ...env, CIP_BASE_URL: server.url };
      server.respond('HTTP/1.1 201 已创建\r\nContent-Type: application/json\r\nContent-Length: 24\r\n\r\n{"id":"n1","name":"new"}');
      const created = await cipSpawned(['env', 'create', '-f', 'name=new'], { env: rawEnv });
      expect(created.exitCode).toBe(0);
      expect(JSON.parse(created.stdout)).toEqual({ id: 'n1', name: 'new' });
      expect(server.requests).toHaveLength(1);

      server.respond('HTTP/1.1 200 OK\u0007\u001b]0;x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]');
      const listed = await cipSpawned(['env', 'list', '--verbose'], { env: rawEnv });
      expect(listed.exitCode).toBe(0);
      expect(listed.stdout).toBe('[]\n');
      expect(listed.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
      expect(server.requests).toHaveLength(2);

      for (const args of [
        ['env', 'create', '-f', 'name=x'],
        ['env', 'list'],
        ['env', 'delete', 'n1', '--yes'],
      ]) {
        server.requests.length = 0;
        server.respond('HTTP/1.1 600 Nonsense\r\nContent-Length: 0\r\n\r\n');
        const broken = await cipSpawned(args, { env: rawEnv });
        expect(broken.exitCode).toBe(7);
        expect(expectOneErrorLine(broken.stderr)).toMatch(/the API answered with an invalid HTTP status \(600\)$/);
        expect(server.requests).toHaveLength(1);
      }
    } finally {
      await server.close();
    }
  });

  it('output that cannot be written is one error line and a failure, not a crash', async ({ env }) => {
    const result = await execa('bash', ['-c', `node ${CIP} env list > /dev/full`], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...env },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toBe('error: cannot write the output to stdout: ENOSPC (no space left on device)');
  });

  it('output into a regular file that fills up part-way (a file-size limit) is the same error line and exit code, not a cut-short success', async ({
    startSandbox,
  }) => {
    // Ten environments are one write of several KiB; bash counts ulimit -f in KiB, so that write is cut short at the
    // limit and the rest of it fails. (Node's own stream for a file dropped the rest and reported success.)
    const ten = await startSandbox({ seed: 10 });
    const out = join(tempDir(), 'list.json');
    const result = await execa('bash', ['-c', `ulimit -f 1; exec node ${CIP} env list -o json > ${out}`], {
      env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: tempDir(), ...sandboxEnv(ten) },
      extendEnv: false,
      reject: false,
    });
    expect(readFileSync(out)).toHaveLength(1024);
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toBe('error: cannot write the output to stdout: EFBIG (file too large)');
  });
});
