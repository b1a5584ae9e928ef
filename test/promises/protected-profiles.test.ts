// The promise "protected profiles": a script needs --confirm NAME for a destructive or wide change to a protected
// profile (--yes alone never does), a person types the name at a terminal, and a wrong name sends nothing.
// In-process, against the sandbox; the profiles are written as another tool (or an older cip) would write them.
import { describe, expect } from 'vitest';
import { checkShape } from '../../src/config/store/profile.js';
import { expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';
import { writes } from '../helpers/requests.js';
import {
  writeProfiles,
  methods,
  host,
  QUESTION,
  screen,
  COLOUR,
  applyFile,
  guarded,
  PROTECTED_SANDBOX,
} from '../helpers/protected-profiles.js';

test.override({ sandboxOptions: PROTECTED_SANDBOX });

// The test's config folder holds two profiles for the sandbox: prod (protected, active) and staging.
test.override('configDir', ({ sandbox }) => {
  const configDir = tempDir();
  writeProfiles(sandbox, configDir, { prod: { protected: true }, staging: {} }, 'prod');
  return configDir;
});

describe('a script against a protected profile', () => {
  it('with --yes sends nothing: exit 2, one error line that names --confirm prod, not even the list read', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const result = await cip(['env', 'delete', 'alpha', '--yes'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      "error: profile 'prod' is protected: to delete environment alpha without a terminal, pass --confirm prod (--yes is not enough); nothing was sent",
    );
    expect(result.stdout).toBe('');
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.environments.has('e1')).toBe(true);
  });

  it.for(guarded())(
    '%s is guarded: exit 2 naming --confirm prod, and no write reaches the server',
    async ([_, args], { sandbox, cip, configDir }) => {
      const result = await cip(args, { configDir, input: 'alpha\n' });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        /^error: profile 'prod' is protected: to .* without a terminal, pass --confirm prod\b/,
      );
      expect(writes(sandbox)).toEqual([]);
      expect(sandbox.environments.size).toBe(3);
    },
  );

  it.for(guarded())('%s with --confirm prod goes ahead', async ([_, args], { sandbox, cip, configDir }) => {
    const result = await cip([...args, '--confirm', 'prod'], { configDir, input: 'alpha\n' });
    expect(result.stderr).not.toContain('protected');
    // The sandbox has no PATCH route: what matters is that the request went.
    expect(result.exitCode).toBe(args.includes('PATCH') ? 6 : 0);
    expect(writes(sandbox).length).toBeGreaterThan(0);
  });

  it.for(guarded())('%s with --confirm wrong: exit 2 and nothing sent', async ([_, args], { sandbox, cip, configDir }) => {
    const result = await cip([...args, '--confirm', 'staging'], { configDir, input: 'alpha\n' });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: --confirm staging does not match the profile's name, 'prod': nothing was sent");
    // Checked before anything is read.
    expect(sandbox.requests).toEqual([]);
  });

  it('--confirm is compared exactly: another letter case, or a space more, is another name', async ({ sandbox, cip, configDir }) => {
    for (const wrong of ['Prod', 'prod ', ' prod', 'pro']) {
      const result = await cip(['env', 'delete', 'alpha', '--confirm', wrong], { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toContain("does not match the profile's name, 'prod'");
    }
    expect(sandbox.requests).toEqual([]);
  });

  it('--confirm prod alone answers delete as --yes does: no --yes needed', async ({ sandbox, cip, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', 'beta', '--confirm', 'prod'], { configDir });
    expect(result.exitCode).toBe(0);
    expect(methods(sandbox)).toEqual(['GET', 'DELETE', 'DELETE']);
    expect([...sandbox.environments.keys()]).toEqual(['e3']);
  });

  it('--dry-run needs no confirmation: it sends nothing', async ({ sandbox, cip, configDir }) => {
    for (const args of [
      ['env', 'delete', 'alpha', '--dry-run'],
      ['env', 'update', 'alpha', '--unset', 'description', '--dry-run'],
      ['env', 'update', 'alpha', '-f', 'name=alpha', '--replace', '--dry-run'],
      ['env', 'apply', '--file', applyFile(['alpha']), '--prune', '--dry-run'],
    ]) {
      const result = await cip(args, { configDir });
      expect(result.exitCode, args.join(' ')).toBe(0);
    }
    expect(writes(sandbox)).toEqual([]);
  });

  it('a --confirm given with --dry-run is still checked', async ({ sandbox, cip, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', '--dry-run', '--confirm', 'staging'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(sandbox.requests).toEqual([]);
  });

  it('what changes nothing destructive is not guarded: list, create, a merge update, apply of a few changes, GET', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    for (const args of [
      ['env', 'list'],
      ['env', 'get', 'alpha'],
      ['env', 'create', '-f', 'name=delta'],
      ['env', 'create', '-f', 'name=delta', '-f', 'description=again', '--if-exists', 'update'],
      ['env', 'update', 'alpha', '-f', 'description=merged'],
      ['env', 'apply', '--file', applyFile(['alpha', 'beta', 'gamma', 'delta'], 7), '--yes'],
      ['env', 'diff', '--file', applyFile(['alpha']), '--prune'],
      ['api', 'Environments'],
      ['api', 'Environments', '-X', 'HEAD'],
      ['api', 'Environments', '-X', 'OPTIONS'],
    ]) {
      const before = sandbox.requests.length;
      const result = await cip(args, { configDir });
      expect(result.stderr, args.join(' ')).not.toContain('protected');
      expect(result.exitCode, args.join(' ')).not.toBe(2);
      expect(sandbox.requests.length, args.join(' ')).toBeGreaterThan(before);
    }
    // The apply of 8 changes went ahead.
    expect(sandbox.environments.size).toBe(11);
  });

  it('apply of exactly 10 changes goes ahead; 11 asks: the plan is shown, then the refusal, and only the list is read', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const eleven = await cip(['env', 'apply', '--file', applyFile(['alpha', 'beta', 'gamma'], 11), '--yes'], { configDir });
    expect(eleven.exitCode).toBe(2);
    expect(expectOneErrorLine(eleven.stderr)).toBe(
      "error: profile 'prod' is protected: to apply this plan (11 to create, 0 to update, 0 to delete) without a terminal, pass --confirm prod (--yes is not enough); nothing was sent",
    );
    expect(methods(sandbox)).toEqual(['GET']);
    const ten = await cip(['env', 'apply', '--file', applyFile(['alpha', 'beta', 'gamma'], 10), '--yes'], { configDir });
    expect(ten.exitCode).toBe(0);
    expect(sandbox.environments.size).toBe(13);
  });

  it('prompts off at a terminal (CI, --quiet) are no terminal: --confirm is needed, and the error says why', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const ci = await cip(['env', 'delete', 'alpha', '--yes'], { configDir, interactive: true, env: { CI: 'true' } });
    expect(ci.exitCode).toBe(2);
    expect(expectOneErrorLine(ci.stderr)).toContain('without a terminal (prompts are off under CI), pass --confirm prod');
    const quiet = await cip(['env', 'delete', 'alpha', '--yes', '--quiet'], { configDir, interactive: true });
    expect(quiet.exitCode).toBe(2);
    expect(expectOneErrorLine(quiet.stderr)).toContain('(prompts are off under --quiet)');
    expect(sandbox.requests).toEqual([]);
  });
});

