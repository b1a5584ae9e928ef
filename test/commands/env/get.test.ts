// `cip env get` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import { describe, expect } from 'vitest';
import { sandboxEnv, expectOneErrorLine } from '../../helpers/cli.js';
import { it, test, type Fixtures } from '../../helpers/fixture.js';
import { readPaths, NAMED_SANDBOX } from '../../helpers/named-environments.js';

describe('dotted columns', () => {
  // One meaning for --columns: a dotted path picks the nested value, in `env list` and `env get`, in a table and
  // in JSON, YAML and TSV alike, with numbers exact.

  test.override({
    sandboxOptions: { records: ['{"id":"e1","name":"alpha","settings":{"retention":90,"quota":12345678901234567890.50}}'] },
  });

  const COLUMNS = ['--columns', 'name,settings.retention,settings.quota'];

  async function run({ sandbox, cip }: Pick<Fixtures, 'sandbox' | 'cip'>, args: string[], terminalColumns?: number) {
    const result = await cip(['env', ...args, ...COLUMNS, '--no-color'], { env: sandboxEnv(sandbox), terminalColumns });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    return result.stdout;
  }

  describe('--columns settings.retention', () => {
    it('at a terminal: a SETTINGS.RETENTION column in list, a settings.retention line in get', async ({ sandbox, cip }) => {
      expect(await run({ sandbox, cip }, ['list'], 80)).toBe(
        'NAME   SETTINGS.RETENTION  SETTINGS.QUOTA\nalpha  90                  12345678901234567890.50\n',
      );
      expect(await run({ sandbox, cip }, ['get', 'alpha'], 80)).toBe(
        'name                alpha\nsettings.retention  90\nsettings.quota      12345678901234567890.50\n',
      );
    });

    it.for<[string, (list: string) => string]>([
      [
        'json',
        (list: string) =>
          `${list
            .split('\n')
            .slice(1, -2)
            .map((line) => line.slice(2))
            .join('\n')}\n`,
      ],
      ['yaml', (list: string) => list.replace(/^- /, '').replace(/^ {2}/gm, '')],
      ['tsv', (list: string) => list],
    ])('-o %s: get writes what list writes for its one item', async ([format, one], { sandbox, cip }) => {
      const list = await run({ sandbox, cip }, ['list', '-o', format]);
      const get = await run({ sandbox, cip }, ['get', 'alpha', '-o', format]);
      expect(get.replace('12345678901234567890.50', 'Q')).toBe(one(list.replace('12345678901234567890.50', 'Q')));
      expect(get).toContain('12345678901234567890.50');
      expect(get).not.toContain('"retention":90}');
    });
  });
});

describe('the everyday workflow', () => {
  // Read as JSON texts, so the store keeps the exact digits as the sandbox parses them.
  test.override({ sandboxOptions: NAMED_SANDBOX });

  describe('env get', () => {
    it('finds an environment by id, and prints it as JSON in a pipe', async ({ env, cip, sandbox }) => {
      const result = await cip(['env', 'get', 'e2'], { env });
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual({ id: 'e2', name: 'prod', type: 'Production' });
      // A record with no version of its own is asked for by id too, for its ETag; the sandbox has no read by id.
      expect(readPaths(sandbox)).toEqual(['/ms/Environments', '/ms/Environments/e2']);
    });

    it('finds one by its exact name, in either letter case of the key, with numbers exact', async ({ env, cip }) => {
      const byName = await cip(['env', 'get', 'staging'], { env });
      expect(byName.exitCode).toBe(0);
      expect(byName.stdout).toContain('"quota": 12345678901234567890');
      expect(byName.stdout).toContain('"ratio": 1.50');
      const pascal = await cip(['env', 'get', 'Review'], { env });
      expect(JSON.parse(pascal.stdout)).toEqual({ id: 'e3', Name: 'Review', type: 'Test' });
    });

    it('prefers an id over a name that equals it', async ({ env, cip }) => {
      // 'e2' is e2's id and the name of another environment: the id wins.
      const result = await cip(['env', 'get', 'e2'], { env });
      expect(JSON.parse(result.stdout)).toMatchObject({ id: 'e2' });
    });

    it('a name matches exactly: not another case, not a prefix (exit 5)', async ({ env, cip }) => {
      for (const name of ['Staging', 'stag', 'review']) {
        const result = await cip(['env', 'get', name], { env });
        expect(result.exitCode).toBe(5);
        expect(expectOneErrorLine(result.stderr)).toBe(
          `error: no environment has the id or name '${name}' (nothing was sent; 'cip env list' shows the ids and names)`,
        );
      }
    });

    it('a name two environments share is exit 2, naming their ids', async ({ env, cip }) => {
      const result = await cip(['env', 'get', 'dup'], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        "error: 'dup' matches 2 environments: e4, e5 (nothing was sent; name the one you mean by its id)",
      );
    });

    it('shows a record view at a terminal, and --columns picks fields, nested ones by path', async ({ env, cip }) => {
      const view = await cip(['env', 'get', 'staging'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 100 });
      expect(view.exitCode).toBe(0);
      expect(view.stdout).toMatch(/^id\s+e1$/m);
      expect(view.stdout).toMatch(/^settings\s+\{"retention":30,"logLevel":"Warning"\}$/m);
      const picked = await cip(['env', 'get', 'staging', '--columns', 'name,settings.retention'], { env });
      expect(picked.stdout).toBe('{\n  "name": "staging",\n  "settings": {\n    "retention": 30\n  }\n}\n');
    });
  });
});
