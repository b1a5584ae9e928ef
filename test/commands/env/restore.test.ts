// `cip env restore` in-process against the sandbox: a journal entry put back exactly, and what a restore refuses.
import { describe, expect } from 'vitest';
import { expectOneErrorLine, loginArgs } from '../../helpers/cli.js';
import { it, test } from '../../helpers/journal.js';
import { writes } from '../../helpers/requests.js';
import type { Fixtures } from '../../helpers/fixture.js';
import { history, withoutServerFields, JOURNAL_SANDBOX } from '../../helpers/journal-entries.js';

test.override({ sandboxOptions: JOURNAL_SANDBOX });

/** Logs in to the sandbox as the protected profile 'prod'; runs cip in it (CIP_PROFILE=prod, and the env given). */
async function protectedProd(
  { sandbox, cip, configDir }: Pick<Fixtures, 'sandbox' | 'cip' | 'configDir'>,
  env: Record<string, string> = {},
) {
  expect(await cip([...loginArgs(sandbox, ['--profile', 'prod']), '--protect'], { configDir })).toMatchObject({ exitCode: 0 });
  return (args: string[], extra: { input?: string; interactive?: boolean } = {}) =>
    cip(args, { configDir, env: { CIP_PROFILE: 'prod', ...env }, ...extra });
}