describe('what decides the profile', () => {
  const variables = {
    CIP_BASE_URL: undefined as string | undefined,
    CIP_API_KEY: undefined as string | undefined,
    CIP_SUBSCRIPTION_KEY: undefined as string | undefined,
    CIP_ENTERPRISE_ID: undefined as string | undefined,
  };
  test.beforeEach(({ sandbox }) => {
    variables.CIP_BASE_URL = sandbox.url;
    variables.CIP_API_KEY = sandbox.keys.apiKey;
    variables.CIP_SUBSCRIPTION_KEY = sandbox.keys.subscriptionKey;
    variables.CIP_ENTERPRISE_ID = sandbox.keys.enterpriseId;
  });

  it('a variable that overrides part of the active protected profile still acts in it: guarded', async ({ sandbox, cip, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', '--yes'], { configDir, env: { CIP_API_KEY: sandbox.keys.apiKey } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toContain("profile 'prod' is protected");
    expect(sandbox.requests).toEqual([]);
  });

  it('a protected profile named by CIP_PROFILE or --profile is guarded, whatever credentials the environment holds', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    for (const options of [{ env: { ...variables, CIP_PROFILE: 'prod' } }, { env: variables, args: ['--profile', 'prod'] }]) {
      const result = await cip(['env', 'delete', 'alpha', '--yes', ...(options.args ?? [])], { configDir, env: options.env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toContain("profile 'prod' is protected");
    }
    expect(sandbox.requests).toEqual([]);
  });

  it('a --confirm on a command that changes nothing is still checked: it says which profile the script means', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const wrong = await cip(['api', 'Environments', '--confirm', 'staging'], { configDir });
    expect(wrong.exitCode).toBe(2);
    const merge = await cip(['env', 'update', 'alpha', '-f', 'description=x', '--confirm', 'staging'], { configDir });
    expect(merge.exitCode).toBe(2);
    expect(sandbox.requests).toEqual([]);
    const right = await cip(['env', 'update', 'alpha', '-f', 'description=x', '--confirm', 'prod'], { configDir });
    expect(right.exitCode).toBe(0);
  });
});

describe('the file', () => {
  it("'protected' must be true or false; absent is not protected; fields cip does not know are kept (how an older cip reads it)", ({
    sandbox,
  }) => {
    const profile = { enterpriseId: sandbox.keys.enterpriseId, apiKey: 'a', subscriptionKey: 's' };
    for (const value of [true, false, undefined]) {
      expect(checkShape({ profiles: { p: { ...profile, protected: value } } }, 'config.json').profiles.p!.protected).toBe(value);
    }
    for (const value of ['true', 1, null, {}]) {
      expect(() => checkShape({ profiles: { p: { ...profile, protected: value } } }, 'config.json')).toThrow(
        `the config file config.json is not valid: profile 'p' has a bad "protected" (expected true or false)`,
      );
    }
    expect(checkShape({ profiles: { p: { ...profile, future: { x: 1 } } } }, 'config.json').profiles.p).toHaveProperty('future', { x: 1 });
  });
});

describe('profiles that are not protected', () => {
  it('are as before: --yes deletes, and no question asks for a name', async ({ cip, sandbox, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', '--yes', '--profile', 'staging'], { configDir });
    expect(result.exitCode).toBe(0);
    expect(methods(sandbox)).toEqual(['GET', 'DELETE']);
    const asked = await cip(['env', 'delete', 'beta', '--profile', 'staging'], { configDir, interactive: true, input: 'y\n' });
    expect(asked.exitCode).toBe(0);
    expect(asked.stderr).toContain('[y/N]');
    expect(asked.stderr).not.toContain("profile's name");
  });

  it('a --confirm that names another profile is refused all the same: the script means another target', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const result = await cip(['env', 'delete', 'alpha', '--yes', '--profile', 'staging', '--confirm', 'prod'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe("error: --confirm prod does not match the profile's name, 'staging': nothing was sent");
    expect(sandbox.requests).toEqual([]);
  });

  it('--confirm with the right name answers the question as --yes does', async ({ cip, sandbox, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', '--profile', 'staging', '--confirm', 'staging'], { configDir });
    expect(result.exitCode).toBe(0);
    expect(methods(sandbox)).toEqual(['GET', 'DELETE']);
  });

  it('credentials wholly from the environment use no profile: nothing is protected, and a --confirm is refused', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const env = {
      CIP_BASE_URL: sandbox.url,
      CIP_API_KEY: sandbox.keys.apiKey,
      CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
      CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
    };
    const named = await cip(['env', 'delete', 'alpha', '--yes', '--confirm', 'prod'], { configDir, env });
    expect(named.exitCode).toBe(2);
    expect(expectOneErrorLine(named.stderr)).toBe(
      'error: --confirm prod names a profile, but this command uses none (its credentials come from the environment): nothing was sent',
    );
    expect(sandbox.requests).toEqual([]);
    const plain = await cip(['env', 'delete', 'alpha', '--yes'], { configDir, env });
    expect(plain.exitCode).toBe(0);
    expect(methods(sandbox)).toEqual(['GET', 'DELETE']);
  });
});

describe('at a terminal', () => {
  it('asks for the name, naming the enterprise, the host and what will change; the name typed deletes', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const result = await cip(['env', 'delete', 'alpha', 'beta'], { configDir, answers: [[QUESTION, 'prod\n']], env: { NO_COLOR: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      [
        `Profile 'prod' is protected: enterprise ${sandbox.keys.enterpriseId} at ${host(sandbox)}.`,
        'About to delete 2 environments:',
        "  'alpha' (e1)",
        "  'beta' (e2)",
        "Each can be re-created from the journal ('cip env history', then 'cip env restore ENTRY'), perhaps with a new id.",
        `${QUESTION} `,
      ].join('\n'),
    );
    // The name typed is the confirmation: no y/N question after it.
    expect(result.stderr).not.toContain('[y/N]');
    expect(result.stderr).not.toMatch(COLOUR);
    expect(methods(sandbox)).toEqual(['GET', 'DELETE', 'DELETE']);
  });

  it('--yes alone is not enough at a terminal either: the name is asked for', async ({ cip, sandbox, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', '--yes'], { configDir, answers: [[QUESTION, 'prod\n']] });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(QUESTION);
    expect(methods(sandbox)).toEqual(['GET', 'DELETE']);
  });

  it('asks in the warning colour when the terminal has colour', async ({ cip, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha'], { configDir, answers: [[QUESTION, 'prod\n']] });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`\u001b[33m${QUESTION}\u001b[39m `);
  });

  it.for<[string, string]>([
    ['another name', 'staging\n'],
    ['another letter case', 'PROD\n'],
    ['a space more', 'prod \n'],
    ['y', 'y\n'],
  ])('%s sends nothing: exit 2, one error line', async ([_, typed], { sandbox, cip, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha', '--yes'], { configDir, answers: [[QUESTION, typed]] });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(screen(result.stderr))).toBe("error: the name typed is not 'prod': nothing was changed");
    expect(writes(sandbox)).toEqual([]);
  });

  it('an empty answer declines: exit 2, said plainly, nothing sent', async ({ sandbox, cip, configDir }) => {
    const result = await cip(['env', 'update', 'alpha', '--unset', 'description'], { configDir, answers: [[QUESTION, '\n']] });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/Nothing was changed\.\n$/);
    expect(result.stderr).not.toContain('error:');
    expect(writes(sandbox)).toEqual([]);
  });

  it('stdin ending at the question (Ctrl-D) is an interrupt: exit 130, nothing sent', async ({ sandbox, cip, configDir }) => {
    const result = await cip(['env', 'delete', 'alpha'], { configDir, interactive: true, input: '' });
    expect(result.exitCode).toBe(130);
    expect(writes(sandbox)).toEqual([]);
  });

  it('update --replace and api asks before the environment is read', async ({ sandbox, cip, configDir }) => {
    const replace = await cip(['env', 'update', 'alpha', '-f', 'name=alpha', '--replace'], { configDir, answers: [[QUESTION, 'nope\n']] });
    expect(replace.exitCode).toBe(2);
    expect(replace.stderr).toContain('About to replace environment alpha whole.');
    const api = await cip(['api', 'Environments/e1', '-X', 'DELETE'], { configDir, answers: [[QUESTION, 'nope\n']] });
    expect(api.exitCode).toBe(2);
    expect(api.stderr).toContain(
      "About to send DELETE Environments/e1. This cannot be undone: the journal keeps the request, not what it changed, so 'cip env restore' cannot undo it.",
    );
    expect(sandbox.requests).toEqual([]);
  });

  it('apply with a delete asks after the plan; the name typed applies it without a y/N question', async ({ cip, sandbox, configDir }) => {
    const result = await cip(['env', 'apply', '--file', applyFile(['alpha', 'beta']), '--prune'], {
      configDir,
      answers: [[QUESTION, 'prod\n']],
      env: { NO_COLOR: '1' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(
      /- delete name 'gamma' \(e3\)[^]*About to apply this plan \(0 to create, 0 to update, 1 to delete\)\. The deleted environment can be re-created from the journal \('cip env history', then 'cip env restore ENTRY'\), perhaps with a new id\./,
    );
    expect(result.stderr).not.toContain('[y/N]');
    expect(methods(sandbox)).toEqual(['GET', 'DELETE']);
  });

  it('a key in an environment name is masked in the question, as everywhere', async ({ sandbox, cip, configDir }) => {
    sandbox.environments.set('e1', { id: 'e1', name: `leak-${sandbox.keys.subscriptionKey}` });
    const result = await cip(['env', 'delete', 'e1'], { configDir, answers: [[QUESTION, 'nope\n']] });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      "About to delete environment 'leak-***' (e1). This cannot be undone: it holds one of your keys, which the journal never keeps.",
    );
    expect(result.stderr).not.toContain(sandbox.keys.subscriptionKey);
  });
});
