// `cip sandbox` in-process: its options, what it prints, and that it runs until Ctrl-C.
import { describe, expect, afterEach } from 'vitest';
import { expectOneErrorLine, sandboxEnv, tempDir, TEST_CREDENTIAL_STORE } from '../helpers/cli.js';
import { it, test, type Cip } from '../helpers/fixture.js';
import { PassThrough } from 'node:stream';
import { listenFailure } from '../../src/commands/sandbox.js';
import { run } from '../../src/run.js';
import { SANDBOX_DEFAULTS, readOnlyKeyFor } from '../../src/sandbox/index.js';
import { checkToken } from '../../src/sandbox/token.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { testContext } from '../helpers/io.js';
import { createServer, type Server } from 'node:net';
import { UsageError } from '../../src/errors.js';

describe('boundaries found by mutation testing', () => {
  test.override({ sandboxOptions: { seed: 1 } });

  describe('an empty value for an option that takes a number', () => {
    it.for<[string, string, string]>([
      ['sandbox', '--port', ''],
      ['sandbox', '--count', ' '],
      ['sandbox', '--seed', ' '],
      ['env list', '--timeout', ''],
    ])('cip %s %s %j is exit 2, nothing started or sent', async ([command, flag, value], { sandbox, cip }) => {
      const result = await cip([...command.split(' '), flag, value], { env: sandboxEnv(sandbox) });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(
        new RegExp(`^error: option '${flag} <[a-z]+>' argument '${value}' is invalid\\. an empty value is refused`),
      );
      expect(result.stdout).toBe('');
      expect(sandbox.requests).toHaveLength(0);
    });
  });
});