describe('env restore', () => {
  it('after a delete brings back every field byte for byte (the server gives it a new id), and records it', async ({ sandbox, run }) => {
    const before = await withoutServerFields(sandbox.environments.get('e1'));
    expect((await run(['env', 'delete', 'alpha', '--yes'])).exitCode).toBe(0);
    expect(sandbox.environments.has('e1')).toBe(false);
    const [deleted] = await history(run);
    sandbox.reset();
    const result = await run(['env', 'restore', deleted!.entry, '--yes']);
    expect(result.exitCode).toBe(0);
    const restored = [...sandbox.environments.values()].find((record) => record.name === 'alpha')!;
    expect(await withoutServerFields(restored)).toBe(before);
    // What went over the wire: the digits and characters as they were, no server-owned field.
    const post = writes(sandbox)[0]!;
    expect(post.method).toBe('POST');
    expect(post.body).toBe(before);
    expect(result.stderr).toContain("The API gives it an id of its own, which may differ from 'e1'.");
    expect(result.stderr).toContain(
      `Re-created environment 'alpha' (${String(restored.id)}); its id was 'e1', and is now '${String(restored.id)}'`,
    );
    const [entry] = await history(run);
    expect(entry).toMatchObject({
      command: 'env restore',
      action: 'create',
      restores: deleted!.entry,
      answeredId: String(restored.id),
      result: 'done',
    });
  });

  it('refuses to re-create one that exists again (exit 6) unless --force', async ({ sandbox, run }) => {
    await run(['env', 'delete', 'beta', '--yes']);
    const [deleted] = await history(run);
    await run(['env', 'create', '-f', 'name=beta']);
    sandbox.reset();
    const refused = await run(['env', 'restore', deleted!.entry.slice(0, 10), '--yes']);
    expect(refused.exitCode).toBe(6);
    expect(expectOneErrorLine(refused.stderr)).toMatch(/^error: an environment 'beta' \(.+\) exists again \(nothing was sent;/);
    expect(writes(sandbox)).toHaveLength(0);
    const forced = await run(['env', 'restore', deleted!.entry, '--yes', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(forced.stderr).toContain('restoring anyway (--force)');
  });

  it('after an update writes back the fields it changed, removes those it added, brings back those it unset', async ({ sandbox, run }) => {
    expect((await run(['env', 'update', 'beta', '-f', 'description=new', '-f', 'added=1', '--unset', 'tags'])).exitCode).toBe(0);
    const [updated] = await history(run);
    // Someone else's later change to another field is kept.
    expect((await run(['env', 'update', 'beta', '-f', 'other=kept', '--no-journal'])).exitCode).toBe(0);
    sandbox.reset();
    const refused = await run(['env', 'restore', updated!.entry, '--yes']);
    expect(refused.exitCode).toBe(6);
    expect(expectOneErrorLine(refused.stderr)).toBe(
      `error: the environment 'beta' (e2) changed since entry ${updated!.entry}: other changed since (nothing was sent; look at it with 'cip env get', and pass --force to restore anyway)`,
    );
    expect(writes(sandbox)).toHaveLength(0);
    const dry = await run(['env', 'restore', updated!.entry, '--dry-run', '--force']);
    expect(dry.exitCode).toBe(0);
    expect(writes(sandbox)).toHaveLength(0);
    // The record as it is now (the server's updatedAt too), with the update's fields set back.
    const [planned] = JSON.parse(dry.stdout) as { method: string; url: string; body: Record<string, unknown> }[];
    expect(planned).toMatchObject({ method: 'PUT', url: `${sandbox.url}/Environments/e2` });
    expect(planned!.body).toEqual({
      id: 'e2',
      name: 'beta',
      description: 'second',
      other: 'kept',
      tags: ['a'],
      updatedAt: expect.any(String),
    });
    expect(dry.stderr).toContain(
      "Write back the fields the update changed in the environment 'beta' (e2) (PUT): description, tags, added.",
    );
    const forced = await run(['env', 'restore', updated!.entry, '--yes', '--force']);
    expect(forced.exitCode).toBe(0);
    expect(sandbox.environments.get('e2')).toMatchObject({ id: 'e2', name: 'beta', description: 'second', other: 'kept', tags: ['a'] });
    expect(sandbox.environments.get('e2')).not.toHaveProperty('added');
  });

  it('after an update puts numbers back with their digits, and nested objects whole', async ({ sandbox, run }) => {
    const before = await withoutServerFields(sandbox.environments.get('e1'));
    expect((await run(['env', 'update', 'alpha', '-F', 'price=1', '--data', '{"nested":{"deep":null}}', '--unset', 'big'])).exitCode).toBe(
      0,
    );
    const [updated] = await history(run);
    sandbox.reset();
    expect((await run(['env', 'restore', updated!.entry, '--yes'])).exitCode).toBe(0);
    const put = writes(sandbox)[0]!;
    expect(put.body).toContain('"price":12345678901234567890.000');
    expect(put.body).toContain('"big":1e400');
    expect(await withoutServerFields(sandbox.environments.get('e1'))).toBe(before);
  });

  it('after a create deletes what it created, asking first at a terminal', async ({ sandbox, env, cip, configDir, run }) => {
    await run(['env', 'create', '-f', 'name=temp']);
    const [created] = await history(run);
    const id = created!.answeredId!;
    const declined = await cip(['env', 'restore', created!.entry], { env, configDir, interactive: true, input: 'n\n' });
    expect(declined.exitCode).toBe(2);
    expect(declined.stderr).toContain(`Delete the environment 'temp' (${id}) in enterprise`);
    expect(sandbox.environments.has(id)).toBe(true);
    const script = await run(['env', 'restore', created!.entry]);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toContain(`error: refusing to restore entry ${created!.entry}`);
    const yes = await cip(['env', 'restore', created!.entry], { env, configDir, interactive: true, input: 'y\n' });
    expect(yes.exitCode).toBe(0);
    expect(sandbox.environments.has(id)).toBe(false);
  });

  it('acts only where the entry was made: another enterprise, base URL or profile is exit 2, nothing sent', async ({
    sandbox,
    cip,
    configDir,
    run,
  }) => {
    await run(['env', 'delete', 'beta', '--yes']);
    const [deleted] = await history(run);
    sandbox.reset();
    const other = await run(['env', 'restore', deleted!.entry, '--yes'], {
      env: { CIP_ENTERPRISE_ID: '00000000-0000-4000-8000-000000000000' },
    });
    expect(other.exitCode).toBe(2);
    expect(expectOneErrorLine(other.stderr)).toContain(
      `error: entry ${deleted!.entry} was made in enterprise ${sandbox.keys.enterpriseId} (credentials from the environment) at ${new URL(sandbox.url).host}; this run uses enterprise 00000000-0000-4000-8000-000000000000`,
    );
    const host = await run(['env', 'restore', deleted!.entry, '--yes'], {
      env: { CIP_BASE_URL: sandbox.url.replace('127.0.0.1', 'localhost') },
    });
    expect(host.exitCode).toBe(2);
    expect(await cip(loginArgs(sandbox, ['--profile', 'prod']), { configDir })).toMatchObject({ exitCode: 0 });
    const profile = await cip(['env', 'restore', deleted!.entry, '--yes', '--profile', 'prod'], { configDir });
    expect(profile.exitCode).toBe(2);
    expect(expectOneErrorLine(profile.stderr)).toContain("this run uses profile 'prod'");
    expect(writes(sandbox)).toHaveLength(0);
  });

  it("in a protected profile, undoing an update or a create needs the profile's name (--yes is not enough); re-creating a deleted one does not", async ({
    sandbox,
    cip,
    configDir,
    run,
  }) => {
    const prod = await protectedProd({ sandbox, cip, configDir });
    expect((await prod(['env', 'update', 'beta', '-f', 'description=new'])).exitCode).toBe(0);
    const [updated] = await history(run, ['--profile', 'prod']);
    sandbox.reset();
    const script = await prod(['env', 'restore', updated!.entry, '--yes']);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toContain('pass --confirm prod');
    expect(sandbox.requests).toHaveLength(0);
    const wrong = await prod(['env', 'restore', updated!.entry, '--yes'], { interactive: true, input: 'staging\n' });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("About to write back the fields the update changed in the environment 'beta' (e2) (PUT): description");
    expect(writes(sandbox)).toHaveLength(0);
    const confirmed = await prod(['env', 'restore', updated!.entry, '--confirm', 'prod']);
    expect(confirmed.exitCode).toBe(0);
    expect(sandbox.environments.get('e2')).toMatchObject({ description: 'second' });
    expect((await prod(['env', 'delete', 'beta', '--confirm', 'prod'])).exitCode).toBe(0);
    const [deleted] = await history(run, ['--profile', 'prod']);
    expect(deleted!.action).toBe('delete');
    const recreate = await prod(['env', 'restore', deleted!.entry, '--yes']);
    expect(recreate.exitCode).toBe(0);
  });

  // The test above undoes an update; this one the create path, which a careless change could leave unguarded.
  it("in a protected profile, undoing a create (a DELETE) needs the profile's name, --yes or not", async ({
    sandbox,
    cip,
    configDir,
    run,
  }) => {
    const prod = await protectedProd({ sandbox, cip, configDir }, { NO_COLOR: '1' });
    expect((await prod(['env', 'create', '-f', 'name=made-in-prod'])).exitCode).toBe(0);
    const [created] = await history(run, ['--profile', 'prod']);
    expect(created!.action).toBe('create');
    const id = created!.answeredId!;
    sandbox.reset();

    // A script: refused before anything is read, let alone deleted.
    const script = await prod(['env', 'restore', created!.entry, '--yes']);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toBe(
      `error: profile 'prod' is protected: to restore entry ${created!.entry} without a terminal, pass --confirm prod (--yes is not enough); nothing was sent`,
    );
    expect(sandbox.requests).toHaveLength(0);

    // A person: asked for the name, --yes notwithstanding; a wrong one deletes nothing.
    const wrong = await prod(['env', 'restore', created!.entry, '--yes'], { interactive: true, input: 'staging\n' });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain(`About to delete the environment 'made-in-prod' (${id}), which the entry created (DELETE).`);
    expect(wrong.stderr).toContain("error: the name typed is not 'prod': nothing was changed");
    expect(writes(sandbox)).toHaveLength(0);
    expect(sandbox.environments.has(id)).toBe(true);

    const confirmed = await prod(['env', 'restore', created!.entry, '--confirm', 'prod']);
    expect(confirmed.exitCode).toBe(0);
    expect(writes(sandbox).map((request) => `${request.method} ${request.url}`)).toEqual([`DELETE /ms/Environments/${id}`]);
    expect(sandbox.environments.has(id)).toBe(false);
  });

  it('refuses a cip api entry and an entry the journal does not hold', async ({ run }) => {
    await run(['api', 'Environments', '-f', 'name=via-api']);
    const [api] = await history(run);
    const refused = await run(['env', 'restore', api!.entry, '--yes']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("is a 'cip api' call: cip does not know what it changed");
    const missing = await run(['env', 'restore', 'zzzzzzzz', '--yes']);
    expect(missing.exitCode).toBe(5);
    expect(expectOneErrorLine(missing.stderr)).toBe("error: the journal has no entry 'zzzzzzzz' ('cip env history' lists the entries)");
  });
});
