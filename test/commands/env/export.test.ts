// `cip env export` in-process against the sandbox: what a user sees (exit code, stdout, stderr) and what the server received.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ExactNumber } from '../../../src/json/exact.js';
import { digestOf } from '../../../src/domain/environments/since.js';
import { seedSandbox } from '../../helpers/cli.js';
import { it, test } from '../../helpers/fixture.js';
import { AT_TERMINAL } from '../../helpers/harness.js';
import { execa, execaSync } from 'execa';
import { stringifyExactYaml } from '../../../src/json/yaml.js';
import { awkwardString } from '../../helpers/yaml.js';
import { SEED, AS_CODE_SANDBOX } from '../../helpers/environments-file.js';

describe('environments as code', () => {
  const SEED = [
    '{"id":"a1","name":"alpha","type":"Test","quota":12345678901234567890,"settings":{"retention":30},"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-02T00:00:00Z"}',
    '{"id":"b2","name":"beta","type":"Production","isActive":true,"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-01T00:00:00Z"}',
  ];

  test.override({ sandboxOptions: { records: SEED } });

  describe('env export', () => {
    it('writes environments: as YAML, without the fields the server manages, numbers exact', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'export'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(
        [
          // What was read, so that apply refuses to undo a change made after the export.
          'exported:',
          `  from: ${sandbox.url}`,
          `  enterprise: ${sandbox.keys.enterpriseId}`,
          '  fields:',
          '    a1:',
          `      name: ${digestOf('alpha')}`,
          `      type: ${digestOf('Test')}`,
          `      quota: ${digestOf(new ExactNumber('12345678901234567890'))}`,
          `      settings: ${digestOf({ retention: 30 })}`,
          '    b2:',
          `      name: ${digestOf('beta')}`,
          `      type: ${digestOf('Production')}`,
          `      isActive: ${digestOf(true)}`,
          'environments:',
          '  - name: alpha',
          '    type: Test',
          '    quota: 12345678901234567890',
          '    settings:',
          '      retention: 30',
          '  - name: beta',
          '    type: Production',
          '    isActive: true',
          '',
        ].join('\n'),
      );
      // A digest is the field's value, not its spelling: 30.0 is 30 and key order does not matter.
      expect(digestOf({ a: 1, b: new ExactNumber('30.0') })).toBe(digestOf({ b: 30, a: 1 }));
      expect(digestOf('alpha')).toMatch(/^[0-9a-f]{12}$/);
    });

    it('gives the same document as JSON with -o json; --all-fields and --ignore-fields choose the fields', async ({
      sandbox,
      env,
      cip,
    }) => {
      const json = await cip(['env', 'export', '-o', 'json'], { env });
      expect(json.stdout).toContain('"quota": 12345678901234567890');
      expect(JSON.parse(json.stdout)).toEqual({
        environments: [
          { name: 'alpha', type: 'Test', quota: expect.any(Number), settings: { retention: 30 } },
          { name: 'beta', type: 'Production', isActive: true },
        ],
        exported: {
          from: sandbox.url,
          enterprise: sandbox.keys.enterpriseId,
          fields: { a1: expect.any(Object), b2: { name: digestOf('beta'), type: digestOf('Production'), isActive: digestOf(true) } },
        },
      });
      const all = await cip(['env', 'export', '--all-fields', '--json'], { env });
      expect((JSON.parse(all.stdout) as { environments: { id: string }[] }).environments.map((record) => record.id)).toEqual(['a1', 'b2']);
      const some = await cip(['env', 'export', '--ignore-fields', 'id,type,quota,settings,createdAt,updatedAt', '--json'], { env });
      expect(JSON.parse(some.stdout)).toMatchObject({
        environments: [{ name: 'alpha' }, { name: 'beta', isActive: true }],
        exported: { fields: { a1: { name: digestOf('alpha') }, b2: { name: digestOf('beta'), isActive: digestOf(true) } } },
      });
    });

    it('warns about environments apply could not tell apart', async ({ sandbox, env, cip }) => {
      await seedSandbox(sandbox, [...SEED, '{"id":"c3","type":"x"}', '{"id":"d4","name":"beta"}']);
      const result = await cip(['env', 'export'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(
        "warning: 1 environment has no 'name': apply cannot match it\nwarning: 2 environments have name 'beta': apply will refuse them until they differ\n",
      );
    });
  });
});

describe('environments as code, at the edges', () => {
  test.override({ sandboxOptions: AS_CODE_SANDBOX });

  describe('env export', () => {
    it('warns of nothing when every environment has its key', async ({ env, cip }) => {
      const result = await cip(['env', 'export'], { env });
      expect(result).toEqual({
        exitCode: 0,
        stdout: expect.stringMatching(
          /^exported:\n[^]*\nenvironments:\n {2}- name: alpha\n {4}type: Test\n {2}- name: beta\n {4}type: Production\n {4}isActive: true\n$/,
        ),
        stderr: '',
      });
    });

    it('counts the environments without the key field in one warning', async ({ env, cip, sandbox }) => {
      await seedSandbox(sandbox, [...SEED, '{"id":"c3","type":"x"}', '{"id":"d4","type":"y"}']);
      const result = await cip(['env', 'export'], { env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe("warning: 2 environments have no 'name': apply cannot match them\n");
    });

    it.for<[string, string]>([
      ['yaml', 'yaml'],
      [' ', 'a blank CIP_OUTPUT, which counts as unset'],
    ])('writes YAML in a pipe under CIP_OUTPUT=%j (%s)', async ([value], { env, cip }) => {
      const result = await cip(['env', 'export'], { env: { ...env, CIP_OUTPUT: value } });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^exported:\n[^]*\nenvironments:\n {2}- name: alpha\n/);
    });

    it('writes JSON under CIP_OUTPUT=json', async ({ sandbox, env, cip }) => {
      const result = await cip(['env', 'export'], { env: { ...env, CIP_OUTPUT: 'json' } });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        environments: [
          { name: 'alpha', type: 'Test' },
          { name: 'beta', type: 'Production', isActive: true },
        ],
        exported: expect.objectContaining({ from: sandbox.url }),
      });
    });

    it('shows a spinner while the list loads, at a terminal', async ({ env, cip }) => {
      const result = await cip(['env', 'export'], { env, ...AT_TERMINAL });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('Loading environments');
    });
  });
});

