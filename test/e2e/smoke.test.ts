// One pass of every command through the built binary, as a user runs it: the in-process tests
// (test/commands/) cover behaviour; this proves the launcher, the bundle and each command's wiring.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { cip, loginArgs, readConfig, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 1 } });

describe('every command, through the binary', () => {
  it('auth login, status, switch and logout; env list, create, update and delete', async ({ sandbox }) => {
    const configDir = tempDir();
    const login = (profile: string) => cip(loginArgs(sandbox, ['--profile', profile]), { configDir });

    expect(await login('one')).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await login('two')).toMatchObject({ exitCode: 0, stdout: '' });
    const status = await cip(['auth', 'status', '--json'], { configDir });
    expect(status.exitCode).toBe(0);
    expect((JSON.parse(status.stdout) as { name: string; active: boolean }[]).map(({ name, active }) => [name, active])).toEqual([
      ['one', true],
      ['two', false],
    ]);
    expect(await cip(['auth', 'switch', 'two'], { configDir })).toMatchObject({ exitCode: 0, stderr: "Profile 'two' is now active.\n" });
    // A project file pins 'one' where it is written, whatever is active: the binary looks from its working folder.
    const project = tempDir();
    expect(await cip(['auth', 'use', 'one', '--here'], { configDir, cwd: project })).toMatchObject({ exitCode: 0, stdout: '' });
    const pinned = await cip(['auth', 'status'], { configDir, cwd: project, env: { HOME: project } });
    expect(pinned.stderr).toContain(`A command run now would use profile 'one' (from ${join(project, '.cip.json')}):\n`);

    const created = await cip(['env', 'create', '-f', 'name=smoke', '-F', 'size=12345678901234567890'], { configDir });
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toContain('"size": 12345678901234567890');
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const listed = await cip(['env', 'ls', '--json'], { configDir });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((item) => item.id)).toContain(id);
    const updated = await cip(['env', 'update', id, '--data', '{"name":"smoke-2"}'], { configDir });
    expect(updated.exitCode).toBe(0);
    expect(sandbox.environments.get(id)).toMatchObject({ name: 'smoke-2' });
    const got = await cip(['env', 'get', 'smoke-2'], { configDir });
    expect(JSON.parse(got.stdout)).toMatchObject({ id, name: 'smoke-2' });
    expect(got.stdout).toContain('"size": 12345678901234567890');
    const removed = await cip(['env', 'rm', 'smoke-2', '--yes'], { configDir });
    expect(removed.exitCode).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual([{ given: 'smoke-2', id, name: 'smoke-2', result: 'deleted', error: null }]);
    expect(sandbox.environments.has(id)).toBe(false);
    const history = await cip(['env', 'history'], { configDir });
    const [deleted] = JSON.parse(history.stdout) as { entry: string; action: string }[];
    expect(deleted).toMatchObject({ action: 'delete' });
    const restored = await cip(['env', 'restore', deleted!.entry, '--yes'], { configDir });
    expect(restored.exitCode).toBe(0);
    expect(restored.stdout).toContain('"size": 12345678901234567890');

    expect(await cip(['auth', 'logout'], { configDir })).toMatchObject({ exitCode: 0 });
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'one', profiles: { one: expect.any(Object) } });
  });

  it('export, diff and apply; api with --jq; tsv; doctor', async ({ sandbox }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox), { configDir })).exitCode).toBe(0);
    const exported = await cip(['env', 'export'], { configDir });
    expect(exported.exitCode).toBe(0);
    expect(exported.stdout).toMatch(/^exported:\n {2}from: http:[^]*\nenvironments:\n {2}- name: /);
    const path = join(tempDir(), 'environments.yaml');
    writeFileSync(path, exported.stdout);
    expect(await cip(['env', 'diff', '--file', path, '--exit-code'], { configDir })).toMatchObject({ exitCode: 0 });
    expect((await cip(['env', 'apply', '--file', path, '--yes'], { configDir })).stderr).toMatch(/No changes/);
    const names = await cip(['api', 'Environments', '--jq', '.[].name'], { configDir });
    expect(names.stdout).toBe(`${[...sandbox.environments.values()].map((record) => String(record.name)).join('\n')}\n`);
    const tsv = await cip(['env', 'list', '-o', 'tsv', '--columns', 'id', '--no-headers'], { configDir });
    expect(tsv.stdout).toBe(`${[...sandbox.environments.keys()].join('\n')}\n`);
    const doctor = await cip(['doctor', '--json'], { configDir });
    expect(doctor.exitCode).toBe(0);
    expect((JSON.parse(doctor.stdout) as { status: string }[]).every((check) => check.status !== 'failed')).toBe(true);
  });

  it('auth protect and unprotect; a protected delete needs --confirm', async ({ sandbox }) => {
    const configDir = tempDir();
    expect((await cip(loginArgs(sandbox, ['--profile', 'live']), { configDir })).exitCode).toBe(0);
    expect(await cip(['auth', 'protect', 'live'], { configDir })).toMatchObject({ exitCode: 0, stdout: '' });
    const created = await cip(['env', 'create', '-f', 'name=guarded'], { configDir });
    expect(created.exitCode).toBe(0);
    const refused = await cip(['env', 'rm', 'guarded', '--yes'], { configDir });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --confirm live (--yes is not enough); nothing was sent');
    expect(await cip(['env', 'rm', 'guarded', '--confirm', 'live'], { configDir })).toMatchObject({ exitCode: 0 });
    expect(await cip(['auth', 'unprotect', 'live', '--confirm', 'live'], { configDir })).toMatchObject({ exitCode: 0, stdout: '' });
    expect(readConfig(configDir)).not.toHaveProperty('profiles.live.protected');
  });

  it('completion prints a script for each shell', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const result = await cip(['completion', shell]);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('cip');
      expect(result.stderr).toBe('');
    }
  });

  it('a usage error and --help come from the binary with the documented exit codes', async () => {
    expect(await cip(['env', 'nope'])).toMatchObject({ exitCode: 2, stdout: '' });
    const help = await cip(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    expect(await cip(['help', 'env', 'create'])).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(/^Usage: cip env create /) as string,
    });
  });
});
