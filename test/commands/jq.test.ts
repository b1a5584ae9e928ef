// --jq as jq runs a filter: results as they come and what came before a run-time error; a failing filter that
// never hides the command's own failure; a compile check that does not run the filter; and $ENV, env, $__loc__
// and input_filename as for `jq FILTER` reading stdin. In-process against the sandbox.
import { describe, expect } from 'vitest';
import { expectOneErrorLine, sandboxTarget } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({
  sandboxOptions: {
    seed: [
      { id: 'e1', name: 'alpha' },
      { id: 'e2', name: 'beta' },
      { id: 'e3', name: 'gamma' },
    ],
  },
});

const RAN = '(the command itself did its work; only the filter failed)';

describe('a filter that fails at run time', () => {
  it('has printed what came before the error; exit 12, the command did its work', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--jq', '.[].name, error("boom")'], { env });
    expect(result).toEqual({ exitCode: 12, stdout: 'alpha\nbeta\ngamma\n', stderr: `error: --jq: boom ${RAN}\n` });
  });

  it('keeps white space at the end of the last result before the error', async ({ env, cip }) => {
    const result = await cip(['api', 'Environments', '--jq', '.[0].name + "\\t", error("boom")'], { env });
    expect(result).toEqual({ exitCode: 12, stdout: 'alpha\t\n', stderr: `error: --jq: boom ${RAN}\n` });
  });

  it("never hides the command's own failure: a bulk delete with a failure is still exit 9", async ({ sandbox, env, cip }) => {
    sandbox.inject({
      fault: { kind: 'status', status: 500, body: '{"message":"locked"}' },
      method: 'DELETE',
      match: (request) => request.url.endsWith('/e2'),
      times: Infinity,
    });
    const result = await cip(
      ['env', 'delete', 'e1', 'e2', 'e3', '--yes', '--jq', '.[] | if .result == "failed" then error("boom") else .id end'],
      {
        env,
      },
    );
    expect(result.exitCode).toBe(9);
    expect(result.stdout).toBe('e1\n');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toEqual([
      'error: --jq: boom',
      `error: partly done: 2 deleted, 1 failed of 3 ${sandboxTarget(sandbox)} (the failed ones are listed above; run the command again for them)`,
    ]);
    expect(sandbox.environments.has('e3')).toBe(false);
  });
});

describe('the compile check', () => {
  it('compiles the filter without running it: a filter that would end with exit 3 on null is not taken for a syntax error', async ({
    env,
    cip,
  }) => {
    const result = await cip(['env', 'list', '--jq', 'if . == null then "ran on null" | halt_error(3) else .[].id end'], { env });
    expect(result).toEqual({ exitCode: 0, stdout: 'e1\ne2\ne3\n', stderr: '' });
  });

  it('still refuses what jq cannot compile, before anything is sent', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list', '--jq', '.[] | nosuch'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: --jq: nosuch/0 is not defined at <top-level>, line 1, column 7: '.[] | nosuch' (at 'nosuch')",
    );
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe("what a filter knows as jq would: `jq FILTER` with the data on stdin, in the caller's environment", () => {
  it('$ENV and env are the caller environment', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '--jq', '.[] | select(.name == $ENV.TARGET) | .id, env.HOME'], {
      env: { ...env, TARGET: 'beta', HOME: '/home/me' },
    });
    expect(result).toEqual({ exitCode: 0, stdout: 'e2\n/home/me\n', stderr: '' });
  });

  it('without the credentials', async ({ env, cip }) => {
    const result = await cip(
      ['env', 'list', '--jq', '[$ENV.CIP_API_KEY, $ENV.CIP_SUBSCRIPTION_KEY, env.CIP_TOKEN, $ENV.CIP_ENTERPRISE_ID != null] | @json'],
      {
        env: { ...env, CIP_TOKEN: 'a-token' },
      },
    );
    expect(result).toEqual({ exitCode: 0, stdout: '[null,null,null,true]\n', stderr: '' });
  });

  it('$__loc__ is line 1 of <top-level> for the first line, and input_filename is null (stdin)', async ({ env, cip }) => {
    const result = await cip(['env', 'get', 'alpha', '--jq', '$__loc__, input_filename'], { env });
    expect(result).toEqual({ exitCode: 0, stdout: '{\n  "file": "<top-level>",\n  "line": 1\n}\nnull\n', stderr: '' });
  });
});
