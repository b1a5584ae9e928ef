// The promise "lost-updates", across the commands that keep it: in-process against the sandbox.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import type { EtagStyle, RecordedRequest, Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, putAsAnotherClient, sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, type Cip, type Fixtures } from '../helpers/fixture.js';

describe('edited files', () => {
  // No lost updates against an API whose environments have validators of their own (RFC 9110, as ASP.NET Core
  // services and OData have them), and no lost updates through a file: `env get -o json > f`, someone else's
  // change, then `env update --file f`, or the same with `env export` and `env apply` (docs/concurrency.md).
  // Each test checks what the server received and what it holds afterwards, not only the exit code.

  const ID = '0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34';

  const OTHER_ID = '1c8f5d63-4e20-4b9f-8d7c-3a6e9f2b8d45';

  // No modification time: what tells the version is the API's validator, or nothing.
  const SEED_WITH_OWNER = [
    { id: ID, name: 'staging', description: 'as read', owner: 'alice', settings: { retention: 7 } },
    { id: OTHER_ID, name: 'other', description: 'untouched' },
  ];

  /** A sandbox that sends ETags in this style, holding SEED_WITH_OWNER. */
  const styled = (startSandbox: Fixtures['startSandbox'], style: EtagStyle) => startSandbox({ seed: SEED_WITH_OWNER, etags: style });

  const fromCip = (request: RecordedRequest) => String(request.headers['user-agent'] ?? '').startsWith('cip/');

  const cipRequests = (sandbox: Sandbox) => sandbox.requests.filter(fromCip);

  const sent = (sandbox: Sandbox) => cipRequests(sandbox).map((request) => `${request.method} ${request.url}`);

  const putsOf = (sandbox: Sandbox) => cipRequests(sandbox).filter((request) => request.method === 'PUT');

  const writesOf = (sandbox: Sandbox) => cipRequests(sandbox).filter((request) => request.method !== 'GET');

  /** Another client's change, through the sandbox's API (so the sandbox sets updatedAt and moves its versions). */
  async function otherWriter(sandbox: Sandbox, id: string, body: Record<string, unknown>): Promise<void> {
    expect(await putAsAnotherClient(sandbox, id, body)).toBe(200);
  }

  /** Holds cip's first `method` request until `change` has run: a change made between cip's read and its write. */
  function beforeCips(sandbox: Sandbox, method: string, change: () => Promise<void>): Promise<void> {
    let release!: () => void;
    let seen = 0;
    sandbox.inject({
      fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) },
      method,
      match: (request) => fromCip(request) && ++seen === 1,
    });
    return sandbox
      .waitForRequest((request) => request.method === method && fromCip(request))
      .then(change)
      .finally(() => release());
  }

  function file(name: string, text: string): string {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  }

  const PATH = `/ms/Environments/${ID}`;

  describe('an API whose environments have ETags of their own (GET by id), as ASP.NET Core services have', () => {
    it("an update nobody else is writing just works: the PUT carries the environment's own tag, not the list's", async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'item');
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(sent(sandbox)).toEqual(['GET /ms/Environments', `GET ${PATH}`, `PUT ${PATH}`]);
      expect(putsOf(sandbox)[0]!.headers['if-match']).toMatch(/^"e\d+"$/);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine', owner: 'alice', settings: { retention: 7 } });
    });

    it('a change made after cip read the environment is refused (exit 6, what changed), and the other write stays', async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'item');
      const changed = beforeCips(sandbox, 'PUT', () => otherWriter(sandbox, ID, { name: 'staging', description: 'theirs', owner: 'bob' }));
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(sandbox) });
      await changed;
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toContain(
        `error: the environment 'staging' (${ID}) changed since cip read it: description "as read" → "theirs", owner "alice" → "bob"`,
      );
      // Read again by id to say what changed; nothing more was sent.
      expect(sent(sandbox)).toEqual(['GET /ms/Environments', `GET ${PATH}`, `PUT ${PATH}`, `GET ${PATH}`]);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'theirs', owner: 'bob' });
    });

    it('apply and create --if-exists update carry each environment its own tag, and restore too', async ({ cip, startSandbox }) => {
      const sandbox = await styled(startSandbox, 'item');
      const env = sandboxEnv(sandbox);
      const configDir = tempDir();
      const path = file(
        'e.yaml',
        'environments:\n  - name: staging\n    description: applied\n  - name: other\n    description: applied\n',
      );
      const applied = await cip(['env', 'apply', '--file', path, '--yes'], { env, configDir });
      expect(applied.exitCode).toBe(0);
      const tags = putsOf(sandbox).map((request) => request.headers['if-match']);
      expect(tags).toEqual([expect.stringMatching(/^"e\d+"$/), expect.stringMatching(/^"e\d+"$/)]);
      expect(tags[0]).not.toBe(tags[1]);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'applied', owner: 'alice' });
      expect(sandbox.environments.get(OTHER_ID)).toMatchObject({ description: 'applied' });

      sandbox.reset();
      const merged = await cip(['env', 'create', '-f', 'name=staging', '-f', 'description=merged', '--if-exists', 'update'], {
        env,
        configDir,
      });
      expect(merged.exitCode).toBe(0);
      expect(putsOf(sandbox)[0]!.headers['if-match']).toMatch(/^"e\d+"$/);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'merged', owner: 'alice' });

      const history = JSON.parse((await cip(['env', 'history', '--json'], { env, configDir })).stdout) as { entry: string }[];
      sandbox.reset();
      const restored = await cip(['env', 'restore', history[0]!.entry, '--yes'], { env, configDir });
      expect(restored.exitCode).toBe(0);
      expect(putsOf(sandbox)[0]!.headers['if-match']).toMatch(/^"e\d+"$/);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'applied' });
    });

    it("the list's tag where it is the only validator: refused though nothing changed, cip compares and sends without If-Match", async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'item');
      // This API has tags of each environment's own, but no read by id to give them.
      sandbox.inject({
        fault: { kind: 'status', status: 405, body: '' },
        method: 'GET',
        match: (request) => request.url === PATH,
        times: Infinity,
      });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine', '--verbose'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(putsOf(sandbox).map((request) => request.headers['if-match'])).toEqual([expect.stringMatching(/^"l\d+"$/), undefined]);
      expect(result.stderr).toMatch(
        /If-Match "l\d+" was refused \(HTTP 412\) though the environment had not changed: sending without If-Match/,
      );
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine', owner: 'alice' });
    });
  });

  describe('a read by id that answers with something else', () => {
    it.for([
      ['a record under another id', JSON.stringify({ id: OTHER_ID, name: 'other', description: 'someone else', secret: 'x' })],
      ['no record', '[1, 2]'],
    ])('%s is not merged into: the list record and validator are used', async ([_what, body], { cip, startSandbox }) => {
      const sandbox = await styled(startSandbox, 'strong');
      sandbox.inject({
        fault: { kind: 'status', status: 200, body, headers: { 'Content-Type': 'application/json', ETag: '"forged"' } },
        method: 'GET',
        match: (request) => request.url === PATH,
      });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      const [put] = putsOf(sandbox);
      expect(put!.headers['if-match']).toMatch(/^"v\d+"$/);
      expect(JSON.parse(put!.body)).toEqual({ id: ID, name: 'staging', description: 'mine', owner: 'alice', settings: { retention: 7 } });
      expect(sandbox.environments.get(OTHER_ID)).toEqual({ id: OTHER_ID, name: 'other', description: 'untouched' });
    });
  });

  describe("an API that gives each list item's tag in @odata.etag", () => {
    it('is used as If-Match without a read by id, and never sent as a field', async ({ cip, startSandbox }) => {
      const sandbox = await styled(startSandbox, 'odata');
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(sent(sandbox)).toEqual(['GET /ms/Environments', `PUT ${PATH}`]);
      const [put] = putsOf(sandbox);
      expect(put!.headers['if-match']).toMatch(/^"e\d+"$/);
      expect(JSON.parse(put!.body)).not.toHaveProperty('@odata.etag');
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine', owner: 'alice' });
    });

    it('a weak @odata.etag is never sent in If-Match (strong comparison): cip compares instead', async ({ cip, startSandbox }) => {
      const sandbox = await styled(startSandbox, 'none');
      sandbox.environments.set(ID, { id: ID, name: 'staging', '@odata.etag': 'W/"weak-1"', description: 'as read' });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      const [put] = putsOf(sandbox);
      expect(put!.headers['if-match']).toBeUndefined();
      expect(JSON.parse(put!.body)).toEqual({ id: ID, name: 'staging', description: 'mine' });
    });
  });

  describe('env get, edit, env update --file', () => {
    /** `cip env get staging -o json > s.json`, then the file with one field edited. */
    async function getToFile(cip: Cip, sandbox: Sandbox, edit: (record: Record<string, unknown>) => void): Promise<string> {
      const got = await cip(['env', 'get', 'staging', '-o', 'json'], { env: sandboxEnv(sandbox) });
      expect(got.exitCode).toBe(0);
      const record = JSON.parse(got.stdout) as Record<string, unknown>;
      edit(record);
      return file('s.json', JSON.stringify(record, null, 2));
    }

    it.for(['strong', 'item'] as const)(
      "someone's change since the file was written is refused, nothing sent; --force writes the file (%s ETags)",
      async (style, { cip, startSandbox }) => {
        const sandbox = await styled(startSandbox, style);
        // A record the API wrote has a modification time; one it did not is told by its ETag (item).
        if (style === 'strong') await otherWriter(sandbox, ID, { name: 'staging', description: 'as read', owner: 'alice' });
        const path = await getToFile(cip, sandbox, (record) => (record.description = 'mine'));
        if (style === 'item')
          expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveProperty('@odata.etag', expect.stringMatching(/^"e\d+"$/));
        await otherWriter(sandbox, ID, { name: 'staging', description: 'as read', owner: 'bob' });
        sandbox.reset();

        const result = await cip(['env', 'update', 'staging', '--file', path], { env: sandboxEnv(sandbox) });
        expect(result.exitCode).toBe(6);
        const line = expectOneErrorLine(result.stderr);
        expect(line).toContain(`error: the environment 'staging' (${ID}) changed since the file was written (`);
        expect(line).toContain('the file would set description "as read" → "mine", owner "bob" → "alice"');
        expect(line).toContain("nothing was sent; read it again ('cip env get staging -o json') and redo your edit, or pass --force");
        expect(writesOf(sandbox)).toEqual([]);
        expect(sandbox.environments.get(ID)).toMatchObject({ description: 'as read', owner: 'bob' });

        const forced = await cip(['env', 'update', 'staging', '--file', path, '--force'], { env: sandboxEnv(sandbox) });
        expect(forced.exitCode).toBe(0);
        expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine', owner: 'alice' });
        expect(sandbox.environments.get(ID)).not.toHaveProperty('@odata.etag');
      },
    );

    it.for(['strong', 'item'] as const)(
      'the field the user changed is never itself a conflict (%s ETags)',
      async (style, { cip, startSandbox }) => {
        const sandbox = await styled(startSandbox, style);
        if (style === 'strong') await otherWriter(sandbox, ID, { name: 'staging', description: 'as read', owner: 'alice' });
        const path = await getToFile(cip, sandbox, (record) => (record.description = 'mine'));
        sandbox.reset();
        const result = await cip(['env', 'update', 'staging', '--file', path, '--verbose'], { env: sandboxEnv(sandbox) });
        expect(result.exitCode).toBe(0);
        expect(result.stderr).toContain("The version the payload carries is the environment's current one.");
        const [put] = putsOf(sandbox);
        expect(JSON.parse(put!.body)).not.toHaveProperty('@odata.etag');
        expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine', owner: 'alice' });
        expect(sandbox.environments.get(OTHER_ID)).toEqual({ id: OTHER_ID, name: 'other', description: 'untouched' });
      },
    );

    it('where nothing tells the version (no ETag, no modification time), --verbose says so and the update goes on', async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'none');
      const path = await getToFile(cip, sandbox, (record) => (record.description = 'mine'));
      const result = await cip(['env', 'update', 'staging', '--file', path, '--verbose'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('The payload carries no version cip can compare');
      expect(result.stderr).toContain('cannot tell whether the environment changed since it was written');
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine' });
    });
  });

  describe('env export, edit, env apply', () => {
    async function exportToFile(cip: Cip, sandbox: Sandbox, edit: (text: string) => string): Promise<string> {
      const exported = await cip(['env', 'export'], { env: sandboxEnv(sandbox) });
      expect(exported.exitCode).toBe(0);
      const edited = edit(exported.stdout);
      expect(edited).not.toBe(exported.stdout);
      return file('environments.yaml', edited);
    }
    const editOwner = (text: string) => text.replace('owner: alice', 'owner: carol');

    it("an apply that would put back someone's change made since the export is refused, nothing sent; --force applies it", async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'strong');
      const path = await exportToFile(cip, sandbox, editOwner);
      await otherWriter(sandbox, ID, { name: 'staging', description: 'theirs', owner: 'alice', settings: { retention: 7 } });
      sandbox.reset();

      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toContain(
        `error: the file would undo a change made since it was written: environment 'staging' (${ID}): changed since the export: description "as read" → "theirs" (the file would put back "as read")`,
      );
      expect(writesOf(sandbox)).toEqual([]);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'theirs', owner: 'alice' });

      // diff says the same, as data.
      const plan = await cip(['env', 'diff', '--file', path], { env: sandboxEnv(sandbox) });
      expect(JSON.parse(plan.stdout)).toMatchObject({
        conflicts: [{ key: 'staging', id: ID, refused: true, reason: expect.stringContaining('description "as read" → "theirs"') }],
      });

      const forced = await cip(['env', 'apply', '--file', path, '--yes', '--force'], { env: sandboxEnv(sandbox) });
      expect(forced.exitCode).toBe(0);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'as read', owner: 'carol' });
    });

    it("the user's own edit, with someone's change to another field since: the edit is applied, the change kept", async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'strong');
      const path = await exportToFile(cip, sandbox, editOwner);
      // A field the file declares and already agrees with, changed on the server to the same value: no conflict.
      await otherWriter(sandbox, OTHER_ID, { name: 'other', description: 'untouched', region: 'eu' });
      sandbox.reset();
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(0);
      expect(sandbox.environments.get(ID)).toMatchObject({ description: 'as read', owner: 'carol', settings: { retention: 7 } });
      // The field added since the export is not in the file: apply keeps it.
      expect(sandbox.environments.get(OTHER_ID)).toMatchObject({ region: 'eu' });
      expect(writesOf(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual([`PUT ${PATH}`]);
    });

    it('--prune never deletes an environment created after the export; one deleted since is created again, and said', async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'strong');
      const path = await exportToFile(cip, sandbox, editOwner);
      const newer = 'a2b3c4d5-0000-4000-8000-000000000001';
      sandbox.environments.set(newer, { id: newer, name: 'newer' });
      const pruned = await cip(['env', 'apply', '--file', path, '--yes', '--prune'], { env: sandboxEnv(sandbox) });
      expect(pruned.exitCode).toBe(6);
      expect(expectOneErrorLine(pruned.stderr)).toContain(
        `environment 'newer' (${newer}): created since the export: --prune would delete what the file never saw`,
      );
      expect(sandbox.environments.has(newer)).toBe(true);

      sandbox.environments.delete(newer);
      sandbox.environments.delete(OTHER_ID);
      sandbox.reset();
      const again = await cip(['env', 'apply', '--file', path, '--yes'], { env: sandboxEnv(sandbox) });
      expect(again.exitCode).toBe(0);
      expect(again.stderr).toContain(`Note: environment 'other' (${OTHER_ID}): deleted since the export: applying creates it again.`);
      expect([...sandbox.environments.values()].map((record) => record.name).sort()).toEqual(['other', 'staging']);
    });

    it("a file exported elsewhere is not compared here (said); one without 'exported:' is said under --verbose", async ({
      cip,
      startSandbox,
    }) => {
      const sandbox = await styled(startSandbox, 'strong');
      const path = await exportToFile(cip, sandbox, (text) =>
        editOwner(text).replace(/^ {2}from: .*$/m, '  from: https://elsewhere.example/ms'),
      );
      await otherWriter(sandbox, ID, { name: 'staging', description: 'theirs', owner: 'alice', settings: { retention: 7 } });
      const elsewhere = await cip(['env', 'apply', '--file', path, '--yes'], { env: sandboxEnv(sandbox) });
      expect(elsewhere.exitCode).toBe(0);
      expect(elsewhere.stderr).toContain(
        'The file was exported from https://elsewhere.example/ms, enterprise ' +
          `${sandbox.keys.enterpriseId}, not from where this run acts: what it says was read there is not compared here.`,
      );

      const bare = file('bare.yaml', 'environments:\n  - name: staging\n    owner: dave\n');
      const verbose = await cip(['env', 'apply', '--file', bare, '--yes', '--verbose'], { env: sandboxEnv(sandbox) });
      expect(verbose.exitCode).toBe(0);
      expect(verbose.stderr).toContain("The file has no 'exported:' section ('cip env export' writes one): cip cannot tell");
    });

    it("an 'exported:' section that is not what export writes is exit 2 naming the file, nothing sent", async ({ cip, startSandbox }) => {
      const sandbox = await styled(startSandbox, 'strong');
      const path = file('bad.yaml', 'exported:\n  from: 7\nenvironments:\n  - name: staging\n    owner: x\n');
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toContain(
        `--file ${path}: 'exported' is not what 'cip env export' writes ('from' is not a URL)`,
      );
      expect(cipRequests(sandbox)).toEqual([]);
    });

    it('a record in a file that carries its own version (updatedAt) is refused when that moved', async ({ cip, startSandbox }) => {
      const sandbox = await styled(startSandbox, 'strong');
      // The sandbox stamps updatedAt from the clock: two writes within one millisecond would leave it where it
      // was, so the clock moves a second between them (Date only; the sandbox runs in this process).
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.UTC(2026, 0, 15, 12, 0, 0));
        await otherWriter(sandbox, ID, { name: 'staging', description: 'as read', owner: 'alice' });
        vi.setSystemTime(Date.UTC(2026, 0, 15, 12, 0, 1));
        await otherWriter(sandbox, ID, { name: 'staging', description: 'theirs', owner: 'alice' });
      } finally {
        vi.useRealTimers();
      }
      const updatedAt = '2026-01-15T12:00:00.000Z';
      expect(sandbox.environments.get(ID)!.updatedAt).toBe('2026-01-15T12:00:01.000Z');
      const path = file('hand.yaml', `environments:\n  - name: staging\n    owner: carol\n    updatedAt: "${updatedAt}"\n`);
      sandbox.reset();
      const result = await cip(['env', 'apply', '--file', path, '--yes'], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toContain(`changed since the file was written: updatedAt "${updatedAt}" →`);
      expect(writesOf(sandbox)).toEqual([]);
    });
  });
});

