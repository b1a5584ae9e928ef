// `cip sandbox` in-process, beyond test/commands/sandbox.test.ts: a sandbox that runs until Ctrl-C (a client
// that uses the printed lines works while it runs; it stops on the signal and says so), every line it prints
// for each kind of setting, the edges of its number options, masking under GitHub Actions, and listenFailure.
import { PassThrough } from 'node:stream';
import { describe, expect } from 'vitest';
import { listenFailure } from '../../src/commands/sandbox.js';
import { run } from '../../src/run.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
import { checkToken } from '../../src/sandbox/token.js';
import type { Streams } from '../../src/terminal/io-streams.js';
import { TEST_CREDENTIAL_STORE, expectOneErrorLine, tempDir } from '../helpers/cli.js';
import { testContext } from '../helpers/io.js';
import { it, type Cip } from '../helpers/fixture.js';

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
