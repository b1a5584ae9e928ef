// The journal never holds a key, however it arrives (domain/journal/record.ts sealLine): in an environment's name
// or id, in a `cip api` URL (encoded any way), in a field's name, in an answer; and a restore never sends *** as
// data: it refuses an entry whose data was left out or whose id was masked, and undoes what it can do exactly.
// Each test reads the journal file's bytes, in every reading (test/helpers/key-spellings.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parseExactJson } from '../../src/json/exact.js';
import { expectOneErrorLine, seedSandbox, tempDir } from '../helpers/cli.js';
import { expectNoKey, spellings } from '../helpers/key-spellings.js';
import { it, test, type Run } from '../helpers/journal.js';
import { writes } from '../helpers/requests.js';
import { answerCreateWith, type Entry } from '../helpers/journal-entries.js';

/** The API key of these tests: + and = take other spellings in URLs, JSON and base64. */
const KEY = 'Zq7+Kd9=Xw2Lp4Rt8Vn6';

test.override({ sandboxOptions: { seed: 0, apiKey: KEY } });

/** The journal's bytes hold no key in any reading; its entries, newest first. */
async function journal(run: Run, configDir: string): Promise<Entry[]> {
  const bytes = readFileSync(join(configDir, 'journal.jsonl'));
  expectNoKey(bytes.toString('latin1'), KEY, 'the journal');
  const history = await run(['env', 'history', '--json']);
  expect(history.exitCode).toBe(0);
  expectNoKey(history.stdout, KEY, 'env history');
  return (await parseExactJson(history.stdout)) as Entry[];
}

describe('a key in a name or an id', () => {
  it('a deleted environment whose name holds the key, in each spelling: the name masked, the record before left out', async ({
    sandbox,
    configDir,
    run,
  }) => {
    const names = Object.entries(spellings(KEY));
    await seedSandbox(
      sandbox,
      names.map((_, index) => JSON.stringify({ id: `n${index}`, name: `prod-${Object.values(spellings(KEY))[index]}`, tier: 'gold' })),
    );
    for (const [index] of names.entries()) expect((await run(['env', 'delete', `n${index}`, '--yes'])).exitCode).toBe(0);
    const entries = await journal(run, configDir);
    expect(entries).toHaveLength(names.length);
    for (const [index, entry] of entries.reverse().entries()) {
      const spelling = names[index]![0];
      expect(entry, spelling).toMatchObject({ action: 'delete', result: 'done', environment: { id: `n${index}` } });
      // Base64 keeps the few characters at the key's edges that its neighbours share.
      expect(entry.environment.name, spelling).toMatch(/^prod-\S{0,3}\*\*\*\S{0,3}$/);
      expect(entry.masked, spelling).toEqual(['environment.name']);
      expect(entry.withheld, spelling).toEqual(['before']);
      expect(entry.before, spelling).toBeNull();
    }
  });

  it('cip api DELETE Environments/<the key, encoded each way>: the id, the URL and the error masked, on stderr too', async ({
    configDir,
    run,
  }) => {
    const encoded = spellings(KEY);
    const paths = [
      encoded['percent-encoded, upper case']!,
      encoded['percent-encoded, lower case']!,
      encoded['percent-encoded in part']!,
      encoded['percent-encoded twice']!,
      encodeURIComponent(KEY),
      `prefix-${encodeURIComponent(KEY)}-suffix`,
    ];
    for (const path of paths) {
      const result = await run(['api', `Environments/${path}`, '-X', 'DELETE']);
      // The sandbox has no such environment: its 404 names the id it was asked for.
      expect(result.exitCode).toBe(5);
      expectNoKey(result.stderr, KEY, `stderr of DELETE ${path}`);
      expect(expectOneErrorLine(result.stderr)).toContain('error: cannot DELETE Environments/');
    }
    const entries = (await journal(run, configDir)).reverse();
    for (const [index, entry] of entries.entries()) {
      expect(entry.result).toBe('failed');
      expect(entry.masked, paths[index]).toEqual(expect.arrayContaining(['environment.id', 'request.url']));
      expect(entry.environment.id, paths[index]).toContain('***');
      expect(entry.request.url).toContain('/Environments/');
    }
  });

  it('an update of an environment whose id holds the key: the id masked, the bodies left out, and restore refuses (exit 2), sending nothing', async ({
    sandbox,
    configDir,
    run,
  }) => {
    const id = `id-${KEY}`;
    await seedSandbox(sandbox, [JSON.stringify({ id, name: 'keyed', description: 'old' })]);
    expect((await run(['env', 'update', 'keyed', '-f', 'description=new'])).exitCode).toBe(0);
    const [updated] = await journal(run, configDir);
    expect(updated).toMatchObject({ action: 'update', environment: { id: 'id-***', name: 'keyed' }, before: null, answeredId: 'id-***' });
    expect(updated!.withheld).toEqual(['request body', 'before', 'record']);
    expect(updated!.masked).toEqual(['environment.id', 'request.url', 'answeredId']);
    sandbox.reset();
    const restore = await run(['env', 'restore', updated!.entry, '--yes']);
    expect(restore.exitCode).toBe(2);
    expect(expectOneErrorLine(restore.stderr)).toBe(
      `error: entry ${updated!.entry} cannot be restored: its request body, before and environment id held one of the keys in use, and the journal never keeps a key (look at the environment with 'cip env get', and set it back with 'cip env update')`,
    );
    expect(writes(sandbox)).toEqual([]);
    expect(sandbox.environments.get(id)).toMatchObject({ description: 'new' });
  });
});

