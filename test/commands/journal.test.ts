// The journal of writes (domain/journal/, config/journal-file.ts), `env history` and `env restore`: what each
// write records and when, that a restore puts an environment back exactly, and what a restore refuses.
import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../../src/json/exact.js';
import { expectOneErrorLine, loginArgs, seedSandbox, tempDir } from '../helpers/cli.js';
import { it, test, type Run } from '../helpers/journal.js';
import { writes } from '../helpers/requests.js';

/** Every field a restore must bring back as it was: digits a double cannot hold, nesting, unicode, escapes. */
const ALPHA =
  '{"id":"e1","name":"alpha","price":12345678901234567890.000,"ratio":1.50,"big":1e400,"nested":{"deep":{"list":[1,{"x":null}],"empty":{}}},"title":"Größe 漢字 🚀","quote":"a\\"b\\\\c\\n\\u0001","flag":false,"createdAt":"2020-01-01T00:00:00Z","updatedAt":"2021-01-01T00:00:00Z"}';

test.override({ sandboxOptions: { records: [ALPHA, '{"id":"e2","name":"beta","description":"second","tags":["a"]}'] } });

const journalFile = (configDir: string) => join(configDir, 'journal.jsonl');

interface Entry {
  entry: string;
  command: string;
  action: string;
  result: string;
  environment: { id: string | null; name: string | null };
  request: { method: string; url: string; body?: unknown; text?: string };
  before: unknown;
  answeredId: string | null;
  status: number | null;
  restores?: string;
  error: string | null;
}

async function history(run: Run, args: string[] = []): Promise<Entry[]> {
  const result = await run(['env', 'history', '--json', ...args]);
  expect(result.exitCode).toBe(0);
  return (await parseExactJson(result.stdout)) as Entry[];
}

/** A record without the fields the server owns, as JSON text (numbers with their digits, keys in order). */
async function withoutServerFields(record: unknown): Promise<string> {
  const copy = (await parseExactJson(stringifyExactJson(record))) as Record<string, unknown>;
  for (const field of ['id', 'createdAt', 'updatedAt']) Reflect.deleteProperty(copy, field);
  return stringifyExactJson(copy);
}

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
    sandbox.inject({
      fault: {
        kind: 'status',
        status: 201,
        body: `{"id":"n1","name":"echo","seen":"${sandbox.keys.subscriptionKey}"}`,
        headers: { 'content-type': 'application/json' },
      },
      method: 'POST',
    });
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

