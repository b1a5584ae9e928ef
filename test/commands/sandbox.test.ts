// `cip sandbox` in-process: its options, what it prints, and the failures that are the user's to fix. A run
// given an aborted signal starts the sandbox, prints, and stops at once, as if Ctrl-C came right away.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect } from 'vitest';
import { listenFailure } from '../../src/commands/sandbox.js';
import { UsageError } from '../../src/errors.js';
import { SANDBOX_DEFAULTS, readOnlyKeyFor } from '../../src/sandbox/index.js';
import { checkToken } from '../../src/sandbox/token.js';
import { expectOneErrorLine } from '../helpers/cli.js';
import { it, type Cip } from '../helpers/fixture.js';

const GUID = '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e';
const API_KEY = 'second-api-key-0123456789';
const SUBSCRIPTION_KEY = 'second-sub-key-0123456789';

/** Starts the sandbox with these arguments and stops it as soon as it has printed its settings. */
const started = (cip: Cip, args: string[]) => cip(['sandbox', ...args], { signal: AbortSignal.abort() });

function exportsOf(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export (CIP_[A-Z_]+)=(.*)$/gm)].map(([, name, value]) => [name!, value!]));
}

describe('cip sandbox --port', () => {
  let busy: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (busy ? busy.close(resolve) : resolve(undefined)));
    busy = undefined;
  });

  it('refuses a port in use with one error line, exit 2', async ({ cip }) => {
    const server = createServer();
    busy = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const result = await cip(['sandbox', '--port', String(port)]);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: port ${port} is in use (choose another with --port, or leave --port out to get a free one)`,
    );
    expect(result.stdout).toBe('');
  });

  it.skipIf(process.getuid?.() === 0)('refuses a privileged port with one error line, exit 2', async ({ cip }) => {
    const result = await cip(['sandbox', '--port', '1']);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: port 1 may not be opened here \(permission denied/);
  });

  it('maps EADDRINUSE and EACCES to usage errors, and leaves other failures alone', () => {
    const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
    const inUse = listenFailure(failure('EADDRINUSE'), 4010);
    expect(inUse).toBeInstanceOf(UsageError);
    expect((inUse as UsageError).message).toBe('port 4010 is in use');
    const denied = listenFailure(failure('EACCES'), 80);
    expect(denied).toBeInstanceOf(UsageError);
    expect((denied as UsageError).exitCode).toBe(2);
    expect((denied as UsageError).message).toMatch(/^port 80 may not be opened here/);
    const other = failure('EMFILE');
    expect(listenFailure(other, 4010)).toBe(other);
  });

  it('shows one default for --port in help', async ({ cip }) => {
    const result = await cip(['sandbox', '--help']);
    // The whole line: commander would otherwise append its own "(default: 0)".
    expect(result.stdout).toMatch(/^ {2}--port <n> +port to listen on \(default: a free one\)$/m);
  });
});

describe('cip sandbox --count', () => {
  it.for<[string[], number]>([
    [[], 3],
    [['--count', '7'], 7],
    [['--count', '0'], 0],
    [['--seed', '2'], 2],
  ])('%j starts %i environments', async ([args, count], { cip }) => {
    const result = await started(cip, args);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`with ${count} environment(s).`);
  });

  it('keeps --seed, the old name, out of help and completions', async ({ cip }) => {
    const help = await cip(['sandbox', '--help']);
    expect(help.stdout).toMatch(/--count <n> +number of sample environments to start with/);
    expect(help.stdout).not.toContain('--seed');
    for (const shell of ['bash', 'zsh', 'fish', 'powershell']) {
      const script = (await cip(['completion', shell])).stdout;
      expect(script).toContain('count');
      expect(script).not.toContain('seed');
    }
  });

  it('refuses --count and --seed together', async ({ cip }) => {
    const result = await cip(['sandbox', '--count', '1', '--seed', '2']);
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe('error: --seed is the old name of --count; give only --count');
  });
});

describe('cip sandbox keys and enterprise', () => {
  it('prints the default keys and enterprise without options', async ({ cip }) => {
    const result = await started(cip, []);
    expect(exportsOf(result.stdout)).toMatchObject({
      CIP_API_KEY: SANDBOX_DEFAULTS.apiKey,
      CIP_SUBSCRIPTION_KEY: SANDBOX_DEFAULTS.subscriptionKey,
      CIP_ENTERPRISE_ID: SANDBOX_DEFAULTS.enterpriseId,
    });
    expect(result.stderr).toContain(`A read-only API key (writes get 403): ${SANDBOX_DEFAULTS.readOnlyApiKey}`);
  });

  it.for<[string, string[]]>([
    ['after the command', ['sandbox', '--enterprise-id', GUID, '--api-key', API_KEY, '--subscription-key', SUBSCRIPTION_KEY]],
    ['before the command', ['--enterprise-id', GUID, 'sandbox', '--api-key', API_KEY, '--subscription-key', SUBSCRIPTION_KEY]],
  ])('takes the global --enterprise-id %s, and its own keys; the read-only key is derived', async ([_where, args], { cip }) => {
    const result = await cip(args, { signal: AbortSignal.abort() });
    expect(result.exitCode).toBe(0);
    expect(exportsOf(result.stdout)).toMatchObject({
      CIP_API_KEY: API_KEY,
      CIP_SUBSCRIPTION_KEY: SUBSCRIPTION_KEY,
      CIP_ENTERPRISE_ID: GUID,
    });
    expect(readOnlyKeyFor(API_KEY)).not.toBe(SANDBOX_DEFAULTS.readOnlyApiKey);
    expect(result.stderr).toContain(`A read-only API key (writes get 403): ${readOnlyKeyFor(API_KEY)}`);
  });

  it('takes a token secret, and signs the token it prints with it', async ({ cip }) => {
    const secret = 'my-own-token-secret-0123456789abcdef';
    const result = await started(cip, ['--token-secret', secret]);
    expect(result.exitCode).toBe(0);
    const token = /^# export CIP_TOKEN=(\S+)$/m.exec(result.stdout)?.[1] ?? '';
    const now = Math.floor(Date.now() / 1000);
    expect(checkToken(token, secret, now).valid).toBe(true);
    expect(checkToken(token, SANDBOX_DEFAULTS.tokenSecret, now)).toEqual({ valid: false, description: 'The signature key was not found' });
  });

  it('takes a read-only key', async ({ cip }) => {
    const result = await started(cip, ['--read-only-key', 'my-read-only-key-0123456789']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('A read-only API key (writes get 403): my-read-only-key-0123456789');
  });

  it.for<[string[], string | RegExp]>([
    [
      ['--enterprise-id', 'not-a-guid'],
      "error: --enterprise-id must be a GUID like 3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b, not 'not-a-guid'",
    ],
    [['--api-key', 'short'], /^error: the API key from --api-key is not a valid key: it has 5 characters/],
    [['--subscription-key', 'has space in it 0123456789'], /^error: the subscription key from --subscription-key is not a valid key/],
    [['--read-only-key', 'x\u001b[2J-0123456789abc'], /^error: the read-only API key from --read-only-key is not a valid key/],
    [['--api-key', API_KEY, '--read-only-key', API_KEY], 'error: --read-only-key must differ from --api-key'],
    [
      ['--token-secret', 'short-secret-0123456789'],
      'error: the token secret from --token-secret has 23 characters; HS256 needs 32 at least',
    ],
    [['--token-secret', 'a secret with spaces in it, 0123456789'], /^error: the token secret from --token-secret is not a valid key/],
  ])('refuses %j (exit 2), starting nothing', async ([args, message], { cip }) => {
    const result = await cip(['sandbox', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const line = expectOneErrorLine(result.stderr);
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
  });
});

describe('cip sandbox paging and latency', () => {
  it('says how lists are paged and how long answers wait', async ({ cip }) => {
    const result = await started(cip, ['--page-size', '2', '--paging', 'next', '--latency', '50']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Lists come 2 to a page (next style).\nEvery answer waits 50 ms.\n');
    expect((await started(cip, ['--page-size', '5'])).stderr).toContain('Lists come 5 to a page (odata style).\n');
    expect((await started(cip, [])).stderr).not.toMatch(/to a page|waits/);
  });

  it.for<[string[], string | RegExp]>([
    [['--paging', 'link'], 'error: --paging needs --page-size (without a page size the whole list is one answer)'],
    [['--page-size', '0'], /^error: option '--page-size <n>' argument '0' is invalid\. expected a whole number 1-1000000/],
    [['--paging', 'xml', '--page-size', '2'], /^error: option '--paging <style>' argument 'xml' is invalid/],
    [['--latency', '-5'], /^error: option '--latency <ms>' argument '-5' is invalid\. expected a whole number 0-60000/],
  ])('refuses %j (exit 2)', async ([args, message], { cip }) => {
    const result = await cip(['sandbox', ...args]);
    expect(result.exitCode).toBe(2);
    const line = expectOneErrorLine(result.stderr);
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
  });
});
