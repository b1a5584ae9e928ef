// Edges of env export, diff and apply, in-process against the sandbox: the exact plan and result lines, the JSON
// results of every kind of change (created ids, failures, an interrupt), what stdout gets when nothing changes,
// the confirmation, a missing --file, and what a person at a terminal sees while the work runs (the spinner).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { AT_TERMINAL } from '../../helpers/harness.js';

const SEED = [
  '{"id":"a1","name":"alpha","type":"Test","createdAt":"2024-01-01T00:00:00Z"}',
  '{"id":"b2","name":"beta","type":"Production","isActive":true}',
];

test.override({ sandboxOptions: { records: SEED } });

/** The note when the file leaves one environment of the seed out (beta, without --prune). */
const UNLISTED = '1 environment on the server is not in the file and left alone; --prune would delete it.\n';

function file(text: string): string {
  const path = join(tempDir(), 'environments.yaml');
  writeFileSync(path, text);
  return path;
}

describe('env diff', () => {
  it('says the plan counts, or that nothing differs, on stderr', async ({ env, cip }) => {
    const changed = await cip(['env', 'diff', '--file', file('environments:\n  - name: new\n')], { env });
    expect(changed.exitCode).toBe(0);
    expect(changed.stderr).toBe(
      'Plan: 1 to create, 0 to update, 0 to delete.\n2 environments on the server are not in the file and left alone; --prune would delete them.\n',
    );
    const same = await cip(['env', 'diff', '--file', file('environments:\n  - name: alpha\n')], { env });
    expect(same.exitCode).toBe(0);
    expect(same.stderr).toBe(`No changes: the environments match the file.\n${UNLISTED}`);
  });

  it('shows a spinner while the list loads, at a terminal', async ({ env, cip }) => {
    const result = await cip(['env', 'diff', '--file', file('environments:\n  - name: new\n')], { env, ...AT_TERMINAL });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Loading environments');
  });
});