describe('until Ctrl-C, and what it prints', () => {
  // A sandbox that runs until Ctrl-C (a client that uses the printed lines works while it runs; it stops on the
  // signal and says so), every line it prints for each kind of setting, the edges of its number options, masking
  // under GitHub Actions, and listenFailure.

  const { apiKey, subscriptionKey, enterpriseId, readOnlyApiKey } = SANDBOX_DEFAULTS;

  const URL_PATTERN = 'http://127\\.0\\.0\\.1:\\d+/ms';

  const LAST_LINE = 'Paste the lines above into another shell, then try: cip env list. Press Ctrl-C to stop.';

  const TOKEN_LINE = 'To use the Bearer token instead (valid 24 h), unset CIP_API_KEY and export the CIP_TOKEN line.';

  const JWT_PATTERN = '[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+';

  /** Starts the sandbox with these arguments and stops it as soon as it has printed its settings. */
  const started = (cip: Cip, args: string[], env: Record<string, string> = {}) =>
    cip(['sandbox', ...args], { env, signal: AbortSignal.abort() });

  /** The printed lines: the whole stdout must be the four export lines and the commented token line. */
  function exported(stdout: string, keys = { apiKey, subscriptionKey, enterpriseId }): { url: string; token: string } {
    const match = new RegExp(
      `^export CIP_BASE_URL=(${URL_PATTERN})\\n` +
        `export CIP_API_KEY=${keys.apiKey}\\n` +
        `export CIP_SUBSCRIPTION_KEY=${keys.subscriptionKey}\\n` +
        `export CIP_ENTERPRISE_ID=${keys.enterpriseId}\\n` +
        `# export CIP_TOKEN=(${JWT_PATTERN})\\n$`,
    ).exec(stdout);
    expect(match, stdout).not.toBeNull();
    return { url: match![1]!, token: match![2]! };
  }

  /** The URL in the first export line; the whole stdout must be the printed lines. */
  const exportedUrl = (stdout: string): string => exported(stdout).url;

  /**
   * `cip sandbox` run in-process as it runs at a shell: it keeps running until the signal, Ctrl-C here. Resolves
   * `ready` once its last line is on stderr.
   */
  function runningSandbox(args: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const stdin = new PassThrough();
    stdin.end();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const ready = new Promise<void>((resolve) =>
      stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString('utf8');
        if (err.includes(LAST_LINE)) resolve();
      }),
    );
    const streams: Streams = { stdout, stderr, stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: undefined };
    const configDir = tempDir();
    const controller = new AbortController();
    let settled = false;
    const exit = run(
      ['sandbox', ...args],
      testContext(
        streams,
        { PATH: process.env.PATH, HOME: configDir, CIP_CONFIG_DIR: configDir, ...TEST_CREDENTIAL_STORE },
        '0.0.0',
        controller.signal,
      ),
    ).finally(() => (settled = true));
    return {
      ready,
      stdout: () => out,
      stderr: () => err,
      running: () => !settled,
      stop: async () => {
        controller.abort();
        return exit;
      },
    };
  }

  describe('cip sandbox until Ctrl-C', () => {
    it('serves the printed URL with the printed keys while it runs, then stops on the signal and says so', async ({ cip }) => {
      const sandbox = runningSandbox(['--count', '2']);
      await sandbox.ready;
      const url = exportedUrl(sandbox.stdout());
      // What the last line says to do: the export lines in the environment, then cip env list.
      const env = { CIP_BASE_URL: url, CIP_API_KEY: apiKey, CIP_SUBSCRIPTION_KEY: subscriptionKey, CIP_ENTERPRISE_ID: enterpriseId };
      const list = await cip(['env', 'list', '--json'], { env });
      expect(list.exitCode).toBe(0);
      expect(JSON.parse(list.stdout)).toHaveLength(2);
      // The read-only key it names reads, and is refused a write.
      const readOnly = { ...env, CIP_API_KEY: readOnlyApiKey };
      expect((await cip(['env', 'list', '--json'], { env: readOnly })).exitCode).toBe(0);
      const write = await cip(['env', 'create', '-f', 'name=x'], { env: readOnly });
      expect(write.exitCode).not.toBe(0);
      expect(write.stderr).toMatch(/\(HTTP 403\)/);
      // The commented token works in place of the API key and the enterprise id.
      const { token } = exported(sandbox.stdout());
      const byToken = await fetch(`${url}/Environments`, {
        headers: { 'Ocp-Apim-Subscription-Key': subscriptionKey, Authorization: `Bearer ${token}` },
      });
      expect(byToken.status).toBe(200);
      expect(await byToken.json()).toHaveLength(2);
      expect(sandbox.running()).toBe(true);
      expect(sandbox.stderr()).not.toContain('Sandbox stopped.');

      expect(await sandbox.stop()).toBe(0);
      expect(sandbox.stderr()).toMatch(/\nSandbox stopped\.\n$/);
      const after = await cip(['env', 'list', '--json'], { env });
      expect(after.exitCode).not.toBe(0);
    }, 15_000);
  });

  describe('what cip sandbox prints', () => {
    it.for<[string[], string]>([
      [[], '3 environment(s).\n'],
      [['--count', '1', '--page-size', '1'], '1 environment(s).\nLists come 1 to a page (odata style).\n'],
      [
        ['--page-size', '2', '--paging', 'link', '--latency', '60000', '--fail-ping'],
        '3 environment(s).\nLists come 2 to a page (link style).\nEvery answer waits 60000 ms.\nThe ping answers 503 (--fail-ping).\n',
      ],
      [['--latency', '0', '--fail-ping'], '3 environment(s).\nThe ping answers 503 (--fail-ping).\n'],
      [['--page-size', '1000000'], '3 environment(s).\nLists come 1000000 to a page (odata style).\n'],
    ])('%j: the export lines on stdout, and on stderr what it serves and how', async ([args, settings], { cip }) => {
      const result = await started(cip, args);
      expect(result.exitCode).toBe(0);
      const url = exportedUrl(result.stdout);
      expect(result.stderr).toBe(
        `Sandbox listening on ${url} with ${settings}` +
          `A read-only API key (writes get 403): ${readOnlyApiKey}\n${TOKEN_LINE}\n${LAST_LINE}\nSandbox stopped.\n`,
      );
    });

    it('prints, commented out, a token for its enterprise signed with its secret, valid for 24 hours', async ({ cip }) => {
      const before = Math.floor(Date.now() / 1000);
      const { token } = exported((await started(cip, [])).stdout);
      const checked = checkToken(token, SANDBOX_DEFAULTS.tokenSecret, before);
      expect(checked).toMatchObject({ valid: true, claims: { enterpriseId } });
      const { iat = 0, exp = 0 } = (checked.valid ? checked.claims : {}) as { iat?: number; exp?: number };
      expect(iat).toBeGreaterThanOrEqual(before);
      expect(exp - iat).toBe(24 * 3600);
      expect(checkToken(token, SANDBOX_DEFAULTS.tokenSecret, before + 24 * 3600 + 301).valid).toBe(false);
    });

    it('masks each key under GitHub Actions before it prints them', async ({ cip }) => {
      const result = await started(cip, [], { GITHUB_ACTIONS: 'true' });
      expect(result.exitCode).toBe(0);
      const [masks, exports] = [result.stdout.split('export ')[0], result.stdout.slice(result.stdout.indexOf('export '))];
      const { token } = exported(exports!);
      expect(masks).toBe(`::add-mask::${apiKey}\n::add-mask::${subscriptionKey}\n::add-mask::${readOnlyApiKey}\n::add-mask::${token}\n`);
    });
  });

  describe('cip sandbox number options', () => {
    it.for(['0', '65535'])('takes --port %s as a port', async (port, { cip }) => {
      const result = await started(cip, ['--port', port]);
      // 65535 may be taken on this machine; what matters is that it was taken as a port.
      expect(result.stderr).not.toContain('expected a port number');
      if (port === '0') {
        expect(result.exitCode).toBe(0);
        exportedUrl(result.stdout);
      } else if (result.exitCode !== 0) {
        expect(expectOneErrorLine(result.stderr)).toMatch(/^error: port 65535 is in use/);
      } else {
        expect(exportedUrl(result.stdout)).toBe('http://127.0.0.1:65535/ms');
      }
    });

    it.for(['-1', '65536', '1.5', 'abc', '1e9'])('refuses --port %s (exit 2), starting nothing', async (port, { cip }) => {
      const result = await cip(['sandbox', '--port', port]);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: option '--port <n>' argument '${port}' is invalid. expected a port number 0-65535`,
      );
    });

    it.for<[string, string, string]>([
      ['--count', '1000001', '0-1000000'],
      ['--count', '2.5', '0-1000000'],
      ['--seed', '-1', '0-1000000'],
      ['--page-size', '1000001', '1-1000000'],
      ['--latency', '60001', '0-60000'],
      ['--latency', 'soon', '0-60000'],
    ])('refuses %s %s (exit 2): a whole number %s', async ([option, value, range], { cip }) => {
      const result = await cip(['sandbox', option, value]);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      const placeholder = option === '--latency' ? '<ms>' : '<n>';
      expect(expectOneErrorLine(result.stderr)).toBe(
        `error: option '${option} ${placeholder}' argument '${value}' is invalid. expected a whole number ${range}`,
      );
    });
  });

  describe('listenFailure', () => {
    it('passes on a failure without a code, or no failure object at all, as it is', () => {
      expect(listenFailure(undefined, 4010)).toBeUndefined();
      expect(listenFailure(null, 4010)).toBeNull();
      const plain = new Error('listen failed');
      expect(listenFailure(plain, 4010)).toBe(plain);
    });

    it('names the port and the way out for EACCES', () => {
      const denied = listenFailure(Object.assign(new Error('listen EACCES'), { code: 'EACCES' }), 80) as Error & { hint?: string };
      expect(denied.message).toBe('port 80 may not be opened here (permission denied; ports below 1024 need privileges)');
      expect(denied.hint).toBe('choose another with --port, or leave --port out to get a free one');
    });
  });
});

describe('its options', () => {
  // `cip sandbox` in-process: its options, what it prints, and the failures that are the user's to fix. A run
  // given an aborted signal starts the sandbox, prints, and stops at once, as if Ctrl-C came right away.

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
      expect(checkToken(token, SANDBOX_DEFAULTS.tokenSecret, now)).toEqual({
        valid: false,
        description: 'The signature key was not found',
      });
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
});
