// The journal of writes (domain/journal/, config/journal-file.ts), `env history` and `env restore`: what each
// write records and when, that a restore puts an environment back exactly, and what a restore refuses.
import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../../src/json/exact.js';
import { expectOneErrorLine, seedSandbox, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/journal.js';
import { writes } from '../helpers/requests.js';
import { ALPHA, journalFile, type Entry, history, JOURNAL_SANDBOX, answerCreateWith } from '../helpers/journal-entries.js';

test.override({ sandboxOptions: JOURNAL_SANDBOX });

describe('every write is recorded', () => {
  it('create, update, delete, apply and cip api, newest first, with what each sent and answered', async ({ sandbox, run }) => {
    expect((await run(['env', 'create', '-f', 'name=gamma'])).exitCode).toBe(0);
    expect((await run(['env', 'update', 'beta', '-f', 'description=changed'])).exitCode).toBe(0);
    expect((await run(['env', 'delete', 'e1', '--yes'])).exitCode).toBe(0);
    const file = join(tempDir(), 'envs.json');
    writeFileSync(file, JSON.stringify({ environments: [{ name: 'delta' }, { name: 'beta', description: 'applied' }] }));
    expect((await run(['env', 'apply', '--file', file, '--yes', '--concurrency', '1'])).exitCode).toBe(0);
    expect(
      (await run(['api', 'Environments/e2', '-X', 'PUT', '--input', '-'], { input: '{"id":"e2","name":"beta","description":"put"}' }))
        .exitCode,
    ).toBe(0);
    expect((await run(['api', 'Environments'])).exitCode).toBe(0);

    const entries = await history(run);
    expect(entries.map((entry) => [entry.command, entry.action, entry.environment.name, entry.result])).toEqual([
      ['api', 'request', null, 'done'],
      ['env apply', 'update', 'beta', 'done'],
      ['env apply', 'create', 'delta', 'done'],
      ['env delete', 'delete', 'alpha', 'done'],
      ['env update', 'update', 'beta', 'done'],
      ['env create', 'create', 'gamma', 'done'],
    ]);
    const [api, , applied, deleted, updated, created] = entries;
    // cip api: the body as the text sent, the environment from the URL, the status answered; a GET is not recorded.
    expect(api!.request).toMatchObject({ method: 'PUT', text: '{"id":"e2","name":"beta","description":"put"}' });
    expect(api!.environment.id).toBe('e2');
    expect(api!.status).toBe(200);
    expect(api!.before).toBeNull();
    // A POST to the collection through cip api: the new id, as answered.
    await run(['api', 'Environments', '-f', 'name=by-api']);
    const [posted] = await history(run);
    const byApi = [...sandbox.environments.values()].find((record) => record.name === 'by-api')!;
    expect(posted).toMatchObject({ command: 'api', answeredId: byApi.id, status: 201 });
    expect((await history(run, [String(byApi.id)])).map((found) => found.entry)).toEqual([posted!.entry]);
    // A create records the id the server gave it.
    const gamma = [...sandbox.environments.values()].find((record) => record.name === 'gamma')!;
    expect(created!.answeredId).toBe(gamma.id);
    expect(created!.before).toBeNull();
    expect(applied!.answeredId).not.toBeNull();
    // An update and a delete record the record as the list gave it before, exactly.
    expect(updated!.before).toEqual({ id: 'e2', name: 'beta', description: 'second', tags: ['a'] });
    expect(updated!.request.body).toEqual({ id: 'e2', name: 'beta', description: 'changed', tags: ['a'] });
    expect(stringifyExactJson(deleted!.before)).toBe(ALPHA);
    expect(deleted!.request).toEqual({ method: 'DELETE', url: `${sandbox.url}/Environments/e1` });
  });

  it('in a table at a terminal: ENTRY, WHEN, ACTION, ENVIRONMENT, PROFILE/ENTERPRISE, RESULT; filtered by id or name; --limit', async ({
    env,
    cip,
    configDir,
    run,
  }) => {
    await run(['env', 'update', 'e1', '-f', 'description=x']);
    await run(['env', 'delete', 'beta', '--yes']);
    const table = await cip(['env', 'history'], { env, configDir, terminalColumns: 200 });
    expect(table.exitCode).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ENTRY\s+WHEN\s+ACTION\s+ENVIRONMENT\s+PROFILE\/ENTERPRISE\s+RESULT$/);
    expect(lines[1]).toMatch(/^\w{13}\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+delete\s+beta \(e2\)\s+\(environment\) \/ [-0-9a-f]+\s+done$/);
    expect(lines[2]).toMatch(/update\s+alpha \(e1\)/);
    expect((await history(run, ['alpha'])).map((entry) => entry.action)).toEqual(['update']);
    expect((await history(run, ['e2'])).map((entry) => entry.action)).toEqual(['delete']);
    const limited = await run(['env', 'history', '--json', '--limit', '1']);
    expect(((await parseExactJson(limited.stdout)) as Entry[]).map((entry) => entry.action)).toEqual(['delete']);
    expect(limited.stderr).toBe('The newest 1 of 2 entries; --limit 0 shows all.\n');
    // History reads no network: it works with no credentials at all.
    const offline = await cip(['env', 'history', '--json'], { configDir });
    expect(offline.exitCode).toBe(0);
    expect(JSON.parse(offline.stdout)).toHaveLength(2);
  });

  it('records the "sent" line before the request goes out', async ({ sandbox, configDir, run }) => {
    let release!: () => void;
    sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, method: 'DELETE' });
    const running = run(['env', 'delete', 'e2', '--yes']);
    await sandbox.waitForRequest((request) => request.method === 'DELETE');
    const lines = readFileSync(journalFile(configDir), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: 'sent', action: 'delete', environment: { id: 'e2', name: 'beta' } });
    release();
    expect((await running).exitCode).toBe(0);
    expect(readFileSync(journalFile(configDir), 'utf8').trimEnd().split('\n')).toHaveLength(2);
  });

  it('an interrupted write (Ctrl-C while the server holds it) is "unknown", and restore needs --force for it', async ({
    sandbox,
    env,
    cip,
    configDir,
    run,
  }) => {
    let release!: () => void;
    sandbox.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, method: 'DELETE' });
    const controller = new AbortController();
    const running = run(['env', 'delete', 'e2', '--yes'], { signal: controller.signal });
    await sandbox.waitForRequest((request) => request.method === 'DELETE');
    controller.abort();
    const result = await running;
    release();
    expect(result.exitCode).toBe(130);
    const [entry] = await history(run);
    expect(entry).toMatchObject({ action: 'delete', result: 'unknown' });
    const table = await cip(['env', 'history'], { env, configDir, terminalColumns: 200 });
    expect(table.stdout).toMatch(/delete\s+beta \(e2\).*unknown\n$/);
    const refused = await run(['env', 'restore', entry!.entry, '--yes']);
    expect(refused.exitCode).toBe(6);
    expect(expectOneErrorLine(refused.stderr)).toContain(`entry ${entry!.entry} has no known outcome`);
  });

  it('a failed write is recorded as failed, with its status', async ({ sandbox, run }) => {
    sandbox.inject({ fault: { kind: 'status', status: 409, body: '{"message":"busy"}' }, method: 'PUT' });
    expect((await run(['env', 'update', 'e2', '-f', 'x=1'])).exitCode).toBe(6);
    const [entry] = await history(run);
    expect(entry).toMatchObject({ action: 'update', result: 'failed', status: 409 });
    expect(entry!.error).toContain('busy');
    const refused = await run(['env', 'restore', entry!.entry, '--yes']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('it changed nothing, so there is nothing to restore');
  });

  it('never holds the keys: no header, and an answer that echoes a key is not kept; the file is private (0600)', async ({
    sandbox,
    configDir,
    run,
  }) => {
    // A server that echoes the subscription key in its answer.
    answerCreateWith(sandbox, `{"id":"n1","name":"echo","seen":"${sandbox.keys.subscriptionKey}"}`);
    expect((await run(['env', 'create', '-f', 'name=echo'])).exitCode).toBe(0);
    expect((await run(['env', 'delete', 'e2', '--yes'])).exitCode).toBe(0);
    const text = readFileSync(journalFile(configDir), 'utf8');
    for (const key of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) expect(text).not.toContain(key);
    expect(text).not.toMatch(/ApiKey|Authorization|Ocp-Apim/i);
    expect(text).not.toContain('***');
    const [, created] = await history(run);
    expect(created).toMatchObject({ action: 'create', answeredId: 'n1', result: 'done' });
    if (process.platform !== 'win32') expect(statSync(journalFile(configDir)).mode & 0o777).toBe(0o600);
  });

  it('never holds a key sent as data: a body or record holding one is left out (never masked), and restore says why it cannot', async ({
    sandbox,
    configDir,
    run,
  }) => {
    const key = sandbox.keys.apiKey;
    // A field someone set to the API key, then an update of it, a delete of it, and a cip api call with it.
    expect((await run(['env', 'create', '-f', 'name=leaky', '-f', `token=${key}`])).exitCode).toBe(0);
    expect((await run(['env', 'update', 'leaky', '-f', 'description=x'])).exitCode).toBe(0);
    expect((await run(['env', 'delete', 'leaky', '--yes'])).exitCode).toBe(0);
    expect(
      (await run(['api', `Environments?probe=${key}`, '-X', 'POST', '--input', '-'], { input: `{"name":"raw","k":"${key}"}` })).exitCode,
    ).toBe(0);
    const text = readFileSync(journalFile(configDir), 'utf8');
    expect(text).not.toContain(key);
    // Only the URL, which no restore sends again, is kept masked.
    expect(text.match(/\*\*\*/g)).toHaveLength(1);
    const [api, deleted, updated, created] = await history(run);
    expect(api!.request.url).toBe(`${sandbox.url}/Environments?probe=***`);
    // The answers echoed the key too: their records are left out, and said so.
    expect(created).toMatchObject({ action: 'create', withheld: ['request body', 'record'], request: { method: 'POST' }, record: null });
    expect(created!.request).not.toHaveProperty('body');
    expect(updated).toMatchObject({ action: 'update', withheld: ['request body', 'before', 'record'], before: null, record: null });
    expect(deleted).toMatchObject({ action: 'delete', withheld: ['before'], before: null });
    expect(api).toMatchObject({ action: 'request', withheld: ['request body', 'record'] });
    const restore = await run(['env', 'restore', deleted!.entry, '--yes']);
    expect(restore.exitCode).toBe(2);
    expect(expectOneErrorLine(restore.stderr)).toContain(
      `error: entry ${deleted!.entry} cannot be restored: its before held one of the keys in use, and the journal never keeps a key`,
    );
    expect(restore.stderr).not.toContain(key);
  });

  it('create --if-exists update records an update with the record before; dry runs record nothing', async ({ configDir, run }) => {
    expect((await run(['env', 'create', '-f', 'name=beta', '-f', 'description=merged', '--if-exists', 'update'])).exitCode).toBe(0);
    expect(await history(run)).toMatchObject([
      { command: 'env create', action: 'update', environment: { id: 'e2', name: 'beta' }, before: { id: 'e2', description: 'second' } },
    ]);
    const before = readFileSync(journalFile(configDir), 'utf8');
    const file = join(tempDir(), 'envs.json');
    writeFileSync(file, JSON.stringify({ environments: [{ name: 'new-one' }] }));
    for (const args of [
      ['env', 'create', '-f', 'name=x', '--dry-run'],
      ['env', 'update', 'e2', '-f', 'x=1', '--dry-run'],
      ['env', 'delete', 'e2', '--dry-run'],
      ['env', 'apply', '--file', file, '--prune', '--dry-run'],
    ]) {
      expect((await run(args)).exitCode).toBe(0);
    }
    expect(readFileSync(journalFile(configDir), 'utf8')).toBe(before);
  });

  it('CIP_JOURNAL=off and --no-journal write nothing', async ({ configDir, run }) => {
    expect((await run(['env', 'update', 'e2', '-f', 'x=1'], { env: { CIP_JOURNAL: 'off' } })).exitCode).toBe(0);
    expect((await run(['--no-journal', 'env', 'delete', 'e2', '--yes'])).exitCode).toBe(0);
    expect((await run(['api', 'Environments', '-f', 'name=z', '--no-journal'])).exitCode).toBe(0);
    expect(existsSync(journalFile(configDir))).toBe(false);
    const empty = await run(['env', 'history']);
    expect(empty).toEqual({ exitCode: 0, stdout: '[]\n', stderr: 'The journal holds no changes yet.\n' });
  });

  it('a journal that cannot be written is said once, and the writes go on', async ({ sandbox, configDir, run }) => {
    mkdirSync(journalFile(configDir));
    const file = join(tempDir(), 'envs.json');
    writeFileSync(file, JSON.stringify({ environments: [{ name: 'one' }, { name: 'two' }] }));
    const result = await run(['env', 'apply', '--file', file, '--yes']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr.match(/cannot write the journal/g)).toHaveLength(1);
    expect(result.stderr).toContain(`warning: cannot write the journal ${journalFile(configDir)} (EISDIR`);
    expect(result.stderr).toContain("this run's changes are not recorded, and 'cip env restore' cannot undo them\n");
    expect(writes(sandbox)).toHaveLength(2);
  });

  it('lines another tool wrote are skipped with a warning; the file is left as it is', async ({ configDir, run }) => {
    await run(['env', 'delete', 'e2', '--yes']);
    const original = readFileSync(journalFile(configDir), 'utf8');
    const garbled = `not json\n${original}{"entry":42}\n\u0000\u0001binary\n{"v":1,"entry":"x","event":"answered"}\n`;
    writeFileSync(journalFile(configDir), garbled);
    const result = await run(['env', 'history', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(1);
    expect(result.stderr).toBe(
      `warning: skipped 4 lines of the journal ${journalFile(configDir)} that cip cannot read (lines 1, 4, 5, 6); the file is left as it is\n`,
    );
    expect(readFileSync(journalFile(configDir), 'utf8')).toBe(garbled);
    // A write appends after a line left without its end, never onto it.
    writeFileSync(journalFile(configDir), `${garbled}torn`);
    await run(['env', 'update', 'e1', '-f', 'x=1']);
    const lines = readFileSync(journalFile(configDir), 'utf8').split('\n');
    expect(lines.slice(6, 8)).toEqual(['torn', expect.stringMatching(/^\{"v":1,.*"event":"sent"/)]);
  });
});

describe('a hostile tester', () => {
  it('an update restored after its environment was deleted and re-created follows it to its new id', async ({ sandbox, run }) => {
    await run(['env', 'update', 'beta', '-f', 'description=changed']);
    await run(['env', 'delete', 'beta', '--yes']);
    const [deleted, updated] = await history(run);
    expect((await run(['env', 'restore', deleted!.entry, '--yes'])).exitCode).toBe(0);
    const [recreated] = await history(run);
    const newId = recreated!.answeredId!;
    expect(newId).not.toBe('e2');
    sandbox.reset();
    const result = await run(['env', 'restore', updated!.entry, '--yes']);
    expect(result.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual([`PUT /ms/Environments/${newId}`]);
    expect(sandbox.environments.get(newId)).toMatchObject({ name: 'beta', description: 'second', tags: ['a'] });
  });

  it('a bound that is not a positive number is exit 2 before anything is read or sent', async ({ sandbox, run }) => {
    const result = await run(['env', 'delete', 'e2', '--yes'], { env: { CIP_JOURNAL_DAYS: 'thirty' } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: CIP_JOURNAL_DAYS must be a positive number, not 'thirty'");
    expect(sandbox.requests).toHaveLength(0);
    // Turned off, the journal's bounds do not matter.
    expect((await run(['env', 'delete', 'e2', '--yes'], { env: { CIP_JOURNAL: 'off', CIP_JOURNAL_MAX_MB: '-1' } })).exitCode).toBe(0);
  });

  it('names with control characters, quotes, ".." and unicode: escaped in the table, exact in JSON', async ({
    sandbox,
    env,
    cip,
    configDir,
    run,
  }) => {
    await seedSandbox(sandbox, ['{"id":"odd","name":"evil\\u001b[31m; rm -rf / ..\\u202e名"}']);
    expect((await run(['env', 'delete', 'odd', '--yes'])).exitCode).toBe(0);
    const table = await cip(['env', 'history'], { env, configDir, terminalColumns: 200 });
    expect(table.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(table.stdout).toContain('evil\\u001b[31m; rm -rf / ..\\u202e名 (odd)');
    const [entry] = await history(run);
    expect(entry!.environment.name).toBe('evil\u001b[31m; rm -rf / ..\u202e名');
    expect((await history(run, ['evil\u001b[31m; rm -rf / ..\u202e名'])).map((found) => found.entry)).toEqual([entry!.entry]);
  });

  it('a line planted in the file for another enterprise is not restored there; one with an id that changes the path sends nothing', async ({
    sandbox,
    configDir,
    run,
  }) => {
    await run(['env', 'update', 'e2', '-f', 'x=1']);
    const line = readFileSync(journalFile(configDir), 'utf8').split('\n')[0]!;
    const planted = JSON.parse(line) as Record<string, unknown>;
    writeFileSync(
      journalFile(configDir),
      `${JSON.stringify({ ...planted, entry: 'plantedother1', enterprise: '99999999-0000-4000-8000-000000000000' })}\n` +
        `${JSON.stringify({ ...planted, entry: 'plantedpath01', environment: { id: '..', name: null } })}\n` +
        `${JSON.stringify({ ...planted, entry: 'plantedpath01', event: 'answered', result: 'done', status: null, id: '..', record: null, error: null })}\n`,
    );
    sandbox.reset();
    const other = await run(['env', 'restore', 'plantedother1', '--yes', '--force']);
    expect(other.exitCode).toBe(2);
    expect(expectOneErrorLine(other.stderr)).toContain('was made in enterprise');
    const path = await run(['env', 'restore', 'plantedpath01', '--yes', '--force']);
    expect(path.exitCode).toBe(5);
    expect(writes(sandbox)).toHaveLength(0);
  });
});
