// A protected profile at a real terminal (a pty from util-linux `script`): the built binary asks for the
// profile's name in the warning colour, the name typed goes ahead, a wrong one or Ctrl-C sends nothing.
import { execa } from 'execa';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { CIP, shellQuote, tempDir, TEST_CREDENTIAL_STORE } from '../helpers/cli.js';
import { sandboxProfile } from '../helpers/stored-profiles.js';
import { it, test } from '../helpers/fixture.js';

const SCRIPT = '/usr/bin/script';
// Each test gets a sandbox of its own (test/helpers/fixture.ts), started this way.
test.override({ sandboxOptions: { seed: 3 } });

const QUESTION = "Type the profile's name, 'prod', to go on:";

/** A config folder whose active profile, 'prod', points at the sandbox and is protected. */
function protectedConfig(sandbox: Sandbox): string {
  const configDir = tempDir();
  const prod = { ...sandboxProfile(sandbox), protected: true };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ activeProfile: 'prod', profiles: { prod } }), { mode: 0o600 });
  return configDir;
}

/** Runs cip on a pty and types `typed` once the question is on screen; returns the exit code and the screen. */
async function answerAtTerminal(sandbox: Sandbox, args: string[], typed: string, env: Record<string, string> = {}) {
  const command = `stty cols 200 rows 50 2>/dev/null; exec node ${shellQuote(CIP)} ${args.map(shellQuote).join(' ')}`;
  const child = execa(SCRIPT, ['-qfec', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH,
      HOME: tempDir(),
      CIP_CONFIG_DIR: protectedConfig(sandbox),
      TERM: 'xterm-256color',
      ...TEST_CREDENTIAL_STORE,
      ...env,
    },
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    timeout: 30_000,
  });
  let screen = '';
  let answered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    if (!answered && screen.includes(QUESTION)) {
      answered = true;
      child.stdin.write(typed);
    }
  });
  const result = await child;
  return { exitCode: result.exitCode, screen: screen.replace(/\r\n/g, '\n') };
}

const deletes = (sandbox: Sandbox) => sandbox.requests.filter((request) => request.method === 'DELETE');

describe.skipIf(!existsSync(SCRIPT))('a protected profile at a terminal', () => {
  it('asks in the warning colour, naming the enterprise, the host and the change; the name typed deletes', async ({ sandbox }) => {
    const [id] = sandbox.environments.keys();
    const { exitCode, screen } = await answerAtTerminal(sandbox, ['env', 'delete', id!, '--yes'], 'prod\r');
    expect(exitCode).toBe(0);
    expect(screen).toContain(
      `\u001b[33mProfile 'prod' is protected: enterprise ${sandbox.keys.enterpriseId} at 127.0.0.1:${sandbox.port}.`,
    );
    expect(screen).toMatch(
      /About to delete environment '[^']+' \([0-9a-f-]{36}\)\. It can be re-created from the journal \('cip env history', then 'cip env restore ENTRY'\), perhaps with a new id\./,
    );
    expect(screen).toContain(`\u001b[33m${QUESTION}\u001b[39m`);
    expect(deletes(sandbox)).toHaveLength(1);
    expect(sandbox.environments.has(id!)).toBe(false);
  });

  it('NO_COLOR asks without colour', async ({ sandbox }) => {
    const [id] = sandbox.environments.keys();
    const { exitCode, screen } = await answerAtTerminal(sandbox, ['env', 'delete', id!], 'nope\r', { NO_COLOR: '1' });
    expect(exitCode).toBe(2);
    expect(screen).toContain(QUESTION);
    expect(screen).not.toMatch(/\u001b\[3\dm/);
  });

  it('a wrong name sends nothing: exit 2', async ({ sandbox }) => {
    const [id] = sandbox.environments.keys();
    const { exitCode, screen } = await answerAtTerminal(sandbox, ['env', 'delete', id!], 'staging\r');
    expect(exitCode).toBe(2);
    expect(screen).toContain("error: the name typed is not 'prod': nothing was changed");
    expect(deletes(sandbox)).toEqual([]);
    expect(sandbox.environments.has(id!)).toBe(true);
  });

  it('Ctrl-C at the question is exit 130, and nothing is sent', async ({ sandbox }) => {
    const [id] = sandbox.environments.keys();
    const { exitCode } = await answerAtTerminal(sandbox, ['env', 'delete', id!, '--yes'], '\u0003');
    expect(exitCode).toBe(130);
    expect(deletes(sandbox)).toEqual([]);
    sandbox.reset();
    // cip api asks before it sends anything at all.
    const api = await answerAtTerminal(sandbox, ['api', `Environments/${id!}`, '-X', 'DELETE'], '\u0003');
    expect(api.exitCode).toBe(130);
    expect(sandbox.requests).toEqual([]);
  });
});
