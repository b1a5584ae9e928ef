// README snippets that a user pastes, run as written, with the built cip on PATH. The GitHub Actions step runs
// as GitHub runs it: its `run:` script under `bash --noprofile --norc -eo pipefail` (what `shell: bash`
// means), against the sandbox; a failed create must fail the step and write no `environment=` line for the
// next step to use. The completion install lines run in a fresh home, where no completion folder exists yet.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CIP, ROOT, sandboxEnv, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
});

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

  it('writes the new environment id to GITHUB_OUTPUT', async () => {
    const result = await runStep(sandboxEnv(sandbox));
    expect(result.exitCode).toBe(0);
    const id = /^environment=(.+)\n$/.exec(result.output)?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sandbox.environments.get(id!)).toMatchObject({ name: 'review-42' });
  });

  it('fails the step after a 403 (the read-only key) and writes no environment= line', async () => {
    const result = await runStep(sandboxEnv(sandbox, { CIP_API_KEY: sandbox.keys.readOnlyApiKey }));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/^error: cannot create the environment: forbidden/m);
    expect(result.output).toBe('');
  });

  it.each([
    ['an empty answer (204)', { kind: 'status', status: 204 } as const],
    [
      'an answer without an id',
      { kind: 'status', status: 201, body: '{"name":"review-42"}', headers: { 'content-type': 'application/json' } } as const,
    ],
  ])('fails the step on %s and writes no environment= line', async (_name, fault) => {
    sandbox.inject({ fault, method: 'POST' });
    const result = await runStep(sandboxEnv(sandbox));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('cip env create returned no id');
    expect(result.output).toBe('');
  });
});

