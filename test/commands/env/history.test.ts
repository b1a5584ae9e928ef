// `cip env history` in-process: the table at a terminal of 100 and 80 columns keeps what matters whole (the entry
// id `env restore` takes, times to the second), gives up the rest first and says on stderr what it hid; and the
// formats and --columns every listing takes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { it, test, type Cip } from '../../helpers/fixture.js';
import { STAGING, REVIEW, TIME, NOTE, threeProfiles, lines, table, LONG_NAME_SANDBOX } from '../../helpers/fitted-tables.js';

test.override({ sandboxOptions: LONG_NAME_SANDBOX });

it('a key in a journal line another tool wrote is *** in the history table, never cut to its first characters', async ({
  sandbox,
  cip,
}) => {
  const configDir = threeProfiles(sandbox);
  const key = sandbox.keys.apiKey;
  const line = {
    v: 1,
    entry: '0mx0q4d794oj4',
    event: 'sent',
    at: '2026-11-26T14:08:03.120Z',
    command: 'env delete',
    action: 'delete',
    profile: null,
    enterprise: sandbox.keys.enterpriseId,
    actingAs: `enterprise ${sandbox.keys.enterpriseId}`,
    baseUrl: sandbox.url,
    environment: { id: REVIEW, name: `leak-${key}-and-a-long-tail-to-be-cut` },
    request: { method: 'DELETE', url: `${sandbox.url}/Environments/${REVIEW}` },
    before: null,
  };
  writeFileSync(join(configDir, 'journal.jsonl'), `${JSON.stringify(line)}\n`, { mode: 0o600 });
  for (const width of [200, 100, 80, 60]) {
    const result = await cip(['env', 'history'], { configDir, terminalColumns: width, env: { CIP_API_KEY: key } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('leak-***');
    // Not the key, nor any start of it that a cut could leave.
    expect(result.stdout).not.toContain(key.slice(0, 8));
  }
});

describe('env history at a terminal', () => {
  async function withHistory(cip: Cip, configDir: string) {
    const run = (args: string[]) => cip(args, { configDir, env: { NO_COLOR: '1' } });
    const file = join(tempDir(), 'environments.json');
    writeFileSync(
      file,
      JSON.stringify({ environments: [{ name: 'staging-environment-eu-west-with-a-longer-name', type: 'Staging', description: 'x' }] }),
    );
    expect((await run(['env', 'apply', '--file', file, '--yes', '--confirm', 'prod'])).exitCode).toBe(0);
    expect((await run(['env', 'delete', 'review-42', '--yes', '--confirm', 'prod'])).exitCode).toBe(0);
    const json = await run(['env', 'history', '--json']);
    return (JSON.parse(json.stdout) as { entry: string }[]).map(({ entry }) => entry);
  }

  it.for([100, 80])(
    'at %i columns: ENTRY whole, WHEN to the second, ACTION, ENVIRONMENT and RESULT kept',
    async (width, { cip, sandbox }) => {
      const configDir = threeProfiles(sandbox);
      const entries = await withHistory(cip, configDir);
      const result = await cip(['env', 'history'], { configDir, terminalColumns: width });
      expect(result.exitCode).toBe(0);
      const { header, rows } = table(result.stdout, width);
      for (const column of ['ENTRY', 'WHEN', 'ACTION', 'ENVIRONMENT', 'RESULT']) expect(header).toContain(column);
      const at = (name: string) => header.indexOf(name);
      expect(rows.map((row) => row[at('ENTRY')])).toEqual(entries);
      for (const row of rows) expect(row[at('WHEN')]).toMatch(TIME);
      expect(rows.map((row) => [row[at('ACTION')], row[at('RESULT')]])).toEqual([
        ['delete', 'done'],
        ['update (apply)', 'done'],
      ]);
      expect(rows[0]![at('ENVIRONMENT')]).toMatch(/^review-42 \(9a0b/);
      // What it hid, it says; what it did not, it does not.
      const note = NOTE.exec(result.stderr);
      expect(Boolean(note)).toBe(!header.includes('PROFILE/ENTERPRISE'));
      if (note) expect(note[2]).toBe('PROFILE/ENTERPRISE');
      expect(result.stderr.replace(NOTE, '').trim()).toBe('');
    },
  );

  it('at 80 columns the first to go is who acted, and a note names it', async ({ cip, sandbox }) => {
    const configDir = threeProfiles(sandbox);
    await withHistory(cip, configDir);
    const result = await cip(['env', 'history'], { configDir, terminalColumns: 80 });
    expect(table(result.stdout, 80).header).toEqual(['ENTRY', 'WHEN', 'ACTION', 'ENVIRONMENT', 'RESULT']);
    expect(result.stderr).toBe('(1 column hidden to fit the terminal: PROFILE/ENTERPRISE; widen it, or use --columns or -o json)\n');
  });

  it('in a pipe, as --columns and -o tsv ask: nothing cut or hidden', async ({ cip, sandbox }) => {
    const configDir = threeProfiles(sandbox);
    const entries = await withHistory(cip, configDir);
    const tsv = await cip(['env', 'history', '-o', 'tsv'], { configDir });
    expect(tsv.exitCode).toBe(0);
    const [header, ...rows] = lines(tsv.stdout).map((line) => line.split('\t'));
    expect(header).toEqual([
      'entry',
      'at',
      'action',
      'command',
      'environment.id',
      'environment.name',
      'profile',
      'enterprise',
      'result',
      'status',
      'answeredId',
    ]);
    expect(rows.map((row) => [row[0], row[2], row[4], row[5], row[6], row[8]])).toEqual([
      [entries[0], 'delete', REVIEW, 'review-42', 'prod', 'done'],
      [entries[1], 'update', STAGING, 'staging-environment-eu-west-with-a-longer-name', 'prod', 'done'],
    ]);
    expect(rows[0]![1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const picked = await cip(['env', 'history', '-o', 'tsv', '--columns', 'entry,environment.name,result', '--no-headers'], { configDir });
    expect(picked.stdout).toBe(`${entries[0]!}\treview-42\tdone\n${entries[1]!}\tstaging-environment-eu-west-with-a-longer-name\tdone\n`);
    const json = await cip(['env', 'history', '--json', '--columns', 'entry,action'], { configDir });
    expect(JSON.parse(json.stdout)).toEqual([
      { entry: entries[0], action: 'delete' },
      { entry: entries[1], action: 'update' },
    ]);
    const yaml = await cip(['env', 'history', '-o', 'yaml', '--columns', 'entry', '--limit', '1'], { configDir });
    expect(yaml.stdout).toBe(`- entry: ${entries[0]!}\n`);
    // At a terminal, --columns makes a table of those fields.
    const chosen = await cip(['env', 'history', '--columns', 'entry,environment.name'], {
      configDir,
      terminalColumns: 100,
      env: { NO_COLOR: '1' },
    });
    expect(lines(chosen.stdout)).toEqual([
      expect.stringMatching(/^ENTRY +ENVIRONMENT\.NAME$/),
      `${entries[0]!}  review-42`,
      `${entries[1]!}  staging-environment-eu-west-with-a-longer-name`,
    ]);
    const unknown = await cip(['env', 'history', '--columns', 'when'], { configDir });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown column 'when'; the fields are: entry, at, command, action, /);
  });
});
