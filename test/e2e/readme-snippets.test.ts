// README and manual snippets that a user pastes, run as written, with the built cip on PATH. The GitHub Actions
// step runs as GitHub runs it: its `run:` script under `bash --noprofile --norc -eo pipefail` (what `shell: bash`
// means), against the sandbox; a failed create must fail the step and write no `environment=` line for the
// next step to use. The completion install lines (docs/configuration.md) run in a fresh home, where no completion
// folder exists yet.
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CIP, ROOT, sandboxEnv, tempDir } from '../helpers/cli.js';
import { runBlocks, shellBlocks, type Chosen, type Writes } from '../helpers/shell-blocks.js';
import { it } from '../helpers/fixture.js';

/** The step that creates the environment, as README.md shows it: its lines, unindented. */
function createStep(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```yaml\n# GitHub Actions\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no GitHub Actions block');
  const lines = block.split('\n');
  const start = lines.indexOf('- name: Create a review environment');
  const end = lines.findIndex((line, index) => index > start && line.startsWith('- '));
  return lines.slice(start + 1, end).map((line) => line.replace(/^ {2}/, ''));
}

/** The step's `run: |` script, with the expression GitHub would substitute. */
function runScript(step: string[]): string {
  const start = step.indexOf('run: |');
  if (start < 0) throw new Error('the step has no `run: |` script');
  const script: string[] = [];
  for (const line of step.slice(start + 1)) {
    if (line !== '' && !line.startsWith('  ')) break;
    script.push(line.slice(2));
  }
  return `${script.join('\n').replaceAll('${{ github.event.number }}', '42')}\n`;
}

interface StepResult {
  exitCode: number;
  stderr: string;
  output: string;
}

/** A folder with a `cip` that runs the built binary, for PATH. */
function cipOnPath(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'cip'), `#!/bin/sh\nexec "${process.execPath}" "${CIP}" "$@"\n`);
  chmodSync(join(bin, 'cip'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

/** Runs the script as GitHub's `shell: bash` does, with cip (the built binary) and jq on PATH. */
async function runStep(env: Record<string, string | undefined>): Promise<StepResult> {
  const dir = tempDir();
  const path = cipOnPath(dir);
  const script = join(dir, 'step.sh');
  writeFileSync(script, runScript(createStep()));
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const result = await execa('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    env: { PATH: path, HOME: dir, CIP_CONFIG_DIR: dir, GITHUB_OUTPUT: output, ...env },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { exitCode: result.exitCode ?? -1, stderr: result.stderr, output: existsSync(output) ? readFileSync(output, 'utf8') : '' };
}

describe("README's GitHub Actions step", () => {
  it('runs under shell: bash, which is what gives it pipefail', () => {
    expect(createStep()).toContain('shell: bash');
  });

  it('writes the new environment id to GITHUB_OUTPUT', async ({ sandbox }) => {
    const result = await runStep(sandboxEnv(sandbox));
    expect(result.exitCode).toBe(0);
    const id = /^environment=(.+)\n$/.exec(result.output)?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sandbox.environments.get(id!)).toMatchObject({ name: 'review-42' });
  });

  it('fails the step after a 403 (the read-only key) and writes no environment= line', async ({ sandbox }) => {
    const result = await runStep(sandboxEnv(sandbox, { CIP_API_KEY: sandbox.keys.readOnlyApiKey }));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^error: cannot create the environment: forbidden/m);
    expect(result.output).toBe('');
  });

  it.for([
    ['an empty answer (204)', { kind: 'status', status: 204 } as const],
    [
      'an answer without an id',
      { kind: 'status', status: 201, body: '{"name":"review-42"}', headers: { 'content-type': 'application/json' } } as const,
    ],
  ] as const)('fails the step on %s and writes no environment= line', async ([, fault], { sandbox }) => {
    sandbox.inject({ fault, method: 'POST' });
    const result = await runStep(sandboxEnv(sandbox));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('cip env create returned no id');
    expect(result.output).toBe('');
  });
});

describe("the manual's completion install lines", () => {
  it('work as written in a home where no completion folder exists yet', async () => {
    const manual = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    expect(manual).toContain('\n## Shell completion\n');
    const section = manual.slice(manual.indexOf('\n## Shell completion\n'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const home = tempDir();
    const result = await execa('bash', ['--noprofile', '--norc', '-e', '-c', block!], {
      env: { PATH: cipOnPath(home), HOME: home, CIP_CONFIG_DIR: home },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    for (const [file, shell] of [
      ['.local/share/bash-completion/completions/cip', 'bash'],
      ['.zfunc/_cip', 'zsh'],
      ['.config/fish/completions/cip.fish', 'fish'],
    ] as const) {
      expect(statSync(join(home, file)).size, file).toBeGreaterThan(0);
      expect(readFileSync(join(home, file), 'utf8')).toBe(
        readFileSync(join(ROOT, 'completions', shell === 'bash' ? 'cip.bash' : shell === 'zsh' ? '_cip' : 'cip.fish'), 'utf8'),
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The README and the manual, top to bottom. Every ```sh block of README.md runs in order in one bash, one command
// at a time, as a reader would paste them into one shell: a fresh HOME (so a fresh config folder), no keychain (a
// clean environment has no D-Bus session, as on a server or in a container), the built `cip` on PATH, and the
// sandbox the quick start starts. Each command must end with exit 0, or with the code its trailing comment names
// (`# ... exit 2 ...`), and must change exactly what WRITES says: which environments (created, written, deleted),
// which of their fields, and which profiles; a command WRITES does not name must change nothing
// (test/helpers/shell-blocks.ts takes a snapshot of the stores after every command). A block that cannot run here
// is marked `<!-- readme-test: skip -->` on the line before it; SKIPPED lists them. Each hand-written page of the
// manual (docs/*.md) runs the same way, in a fresh home with fresh sandboxes, from its own first block (which
// exports the quick start's variables, and logs in where the page needs a profile): a reader may open any page
// first. docs/commands.md is generated from the help, and has no shell.
//
// What the test provides in place of the reader:
// - the sandboxes the skipped `cip sandbox` blocks start: the quick start's (5 environments) and the second
//   enterprise's, on free ports that replace 4010 and 4011 in the commands;
// - an $EDITOR that adds an environment to the file it is given (docs/environments.md: "change a field, add an
//   environment").
// Nothing else: the blocks write the key files their logins read.

/** The first command line of each block the test does not run, and why, by file. */
const SKIPPED: Record<string, string[]> = {
  'README.md': [
    'npm install', // Install: needs the registry and writes a global link
    'npm run package', // builds the single executable: test/e2e/sea.test.ts does
    'sha256sum --check --ignore-missing SHA256SUMS', // installs it for the whole machine
    'npm install && npm run demo', // the demo: test/e2e/demo.test.ts runs it
    'cip sandbox --port 4010 --count 5', // runs in the foreground until Ctrl-C: the test starts this sandbox itself
    'cip auth login --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', // asks at a terminal
  ],
  'docs/development.md': [
    'npm install          # installs and builds (dist/ via esbuild)', // the test suite itself, and the registry
    'npm run test:node -- 24                          # npm test on the pinned Node 24', // the suite itself, and the registry
    'dotnet build test/reference-api -c Release -o test/reference-api/bin/manual', // needs .NET; runs in the foreground
  ],
  'docs/login.md': [
    'get-token | cip auth login --profile ci --token-file - --subscription-key-file sub.txt', // needs a token issuer
  ],
  'docs/performance.md': [
    'npm run bench          # BENCH_RUNS=20 npm run bench for steadier figures; takes about four minutes', // minutes, and rewrites the file
  ],
  'docs/sandbox.md': [
    'cip sandbox --port 4011 --enterprise-id 0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e \\', // in the background: the test starts it
  ],
};

/** How many commands at least each file runs. */
const MIN_COMMANDS: Record<string, number> = { 'README.md': 25, 'docs/environments.md': 40, 'docs/safety.md': 25 };

/** Outputs checked beyond the exit code, by the command exactly as the README writes it (with its comment). */
const CHOSEN: Chosen = {
  'cip env list': { stdout: /"name": ?"env-0005"/ },
  'cip env get hello': { stdout: /"name": ?"hello"/ },
  'cip auth login --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b --api-key-file key.txt --subscription-key-file sub.txt   # exit 2 without a keychain':
    {
      stderr: /^error: .*nothing was saved/m,
    },
  "cip auth status                 # names the file: profile 'prod' (from .../acme-app/.cip.json), unless CIP_* variables win": {
    stderr: /profile 'prod'.*acme-app\/\.cip\.json/,
  },
  'cip api Integrations                          # GET {base URL}/Integrations': { stdout: /"name": ?"orders-to-erp"/ },
  'cip env apply --file environments.yaml --yes        # again: "No changes", and nothing but one list read is sent': {
    stderr: /No changes/,
  },
  'cip env list -p second': { stdout: /^\[/ },
};

const ENTERPRISE = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

/**
 * What each command that writes must change (notation: test/helpers/shell-blocks.ts): `+name {fields}` created,
 * `~name {fields}` written (`{}`: no field changed), `-name` deleted, `profile +P`, `profile ~P {fields}`,
 * `active P`. Keyed by the command exactly as written, trailing comment included; every other command changes nothing.
 */
const WRITES: Writes = {
  // README.md: Quick start
  'cip env create -f name=hello': ['+hello {name}'],
  'cip env delete hello --yes': ['-hello'],
  // README.md: Log in
  [`cip auth login --insecure-storage --enterprise-id ${ENTERPRISE} --api-key-file key.txt --subscription-key-file sub.txt`]: [
    'profile +default',
    'active default',
  ],
  // README.md: Log in; docs/safety.md
  [`cip auth login --profile prod --enterprise-id ${ENTERPRISE} \\\n  --api-key-file key.txt --subscription-key-file sub.txt`]: [
    'profile +prod',
  ],
  [`cat key.txt | cip auth login --profile staging \\\n  --enterprise-id ${ENTERPRISE} --api-key-file - --subscription-key-file sub.txt`]: [
    'profile +staging',
  ],
  [`CIP_API_KEY=$(cat key.txt) CIP_SUBSCRIPTION_KEY=$(cat sub.txt) \\\n  cip auth login --profile ci --enterprise-id ${ENTERPRISE}`]: [
    'profile +ci',
  ],
  'cip auth use prod': ['active prod'],
  // README.md: Everyday commands
  'cip env create -f name=staging -f description="pre-production" -F isActive=true': ['+staging {description,isActive,name}'],
  'cip env update staging -f description="pre-production, EU"   # only the description changes': ['~staging {description}'],
  'cip env delete staging --yes                   # scripts and CI must confirm with --yes': ['-staging'],
  // docs/login.md: the first profile of a fresh home
  [`cip auth login --profile prod --enterprise-id ${ENTERPRISE} \\\n  --api-key-file key.txt --subscription-key-file sub.txt    # the first profile stored: it becomes the active one`]:
    ['profile +prod', 'active prod'],
  // docs/safety.md: two profiles on a machine without a keychain (CIP_CREDENTIAL_STORE=file)
  [`cip auth login --enterprise-id ${ENTERPRISE} --api-key-file key.txt --subscription-key-file sub.txt`]: [
    'profile +default',
    'active default',
  ],
  // docs/safety.md: Protecting a production profile
  'cip auth protect prod': ['profile ~prod {protected}'],
  'cip env create -f name=qa-temp --profile prod               # not destructive: nothing to confirm': ['+qa-temp {name}'],
  'cip env delete qa-temp --profile prod --confirm prod        # a script names the profile it means': ['-qa-temp'],
  'cip auth unprotect prod --confirm prod': ['profile ~prod {protected}'],
  // docs/safety.md: Dry runs, and the journal
  'cip env create -f name=review-41 -f type=Test': ['+review-41 {name,type}'],
  'cip env delete review-41 --yes                # a change to undo': ['-review-41'],
  'cip env restore "$entry" --yes                # in a script: review-41 is back, perhaps with a new id': ['+review-41 {name,type}'],
  // docs/environments.md (and docs/output.md, which creates staging the same way)
  'cip env create -f name=qa -f description="quality assurance" -F isActive=true': ['+qa {description,isActive,name}'],
  'cip env create --data \'{"name":"staging","description":"pre-production","tags":["eu"],"settings":{"retention":30}}\'': [
    '+staging {description,name,settings,tags}',
  ],
  'cip env create --file review-41.json': ['+review-41 {name,type}'],
  'echo \'{"name": "review-42", "type": "Test"}\' | cip env create --file -': ['+review-42 {name,type}'],
  'cip env update "$id" -F isActive=false --unset tags          # by id; and tags is removed': ['~staging {isActive,tags}'],
  'cip env update review-41 --file review-41.json --replace     # send exactly this, replacing the whole record': ['~review-41 {}'],
  'cip env delete review-41 review-42 --yes                 # scripts and CI must confirm with --yes': ['-review-41', '-review-42'],
  // docs/environments.md: Environments as code (the $EDITOR above added review-44)
  'cip env apply --file environments.yaml --yes        # in a script, --yes is the answer': ['+review-44 {name,type}'],
  'id=$(cip env create -f name=review-42 -f type=Test --if-exists skip --jq .id)': ['+review-42 {name,type}'],
  // docs/environments.md: cip api
  'cip api Environments -f name=from-api         # fields make it a POST of a JSON object (as env create builds it)': ['+from-api {name}'],
  'cip api "Environments/$id" -X PUT --input body.json   # staging\'s whole record back, one field changed': ['~staging {description}'],
  // docs/sandbox.md: two sandboxes, a profile each (the first stored in a fresh home becomes the active one)
  [`CIP_API_KEY=sandbox-api-key-0123456789 CIP_SUBSCRIPTION_KEY=sandbox-subscription-key-0123456789 \\\n  cip auth login --insecure-storage --profile first --base-url http://127.0.0.1:4010/ms --enterprise-id ${ENTERPRISE}`]:
    ['profile +first', 'active first'],
  'CIP_API_KEY=second-api-key-0123456789 CIP_SUBSCRIPTION_KEY=second-sub-key-0123456789 \\\n  cip auth login --insecure-storage --profile second --base-url http://127.0.0.1:4011/ms --enterprise-id 0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e':
    ['profile +second'],
};

function executable(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** The hand-written Markdown files whose shell blocks run: the README and docs/, less the generated help. */
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'commands.md')
    .sort()
    .map((name) => `docs/${name}`),
];

/** A reader's fresh home with cip on PATH, and the shell environment the blocks run in. */
function readerHome(): { home: string; work: string; results: string; env: Record<string, string> } {
  const home = tempDir();
  const work = join(home, 'work');
  const results = join(home, 'results');
  mkdirSync(work);
  mkdirSync(results);
  const path = cipOnPath(home);
  const editor = join(home, 'bin', 'editor');
  executable(editor, `#!/bin/sh\nprintf '  - name: review-44\\n    type: Test\\n' >> "$1"\n`);
  return { home, work, results, env: { PATH: path, HOME: home, EDITOR: editor, LANG: 'C.UTF-8' } };
}

// A keychain on macOS and Windows is always there: the run must not write the reader's keys into the real one.
describe.skipIf(process.platform !== 'linux')('the shell blocks of README.md and docs/, run top to bottom against the sandbox', () => {
  let first: Sandbox;
  let second: Sandbox;
  beforeEach(async () => {
    first = await startSandbox({ seed: 5 });
    second = await startSandbox({
      enterpriseId: '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e',
      apiKey: 'second-api-key-0123456789',
      subscriptionKey: 'second-sub-key-0123456789',
    });
  });
  afterEach(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  const blocksOf = (file: string) => shellBlocks(readFileSync(join(ROOT, file), 'utf8'));

  it('README.md is read in one sitting (at most 400 lines); docs/README.md indexes every page of the manual', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(400);
    const index = readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8');
    for (const file of FILES.filter((name) => name.startsWith('docs/') && name !== 'docs/README.md'))
      expect(index, `docs/README.md links ${file}`).toContain(`](${file.slice('docs/'.length)})`);
    expect(index).toContain('](commands.md)');
  });

  it('the tables name only commands the files hold; the generated docs/commands.md holds none', () => {
    expect(blocksOf('docs/commands.md')).toEqual([]);
    const commands = FILES.flatMap((file) => blocksOf(file).flatMap((block) => block.commands));
    for (const command of Object.keys(CHOSEN)) expect(commands, 'a command CHOSEN checks').toContain(command);
    for (const command of Object.keys(WRITES)) expect(commands, 'a command WRITES names').toContain(command);
  });

  it.each(FILES)('%s: skips only the blocks that cannot run here, each marked in the file', (file) => {
    expect(
      blocksOf(file)
        .filter((block) => block.skip)
        .map((block) => block.commands[0]?.split('\n')[0]),
    ).toEqual(SKIPPED[file] ?? []);
  });

  it.each(FILES)('%s: every command ends as the file says and changes only what it names', { timeout: 900_000 }, async (file) => {
    const blocks = blocksOf(file);
    const { home, work, results, env } = readerHome();
    const port = (url: string) => String(new URL(url).port);
    const { failures, count } = await runBlocks({
      file,
      blocks,
      sandboxes: { first, second },
      first: 'first',
      home,
      cwd: work,
      results,
      env,
      rewrite: (command) =>
        command
          .replaceAll('127.0.0.1:4010/', `127.0.0.1:${port(first.url)}/`)
          .replaceAll('127.0.0.1:4011/', `127.0.0.1:${port(second.url)}/`),
      writes: WRITES,
      chosen: CHOSEN,
    });
    expect(failures).toEqual([]);
    expect(count).toBe(blocks.filter((block) => !block.skip).flatMap((block) => block.commands).length);
    // A floor for the README (the tour) and the two pages with most examples: a parser that found fewer blocks fails here.
    expect(count).toBeGreaterThanOrEqual(MIN_COMMANDS[file] ?? 0);
  });

  it('names the block, the command and what it changed when a command writes elsewhere than the table says', async ({ startSandbox }) => {
    const sandbox = await startSandbox({
      seed: [
        { id: 'a1', name: 'alpha', description: 'one' },
        { id: 'b2', name: 'beta', description: 'two' },
      ],
    });
    const { home, work, results, env } = readerHome();
    const markdown = [
      '## Two environments',
      '',
      '```sh',
      'cip env update beta -f description=three   # the table says alpha',
      'cip env delete alpha --yes',
      'cip env create -f name=gamma',
      'cip env delete gamma --yes &',
      '```',
    ].join('\n');
    const { failures } = await runBlocks({
      file: 'demo.md',
      blocks: shellBlocks(markdown),
      sandboxes: { only: sandbox },
      first: 'only',
      home,
      cwd: work,
      results,
      env: { ...env, ...(sandboxEnv(sandbox) as Record<string, string>) },
      rewrite: (command) => command,
      writes: {
        'cip env update beta -f description=three   # the table says alpha': ['~alpha {description}'],
        'cip env create -f name=gamma': ['+gamma {name}'],
      },
      chosen: {},
    });
    expect(failures).toEqual([
      'demo.md:4 (the block at line 3, under "## Two environments"): cip env update beta -f description=three   # the table says alpha\n' +
        '  changed:  ~beta {description}\n  expected: ~alpha {description}',
      'demo.md:5 (the block at line 3, under "## Two environments"): cip env delete alpha --yes\n' +
        '  changed:  -alpha\n  expected: nothing (the test names no change for this command)',
      'demo.md:7 (the block at line 3, under "## Two environments"): cip env delete gamma --yes &\n' +
        '  runs in the background: mark its block <!-- readme-test: skip --> and start what it starts in the test',
    ]);
    expect(sandbox.environments.size).toBe(2);
  });
});
