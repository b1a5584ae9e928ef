// The reference Environments API (test/reference-api/, ASP.NET Core): built at most once per change of its
// sources, whatever the number of vitest workers asking, and started per test file on a free port. Without
// `dotnet` on PATH the tests that use it are skipped (global-setup.ts says so once).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import lockfile from 'proper-lockfile';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/index.js';
export { NO_DOTNET_MESSAGE, hasDotnet } from './dotnet.js';

export const REFERENCE_PROJECT = resolve(fileURLToPath(new URL('../reference-api', import.meta.url)));
/** Git-ignored, like the obj/ folder dotnet writes beside the project. */
export const REFERENCE_OUT = join(REFERENCE_PROJECT, 'bin', 'cip-test');
const DLL = join(REFERENCE_OUT, 'ReferenceApi.dll');
const STAMP = join(REFERENCE_OUT, 'sources.sha256');
const JWT_PACKAGE = 'Microsoft.AspNetCore.Authentication.JwtBearer';

export const DOTNET_ENV = { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1' };

// The project's sources and the SDK's version: the build is redone when either changes.
async function sourcesHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = readdirSync(REFERENCE_PROJECT)
    .filter((name) => /\.(cs|csproj)$/.test(name))
    .sort();
  for (const name of files)
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(join(REFERENCE_PROJECT, name)))
      .update('\0');
  hash.update((await execa('dotnet', ['--version'], { env: DOTNET_ENV })).stdout);
  return hash.digest('hex');
}

/**
 * Builds the app into REFERENCE_OUT unless a build of the same sources is there. A lock file makes parallel
 * workers (and parallel runs in this checkout) wait for one build instead of running several.
 */
export async function buildReferenceApi(): Promise<string> {
  mkdirSync(REFERENCE_OUT, { recursive: true });
  const release = await lockfile.lock(REFERENCE_OUT, {
    lockfilePath: join(REFERENCE_PROJECT, 'bin', 'cip-test.lock'),
    stale: 60_000,
    retries: { retries: 1_800, minTimeout: 100, maxTimeout: 100 },
  });
  try {
    const hash = await sourcesHash();
    if (existsSync(DLL) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) return DLL;
    // No build servers or reused MSBuild nodes: nothing may outlive the test run.
    const noServers = ['-nodeReuse:false', '-p:UseSharedCompilation=false', '-v:q'];
    // The JWT bearer handler comes from NuGet: restored first, so that a source out of reach is one clear line.
    await execa('dotnet', ['restore', REFERENCE_PROJECT, ...noServers], { env: DOTNET_ENV, all: true }).catch((error: unknown) => {
      throw new Error(restoreFailure((error as { all?: string }).all ?? String(error)));
    });
    await execa('dotnet', ['build', REFERENCE_PROJECT, '--no-restore', '-c', 'Release', '-o', REFERENCE_OUT, ...noServers], {
      env: DOTNET_ENV,
      all: true,
    }).catch((error: unknown) => {
      throw new Error(`dotnet build of the reference API failed:\n${(error as { all?: string }).all ?? String(error)}`);
    });
    writeFileSync(STAMP, hash);
    return DLL;
  } finally {
    await release();
  }
}

/** One line for a failed restore: what was being fetched, and NuGet's first error (NU1301: source unreachable, ...). */
export function restoreFailure(output: string): string {
  const lastLine = output.trim().split('\n').pop()?.trim() ?? '';
  const error = /error (NU\d+: .*?)(?: \[[^\]]*\])?$/m.exec(output)?.[1] ?? (lastLine === '' ? 'dotnet said nothing' : lastLine);
  return `NuGet restore of the reference API failed (it needs ${JWT_PACKAGE} from a NuGet source): ${error}`;
}

export interface ReferenceApi {
  /** Base URL the CLI appends /Environments to, as the sandbox's `url`. */
  readonly url: string;
  readonly keys: { apiKey: string; readOnlyApiKey: string; subscriptionKey: string; enterpriseId: string; tokenSecret: string };
  close(): Promise<void>;
}

const READY = /^reference-api listening on (\S+)$/m;

/** Starts the built app on a free port with the sandbox's default keys; resolves once it accepts requests. */
export async function startReferenceApi(dll: string): Promise<ReferenceApi> {
  const keys = { ...SANDBOX_DEFAULTS };
  const child: ChildProcess = spawn('dotnet', [dll, '--port', '0'], {
    env: {
      ...process.env,
      ...DOTNET_ENV,
      CIP_REF_API_KEY: keys.apiKey,
      CIP_REF_READ_ONLY_API_KEY: keys.readOnlyApiKey,
      CIP_REF_SUBSCRIPTION_KEY: keys.subscriptionKey,
      CIP_REF_ENTERPRISE_ID: keys.enterpriseId,
      CIP_REF_TOKEN_SECRET: keys.tokenSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = READY.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    void exited.then(() => reject(new Error(`the reference API exited before it was ready:\n${output}`)));
  });
  return {
    url,
    keys,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
