// `cip sandbox`: the foreground server prints what points cip at it, serves the contract, and stops on Ctrl-C.
import { describe, expect, it } from 'vitest';
import { cip, sandboxOutput, spawnCip } from '../helpers/cli.js';

function exportsOf(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export (CIP_[A-Z_]+)=(.*)$/gm)].map(([, name, value]) => [name!, value!]));
}

describe('cip sandbox', () => {
  it('prints export lines that a second cip can use, and stops on Ctrl-C', async () => {
    const server = spawnCip(['sandbox', '--count', '4']);
    const env = exportsOf(await sandboxOutput(server));
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

  it('runs two sandboxes as two enterprises, each refusing the other keys; paging and latency reach the server', async () => {
    const first = spawnCip(['sandbox', '--count', '2']);
    const second = spawnCip([
      'sandbox',
      '--enterprise-id',
      '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e',
      '--api-key',
      'second-api-key-0123456789',
      '--subscription-key',
      'second-sub-key-0123456789',
      '--count',
      '3',
      '--page-size',
      '2',
      '--paging',
      'link',
      '--latency',
      '100',
    ]);
    try {
      // Both listeners from the start: output printed before a listener is attached is not seen by it.
      const [a, b] = (await Promise.all([sandboxOutput(first), sandboxOutput(second)])).map(exportsOf) as [
        Record<string, string>,
        Record<string, string>,
      ];
      expect(b).toMatchObject({ CIP_ENTERPRISE_ID: '0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e', CIP_API_KEY: 'second-api-key-0123456789' });
      expect(b.CIP_BASE_URL).not.toBe(a.CIP_BASE_URL);

      const own = await cip(['env', 'list'], { env: a });
      expect(own.exitCode).toBe(0);
      expect(JSON.parse(own.stdout)).toHaveLength(2);
      for (const [keys, url] of [
        [b, a.CIP_BASE_URL],
        [a, b.CIP_BASE_URL],
      ] as const) {
        const crossed = await cip(['env', 'list'], { env: { ...keys, CIP_BASE_URL: url } });
        expect(crossed.exitCode).toBe(3);
      }
      // The first sandbox's keys with the second enterprise: the enterprise is refused.
      const otherEnterprise = await cip(['env', 'list', '--enterprise-id', b.CIP_ENTERPRISE_ID!], { env: a });
      expect(otherEnterprise.exitCode).toBe(4);

      const started = performance.now();
      const page = await fetch(`${b.CIP_BASE_URL}/Environments`, {
        headers: {
          Authorization: `ApiKey ${b.CIP_API_KEY}`,
          'Ocp-Apim-Subscription-Key': b.CIP_SUBSCRIPTION_KEY!,
          EnterpriseId: b.CIP_ENTERPRISE_ID!,
        },
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
      expect(page.headers.get('link')).toBe(`<${b.CIP_BASE_URL}/Environments?page=2>; rel="next"`);
      expect(await page.json()).toHaveLength(2);
    } finally {
      first.kill('SIGINT');
      second.kill('SIGINT');
      await Promise.all([first, second]);
    }
  });
});
