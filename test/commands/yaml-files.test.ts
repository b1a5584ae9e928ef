// YAML files as other tools write and read them: aliases that would expand without end, `<<` merge keys as
// PyYAML and ruamel.yaml write them, and what cip writes read back by real PyYAML and ruamel.yaml (Debian's
// python3-yaml and python3-ruamel.yaml; .ci/run installs them, and the tests that need them skip, saying so,
// where they are missing).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { stringifyExactYaml } from '../../src/json/yaml.js';
import { expectOneErrorLine, seedSandbox, tempDir } from '../helpers/cli.js';
import { awkwardString } from '../helpers/yaml.js';
import { it, test } from '../helpers/fixture.js';

test.override({ sandboxOptions: { records: ['{"id":"a1","name":"alpha","type":"Test"}'] } });

function file(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

describe('a YAML file with a mistake says where it is', () => {
  const text = 'environments:\n  - name: staging\n    type: Test\n  - name: review-41\n   type: Test\n';
  it.for<[string, string[]]>([
    ['env apply', ['env', 'apply', '--yes', '--file']],
    ['env diff', ['env', 'diff', '--file']],
    ['env create', ['env', 'create', '--file']],
  ])('%s: exit 2, the line and column, and the line itself; nothing is sent', async ([_command, args], { sandbox, env, cip }) => {
    const path = file('envs.yaml', text);
    const result = await cip([...args, path], { env });
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `error: --file ${path} is not valid YAML: Sequence item without - indicator at line 5, column 1: '   type: Test'\n`,
    });
    expect(sandbox.requests).toEqual([]);
  });
});

describe('aliases are bounded by what they expand to', () => {
  // The file of the report: 500 aliases of a 50,000-item list, about 200 kB. Before, it ran for 76 s, took 1 GiB
  // and ended in exit 1 "Invalid string length (this is a bug)".
  const items = Array.from({ length: 50_000 }, (_, index) => String(index % 10)).join(', ');
  const bomb = [
    'environments:',
    `  - name: e0\n    big: &big [${items}]`,
    ...Array.from({ length: 500 }, (_, index) => `  - name: e${index + 1}\n    big: *big`),
    '',
  ].join('\n');
  const one = `name: e0\nbig: &big [${items}]\ncopies: [${Array<string>(500).fill('*big').join(', ')}]\n`;

  it.for<[string, string[], string]>([
    ['env apply', ['env', 'apply', '--yes', '--file'], bomb],
    ['env diff', ['env', 'diff', '--file'], bomb],
    ['env create', ['env', 'create', '--file'], one],
  ])(
    '%s refuses it (exit 2) before expanding it, and sends nothing',
    { timeout: 30_000 },
    async ([_command, args, text], { sandbox, env, cip }) => {
      const path = file('bomb.yaml', text);
      const result = await cip([...args, path], { env });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: --file ${path} is not valid YAML: its aliases expand it too far: they add 25000500 values, more than the 1000000 allowed`,
      );
      expect(sandbox.requests).toEqual([]);
    },
  );
});

describe('merge keys (`<<`), as PyYAML and ruamel.yaml read them', () => {
  it('env apply sends the merged fields, and no field named "<<"', async ({ sandbox, env, cip }) => {
    // As ruamel.yaml writes merges; the map's own keys win, then the earlier merged map.
    const path = file(
      'merged.yaml',
      [
        'base: &base',
        '  type: Test',
        '  quota: 12345678901234567890',
        '  settings: {retention: 30}',
        'audit: &audit',
        '  type: Audit',
        '  owner: ops',
        'environments:',
        '- <<: *base',
        '  name: review-1',
        '- <<: [*audit, *base]',
        '  name: review-2',
        '  settings: {retention: 7}',
        '',
      ].join('\n'),
    );
    const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
    expect(result.exitCode).toBe(0);
    const posts = sandbox.requests.filter((request) => request.method === 'POST').map((request) => request.body);
    expect(posts).toEqual([
      '{"type":"Test","quota":12345678901234567890,"settings":{"retention":30},"name":"review-1"}',
      '{"type":"Audit","owner":"ops","quota":12345678901234567890,"name":"review-2","settings":{"retention":7}}',
    ]);
  });

  it('env create --file merges the same way', async ({ sandbox, env, cip }) => {
    const path = file('one.yaml', 'defaults: &d {type: Test, isActive: true}\n<<: *d\nname: solo\ntype: Staging\n');
    const result = await cip(['env', 'create', '--file', path], { env });
    expect(result.exitCode).toBe(0);
    expect(sandbox.requests.find((request) => request.method === 'POST')?.body).toBe(
      '{"defaults":{"type":"Test","isActive":true},"isActive":true,"name":"solo","type":"Staging"}',
    );
  });

  it('two merge keys in one map, which the two libraries read differently, are exit 2 and nothing is sent', async ({
    sandbox,
    env,
    cip,
  }) => {
    const path = file('two.yaml', 'environments:\n- <<: {type: Test}\n  <<: {type: Audit}\n  name: x\n');
    const result = await cip(['env', 'apply', '--file', path, '--yes'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: --file ${path} is not valid YAML: a map has two '<<' merge keys: merge a list instead, as <<: [*a, *b]`,
    );
    expect(sandbox.requests).toEqual([]);
  });
});

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
