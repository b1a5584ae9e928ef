// A project says which profile it means: a .cip.json found from the working folder upward, in-process against
// two sandboxes (one per enterprise), asserting what each server received.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine } from '../helpers/cli.js';
import { PROD_ENTERPRISE, POSIX, setup, sent, projectTest } from '../helpers/project-file.js';

const test = projectTest();
const it = test;

describe('a project file pins the profile', () => {
  it("makes env list use the pinned profile: prod's keys and enterprise reach prod's server, nothing reaches dev's", async ({
    dev,
    prod,
  }) => {
    const { cip } = setup({ dev, prod }, '{"profile": "prod"}\n');
    const result = await cip(['env', 'list', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ id: 'p1', name: 'prod-one' })]);
    expect(dev.requests).toEqual([]);
    expect(prod.requests).toHaveLength(1);
    expect(prod.requests[0]!.headers.enterpriseid).toBe(PROD_ENTERPRISE);
    expect(prod.requests[0]!.headers['ocp-apim-subscription-key']).toBe(prod.keys.subscriptionKey);
  });

  it('names an unknown profile: exit 2, the file named, nothing sent (never the active profile instead)', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "staging"}');
    const result = await cip(['env', 'list']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: the project file ${path} names profile 'staging', which does not exist (known profiles: dev, prod; log in with 'cip auth login --profile staging', pin another with 'cip auth use NAME --here', or name one with --profile)`,
    );
    expect(sent({ dev, prod })).toEqual([]);
  });

  it('is not valid: exit 2, the file named, nothing sent; --profile still works, as it never reads the file', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod", "enterprise": "x"}');
    const result = await cip(['env', 'list']);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: the project file ${path} has an unknown field 'enterprise' (a project file holds only {"profile": "prod"} or {"enterpriseId": "GUID", "baseUrl": "https://..."})`,
    );
    expect(sent({ dev, prod })).toEqual([]);
    expect((await cip(['env', 'list', '--profile', 'dev'])).exitCode).toBe(0);
    expect(sent({ dev, prod })).toEqual(['dev']);
  });

  it.for([
    ['{"profile":"staging","profile":"prod"}', 'profile'],
    ['{"profile":"dev","pro\\u0066ile":"prod"}', 'profile'],
    ['\uFEFF{"profile":"dev","profile":"prod"}', 'profile'],
    ['{"profile":"prod","nested":{"a":1,"a":2}}', 'a'],
  ])(
    '%s, a key given twice: exit 2 naming the file and the key, nothing sent (not the last one silently)',
    async ([text, key], { dev, prod }) => {
      const { cip, path } = setup({ dev, prod }, text);
      for (const args of [
        ['env', 'list'],
        ['api', 'Environments', '-X', 'DELETE'],
        ['env', 'delete', 'prod-one', '--yes'],
      ]) {
        const result = await cip(args);
        expect(result.exitCode).toBe(2);
        expect(result.stdout).toBe('');
        expect(expectOneErrorLine(result.stderr)).toBe(
          `error: the project file ${path} has the key '${key}' twice (cip will not guess which one is meant: keep one; a project file holds {"profile": "prod"} or {"enterpriseId": "GUID", "baseUrl": "https://..."})`,
        );
      }
      expect(sent({ dev, prod })).toEqual([]);
    },
  );

  it('is beaten by CIP_PROFILE and by --profile', async ({ dev, prod }) => {
    const { cip } = setup({ dev, prod }, '{"profile": "prod"}');
    expect((await cip(['env', 'list'], { env: { CIP_PROFILE: 'dev' } })).exitCode).toBe(0);
    expect((await cip(['env', 'list', '--profile', 'dev'])).exitCode).toBe(0);
    expect(sent({ dev, prod })).toEqual(['dev', 'dev']);
  });

  it('refuses an explicit enterprise id for another enterprise (exit 2), and sends nothing', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const result = await cip(['env', 'list'], { env: { CIP_ENTERPRISE_ID: dev.keys.enterpriseId } });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: CIP_ENTERPRISE_ID names enterprise ${dev.keys.enterpriseId}, but the project file ${path} pins profile 'prod' (enterprise ${PROD_ENTERPRISE}): cip will not act in another enterprise than the project's (unset CIP_ENTERPRISE_ID, name the profile to use with --profile, or change ${path})`,
    );
    expect(sent({ dev, prod })).toEqual([]);
  });

  it('pins the enterprise id and a base URL on the profile’s host: the active profile’s keys, with that enterprise and path', async ({
    dev,
    prod,
  }) => {
    const { cip } = setup({ dev, prod }, JSON.stringify({ enterpriseId: PROD_ENTERPRISE, baseUrl: `${new URL(dev.url).origin}/other` }));
    const result = await cip(['env', 'list', '--json']);
    expect(prod.requests).toEqual([]);
    expect(dev.requests.map((request) => [request.url, request.headers.enterpriseid])).toEqual([['/other/Environments', PROD_ENTERPRISE]]);
    expect(result.exitCode).not.toBe(0);
  });

  it('refuses a base URL on another host than the one the keys are for (a checkout cannot send them elsewhere)', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, JSON.stringify({ baseUrl: prod.url }));
    const result = await cip(['env', 'list']);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: the project file ${path} sends requests to ${new URL(prod.url).origin}, another host than that of profile 'dev' (${new URL(dev.url).origin}): cip will not send the keys there (log in a profile at that host and pin it with 'cip auth use NAME --here', or give --base-url)`,
    );
    expect(sent({ dev, prod })).toEqual([]);
  });

  it.skipIf(!POSIX)('is ignored, with a warning, in a folder others can write to: the active profile is used', async ({ dev, prod }) => {
    const { cip, app, path } = setup({ dev, prod }, '{"profile": "prod"}');
    chmodSync(app, 0o777);
    const result = await cip(['env', 'list', '--json']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe(
      `warning: ignoring the project file ${path}: its folder ${app}: others can write to it (mode 777); others could change which profile cip uses\n`,
    );
    expect(sent({ dev, prod })).toEqual(['dev']);
  });

  it('is not looked for above the home folder; from a folder outside home, the search goes on to the root', async ({ dev, prod }) => {
    const { cip, above } = setup({ dev, prod });
    writeFileSync(join(above, '.cip.json'), '{"profile": "nope"}');
    expect((await cip(['env', 'list'])).exitCode).toBe(0);
    expect(sent({ dev, prod })).toEqual(['dev']);
    mkdirSync(join(above, 'srv'));
    const outside = await cip(['env', 'list'], { cwd: join(above, 'srv') });
    expect(outside.exitCode).toBe(2);
    expect(expectOneErrorLine(outside.stderr)).toBe(
      `error: the project file ${join(above, '.cip.json')} names profile 'nope', which does not exist (known profiles: dev, prod; log in with 'cip auth login --profile nope', pin another with 'cip auth use NAME --here', or name one with --profile)`,
    );
    expect(sent({ dev, prod })).toEqual(['dev']);
  });
});

describe('what a user is told', () => {
  it('auth status says the profile came from the project file, and the order of precedence', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const result = await cip(['auth', 'status']);
    expect(result.exitCode).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines).toContain(`A command run now would use profile 'prod' (from ${path}):`);
    expect(lines).toContain(`  project file     ${path}`);
    expect(lines).toContain('Order: flags, then environment variables, then the project file (.cip.json), then the active profile.');
    expect(JSON.parse((await cip(['auth', 'status', '--json'])).stdout)).toContainEqual(
      expect.objectContaining({ name: 'prod', active: false, inUse: true }),
    );
  });

  it('auth status says a named profile leaves the project file unused', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const result = await cip(['auth', 'status'], { env: { CIP_PROFILE: 'dev' } });
    expect(result.stderr).toContain("A command run now would use profile 'dev' (named by CIP_PROFILE):\n");
    expect(result.stderr).toContain(`  not used         the project file ${path} (a profile is named by CIP_PROFILE)\n`);
  });

  it("a write's done line says the target came from the project file", async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const result = await cip(['env', 'create', '--data', '{"name":"made-here"}']);
    expect(result.exitCode).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/^Created environment 'made-here' \(.+\)$/);
    expect(lines.slice(1)).toEqual([`  in profile 'prod' (from ${path}), enterprise ${PROD_ENTERPRISE} at ${new URL(prod.url).host}.`, '']);
    expect(prod.requests.map((request) => request.method)).toContain('POST');
    expect(dev.requests).toEqual([]);
  });

  it("a delete's question names the target and the project file it came from", async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const question = `in profile 'prod' (from ${path})`;
    const result = await cip(['env', 'delete', 'prod-one'], { answers: [[question, 'y\n']] });
    expect(result.stderr).toContain(question);
    expect(result.exitCode).toBe(0);
    expect(prod.requests.map((request) => request.method)).toContain('DELETE');
  });
});

describe('cip api in a pinned folder', () => {
  it('a write says where it went, naming the project file that chose the profile; a read says nothing', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const write = await cip(['api', 'Environments', '-f', 'name=by-api']);
    expect(write.exitCode).toBe(0);
    expect(JSON.parse(write.stdout)).toMatchObject({ name: 'by-api' });
    expect(write.stderr).toBe(
      `Sent POST Environments (HTTP 201)\n  in profile 'prod' (from ${path}), enterprise ${PROD_ENTERPRISE} at ${new URL(prod.url).host}.\n`,
    );
    const read = await cip(['api', 'Environments']);
    expect(read).toMatchObject({ exitCode: 0, stderr: '' });
    expect(sent({ dev, prod })).toEqual(['prod', 'prod']);
  });

  it('--quiet silences the line, as it silences every note', async ({ dev, prod }) => {
    const { cip } = setup({ dev, prod }, '{"profile": "prod"}');
    const result = await cip(['api', 'Environments', '-f', 'name=quietly', '-q']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('a protected profile that the project file chose is named with the file', () => {
  // The question as typed text, without the warning colour.
  const NO_COLOR = { env: { NO_COLOR: '1' } };

  /** Each destructive path that asks in a protected profile, as a script runs it (--yes, no --confirm). */
  const scripts: [string, (app: string) => string[]][] = [
    ['env delete', () => ['env', 'delete', 'prod-one', '--yes']],
    ['env update --replace', () => ['env', 'update', 'prod-one', '--replace', '-f', 'name=prod-one']],
    ['env update --unset', () => ['env', 'update', 'prod-one', '--unset', 'description']],
    [
      'env apply --prune',
      (app) => {
        const file = join(app, 'envs.json');
        writeFileSync(file, '{"environments": []}');
        return ['env', 'apply', '--file', file, '--prune', '--yes'];
      },
    ],
    ['cip api -X DELETE', () => ['api', 'Environments/p1', '-X', 'DELETE']],
  ];

  it.for(scripts)('%s without a terminal: the refusal names the file; nothing is sent', async ([_name, args], { dev, prod }) => {
    const { cip, path, app } = setup({ dev, prod }, '{"profile": "prod"}', { protect: ['prod'] });
    const result = await cip(args(app));
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(
      new RegExp(`^error: profile 'prod' \\(from ${path.replaceAll('.', '\\.')}\\) is protected: to .* pass --confirm prod\\b`),
    );
    expect(prod.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(dev.requests).toEqual([]);
  });

  it.for(scripts)('%s at a terminal: the question names the file; a wrong name sends nothing', async ([_name, args], { dev, prod }) => {
    const { cip, path, app } = setup({ dev, prod }, '{"profile": "prod"}', { protect: ['prod'] });
    const question = `Profile 'prod' (from ${path}) is protected: enterprise ${PROD_ENTERPRISE} at ${new URL(prod.url).host}.`;
    const result = await cip(args(app), { ...NO_COLOR, answers: [['to go on:', 'dev\n']] });
    expect(result.stderr).toContain(`${question}\nAbout to `);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("error: the name typed is not 'prod': nothing was changed\n");
    expect(prod.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('env restore of an update: the refusal and the question name the file', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}', { protect: ['prod'] });
    expect((await cip(['env', 'update', 'prod-one', '-f', 'description=changed'])).exitCode).toBe(0);
    const [entry] = JSON.parse((await cip(['env', 'history', '--json'])).stdout) as { entry: string }[];
    prod.reset();
    const script = await cip(['env', 'restore', entry!.entry, '--yes']);
    expect(script.exitCode).toBe(2);
    expect(expectOneErrorLine(script.stderr)).toContain(`profile 'prod' (from ${path}) is protected: to restore entry ${entry!.entry}`);
    const person = await cip(['env', 'restore', entry!.entry], { ...NO_COLOR, answers: [['to go on:', '\n']] });
    expect(person.stderr).toContain(`Profile 'prod' (from ${path}) is protected: `);
    expect(person.exitCode).toBe(2);
    expect(prod.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('a --confirm that names another profile is refused, naming the file that chose this one', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}');
    const result = await cip(['api', 'Environments/p1', '-X', 'DELETE', '--confirm', 'dev']);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: --confirm dev does not match the profile's name, 'prod' (from ${path}): nothing was sent`,
    );
    expect(sent({ dev, prod })).toEqual([]);
  });

  it('auth logout of the active profile the file pins too names the file; auth unprotect, given the name, does not', async ({
    dev,
    prod,
  }) => {
    const { cip, path } = setup({ dev, prod }, '{"profile": "prod"}', { protect: ['prod'], active: 'prod' });
    const logout = await cip(['auth', 'logout']);
    expect(logout.exitCode).toBe(2);
    expect(expectOneErrorLine(logout.stderr)).toContain(`profile 'prod' (from ${path}) is protected: to log out of profile 'prod'`);
    const asked = await cip(['auth', 'logout'], { ...NO_COLOR, answers: [['to go on:', '\n']] });
    expect(asked.stderr).toContain(
      `Profile 'prod' (from ${path}) is protected: enterprise ${PROD_ENTERPRISE} at ${new URL(prod.url).host}.\n`,
    );
    const unprotect = await cip(['auth', 'unprotect', 'prod']);
    expect(unprotect.exitCode).toBe(2);
    expect(expectOneErrorLine(unprotect.stderr)).toContain("profile 'prod' is protected: to take the protection off");
  });

  it('a profile the file did not choose, but whose base URL it pins, is asked for with the file that pinned it', async ({ dev, prod }) => {
    const { cip, path } = setup({ dev, prod }, JSON.stringify({ baseUrl: dev.url }), { protect: ['dev'] });
    const result = await cip(['api', 'Environments/d1', '-X', 'DELETE'], { ...NO_COLOR, answers: [['to go on:', '\n']] });
    expect(result.stderr).toContain(
      `Profile 'dev' is protected: enterprise ${dev.keys.enterpriseId} at ${new URL(dev.url).host} (pinned by ${path}).\n`,
    );
    expect(result.exitCode).toBe(2);
    expect(dev.requests).toEqual([]);
  });
});