describe('env restore', () => {
  it('after a delete brings back every field byte for byte (the server gives it a new id), and records it', async ({ sandbox, run }) => {
    const before = await withoutServerFields(sandbox.environments.get('e1'));
    expect((await run(['env', 'delete', 'alpha', '--yes'])).exitCode).toBe(0);
    expect(sandbox.environments.has('e1')).toBe(false);
    const [deleted] = await history(run);
    sandbox.reset();
    const result = await run(['env', 'restore', deleted!.entry, '--yes']);
    expect(result.exitCode).toBe(0);
    const restored = [...sandbox.environments.values()].find((record) => record.name === 'alpha')!;
    expect(await withoutServerFields(restored)).toBe(before);
    // What went over the wire: the digits and characters as they were, no server-owned field.
    const post = writes(sandbox)[0]!;
    expect(post.method).toBe('POST');
    expect(post.body).toBe(before);
    expect(result.stderr).toContain("The API gives it an id of its own, which may differ from 'e1'.");
    expect(result.stderr).toContain(
      `Re-created environment 'alpha' (${String(restored.id)}); its id was 'e1', and is now '${String(restored.id)}'`,
    );
    const [entry] = await history(run);
    expect(entry).toMatchObject({
      command: 'env restore',
      action: 'create',
      restores: deleted!.entry,
      answeredId: String(restored.id),
      result: 'done',
    });
  });

  it('refuses to re-create one that exists again (exit 6) unless --force', async ({ sandbox, run }) => {
    await run(['env', 'delete', 'beta', '--yes']);
    const [deleted] = await history(run);
    await run(['env', 'create', '-f', 'name=beta']);
    sandbox.reset();
    const refused = await run(['env', 'restore', deleted!.entry.slice(0, 10), '--yes']);
    expect(refused.exitCode).toBe(6);
    expect(expectOneErrorLine(refused.stderr)).toMatch(/^error: an environment 'beta' \(.+\) exists again \(nothing was sent;/);
    expect(writes(sandbox)).toHaveLength(0);
    const forced = await run(['env', 'restore', deleted!.entry, '--yes', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(forced.stderr).toContain('restoring anyway (--force)');
  });

  it('after an update writes back the fields it changed, removes those it added, brings back those it unset', async ({ sandbox, run }) => {
    expect((await run(['env', 'update', 'beta', '-f', 'description=new', '-f', 'added=1', '--unset', 'tags'])).exitCode).toBe(0);
    const [updated] = await history(run);
    // Someone else's later change to another field is kept.
    expect((await run(['env', 'update', 'beta', '-f', 'other=kept', '--no-journal'])).exitCode).toBe(0);
    sandbox.reset();
    const refused = await run(['env', 'restore', updated!.entry, '--yes']);
    expect(refused.exitCode).toBe(6);
    expect(expectOneErrorLine(refused.stderr)).toBe(
      `error: the environment 'beta' (e2) changed since entry ${updated!.entry}: other changed since (nothing was sent; look at it with 'cip env get', and pass --force to restore anyway)`,
    );
    expect(writes(sandbox)).toHaveLength(0);
    const dry = await run(['env', 'restore', updated!.entry, '--dry-run', '--force']);
    expect(dry.exitCode).toBe(0);
    expect(writes(sandbox)).toHaveLength(0);
    // The record as it is now (the server's updatedAt too), with the update's fields set back.
    const [planned] = JSON.parse(dry.stdout) as { method: string; url: string; body: Record<string, unknown> }[];
    expect(planned).toMatchObject({ method: 'PUT', url: `${sandbox.url}/Environments/e2` });
    expect(planned!.body).toEqual({
      id: 'e2',
      name: 'beta',
      description: 'second',
      other: 'kept',
      tags: ['a'],
      updatedAt: expect.any(String),
    });
    expect(dry.stderr).toContain(
      "Write back the fields the update changed in the environment 'beta' (e2) (PUT): description, tags, added.",
    );
    const forced = await run(['env', 'restore', updated!.entry, '--yes', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(sandbox.environments.get('e2')).toMatchObject({ id: 'e2', name: 'beta', description: 'second', other: 'kept', tags: ['a'] });
    expect(sandbox.environments.get('e2')).not.toHaveProperty('added');
  });

  it('after an update puts numbers back with their digits, and nested objects whole', async ({ sandbox, run }) => {
    const before = await withoutServerFields(sandbox.environments.get('e1'));
    expect((await run(['env', 'update', 'alpha', '-F', 'price=1', '--data', '{"nested":{"deep":null}}', '--unset', 'big'])).exitCode).toBe(
      0,
    );
    const [updated] = await history(run);
    sandbox.reset();
    expect((await run(['env', 'restore', updated!.entry, '--yes'])).exitCode).toBe(0);
    const put = writes(sandbox)[0]!;
    expect(put.body).toContain('"price":12345678901234567890.000');
    expect(put.body).toContain('"big":1e400');
    expect(await withoutServerFields(sandbox.environments.get('e1'))).toBe(before);
  });

  it('after a create deletes what it created, asking first at a terminal', async ({ sandbox, env, cip, configDir, run }) => {
    await run(['env', 'create', '-f', 'name=temp']);
    const [created] = await history(run);
    const id = created!.answeredId!;
    const declined = await cip(['env', 'restore', created!.entry], { env, configDir, interactive: true, input: 'n\n' });
    expect(declined.exitCode).toBe(2);
    expect(declined.stderr).toContain(`Delete the environment 'temp' (${id}) in enterprise`);
    expect(sandbox.environments.has(id)).toBe(true);
    const script = await run(['env', 'restore', created!.entry]);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toContain(`error: refusing to restore entry ${created!.entry}`);
    const yes = await cip(['env', 'restore', created!.entry], { env, configDir, interactive: true, input: 'y\n' });
    expect(yes.exitCode).toBe(0);
    expect(sandbox.environments.has(id)).toBe(false);
  });

  it('acts only where the entry was made: another enterprise, base URL or profile is exit 2, nothing sent', async ({
    sandbox,
    cip,
    configDir,
    run,
  }) => {
    await run(['env', 'delete', 'beta', '--yes']);
    const [deleted] = await history(run);
    sandbox.reset();
    const other = await run(['env', 'restore', deleted!.entry, '--yes'], {
      env: { CIP_ENTERPRISE_ID: '00000000-0000-4000-8000-000000000000' },
    });
    expect(other.exitCode).toBe(2);
    expect(expectOneErrorLine(other.stderr)).toContain(
      `error: entry ${deleted!.entry} was made in enterprise ${sandbox.keys.enterpriseId} (credentials from the environment) at ${new URL(sandbox.url).host}; this run uses enterprise 00000000-0000-4000-8000-000000000000`,
    );
    const host = await run(['env', 'restore', deleted!.entry, '--yes'], {
      env: { CIP_BASE_URL: sandbox.url.replace('127.0.0.1', 'localhost') },
    });
    expect(host.exitCode).toBe(2);
    expect(await cip(loginArgs(sandbox, ['--profile', 'prod']), { configDir })).toMatchObject({ exitCode: 0 });
    const profile = await cip(['env', 'restore', deleted!.entry, '--yes', '--profile', 'prod'], { configDir });
    expect(profile.exitCode).toBe(2);
    expect(expectOneErrorLine(profile.stderr)).toContain("this run uses profile 'prod'");
    expect(writes(sandbox)).toHaveLength(0);
  });

  it("in a protected profile, undoing an update or a create needs the profile's name (--yes is not enough); re-creating a deleted one does not", async ({
    sandbox,
    cip,
    configDir,
    run,
  }) => {
    expect(await cip([...loginArgs(sandbox, ['--profile', 'prod']), '--protect'], { configDir })).toMatchObject({ exitCode: 0 });
    const prod = (args: string[], extra: { input?: string; interactive?: boolean } = {}) =>
      cip(args, { configDir, env: { CIP_PROFILE: 'prod' }, ...extra });
    expect((await prod(['env', 'update', 'beta', '-f', 'description=new'])).exitCode).toBe(0);
    const [updated] = await history(run, ['--profile', 'prod']);
    sandbox.reset();
    const script = await prod(['env', 'restore', updated!.entry, '--yes']);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toContain('pass --confirm prod');
    expect(sandbox.requests).toHaveLength(0);
    const wrong = await prod(['env', 'restore', updated!.entry, '--yes'], { interactive: true, input: 'staging\n' });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("About to write back the fields the update changed in the environment 'beta' (e2) (PUT): description");
    expect(writes(sandbox)).toHaveLength(0);
    const confirmed = await prod(['env', 'restore', updated!.entry, '--confirm', 'prod']);
    expect(confirmed.exitCode).toBe(0);
    expect(sandbox.environments.get('e2')).toMatchObject({ description: 'second' });
    expect((await prod(['env', 'delete', 'beta', '--confirm', 'prod'])).exitCode).toBe(0);
    const [deleted] = await history(run, ['--profile', 'prod']);
    expect(deleted!.action).toBe('delete');
    const recreate = await prod(['env', 'restore', deleted!.entry, '--yes']);
    expect(recreate.exitCode).toBe(0);
  });

  // The test above undoes an update; this one the create path, which a careless change could leave unguarded.
  it("in a protected profile, undoing a create (a DELETE) needs the profile's name, --yes or not", async ({
    sandbox,
    cip,
    configDir,
    run,
  }) => {
    expect(await cip([...loginArgs(sandbox, ['--profile', 'prod']), '--protect'], { configDir })).toMatchObject({ exitCode: 0 });
    const prod = (args: string[], extra: { input?: string; interactive?: boolean } = {}) =>
      cip(args, { configDir, env: { CIP_PROFILE: 'prod', NO_COLOR: '1' }, ...extra });
    expect((await prod(['env', 'create', '-f', 'name=made-in-prod'])).exitCode).toBe(0);
    const [created] = await history(run, ['--profile', 'prod']);
    expect(created!.action).toBe('create');
    const id = created!.answeredId!;
    sandbox.reset();

    // A script: refused before anything is read, let alone deleted.
    const script = await prod(['env', 'restore', created!.entry, '--yes']);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toBe(
      `error: profile 'prod' is protected: to restore entry ${created!.entry} without a terminal, pass --confirm prod (--yes is not enough); nothing was sent`,
    );
    expect(sandbox.requests).toHaveLength(0);

    // A person: asked for the name, --yes notwithstanding; a wrong one deletes nothing.
    const wrong = await prod(['env', 'restore', created!.entry, '--yes'], { interactive: true, input: 'staging\n' });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(`About to delete the environment 'made-in-prod' (${id}), which the entry created (DELETE).`);
    expect(wrong.stderr).toContain("error: the name typed is not 'prod': nothing was changed");
    expect(writes(sandbox)).toHaveLength(0);
    expect(sandbox.environments.has(id)).toBe(true);

    const confirmed = await prod(['env', 'restore', created!.entry, '--confirm', 'prod']);
    expect(confirmed.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual([`DELETE /ms/Environments/${id}`]);
    expect(sandbox.environments.has(id)).toBe(false);
  });

  it('refuses a cip api entry and an entry the journal does not hold', async ({ run }) => {
    await run(['api', 'Environments', '-f', 'name=via-api']);
    const [api] = await history(run);
    const refused = await run(['env', 'restore', api!.entry, '--yes']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("is a 'cip api' call: cip does not know what it changed");
    const missing = await run(['env', 'restore', 'zzzzzzzz', '--yes']);
    expect(missing.exitCode).toBe(5);
    expect(expectOneErrorLine(missing.stderr)).toBe("error: the journal has no entry 'zzzzzzzz' ('cip env history' lists the entries)");
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
