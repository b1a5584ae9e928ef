// What create and update say and refuse: the line that names the target, the payload's id, empty answers.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { type Sandbox } from '../../src/sandbox/index.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({
  sandboxOptions: {
    seed: [
      { id: 'e1', name: 'alpha' },
      { id: 42, name: 'numbered' },
    ],
  },
});

const host = (sandbox: Sandbox) => new URL(sandbox.url).host;

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
    const profile = { enterpriseId: sandbox.keys.enterpriseId, apiKey: sandbox.keys.apiKey, subscriptionKey: sandbox.keys.subscriptionKey };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'prod', profiles: { prod: profile } }), { mode: 0o600 });
    const result = await cip(['env', 'delete', 'e1'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: refusing to delete environment e1 in profile 'prod', enterprise ${sandbox.keys.enterpriseId} without confirmation (pass --yes to confirm)`,
    );
  });
});
