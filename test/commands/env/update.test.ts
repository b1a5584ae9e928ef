// `cip env update` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { describe, expect } from 'vitest';
import { expectOneErrorLine, sandboxTarget, sandboxEnv, tempDir } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { sent, writes } from '../../helpers/requests.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { STAGING_JSON, readPaths, NAMED_SANDBOX } from '../../helpers/named-environments.js';
import { host } from '../../helpers/protected-profiles.js';
import { LIST, BY_ID, TWO_ENVIRONMENTS_SANDBOX } from '../../helpers/two-environments.js';

describe('at the edges', () => {
  test.override({ sandboxOptions: TWO_ENVIRONMENTS_SANDBOX });

  describe('env update', () => {
    it('--replace --dry-run names the environment by its current name when the payload has none', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'update', 'e1', '--replace', '-f', 'description=new', '--dry-run'], { env });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([{ method: 'PUT', url: `${sandbox.url}/Environments/e1`, body: { description: 'new' } }]);
      expect(result.stderr).toBe(`Dry run: nothing was sent to update environment 'alpha' (e1)\n  ${sandboxTarget(sandbox)}.\n`);
      expect(sent(sandbox)).toEqual([LIST, BY_ID('e1')]);
    });

    it('shows a spinner while it updates, at a terminal', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'update', 'e1', '-f', 'description=new'], { env, ...AT_TERMINAL });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('Updating environment');
      expect(sent(sandbox)).toEqual([LIST, BY_ID('e1'), 'PUT /ms/Environments/e1']);
    });
  });
});

describe('the basics', () => {
  // With credentials from the environment (the CI case).

  test.override({ sandboxOptions: { seed: 3 } });

  describe('cip env update', () => {
    it('merges the payload into the record read from the list and PUTs the whole of it to the URL-encoded id', async ({
      sandbox,
      env,
      cip,
    }) => {
      const [id] = sandbox.environments.keys();
      const before = structuredClone(sandbox.environments.get(id!)!);
      const result = await cip(['env', 'update', id!, '-f', 'name=renamed', '-F', 'isActive=false'], { env });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ id, name: 'renamed', isActive: false });
      const [request] = writes(sandbox);
      expect(request!.method).toBe('PUT');
      expect(request!.url).toBe(`/ms/Environments/${id}`);
      expect(JSON.parse(request!.body)).toEqual({ ...before, name: 'renamed', isActive: false });
    });

    it('encodes ids that are not URL-safe', async ({ sandbox, env, cip }) => {
      // An id with '/' is refused instead (test/promises/exact-targets.test.ts): a server may decode %2F.
      sandbox.environments.set('a b?c#d', { id: 'a b?c#d', name: 'odd' });
      try {
        const result = await cip(['env', 'update', 'a b?c#d', '-f', 'name=x'], { env });
        expect(result.exitCode).toBe(0);
        expect(writes(sandbox)[0]!.url).toBe('/ms/Environments/a%20b%3Fc%23d');
      } finally {
        sandbox.environments.delete('a b?c#d');
      }
    });

    it('an unknown id or name is exit 5, and nothing is written', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'update', '00000000-0000-4000-8000-000000000000', '-f', 'name=x'], { env });
      expect(result.exitCode).toBe(5);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: no environment has the id or name '00000000-0000-4000-8000-000000000000' (nothing was sent; 'cip env list' shows the ids and names)",
      );
      expect(writes(sandbox)).toHaveLength(0);
    });

    it('needs an id (exit 2, nothing sent)', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'update', '-f', 'name=x'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/missing required argument 'id-or-name'/);
      expect(sandbox.requests).toHaveLength(0);
    });
  });
});

