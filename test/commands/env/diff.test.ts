// `cip env diff` in-process against the sandbox: the plan of what an apply would change, and that it sends no write.
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixture.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { UNLISTED, file, AS_CODE_SANDBOX } from '../../helpers/environments-file.js';

test.override({ sandboxOptions: AS_CODE_SANDBOX });

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