describe('YAML files', () => {
  // YAML files as other tools write and read them: aliases that would expand without end, `<<` merge keys as
  // PyYAML and ruamel.yaml write them, and what cip writes read back by real PyYAML and ruamel.yaml (Debian's
  // python3-yaml and python3-ruamel.yaml; .ci/run installs them, and the tests that need them skip, saying so,
  // where they are missing).

  test.override({ sandboxOptions: { records: ['{"id":"a1","name":"alpha","type":"Test"}'] } });

  /** A Python that has the library, to read YAML with it: Debian's (/usr/bin/python3) first. */
  function pythonWith(module: string): string | undefined {
    return ['/usr/bin/python3', 'python3'].find(
      (python) => execaSync(python, ['-c', `import ${module}`], { reject: false, stdin: 'ignore' }).exitCode === 0,
    );
  }

  const READERS = [
    { name: 'PyYAML', module: 'yaml', load: 'yaml.safe_load(text)' },
    { name: 'PyYAML with libyaml', module: 'yaml', load: 'yaml.load(text, Loader=yaml.CSafeLoader)' },
    { name: 'ruamel.yaml (safe)', module: 'ruamel.yaml', load: "ruamel.yaml.YAML(typ='safe', pure=True).load(text)" },
    { name: 'ruamel.yaml (round trip)', module: 'ruamel.yaml', load: 'ruamel.yaml.YAML().load(text)' },
  ].map((reader) => ({ ...reader, python: pythonWith(reader.module) }));

  /** Reads YAML with a Python library and gives the data back as JSON. */
  async function readWith(reader: (typeof READERS)[number], yaml: string): Promise<unknown> {
    const script = `import sys, json, ${reader.module}\ntext = sys.stdin.read()\nprint(json.dumps(${reader.load}))`;
    const result = await execa(reader.python!, ['-c', script], { input: yaml, reject: false });
    if (result.exitCode !== 0) throw new Error(`${reader.name} refused the YAML: ${result.stderr.split('\n').slice(-3).join(' ')}`);
    return JSON.parse(result.stdout) as unknown;
  }

  // Strings a YAML 1.1 reader trips on when they are written raw or plain.
  const AWKWARD = {
    id: 'w1',
    name: 'weird',
    del: 'a\u007fb',
    c1: '\u0080\u009f',
    nel: 'line\u0085break',
    lsps: 'a\u2028b\u2029c',
    bom: '\ufeffstart',
    tab: 'a\tb',
    tabs: '\tlead and trail\t',
    spaces: ' lead and trail ',
    lines: 'one\ntwo\n',
    crlf: 'one\r\ntwo',
    '<<': 'not a merge',
    '=': '=',
    yes: 'yes',
    no: 'no',
    on: 'on',
    off: 'Off',
    y: 'n',
    tilde: '~',
    dashes: '---',
    dots: '...',
    sexagesimal: '12:30',
    octal: '0o17',
    underscore: '1_000',
    date: '2001-12-14',
    hash: 'a #b',
    escape: '\u001b[31mred',
    nested: { '<<': ['yes', 'no'], 'a\tkey': 'x' },
  };

  describe('YAML cip writes, read by PyYAML and ruamel.yaml', () => {
    test.beforeEach(({ sandbox }) =>
      seedSandbox(sandbox, [JSON.stringify(AWKWARD), '{"id":"p2","name":"plain","type":"Test","quota":12345678901234567890}']),
    );

    for (const reader of READERS) {
      if (!reader.python) {
        it.skip(`${reader.name} reads env export and -o yaml (needs python3 with ${reader.module}: apt-get install python3-yaml python3-ruamel.yaml)`, () =>
          undefined);
        continue;
      }
      it(`${reader.name} reads env export and env list -o yaml as the same data`, async ({ env, cip }) => {
        const exported = await cip(['env', 'export', '--all-fields'], { env });
        expect(exported.exitCode).toBe(0);
        const json = await cip(['env', 'export', '--all-fields', '-o', 'json'], { env });
        expect(await readWith(reader, exported.stdout)).toEqual(JSON.parse(json.stdout));
        const listed = await cip(['env', 'list', '-o', 'yaml'], { env });
        expect(await readWith(reader, listed.stdout)).toEqual(JSON.parse((await cip(['env', 'list', '--json'], { env })).stdout));
      });
    }

    for (const reader of READERS.filter((candidate) => candidate.python)) {
      it(`${reader.name} reads random strings as cip wrote them, as values and as keys`, async () => {
        // libyaml refuses a lone surrogate (no YAML character; cip writes its \u escape): it gets well-formed text.
        const libyaml = reader.load.includes('CSafeLoader');
        const strings = fc.sample(awkwardString(libyaml ? 'grapheme' : 'binary'), { numRuns: 400, seed: 22 });
        const data = { values: strings, keys: Object.fromEntries(strings.map((text, index) => [text, index])) };
        expect(await readWith(reader, stringifyExactYaml(data))).toEqual(data);
      });
    }
  });
});