describe('small edges', () => {
  test.override({ sandboxOptions: { seed: [{ id: 'e1', name: 'alpha', type: 'Test' }] } });

  describe('env update --file', () => {
    it('names --file when the file cannot be read', async ({ sandbox, cip }) => {
      const missing = join(tempDir(), 'missing.json');
      const result = await cip(['env', 'update', 'e1', '--file', missing], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        new RegExp(`^error: cannot read --file ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
      );
    });
  });
});

describe('the everyday workflow', () => {
  // Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
  test.override({ sandboxOptions: NAMED_SANDBOX });

  describe('env update merges', () => {
    it('changes one field and sends every other one back exactly as it was read', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'update', 'staging', '-f', 'description=changed'], { env });
      expect(result.exitCode).toBe(0);
      const [put] = writes(sandbox);
      expect(put!.method).toBe('PUT');
      expect(put!.url).toBe('/ms/Environments/e1');
      expect(put!.body).toBe(STAGING_JSON.replace('"pre-production"', '"changed"'));
      expect(readPaths(sandbox)).toEqual(['/ms/Environments', '/ms/Environments/e1']);
    });

    it("a field named in another letter case changes the record's own field, not a second one", async ({ env, cip, sandbox }) => {
      await cip(['env', 'update', 'e3', '-f', 'name=Reviewed'], { env });
      expect(writes(sandbox)[0]!.body).toBe('{"id":"e3","Name":"Reviewed","type":"Test"}');
    });

    it('--unset removes a top-level field, with or without other changes', async ({ sandbox, env, cip }) => {
      const only = await cip(['env', 'update', 'e2', '--unset', 'type'], { env });
      expect(only.exitCode).toBe(0);
      expect(writes(sandbox)[0]!.body).toBe('{"id":"e2","name":"prod"}');
      sandbox.reset();
      const warned = await cip(['env', 'update', 'e2', '--unset', 'nope', '-f', 'name=p'], { env });
      expect(warned.stderr).toContain('warning: --unset nope: the environment has no such field\n');
      // The sandbox stamped updatedAt on the first update.
      expect(JSON.parse(writes(sandbox)[0]!.body)).toEqual({ id: 'e2', name: 'p', updatedAt: expect.any(String) });
    });

    it("--unset in another letter case removes the record's own field: TYPE removes type", async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'update', 'e2', '--unset', 'TYPE'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).not.toContain('warning');
      const [put] = writes(sandbox);
      expect(put!.url).toBe('/ms/Environments/e2');
      expect(put!.body).toBe('{"id":"e2","name":"prod"}');
      expect(JSON.parse(put!.body)).not.toHaveProperty('type');
    });

    it('--replace sends exactly the payload', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'update', 'staging', '--data', '{"name":"staging","ratio":2.0}', '--replace'], { env });
      expect(result.exitCode).toBe(0);
      expect(writes(sandbox)[0]!.body).toBe('{"name":"staging","ratio":2.0}');
    });

    it('needs something to change: no payload and no --unset is exit 2, nothing sent', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'update', 'staging'], { env });
      expect(result.exitCode).toBe(2);
      expect(sandbox.requests).toHaveLength(0);
    });
  });
});

describe('what a write says', () => {
  // What create and update say and refuse: the line that names the target, the payload's id, empty answers.

  test.override({
    sandboxOptions: {
      seed: [
        { id: 'e1', name: 'alpha' },
        { id: 42, name: 'numbered' },
      ],
    },
  });

  describe('update refuses a payload that belongs to another environment', () => {
    it.for<[string, string]>([
      ['{"id":"e2","name":"x"}', "the payload's id ('e2') is not the environment being updated ('e1')"],
      ['{"Id":"E1"}', "the payload's Id ('E1') is not the environment being updated ('e1')"],
      ['{"ID":{"a":1}}', "the payload's ID (not a string or number) is not the environment being updated ('e1')"],
    ])('%s: exit 2, nothing sent', async ([data, message], { sandbox, env, cip }) => {
      const result = await cip(['env', 'update', 'e1', '--data', data], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: ${message} (nothing was sent; remove the id from the payload, or update the environment it belongs to)`,
      );
      expect(sandbox.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
    });

    it.for<[string, string]>([
      ['e1', '{"id":"e1","name":"same"}'],
      ['e1', '{"id":null,"name":"null id"}'],
      ['42', '{"id":42,"name":"number id"}'],
      ['e1', '{"identifier":"other","name":"not an id field"}'],
    ])('update %s with %s is sent', async ([id, data], { sandbox, env, cip }) => {
      const result = await cip(['env', 'update', id, '--data', data, '--replace'], { env });
      expect(result.exitCode).toBe(0);
      const puts = sandbox.requests.filter((request) => request.method === 'PUT');
      expect(puts).toHaveLength(1);
      expect(puts[0]!.body).toBe(data);
    });
  });

  describe('the line that says what was done', () => {
    it('update names the environment by the name the API answered, else the one sent', async ({ sandbox, env, cip }) => {
      const answered = await cip(['env', 'update', 'e1', '-f', 'name=renamed'], { env });
      // The environment, then the target on a line of its own: neither wraps at 120 columns.
      expect(answered.stderr).toBe(
        `Updated environment 'renamed' (e1)\n  in enterprise ${sandbox.keys.enterpriseId} at ${host(sandbox)} (credentials from the environment).\n`,
      );
      for (const line of answered.stderr.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
      sandbox.inject({ fault: { kind: 'status', status: 204 }, method: 'PUT' });
      const empty = await cip(['env', 'update', 'e1', '-f', 'name=sent-name'], { env });
      expect(empty.exitCode).toBe(0);
      expect(empty.stdout).toBe('');
      expect(empty.stderr).toContain("Updated environment 'sent-name' (e1)\n  in enterprise");
    });

    it('create says so when the API answered without a body', async ({ sandbox, env, cip }) => {
      sandbox.inject({ fault: { kind: 'status', status: 201 }, method: 'POST' });
      const result = await cip(['env', 'create', '-f', 'name=ghost'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Created environment 'ghost' (the API returned no body)\n  in enterprise ${sandbox.keys.enterpriseId} at ${host(sandbox)} (credentials from the environment).\n`,
      );
    });

    it('names the profile, and leaves the host out for the default base URL', async ({ sandbox, cip }) => {
      const configDir = tempDir();
      chmodSync(configDir, 0o700);
      const profile = {
        enterpriseId: sandbox.keys.enterpriseId,
        apiKey: sandbox.keys.apiKey,
        subscriptionKey: sandbox.keys.subscriptionKey,
      };
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'prod', profiles: { prod: profile } }), {
        mode: 0o600,
      });
      const result = await cip(['env', 'delete', 'e1'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: refusing to delete environment e1 in profile 'prod', enterprise ${sandbox.keys.enterpriseId} without confirmation (pass --yes to confirm)`,
      );
    });
  });
});
