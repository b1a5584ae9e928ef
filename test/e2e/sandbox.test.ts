// `cip sandbox`: the foreground server prints what points cip at it, serves the contract, and stops on Ctrl-C.
import { describe, expect, it } from 'vitest';
import { cip, sandboxOutput, spawnCip } from '../helpers/cli.js';

describe('cip sandbox', () => {
  it('prints export lines that a second cip can use, and stops on Ctrl-C', async () => {
    const server = spawnCip(['sandbox', '--seed', '4']);
    const stdout = await sandboxOutput(server);
    const env = Object.fromEntries([...stdout.matchAll(/^export (CIP_[A-Z_]+)=(.*)$/gm)].map(([, name, value]) => [name!, value!]));
    expect(Object.keys(env).sort()).toEqual(['CIP_API_KEY', 'CIP_BASE_URL', 'CIP_ENTERPRISE_ID', 'CIP_SUBSCRIPTION_KEY']);
    expect(env.CIP_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ms$/);

    const list = await cip(['env', 'list'], { env });
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(4);
    const created = await cip(['env', 'create', '-f', 'name=from-test'], { env });
    expect(created.exitCode).toBe(0);
    expect(JSON.parse((await cip(['env', 'list'], { env })).stdout)).toHaveLength(5);

    server.kill('SIGINT');
    const result = await server;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toMatch(/Sandbox listening on http:\/\/127\.0\.0\.1:\d+\/ms/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('refuses a port that is not a number (exit 2)', async () => {
    const result = await cip(['sandbox', '--port', 'http']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^error: option '--port <n>' argument 'http' is invalid/);
  });
});
