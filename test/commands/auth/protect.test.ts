// `cip auth protect` and `auth unprotect` in-process against the sandbox: what a user sees (exit code, stdout,
// stderr) and what the config file holds afterwards.
import { describe, expect } from 'vitest';
import { expectOneErrorLine, loginArgs, readConfig, tempDir } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { writeProfiles, configText, methods, QUESTION, PROTECTED_SANDBOX } from '../../helpers/protected-profiles.js';

test.override({ sandboxOptions: PROTECTED_SANDBOX });

// The test's config folder holds two profiles for the sandbox: prod (protected, active) and staging.
test.override('configDir', ({ sandbox }) => {
  const configDir = tempDir();
  writeProfiles(sandbox, configDir, { prod: { protected: true }, staging: {} }, 'prod');
  return configDir;
});

describe('auth protect and unprotect', () => {
  it('protect marks the profile and keeps every other field as it was; unprotect gives back the same bytes', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const before = writeProfiles(sandbox, configDir, { staging: { note: 'kept as it is', nested: { n: 1.5e300 } } }, 'staging', {
      other: ['top', 1],
    });
    const protect = await cip(['auth', 'protect', 'staging'], { configDir });
    expect(protect.exitCode).toBe(0);
    expect(protect.stderr).toContain("Profile 'staging' is now protected");
    const after = readConfig(configDir) as { profiles: Record<string, Record<string, unknown>> };
    expect(after.profiles.staging!.protected).toBe(true);
    const { protected: _, ...rest } = after.profiles.staging!;
    expect({ ...after, profiles: { staging: rest } }).toEqual(JSON.parse(before));

    const unprotect = await cip(['auth', 'unprotect', 'staging', '--confirm', 'staging'], { configDir });
    expect(unprotect.exitCode).toBe(0);
    expect(unprotect.stderr).toContain("Profile 'staging' is no longer protected.");
    // As cip writes the file: the same bytes as one protect and unprotect ago.
    const rewritten = configText(configDir);
    expect(await cip(['auth', 'protect', 'staging'], { configDir })).toMatchObject({ exitCode: 0 });
    expect(await cip(['auth', 'unprotect', 'staging', '--confirm', 'staging'], { configDir })).toMatchObject({ exitCode: 0 });
    expect(configText(configDir)).toBe(rewritten);
    expect(sandbox.requests).toEqual([]);
  });

  it('protect of a protected profile says so; unprotect of one that is not says so', async ({ cip, configDir }) => {
    const again = await cip(['auth', 'protect', 'prod'], { configDir });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toBe("Profile 'prod' is already protected.\n");
    const not = await cip(['auth', 'unprotect', 'staging'], { configDir });
    expect(not.exitCode).toBe(0);
    expect(not.stderr).toBe("Profile 'staging' is not protected.\n");
  });

  it('an unknown profile is exit 2 and the file is untouched', async ({ cip, configDir }) => {
    const before = configText(configDir);
    for (const verb of ['protect', 'unprotect']) {
      const result = await cip(['auth', verb, 'nope'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toContain("unknown profile 'nope'");
    }
    expect(configText(configDir)).toBe(before);
  });

  it('unprotect asks the same typed confirmation: a script needs --confirm NAME, a wrong name changes nothing', async ({
    cip,
    configDir,
  }) => {
    const before = configText(configDir);
    const script = await cip(['auth', 'unprotect', 'prod'], { configDir });
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toBe(
      "error: profile 'prod' is protected: to take the protection off profile 'prod' without a terminal, pass --confirm prod; nothing was changed",
    );
    const wrong = await cip(['auth', 'unprotect', 'prod', '--confirm', 'staging'], { configDir });
    expect(wrong.exitCode).toBe(2);
    const typedWrong = await cip(['auth', 'unprotect', 'prod'], { configDir, answers: [[QUESTION, 'staging\n']] });
    expect(typedWrong.exitCode).toBe(2);
    expect(configText(configDir)).toBe(before);
    const typed = await cip(['auth', 'unprotect', 'prod'], { configDir, answers: [[QUESTION, 'prod\n']] });
    expect(typed.exitCode).toBe(0);
    expect(typed.stderr).toContain("About to take the protection off profile 'prod'.");
    expect((readConfig(configDir) as { profiles: { prod: object } }).profiles.prod).not.toHaveProperty('protected');
  });

  it('unprotect of a profile whose base URL a hand broke still asks, naming it as it stands', async ({ sandbox, cip, configDir }) => {
    writeProfiles(sandbox, configDir, { prod: { protected: true, baseUrl: 'not a url' } }, 'prod');
    const result = await cip(['auth', 'unprotect', 'prod'], { configDir, answers: [[QUESTION, 'prod\n']], env: { NO_COLOR: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Profile 'prod' is protected: enterprise ${sandbox.keys.enterpriseId} at not a url.`);
  });

  it('logout of a protected profile asks too: otherwise logout and login again would unprotect it unasked', async ({ cip, configDir }) => {
    const script = await cip(['auth', 'logout'], { configDir });
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toContain(
      "to log out of profile 'prod' and remove its keys without a terminal, pass --confirm prod",
    );
    expect(readConfig(configDir)).toHaveProperty('profiles.prod');
    const confirmed = await cip(['auth', 'logout', '--confirm', 'prod'], { configDir });
    expect(confirmed.exitCode).toBe(0);
    expect(readConfig(configDir)).not.toHaveProperty('profiles.prod');
    // An unprotected profile logs out as before.
    expect((await cip(['auth', 'logout', '--profile', 'staging'], { configDir })).exitCode).toBe(0);
  });

  it('names with spaces and unicode, as another tool may write them: protected, confirmed and refused exactly', async ({
    cip,
    sandbox,
    configDir,
  }) => {
    const name = 'prod eu – ü';
    writeProfiles(sandbox, configDir, { [name]: {}, ' lead': { protected: true } }, name);
    expect((await cip(['auth', 'protect', name], { configDir })).exitCode).toBe(0);
    const script = await cip(['env', 'delete', 'alpha', '--yes'], { configDir });
    expect(script.exitCode).toBe(2);
    // The hint is a shell word the author can paste.
    expect(expectOneErrorLine(script.stderr)).toContain(`pass --confirm '${name}' (--yes is not enough)`);
    const confirmed = await cip(['env', 'delete', 'alpha', '--confirm', name], { configDir });
    expect(confirmed.exitCode).toBe(0);
    // A name that starts with a space is typed with it: nothing is trimmed.
    const trimmed = await cip(['env', 'delete', 'beta', '--profile', ' lead'], {
      configDir,
      answers: [["name, ' lead', to go on:", 'lead\n']],
    });
    expect(trimmed.exitCode).toBe(2);
    const exact = await cip(['env', 'delete', 'beta', '--profile', ' lead'], {
      configDir,
      answers: [["name, ' lead', to go on:", ' lead\n']],
    });
    expect(exact.exitCode).toBe(0);
    expect(methods(sandbox).filter((method) => method === 'DELETE')).toHaveLength(2);
  });

  it("a 'protected' that is not true or false is a broken file: every command stops, naming it", async ({ sandbox, cip, configDir }) => {
    writeProfiles(sandbox, configDir, { prod: { protected: 'yes' } }, 'prod');
    const result = await cip(['env', 'delete', 'alpha', '--yes'], { configDir });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toContain(`profile 'prod' has a bad "protected" (expected true or false)`);
    expect(sandbox.requests).toEqual([]);
  });

  it('auth status says which profiles are protected, in JSON always and in the table once one is', async ({ cip, sandbox, configDir }) => {
    const json = await cip(['auth', 'status', '--json'], { configDir });
    expect(json.exitCode).toBe(0);
    expect((JSON.parse(json.stdout) as { name: string; protected: boolean }[]).map((row) => [row.name, row.protected])).toEqual([
      ['prod', true],
      ['staging', false],
    ]);
    const table = await cip(['auth', 'status', '-o', 'table'], { configDir });
    expect(table.stdout).toMatch(/^NAME\s+ACTIVE\s+IN USE\s+PROTECTED\s+KEYS\s+/m);
    expect(table.stdout).toMatch(/^prod\s+true\s+true\s+true\s+file\s+/m);
    expect(table.stdout).toMatch(/^staging\s+false\s+false\s+false\s+file\s+/m);
    writeProfiles(sandbox, configDir, { staging: {} }, 'staging');
    const none = await cip(['auth', 'status', '-o', 'table'], { configDir });
    expect(none.stdout).not.toContain('PROTECTED');
  });

  it('two cip processes at once: protect and a login of another profile both land (the store is locked)', async ({
    sandbox,
    cip,
    configDir,
  }) => {
    const [protect, login] = await Promise.all([
      cip(['auth', 'protect', 'staging'], { configDir }),
      cip([...loginArgs(sandbox), '--profile', 'third', '--no-verify'], { configDir }),
    ]);
    expect(protect.exitCode).toBe(0);
    expect(login.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({
      profiles: { prod: { protected: true }, staging: { protected: true }, third: { enterpriseId: sandbox.keys.enterpriseId } },
    });
  });
});
