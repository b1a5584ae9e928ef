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
