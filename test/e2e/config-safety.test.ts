// The profile store under pressure: parallel writers, stale locks, wide permissions, a hostile umask, and
// interrupts; plus the other places a key could leak (argv, CI logs). Each test reports what a user would see.
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CIP, cip, expectOneErrorLine, readConfig, sandboxEnv, sandboxOutput, spawnCip, tempDir } from '../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 1 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
});

function keyFiles(): string[] {
  const dir = tempDir();
  writeFileSync(join(dir, 'api'), sandbox.keys.apiKey);
  writeFileSync(join(dir, 'sub'), sandbox.keys.subscriptionKey);
  return ['--api-key-file', join(dir, 'api'), '--subscription-key-file', join(dir, 'sub')];
}

function loginArgs(profile: string, extra: string[] = []): string[] {
  return ['auth', 'login', '--profile', profile, '--base-url', sandbox.url, '--enterprise-id', sandbox.keys.enterpriseId, ...keyFiles(), ...extra];
}

describe('parallel writers', () => {
  it('20 logins at once to 20 profiles leave 20 profiles', async () => {
    const configDir = tempDir();
    const names = Array.from({ length: 20 }, (_, index) => `p${String(index).padStart(2, '0')}`);
    const results = await Promise.all(names.map((name) => cip(loginArgs(name, ['--no-verify']), { configDir })));
    expect(results.map((result) => result.exitCode)).toEqual(names.map(() => 0));
    const config = readConfig(configDir) as { activeProfile: string; profiles: Record<string, unknown> };
    const kept = Object.keys(config.profiles).sort();
    console.log(`config store: ${names.length} parallel logins, ${kept.length} profiles kept`);
    expect(kept).toEqual(names);
    expect(names).toContain(config.activeProfile);
    expect(readdirSync(configDir).sort()).toEqual(['config.json']);
  }, 120_000);

  it('a lock left behind by a crashed cip is taken over once stale', async () => {
    const configDir = tempDir();
    const lock = join(configDir, 'config.json.lock');
    mkdirSync(lock, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    const result = await cip(loginArgs('default', ['--no-verify']), { configDir });
    expect(result.exitCode).toBe(0);
    expect(readConfig(configDir)).toMatchObject({ activeProfile: 'default' });
    expect(existsSync(lock)).toBe(false);
  });
});

describe('permissions', () => {
  it('a config file or folder found readable by others is made private, and said so', async () => {
    const configDir = tempDir();
    expect((await cip(loginArgs('default', ['--no-verify']), { configDir })).exitCode).toBe(0);
    const file = join(configDir, 'config.json');
    chmodSync(file, 0o644);
    chmodSync(configDir, 0o755);
    const status = await cip(['auth', 'status'], { configDir });
    expect(status.exitCode).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(status.stderr).toContain(`warning: ${file} was readable by others (mode 644); cip made it private (600)`);
    expect(status.stderr).toContain('(mode 755); cip made it private (700)');
  });

  it('file 0600 and folder 0700 even under umask 000', async () => {
    const configDir = join(tempDir(), 'nested', 'cip');
    const command = `umask 000; exec node ${CIP} ${loginArgs('default', ['--no-verify']).map((arg) => `'${arg}'`).join(' ')}`;
    const result = await execa('bash', ['-c', command], { env: { PATH: process.env.PATH, HOME: tempDir(), CIP_CONFIG_DIR: configDir }, extendEnv: false, reject: false });
    expect(result.exitCode).toBe(0);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
  });
});

describe('interrupts', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal} while login checks the keys exits ${code} and saves nothing`, async () => {
      const configDir = tempDir();
      sandbox.inject({ fault: { kind: 'delay', ms: 20_000 } });
      const child = spawnCip(loginArgs('default'), { configDir });
      while (sandbox.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(code);
      expect(String(result.stderr)).not.toMatch(/^\s+at /m);
      expect(readConfig(configDir)).toBeUndefined();
      sandbox.clearFaults();
    });
  }
});

describe('keys outside the config', () => {
  it('never appear in the process arguments (what ps shows)', async () => {
    sandbox.inject({ fault: { kind: 'delay', ms: 20_000 } });
    const child = spawnCip(['env', 'list'], { env: sandboxEnv(sandbox) });
    while (sandbox.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').join(' ');
    child.kill('SIGINT');
    await child;
    sandbox.clearFaults();
    expect(cmdline).toContain('env list');
    expect(cmdline).not.toContain(sandbox.keys.apiKey);
    expect(cmdline).not.toContain(sandbox.keys.subscriptionKey);
  });

  it('under GitHub Actions, the sandbox declares its keys as masks before printing them', async () => {
    const server = spawnCip(['sandbox'], { env: { GITHUB_ACTIONS: 'true' } });
    const stdout = await sandboxOutput(server);
    server.kill('SIGINT');
    await server;
    const lines = stdout.split('\n');
    for (const key of [sandbox.keys.apiKey, sandbox.keys.subscriptionKey]) {
      const mask = lines.indexOf(`::add-mask::${key}`);
      const shown = lines.findIndex((line) => line.endsWith(`=${key}`));
      expect(mask).toBeGreaterThanOrEqual(0);
      expect(mask).toBeLessThan(shown);
    }
    const plain = await cip(['sandbox', '--port', 'x']);
    expect(plain.stdout).not.toContain('::add-mask::');
  });
});

describe('base URLs', () => {
  it('a same-origin redirect is not followed either: one request, exit 7', async () => {
    sandbox.inject({ fault: { kind: 'status', status: 307, headers: { location: `${sandbox.url}/Environments?page=2` } } });
    const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox) });
    expect(result.exitCode).toBe(7);
    expect(expectOneErrorLine(result.stderr)).toMatch(/redirect \(HTTP 307\)/);
    expect(sandbox.requests).toHaveLength(1);
  });

  // An IPv4-mapped IPv6 address of this machine: not on cip's loopback list, yet the traffic stays on loopback.
  const ipv6 = Object.values(networkInterfaces()).flat().some((address) => address?.address === '::1');
  it.skipIf(!ipv6)('http:// to another host is refused, and allowed with CIP_ALLOW_HTTP=1', async () => {
    const url = sandbox.url.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    const refused = await cip(['env', 'list', '--base-url', url], { env: sandboxEnv(sandbox) });
    expect(refused.exitCode).toBe(2);
    expect(expectOneErrorLine(refused.stderr)).toMatch(/cleartext.*CIP_ALLOW_HTTP=1/);
    expect(sandbox.requests).toHaveLength(0);
    const allowed = await cip(['env', 'list', '--base-url', url], { env: sandboxEnv(sandbox, { CIP_ALLOW_HTTP: '1' }) });
    expect(allowed.exitCode).toBe(0);
    expect(sandbox.requests).toHaveLength(1);
  });

  for (const url of ['not a url', 'ftp://127.0.0.1/ms', 'https://user:pass@api.example.com/ms', 'http://api.example.com/ms']) {
    it(`refuses ${url} (exit 2, nothing sent)`, async () => {
      const result = await cip(['env', 'list'], { env: sandboxEnv(sandbox, { CIP_BASE_URL: url }) });
      expect(result.exitCode).toBe(2);
      expect(expectOneErrorLine(result.stderr)).toMatch(/^error: CIP_BASE_URL /);
      expect(sandbox.requests).toHaveLength(0);
    });
  }
});