describe('one run or two', () => {
  // No lost updates (src/domain/environments/conflict.ts): a second writer changes an environment between cip's
  // read and its PUT. With the sandbox's ETags, the PUT carries the list's ETag as If-Match and the sandbox refuses
  // it (412); without ETags, cip reads the list again before the PUT. Either way cip exits 6 saying what changed,
  // and the server keeps the other writer's record. The second writer goes through the sandbox's API while cip's
  // request is held (a `hold` fault the test releases), so the order is fixed by events, not by time.

  const ID = '0b7e4c52-3d1f-4a8e-9c6b-2f5d8e1a7c34';

  const OTHER_ID = '1c8f5d63-4e20-4b9f-8d7c-3a6e9f2b8d45';

  const SEED = [
    { id: ID, name: 'staging', description: 'as read', settings: { retention: 7 } },
    { id: OTHER_ID, name: 'other', description: 'untouched' },
  ];

  /** A sandbox that sends ETags in this style (none: no validators at all), holding SEED. */
  const sandboxWith = (startSandbox: Fixtures['startSandbox'], etags: EtagStyle) => startSandbox({ seed: SEED, etags });

  /** Another client's PUT through the sandbox's API, with the sandbox's keys. */
  async function otherWriter(sandbox: Sandbox, id: string, body: Record<string, unknown>): Promise<void> {
    expect(await putAsAnotherClient(sandbox, id, body)).toBe(200);
  }

  const fromCip = (request: RecordedRequest) => String(request.headers['user-agent'] ?? '').startsWith('cip/');

  /**
   * Holds cip's `nth` request of `method` (1 = its first) until `change` has run: what the second writer does
   * between cip's read and its write. Resolves once the request is on its way again.
   */
  function between(sandbox: Sandbox, method: string, nth: number, change: () => Promise<void>): Promise<void> {
    let release!: () => void;
    let seen = 0;
    sandbox.inject({
      fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) },
      method,
      match: (request) => fromCip(request) && ++seen === nth,
    });
    return sandbox
      .waitForRequest(
        (request) =>
          request.method === method && fromCip(request) && sandbox.requests.filter((r) => r.method === method && fromCip(r)).length === nth,
      )
      .then(change)
      .finally(() => release());
  }

  const cipRequests = (sandbox: Sandbox) => sandbox.requests.filter(fromCip);

  const methods = (sandbox: Sandbox) => cipRequests(sandbox).map((request) => request.method);

  const putOf = (sandbox: Sandbox) => cipRequests(sandbox).filter((request) => request.method === 'PUT');

  describe('env update: a change made between the read and the write is never overwritten', () => {
    it("with ETags: the PUT sends the list's ETag as If-Match, the sandbox answers 412, and cip exits 6 saying what changed", async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, ID, { name: 'staging', description: 'theirs', owner: 'ops' }));
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      await changed;
      expect(result.exitCode).toBe(6);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: the environment 'staging' (${ID}) changed since cip read it: description "as read" → "theirs", settings removed, owner added ("ops"), updatedAt added (${JSON.stringify(strong.environments.get(ID)!.updatedAt)}) (nothing was overwritten; run the command again to apply your change to the environment as it is now, or pass --force to overwrite it)`,
      );
      expect(strong.environments.get(ID)).toMatchObject({ description: 'theirs', owner: 'ops' });
      const listEtag = /^"v\d+"$/;
      const [put] = putOf(strong);
      expect(put!.headers['if-match']).toMatch(listEtag);
      // The list once to find it, the environment by id (the sandbox has no read by id: 405), the PUT refused, the
      // list again to say what changed.
      expect(methods(strong)).toEqual(['GET', 'GET', 'PUT', 'GET']);
    });

    it('without ETags: cip reads the list again before the PUT, refuses the same way and sends no PUT', async ({ cip, startSandbox }) => {
      const none = await sandboxWith(startSandbox, 'none');
      // cip's third GET: after the list and the read by id (405), the list again.
      const changed = between(none, 'GET', 3, () =>
        otherWriter(none, ID, { name: 'staging', description: 'theirs', settings: { retention: 30 } }),
      );
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(none) });
      await changed;
      expect(result.exitCode).toBe(6);
      const line = expectOneErrorLine(result.stderr);
      expect(line).toContain(
        `error: the environment 'staging' (${ID}) changed since cip read it: description "as read" → "theirs", settings.retention 7 → 30`,
      );
      expect(line).toContain('nothing was overwritten');
      expect(methods(none)).toEqual(['GET', 'GET', 'GET']);
      expect(none.environments.get(ID)).toMatchObject({ description: 'theirs', settings: { retention: 30 } });
    });

    it('without ETags and without a change: the list, the read by id (405), the list again, then one PUT without If-Match', async ({
      cip,
      startSandbox,
    }) => {
      const none = await sandboxWith(startSandbox, 'none');
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(none) });
      expect(result.exitCode).toBe(0);
      expect(methods(none)).toEqual(['GET', 'GET', 'GET', 'PUT']);
      expect(putOf(none)[0]!.headers['if-match']).toBeUndefined();
      expect(none.environments.get(ID)).toMatchObject({ description: 'mine', settings: { retention: 7 } });
    });

    it('a weak ETag is no validator (If-Match compares strongly): cip compares instead, and sends none', async ({ cip, startSandbox }) => {
      const weak = await sandboxWith(startSandbox, 'weak');
      weak.environments.set(ID, { id: ID, name: 'staging', description: 'as read' });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(weak) });
      expect(result.exitCode).toBe(0);
      expect(methods(weak)).toEqual(['GET', 'GET', 'GET', 'PUT']);
      expect(putOf(weak)[0]!.headers['if-match']).toBeUndefined();
      expect(weak.environments.get(ID)).toMatchObject({ description: 'mine' });
    });

    it.for([
      ['with ETags', 'strong', 'PUT', 1, ['GET', 'GET', 'PUT']],
      ['without ETags', 'none', 'PUT', 1, ['GET', 'GET', 'PUT']],
    ] as const)(
      '--force (%s) overwrites: no If-Match, no second read (only the read by id, for the record to merge into)',
      async ([_what, etags, method, nth, expected], { cip, startSandbox }) => {
        const sandbox = await sandboxWith(startSandbox, etags);
        const changed = between(sandbox, method, nth, () => otherWriter(sandbox, ID, { name: 'staging', description: 'theirs' }));
        const result = await cip(['env', 'update', 'staging', '-f', 'description=mine', '--force'], { env: sandboxEnv(sandbox) });
        await changed;
        expect(result.exitCode).toBe(0);
        expect(methods(sandbox)).toEqual(expected);
        expect(putOf(sandbox)[0]!.headers['if-match']).toBeUndefined();
        expect(sandbox.environments.get(ID)).toMatchObject({ description: 'mine', settings: { retention: 7 } });
      },
    );

    it('another environment changing meanwhile does not fail the update', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, OTHER_ID, { name: 'other', description: 'changed' }));
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      await changed;
      expect(result.exitCode).toBe(0);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'mine' });
      expect(strong.environments.get(OTHER_ID)).toMatchObject({ description: 'changed' });
    });

    it('a 412 though the environment is unchanged (an API that does not take the validator for it): read again and compared, then sent without If-Match', async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      strong.inject({ fault: { kind: 'status', status: 412, body: '' }, method: 'PUT' });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine', '--verbose'], { env: sandboxEnv(strong) });
      expect(result.exitCode).toBe(0);
      expect(methods(strong)).toEqual(['GET', 'GET', 'PUT', 'GET', 'PUT']);
      expect(putOf(strong).map((request) => request.headers['if-match'])).toEqual([expect.stringMatching(/^"v\d+"$/), undefined]);
      expect(result.stderr).toMatch(
        /If-Match "v\d+" was refused \(HTTP 412\) though the environment had not changed: sending without If-Match/,
      );
      expect(strong.environments.get(ID)).toMatchObject({ description: 'mine' });
    });

    it('a 412 with a newer validator from the read again: sent once more with it, before going without', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      strong.inject({ fault: { kind: 'status', status: 412, body: '' }, method: 'PUT' });
      // Another environment changes between the PUT and the read again: the list's tag moves, this one does not.
      let release!: () => void;
      strong.inject({
        fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) },
        method: 'GET',
        match: (request) => fromCip(request) && putOf(strong).length === 1,
      });
      const waiting = strong
        .waitForRequest((request) => request.method === 'GET' && fromCip(request) && putOf(strong).length === 1)
        .then(() => otherWriter(strong, OTHER_ID, { name: 'other', description: 'changed' }))
        .finally(() => release());
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      await waiting;
      expect(result.exitCode).toBe(0);
      const [first, second] = putOf(strong).map((request) => request.headers['if-match']);
      expect(first).toMatch(/^"v\d+"$/);
      expect(second).toMatch(/^"v\d+"$/);
      expect(second).not.toBe(first);
      expect(putOf(strong)).toHaveLength(2);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'mine' });
    });

    it('a server that refuses even the PUT without If-Match: exit 6 with its answer, nothing overwritten', async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      strong.inject({ fault: { kind: 'status', status: 412, body: '' }, method: 'PUT', times: 2 });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /^error: cannot update environment '.*': the API rejected the request \(HTTP 412\)/,
      );
      expect(methods(strong)).toEqual(['GET', 'GET', 'PUT', 'GET', 'PUT']);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'as read' });
    });

    it('deleted meanwhile: exit 5 with ETags (the API has nothing to update) and without (cip saw it go)', async ({
      cip,
      startSandbox,
    }) => {
      const none = await sandboxWith(startSandbox, 'none');
      const strong = await sandboxWith(startSandbox, 'strong');
      const remove = (sandbox: Sandbox) => async () => {
        sandbox.environments.delete(ID);
      };
      const withTags = between(strong, 'PUT', 1, remove(strong));
      const tagged = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      await withTags;
      expect(tagged.exitCode).toBe(5);
      const without = between(none, 'GET', 2, remove(none));
      const untagged = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(none) });
      await without;
      expect(untagged.exitCode).toBe(5);
      expect(expectOneErrorLine(untagged.stderr)).toBe(
        `error: the environment 'staging' (${ID}) was deleted since cip read it (nothing was sent)`,
      );
      expect(none.environments.has(ID)).toBe(false);
    });

    it('--replace sends If-Match too: a change made meanwhile is not replaced', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, ID, { name: 'staging', description: 'theirs' }));
      const result = await cip(['env', 'update', 'staging', '--replace', '-f', 'name=staging'], { env: sandboxEnv(strong) });
      await changed;
      expect(result.exitCode).toBe(6);
      expect(putOf(strong)[0]!.headers['if-match']).toMatch(/^"v\d+"$/);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'theirs' });
    });

    it('a retry after a lost answer meets its own change (412): cip reads again, sees its change, and succeeds', async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      strong.inject({ fault: { kind: 'reset-after' }, method: 'PUT' });
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('An earlier attempt whose answer was lost made the change');
      expect(strong.environments.get(ID)).toMatchObject({ description: 'mine' });
    });

    it('--dry-run sends nothing: it reads the list, and the environment by id', async ({ cip, startSandbox }) => {
      const none = await sandboxWith(startSandbox, 'none');
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine', '--dry-run'], { env: sandboxEnv(none) });
      expect(result.exitCode).toBe(0);
      expect(methods(none)).toEqual(['GET', 'GET']);
    });

    it('what changed is said with keys as *** and control characters cleaned: a server that echoes a key', async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () =>
        otherWriter(strong, ID, { name: 'staging', description: `conn key=${strong.keys.subscriptionKey}`, 'evil\u001b[2Jfield': 'x' }),
      );
      const result = await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env: sandboxEnv(strong) });
      await changed;
      expect(result.exitCode).toBe(6);
      expect(result.stderr).not.toContain(strong.keys.subscriptionKey);
      expect(result.stderr).not.toContain('\u001b');
      expect(expectOneErrorLine(result.stderr)).toContain('description "as read" → "conn key=***"');
    });
  });

  describe('two cip runs updating one environment at once', () => {
    it('both read it, both PUT with the same ETag: the first wins, the second exits 6 and does not undo it', async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      let release!: () => void;
      strong.inject({ fault: { kind: 'hold', release: new Promise<void>((resolve) => (release = resolve)) }, method: 'PUT', times: 2 });
      const env = sandboxEnv(strong);
      const first = cip(['env', 'update', 'staging', '-f', 'description=first'], { env });
      const second = cip(['env', 'update', 'staging', '-F', 'settings={"retention":1}'], { env });
      await strong.waitForRequest(() => putOf(strong).length === 2);
      release();
      const results = await Promise.all([first, second]);
      expect(results.map((result) => result.exitCode).sort()).toEqual([0, 6]);
      const [tagA, tagB] = putOf(strong).map((request) => request.headers['if-match']);
      expect(tagA).toBe(tagB);
      const loser = results.find((result) => result.exitCode === 6)!;
      expect(expectOneErrorLine(loser.stderr)).toContain('changed since cip read it');
      // The winner's change stands whole; the loser's is not half applied.
      const { description, settings } = strong.environments.get(ID)!;
      expect({ description, settings }).toEqual(
        results[0]!.exitCode === 0
          ? { description: 'first', settings: { retention: 7 } }
          : { description: 'as read', settings: { retention: 1 } },
      );
    });
  });

  describe('env create --if-exists update merges with the same check', () => {
    it("a change made meanwhile: exit 6, the other writer's record kept; --force overwrites it", async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, ID, { name: 'staging', description: 'theirs' }));
      const result = await cip(['env', 'create', '-f', 'name=staging', '-f', 'description=mine', '--if-exists', 'update'], {
        env: sandboxEnv(strong),
      });
      await changed;
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toContain('changed since cip read it: description "as read" → "theirs"');
      expect(strong.environments.get(ID)).toMatchObject({ description: 'theirs' });

      const forced = await cip(['env', 'create', '-f', 'name=staging', '-f', 'description=mine', '--if-exists', 'update', '--force'], {
        env: sandboxEnv(strong),
      });
      expect(forced.exitCode).toBe(0);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'mine' });
    });

    it('--force without --if-exists update is a usage error', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const result = await cip(['env', 'create', '-f', 'name=x', '--force'], { env: sandboxEnv(strong) });
      expect(result.exitCode).toBe(2);
      expect(methods(strong)).toEqual([]);
    });
  });

  describe('env apply: each update carries the ETag of the list the plan came from', () => {
    const file = (content: string) => {
      const path = join(tempDir(), 'environments.yaml');
      writeFileSync(path, content);
      return path;
    };
    const BOTH = 'environments:\n  - name: staging\n    description: from the file\n  - name: other\n    description: from the file\n';

    it('an environment changed after the plan was read fails alone (exit 9), the other is updated', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, ID, { name: 'staging', description: 'theirs' }));
      const result = await cip(['env', 'apply', '--file', file(BOTH), '--yes', '--concurrency', '1'], { env: sandboxEnv(strong) });
      await changed;
      expect(result.exitCode).toBe(9);
      const results = JSON.parse(result.stdout) as { key: string; result: string; error: string | null }[];
      expect(results).toEqual([
        {
          action: 'update',
          key: 'staging',
          id: ID,
          result: 'failed',
          error: expect.stringContaining('changed since cip read it: description "as read" → "theirs"'),
        },
        { action: 'update', key: 'other', id: OTHER_ID, result: 'done', error: null },
      ]);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'theirs' });
      expect(strong.environments.get(OTHER_ID)).toMatchObject({ description: 'from the file' });
      // cip's own first write does not make its second one stale.
      expect(putOf(strong).map((request) => request.headers['if-match'])).toEqual([
        expect.stringMatching(/^"v\d+"$/),
        expect.stringMatching(/^"v\d+"$/),
      ]);
    });

    it('updates with no one else writing: every PUT carries the same ETag, and all are done', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const result = await cip(['env', 'apply', '--file', file(BOTH), '--yes'], { env: sandboxEnv(strong) });
      expect(result.exitCode).toBe(0);
      const tags = putOf(strong).map((request) => request.headers['if-match']);
      expect(tags).toEqual([expect.stringMatching(/^"v\d+"$/), tags[0]]);
      // The list, then for each update the read by id (405 once: not asked again) and the PUT.
      expect(methods(strong)).toEqual(['GET', 'GET', 'PUT', 'PUT']);
    });

    it('a single update that fails so is exit 6', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, ID, { name: 'staging', description: 'theirs' }));
      const result = await cip(
        ['env', 'apply', '--file', file('environments:\n  - name: staging\n    description: from the file\n'), '--yes'],
        {
          env: sandboxEnv(strong),
        },
      );
      await changed;
      expect(result.exitCode).toBe(6);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'theirs' });
    });

    it('without ETags, apply does not read again unless --check; with it, a changed environment fails and is not sent', async ({
      cip,
      startSandbox,
    }) => {
      const none = await sandboxWith(startSandbox, 'none');
      const plain = await cip(['env', 'apply', '--file', file(BOTH), '--yes'], { env: sandboxEnv(none) });
      expect(plain.exitCode).toBe(0);
      // The list, the read by id (405: asked once, the other update waits for its answer), the PUTs.
      expect(methods(none)).toEqual(['GET', 'GET', 'PUT', 'PUT']);

      none.reset();
      const changed = between(none, 'GET', 2, () => otherWriter(none, ID, { name: 'staging', description: 'theirs' }));
      const path = file('environments:\n  - name: staging\n    description: again\n  - name: other\n    description: again\n');
      const checked = await cip(['env', 'apply', '--file', path, '--yes', '--check'], { env: sandboxEnv(none) });
      await changed;
      expect(checked.exitCode).toBe(9);
      expect(methods(none)).toEqual(['GET', 'GET', 'GET', 'PUT']);
      expect(none.environments.get(ID)).toMatchObject({ description: 'theirs' });
      expect(none.environments.get(OTHER_ID)).toMatchObject({ description: 'again' });
    });

    it('--force and --check together are a usage error', async ({ cip, startSandbox }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const result = await cip(['env', 'apply', '--file', file(BOTH), '--yes', '--check', '--force'], { env: sandboxEnv(strong) });
      expect(result.exitCode).toBe(2);
    });
  });

  describe('env restore: writing back an update is checked as an update is', () => {
    it("a change made between the restore's read and its PUT is refused (412, exit 6), and the other writer's record is kept", async ({
      cip,
      startSandbox,
    }) => {
      const strong = await sandboxWith(startSandbox, 'strong');
      const configDir = tempDir();
      const env = sandboxEnv(strong);
      expect((await cip(['env', 'update', 'staging', '-f', 'description=mine'], { env, configDir })).exitCode).toBe(0);
      const history = await cip(['env', 'history', '--json'], { env, configDir });
      const [entry] = JSON.parse(history.stdout) as { entry: string }[];
      strong.reset();
      const changed = between(strong, 'PUT', 1, () => otherWriter(strong, ID, { name: 'staging', description: 'theirs' }));
      const result = await cip(['env', 'restore', entry!.entry, '--yes'], { env, configDir });
      await changed;
      expect(result.exitCode).toBe(6);
      expect(expectOneErrorLine(result.stderr)).toContain(
        `error: the environment 'staging' (${ID}) changed since cip read it: description "mine" → "theirs"`,
      );
      expect(putOf(strong)[0]!.headers['if-match']).toMatch(/^"v\d+"$/);
      expect(strong.environments.get(ID)).toMatchObject({ description: 'theirs' });
    });
  });
});