describe('a key in the data', () => {
  it("a field's name that is the key: the request body and the answer left out, never masked", async ({ sandbox, configDir, run }) => {
    const file = join(tempDir(), 'env.json');
    writeFileSync(file, JSON.stringify({ name: 'named', [KEY]: 1 }));
    expect((await run(['env', 'create', '--file', file])).exitCode).toBe(0);
    expect(
      (await run(['api', 'Environments', '-X', 'POST', '--input', '-'], { input: `{"name":"raw","${encodeURIComponent(KEY)}":true}` }))
        .exitCode,
    ).toBe(0);
    const [api, created] = await journal(run, configDir);
    expect(created).toMatchObject({ action: 'create', withheld: ['request body', 'record'], record: null, environment: { name: 'named' } });
    expect(created!.request).toEqual({ method: 'POST', url: `${sandbox.url}/Environments` });
    expect(api).toMatchObject({ action: 'request', withheld: ['request body', 'record'] });
    expect(api!.request).not.toHaveProperty('text');
    expect(readFileSync(join(configDir, 'journal.jsonl'), 'utf8')).not.toContain('***');
  });

  it('a create whose name holds the key is undone exactly, by its id; the entry of that delete cannot be restored', async ({
    sandbox,
    configDir,
    run,
  }) => {
    expect((await run(['env', 'create', '-f', `name=leak-${KEY}`])).exitCode).toBe(0);
    const [created] = await journal(run, configDir);
    expect(created).toMatchObject({ action: 'create', environment: { name: 'leak-***' }, masked: ['environment.name'] });
    const id = created!.answeredId!;
    expect(sandbox.environments.has(id)).toBe(true);
    const restore = await run(['env', 'restore', created!.entry, '--yes']);
    expect(restore.exitCode).toBe(0);
    expectNoKey(restore.stderr, KEY, 'stderr');
    expect(sandbox.environments.has(id)).toBe(false);
    const [undone] = await journal(run, configDir);
    expect(undone).toMatchObject({ action: 'delete', restores: created!.entry, before: null, withheld: ['before'] });
    const again = await run(['env', 'restore', undone!.entry, '--yes']);
    expect(again.exitCode).toBe(2);
    expect(expectOneErrorLine(again.stderr)).toContain(`entry ${undone!.entry} cannot be restored: its before held one of the keys in use`);
  });

  it('a create the server answers with an id that holds the key: the answered id masked, and restore refuses to delete ***', async ({
    sandbox,
    configDir,
    run,
  }) => {
    answerCreateWith(sandbox, JSON.stringify({ id: `${KEY}-9`, name: 'echo' }));
    expect((await run(['env', 'create', '-f', 'name=echo'])).exitCode).toBe(0);
    const [created] = await journal(run, configDir);
    expect(created).toMatchObject({ answeredId: '***-9', masked: ['answeredId'], withheld: ['record'] });
    sandbox.reset();
    const restore = await run(['env', 'restore', created!.entry, '--yes']);
    expect(restore.exitCode).toBe(2);
    expect(expectOneErrorLine(restore.stderr)).toContain(
      `entry ${created!.entry} cannot be restored: its answered id held one of the keys in use`,
    );
    expect(writes(sandbox)).toEqual([]);
  });
});