describe("README's completion install lines", () => {
  it('work as written in a home where no completion folder exists yet', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Shell completion'));
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
// The whole manual, top to bottom. Every ```sh block of README.md runs in order in one bash, as a reader would
// paste them into one shell: a fresh HOME (so a fresh config folder), no keychain (a clean environment has no
// D-Bus session, as on a server or in a container), the built `cip` on PATH, and the sandbox the quick start
// starts. Each command must end with exit 0, or with the code its trailing comment names (`# ... exit 2 ...`).
// A block that cannot run here is marked `<!-- readme-test: skip -->` on the line before it; SKIPPED lists them.
//
// What the test provides in place of the reader:
// - the sandboxes the skipped `cip sandbox` blocks start: the quick start's (5 environments) and the second
//   enterprise's, on free ports that replace 4010 and 4011 in the commands;
// - the files the README's logins read: key.txt and sub.txt in the working folder, ~/.secrets/cip-api-key and
//   ~/.secrets/cip-sub-key, all holding the sandbox's keys, and a `pass` that prints them;
// - an $EDITOR that adds an environment to the file it is given (the README: "change a field, add an environment").

/** The first command line of each block the test does not run, and why. */
const SKIPPED = [
  'npm install', // Install: needs the registry and writes a global link
  'npm run package', // builds the single executable: test/e2e/sea.test.ts does
  'sha256sum --check --ignore-missing SHA256SUMS', // installs it for the whole machine
  'npm install && npm run demo', // the demo: test/e2e/demo.test.ts runs it
  'cip sandbox --port 4010 --count 5', // runs in the foreground until Ctrl-C: the test starts this sandbox itself
  'cip auth login --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', // asks at a terminal
  'get-token | cip auth login --profile ci --token-file - --subscription-key-file sub.txt', // needs a token issuer
  'cip sandbox --port 4011 --enterprise-id 0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e \\', // in the background: the test starts it
];

/** Outputs checked beyond the exit code, by the command exactly as the README writes it (with its comment). */
const CHOSEN: Record<string, { stdout?: RegExp; stderr?: RegExp }> = {
  'cip env list': { stdout: /"name": ?"env-0005"/ },
  'cip env get hello': { stdout: /"name": ?"hello"/ },
  'cip auth login --enterprise-id 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b --api-key-file key.txt --subscription-key-file sub.txt   # exit 2 without a keychain':
    {
      stderr: /^error: .*nothing was saved/m,
    },
  'cip api Integrations                          # GET {base URL}/Integrations': { stdout: /"name": ?"orders-to-erp"/ },
  'cip env apply --file environments.yaml --yes        # again: "No changes", and nothing but one list read is sent': {
    stderr: /No changes/,
  },
  'cip env list -p second': { stdout: /^\[/ },
};

interface ShellBlock {
  /** 1-based line of the opening fence. */
  line: number;
  heading: string;
  skip: boolean;
  /** Commands, each with its continuation lines, comment lines left out. */
  commands: string[];
}

/** README's shell blocks, in order. */
function shellBlocks(readme: string): ShellBlock[] {
  const lines = readme.split('\n');
  const blocks: ShellBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line;
    if (!/^```(sh|bash|shell|console)\s*$/.test(line)) continue;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const skip = lines[before]?.trim() === '<!-- readme-test: skip -->';
    const body: string[] = [];
    let end = i + 1;
    for (; end < lines.length && !/^```\s*$/.test(lines[end]!); end++) body.push(lines[end]!);
    const commands: string[] = [];
    let current: string[] = [];
    for (const text of body) {
      if (current.length === 0 && (text.trim() === '' || text.trimStart().startsWith('#'))) continue;
      current.push(text);
      if (!text.endsWith('\\')) {
        commands.push(current.join('\n'));
        current = [];
      }
    }
    if (current.length > 0) commands.push(current.join('\n'));
    blocks.push({ line: i + 1, heading, skip, commands });
    i = end;
  }
  return blocks;
}

// A trailing comment is set off by two spaces or more, as the README aligns them.
const TRAILING_COMMENT = / {2,}# .*$/;

/** The exit code a command's trailing comment names (`# ... exit 2 ...`), else 0. */
function expectedExit(command: string): number {
  const comment = TRAILING_COMMENT.exec(command)?.[0] ?? '';
  return Number(/\bexit (\d+)\b/.exec(comment)?.[1] ?? 0);
}

function executable(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

// A keychain on macOS and Windows is always there: the run must not write the reader's keys into the real one.
describe.skipIf(process.platform !== 'linux')('README.md, run top to bottom against the sandbox', () => {
  let first: Sandbox;
  let second: Sandbox;
  beforeAll(async () => {
    first = await startSandbox({ seed: 5 });
    second = await startSandbox({
      enterpriseId: '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e',
      apiKey: 'second-api-key-0123456789',
      subscriptionKey: 'second-sub-key-0123456789',
    });
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));

  it('skips only the blocks that cannot run here, each marked in the README', () => {
    expect(blocks.filter((block) => block.skip).map((block) => block.commands[0]?.split('\n')[0])).toEqual(SKIPPED);
    const commands = blocks.flatMap((block) => block.commands);
    for (const command of Object.keys(CHOSEN)) expect(commands, 'a command CHOSEN checks').toContain(command);
  });

  it('every command ends as the README says', { timeout: 900_000 }, async () => {
    const home = tempDir();
    const work = join(home, 'work');
    const results = join(home, 'results');
    mkdirSync(work);
    mkdirSync(results);
    mkdirSync(join(home, '.secrets'));
    const { apiKey, subscriptionKey } = first.keys;
    writeFileSync(join(work, 'key.txt'), `${apiKey}\n`);
    writeFileSync(join(work, 'sub.txt'), `${subscriptionKey}\n`);
    writeFileSync(join(home, '.secrets', 'cip-api-key'), `${apiKey}\n`);
    writeFileSync(join(home, '.secrets', 'cip-sub-key'), `${subscriptionKey}\n`);
    const path = cipOnPath(home);
    const bin = join(home, 'bin');
    executable(
      join(bin, 'pass'),
      `#!/bin/sh\ncase "$2" in\n  cip/api-key) echo '${apiKey}' ;;\n  cip/sub-key) echo '${subscriptionKey}' ;;\n  *) exit 1 ;;\nesac\n`,
    );
    executable(join(bin, 'editor'), `#!/bin/sh\nprintf '  - name: review-44\\n    type: Test\\n' >> "$1"\n`);

    const port = (url: string) => String(new URL(url).port);
    const run: { command: string; block: ShellBlock; expected: number }[] = [];
    const script = ['cd "$WORK"'];
    for (const block of blocks) {
      if (block.skip) continue;
      for (const command of block.commands) {
        const n = run.length;
        run.push({ command, block, expected: expectedExit(command) });
        const text = command
          .replaceAll('127.0.0.1:4010/', `127.0.0.1:${port(first.url)}/`)
          .replaceAll('127.0.0.1:4011/', `127.0.0.1:${port(second.url)}/`);
        script.push(`{\n${text}\n} >"$RESULTS/${n}.out" 2>"$RESULTS/${n}.err" </dev/null`, `echo "$?" >"$RESULTS/${n}.rc"`);
      }
    }
    writeFileSync(join(home, 'readme.sh'), `${script.join('\n')}\n`);
    const result = await execa('bash', ['--noprofile', '--norc', join(home, 'readme.sh')], {
      env: { PATH: path, HOME: home, EDITOR: join(bin, 'editor'), WORK: work, RESULTS: results, LANG: 'C.UTF-8' },
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, result.stderr).toBe(0);

    const failures: string[] = [];
    run.forEach(({ command, block, expected }, n) => {
      const read = (suffix: string) =>
        existsSync(join(results, `${n}.${suffix}`)) ? readFileSync(join(results, `${n}.${suffix}`), 'utf8') : '';
      const code = Number(read('rc').trim() || -1);
      const where = `README.md:${block.line} (${block.heading}): ${command}`;
      if (code !== expected) failures.push(`${where}\n  exit ${code}, expected ${expected}\n  stderr: ${read('err').trim().slice(0, 600)}`);
      const chosen = CHOSEN[command];
      if (chosen?.stdout && !chosen.stdout.test(read('out')))
        failures.push(`${where}\n  stdout does not match ${chosen.stdout}:\n${read('out').slice(0, 600)}`);
      if (chosen?.stderr && !chosen.stderr.test(read('err')))
        failures.push(`${where}\n  stderr does not match ${chosen.stderr}:\n${read('err').slice(0, 600)}`);
    });
    expect(failures).toEqual([]);
    expect(run.length).toBeGreaterThan(50);
  });
});
