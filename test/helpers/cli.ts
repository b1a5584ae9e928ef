// Runs the built cip binary the way a user or a CI job would: a clean environment, a private config dir,
// no terminal. Returns what the user would see.
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll } from 'vitest';
import { parseExactJson } from '../../src/json/exact.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/**
 * The built program the tests run: this run's copy of bin/ and dist/ (test/helpers/global-setup.ts), so a
 * rebuild during the run changes nothing under a spawned cip; the checkout itself when vitest runs without it.
 */
export const BUILD = process.env.CIP_TEST_BUILD ?? ROOT;
export const CIP = join(BUILD, 'bin', 'cip.cjs');

export interface CipResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface CipOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds: text (as UTF-8), or bytes as they are. */
  input?: string | Buffer;
  configDir?: string;
  /** The working folder, where the project file (.cip.json) is looked for. */
  cwd?: string;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'cip-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/**
 * Tests keep keys in the config file unless they say otherwise: no keychain is reachable from a test's clean
 * environment on Linux, and on a developer's Mac or Windows machine a test must never write to the real one.
 * The keychain tests (test/e2e/keychain.test.ts) bring their own and unset this.
 */
export const TEST_CREDENTIAL_STORE = { CIP_CREDENTIAL_STORE: 'file' } as const;

let sharedFolders: { cache: string; tmp: string } | undefined;

/**
 * The cache folder (XDG_CACHE_HOME) and temp folder (TMPDIR) every spawned cip gets unless a test says otherwise:
 * one of each per run of the tests (test/helpers/global-setup.ts makes them), so that runs share the code cache
 * as a user's runs do, and no cip writes into a test's HOME or the machine's temp folder.
 */
export function sharedTestFolders(): { cache: string; tmp: string } {
  sharedFolders ??= process.env.CIP_TEST_BUILD
    ? { cache: join(BUILD, 'cache'), tmp: join(BUILD, 'tmp') }
    : { cache: tempDir('cip-cache-'), tmp: tempDir('cip-tmp-') };
  return sharedFolders;
}

function baseEnv(options: CipOptions): Record<string, string | undefined> {
  const { cache, tmp } = sharedTestFolders();
  return {
    PATH: process.env.PATH,
    HOME: options.configDir ?? tempDir(),
    CIP_CONFIG_DIR: options.configDir ?? tempDir(),
    XDG_CACHE_HOME: cache,
    TMPDIR: tmp,
    ...TEST_CREDENTIAL_STORE,
    ...options.env,
  };
}

export function spawnCip(args: string[], options: CipOptions = {}): ResultPromise<{ reject: false }> {
  const env = baseEnv(options);
  return execa('node', [CIP, ...args], {
    env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    input: options.input,
    stdin: options.input === undefined ? 'ignore' : undefined,
    timeout: 60_000,
    // In the test's HOME unless told: a .cip.json above the checkout (the developer's own) is never found.
    cwd: options.cwd ?? env.HOME,
  } as never);
}

export async function cip(args: string[], options: CipOptions = {}): Promise<CipResult> {
  const result = await spawnCip(args, options);
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `cip auth login` arguments for a sandbox: its base URL (or another that reaches it) and enterprise, and its keys
 * in two new files (keys never go on a command line).
 */
export function loginArgs(sandbox: Pick<Sandbox, 'url' | 'keys'>, extra: string[] = [], baseUrl = sandbox.url): string[] {
  const dir = tempDir();
  writeFileSync(join(dir, 'api'), sandbox.keys.apiKey);
  writeFileSync(join(dir, 'sub'), sandbox.keys.subscriptionKey);
  return [
    'auth',
    'login',
    '--base-url',
    baseUrl,
    '--enterprise-id',
    sandbox.keys.enterpriseId,
    '--api-key-file',
    join(dir, 'api'),
    '--subscription-key-file',
    join(dir, 'sub'),
    ...extra,
  ];
}

/** `cip auth login --no-verify` arguments for an enterprise, with its keys in the files named (keys never go on a command line). */
export function noVerifyLoginArgs(enterpriseId: string, apiKeyFile: string, subscriptionKeyFile: string): string[] {
  return [
    'auth',
    'login',
    '--no-verify',
    '--enterprise-id',
    enterpriseId,
    '--api-key-file',
    apiKeyFile,
    '--subscription-key-file',
    subscriptionKeyFile,
  ];
}

/**
 * Puts exactly these environments, given as JSON texts so numbers keep their digits, in the sandbox's store, and
 * clears its recorded requests and faults.
 */
export async function seedSandbox(sandbox: Pick<Sandbox, 'environments' | 'reset'>, records: readonly string[]): Promise<void> {
  sandbox.environments.clear();
  for (const text of records) {
    const record = (await parseExactJson(text)) as { id: string };
    sandbox.environments.set(record.id, record);
  }
  sandbox.reset();
}

/** How cip names where a write goes when the credentials are sandboxEnv's: `... in enterprise X at HOST (...)`. */
export function sandboxTarget(sandbox: Pick<Sandbox, 'url' | 'keys'>): string {
  return `in enterprise ${sandbox.keys.enterpriseId} at ${new URL(sandbox.url).host} (credentials from the environment)`;
}

/**
 * A sandbox for a test file: started before its tests, closed after them. `ready` receives it and the
 * environment that points cip at it (`({ sandbox, env } = started)`).
 */
export function sandboxForFile(
  options: SandboxOptions,
  ready: (started: { sandbox: Sandbox; env: Record<string, string | undefined> }) => void,
): void {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(options);
    ready({ sandbox, env: sandboxEnv(sandbox) });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
}

/** The three credentials and the base URL of a sandbox, as a CI job would set them. */
export function sandboxEnv(
  sandbox: Pick<Sandbox, 'url' | 'keys'>,
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    CIP_BASE_URL: sandbox.url,
    CIP_API_KEY: sandbox.keys.apiKey,
    CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
    CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
    ...overrides,
  };
}

/**
 * Another client's PUT of an environment, straight to the API with the server's keys: the second writer of the
 * lost-update tests. Returns the status the API answered.
 */
export async function putAsAnotherClient(
  server: Pick<Sandbox, 'url' | 'keys'>,
  id: string,
  body: Record<string, unknown>,
): Promise<number> {
  const response = await fetch(`${server.url}/Environments/${id}`, {
    method: 'PUT',
    headers: {
      Authorization: `ApiKey ${server.keys.apiKey}`,
      'Ocp-Apim-Subscription-Key': server.keys.subscriptionKey,
      EnterpriseId: server.keys.enterpriseId,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

export function readConfig(configDir: string): unknown {
  const path = join(configDir, 'config.json');
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

/** Every error is one line starting with `error:` and never carries a stack trace. */
export function expectOneErrorLine(stderr: string): string {
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => line.startsWith('error:'));
  if (lines.length !== 1) throw new Error(`expected exactly one error line, got:\n${stderr}`);
  if (/^\s+at /m.test(stderr)) throw new Error(`stderr has a stack trace:\n${stderr}`);
  return lines[0]!;
}

/** Waits until a running `cip sandbox` has printed its export lines; returns what it printed so far. */
export function sandboxOutput(server: ReturnType<typeof spawnCip>): Promise<string> {
  let stdout = '';
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('CIP_ENTERPRISE_ID=')) resolve(stdout);
    });
    server.nodeChildProcess.once('exit', () => reject(new Error('the sandbox exited before printing its settings')));
  });
}

/** A word for a POSIX shell's command line, in single quotes (the tests' own: not cip's quoting, which they test). */
export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
