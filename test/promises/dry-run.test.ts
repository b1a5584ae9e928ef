// The promise "--dry-run": every write command given --dry-run says what it would send and sends nothing but its
// reads. In-process against the sandbox; what the server received is the proof.
import { describe, expect } from 'vitest';
import { it, test } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';
import { readPaths, NAMED_SANDBOX } from '../helpers/named-environments.js';

// Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
test.override({ sandboxOptions: NAMED_SANDBOX });

describe('--dry-run', () => {
  it('create prints the POST it would send and sends nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'create', '-f', 'name=new', '-F', 'n=12345678901234567890', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `[\n  {\n    "method": "POST",\n    "url": "${sandbox.url}/Environments",\n    "body": {\n      "name": "new",\n      "n": 12345678901234567890\n    }\n  }\n]\n`,
    );
    expect(result.stderr).toMatch(/^Dry run: nothing was sent to create environment 'new'\n {2}in enterprise /);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('update reads the list, prints the merged PUT and writes nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'prod', '-F', 'isActive=false', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { method: 'PUT', url: `${sandbox.url}/Environments/e2`, body: { id: 'e2', name: 'prod', type: 'Production', isActive: false } },
    ]);
    expect(readPaths(sandbox)).toEqual(['/ms/Environments', '/ms/Environments/e2']);
    expect(writes(sandbox)).toHaveLength(0);
  });

  it('delete needs no --yes, prints each DELETE, and deletes nothing', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'delete', 'staging', 'e2', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { method: 'DELETE', url: `${sandbox.url}/Environments/e1` },
      { method: 'DELETE', url: `${sandbox.url}/Environments/e2` },
    ]);
    expect(writes(sandbox)).toHaveLength(0);
    expect(sandbox.environments.size).toBe(6);
  });

  it('is readable at a terminal', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'update', 'prod', '-f', 'type=Test', '--dry-run'], {
      env: { ...env, NO_COLOR: '1' },
      terminalColumns: 100,
    });
    expect(result.stdout).toBe(`PUT ${sandbox.url}/Environments/e2\n{\n  "id": "e2",\n  "name": "prod",\n  "type": "Test"\n}\n`);
  });
});
