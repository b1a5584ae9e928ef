// The rest of the platform and any output's shape: `cip api`, `--jq`, `-o tsv`, and `cip doctor`, in-process
// against the sandbox. What the server received proves what was sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectOneErrorLine, sandboxEnv, tempDir } from '../helpers/cli.js';
import { it, test } from '../helpers/fixture.js';

test.override({
  sandboxOptions: {
    records: [
      '{"id":"e1","name":"alpha","big":12345678901234567890,"note":"tab\\there","settings":{"retention":30}}',
      '{"id":"e2","name":"beta"}',
    ],
  },
});

describe('cip api', () => {
  it('sends the three headers to a path below the base URL, with or without a leading slash', async ({ sandbox, env, cip }) => {
    for (const path of ['Environments', '/Environments']) {
      sandbox.reset();
      const result = await cip(['api', path], { env });
      expect(result.exitCode).toBe(0);
      const [request] = sandbox.requests;
      expect(`${request!.method} ${request!.url}`).toBe('GET /ms/Environments');
      expect(request!.headers.authorization).toBe(`ApiKey ${sandbox.keys.apiKey}`);
      expect(request!.headers['ocp-apim-subscription-key']).toBe(sandbox.keys.subscriptionKey);
      expect(request!.headers.enterpriseid).toBe(sandbox.keys.enterpriseId);
    }
  });

  it('passes the body through byte for byte in a pipe', async ({ sandbox, env, cip }) => {
    const body = '{"odd" :  [1.50, 12345678901234567890,{}],\n "x":"\\u00e9"}';
    sandbox.inject({ fault: { kind: 'status', status: 200, body, headers: { 'content-type': 'application/json' } } });
    const result = await cip(['api', 'Integrations'], { env });
    expect(result).toEqual({ exitCode: 0, stdout: body, stderr: '' });
    expect(sandbox.requests[0]!.url).toBe('/ms/Integrations');
  });

  it('pretty-prints JSON at a terminal, numbers exact', async ({ sandbox, env, cip }) => {
    sandbox.inject({ fault: { kind: 'status', status: 200, body: '{"n":12345678901234567890}' } });
    const result = await cip(['api', 'Integrations'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 80 });
    expect(result.stdout).toBe('{\n  "n": 12345678901234567890\n}\n');
  });

  it('refuses a URL on another origin: exit 2, nothing sent anywhere', async ({ sandbox, env, cip, startSandbox }) => {
    const elsewhere = await startSandbox();
    const result = await cip(['api', `${elsewhere.url}/Environments`], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toBe(
      `error: ${new URL(elsewhere.url).origin} is not the base URL's origin (${new URL(sandbox.url).origin}) (nothing was sent: the keys go only to the base URL)`,
    );
    expect(sandbox.requests).toHaveLength(0);
    expect(elsewhere.requests).toHaveLength(0);
    // A URL on the base URL's own origin is fine.
    expect((await cip(['api', `${sandbox.url}/Environments`], { env })).exitCode).toBe(0);
  });

  it('POSTs fields (the create parser), and never retries a POST', async ({ sandbox, env, cip }) => {
    const created = await cip(['api', 'Environments', '-f', 'name=from-api', '-F', 'n=12345678901234567890'], { env });
    expect(created.exitCode).toBe(0);
    expect(sandbox.requests[0]!.method).toBe('POST');
    expect(sandbox.requests[0]!.body).toBe('{"name":"from-api","n":12345678901234567890}');
    sandbox.reset();
    sandbox.inject({ fault: { kind: 'status', status: 503, body: 'busy' }, times: Infinity });
    const failed = await cip(['api', 'Environments', '-X', 'POST', '-f', 'name=x'], { env });
    expect(failed.exitCode).toBe(7);
    expect(sandbox.requests).toHaveLength(1);
    expect(failed.stdout).toBe('');
  });

  it('-X PUT --input sends the file as it is; -H adds a header; -i shows the status and headers on stderr', async ({
    sandbox,
    env,
    cip,
  }) => {
    const path = join(tempDir(), 'body.json');
    writeFileSync(path, '{"name":"alpha","big":1.50}');
    const result = await cip(['api', 'Environments/e1', '-X', 'PUT', '--input', path, '-H', 'X-Trace: abc', '-i'], { env });
    expect(result.exitCode).toBe(0);
    const [request] = sandbox.requests;
    expect(`${request!.method} ${request!.url}`).toBe('PUT /ms/Environments/e1');
    expect(request!.body).toBe('{"name":"alpha","big":1.50}');
    expect(request!.headers['x-trace']).toBe('abc');
    expect(result.stderr).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(result.stderr).toContain('\ncontent-type: application/json');
  });

  it('refuses to set a credential header with -H, and GET fields become the query', async ({ sandbox, env, cip }) => {
    const refused = await cip(['api', 'Environments', '-H', 'Authorization: Bearer x'], { env });
    expect(refused.exitCode).toBe(2);
    expect(sandbox.requests).toHaveLength(0);
    await cip(['api', 'Environments', '-X', 'GET', '-f', 'q=a b'], { env });
    expect(sandbox.requests[0]!.url).toBe('/ms/Environments?q=a+b');
  });

  it('fails with the usual exit codes', async ({ env, cip }) => {
    const missing = await cip(['api', 'Environments/nope', '-X', 'DELETE'], { env });
    expect(missing.exitCode).toBe(5);
    const denied = await cip(['api', 'Environments'], { env: { ...env, CIP_API_KEY: 'wrong-api-key-0123456789' } });
    expect(denied.exitCode).toBe(3);
  });
});

describe('--jq', () => {
  it('prints strings raw and keeps numbers above 2^53 exact', async ({ env, cip }) => {
    const names = await cip(['env', 'list', '--jq', '.[].name'], { env });
    expect(names).toEqual({ exitCode: 0, stdout: 'alpha\nbeta\n', stderr: '' });
    const big = await cip(['env', 'get', 'alpha', '--jq', '.big'], { env });
    expect(big.stdout).toBe('12345678901234567890\n');
  });

  it('has real jq: select, map, string interpolation, @tsv and @csv', async ({ env, cip }) => {
    const tsv = await cip(['env', 'list', '--jq', '.[] | [.id, .name, .note] | @tsv'], { env });
    expect(tsv.stdout).toBe('e1\talpha\ttab\\there\ne2\tbeta\t\n');
    const csv = await cip(['env', 'list', '--jq', 'map(select(.settings)) | .[] | [.name, .settings.retention] | @csv'], { env });
    expect(csv.stdout).toBe('"alpha",30\n');
    const text = await cip(['env', 'list', '--jq', '.[] | "\\(.name) is \\(.id)"'], { env });
    expect(text.stdout).toBe('alpha is e1\nbeta is e2\n');
  });

  it('works on cip api answers too', async ({ env, cip }) => {
    const result = await cip(['api', 'Environments', '--jq', 'length'], { env });
    expect(result.stdout).toBe('2\n');
  });

  it("an invalid expression is exit 2 with jq's message, before anything is sent", async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list', '--jq', '.[] |'], { env });
    expect(result.exitCode).toBe(2);
    expect(expectOneErrorLine(result.stderr)).toMatch(/^error: --jq: syntax error, unexpected end of file/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('disagrees with -o table', async ({ sandbox, env, cip }) => {
    const result = await cip(['env', 'list', '--jq', '.', '-o', 'table'], { env });
    expect(result.exitCode).toBe(2);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('-o tsv', () => {
  it('writes a header line and one line per item, nested values as compact JSON, numbers exact', async ({ env, cip }) => {
    const result = await cip(['env', 'list', '-o', 'tsv', '--columns', 'id,name,big,settings,note'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      'id\tname\tbig\tsettings\tnote\ne1\talpha\t12345678901234567890\t{"retention":30}\ttab\\there\ne2\tbeta\t\t\t\n',
    );
  });

  it("--no-headers leaves the header out; without --columns the table's choice of columns is used", async ({ env, cip }) => {
    const result = await cip(['env', 'list', '-o', 'tsv', '--no-headers', '--columns', 'name'], { env });
    expect(result.stdout).toBe('alpha\nbeta\n');
    const chosen = await cip(['env', 'list', '-o', 'tsv'], { env });
    expect(chosen.stdout.split('\n')[0]).toBe('id\tname\tbig\tnote\tsettings');
  });

  it('works for one record', async ({ env, cip }) => {
    const result = await cip(['env', 'get', 'beta', '-o', 'tsv'], { env });
    expect(result.stdout).toBe('id\tname\ne2\tbeta\n');
  });

  it("escapes as jq 1.8's @tsv does: tab, newline, carriage return, backslash and NUL, nothing else", async ({ sandbox, env, cip }) => {
    sandbox.environments.set('e3', { id: 'e3', name: 'gamma', note: 'nul\0tab\tnl\ncr\rbs\\soh\u0001del\u007f' });
    const tsv = await cip(['env', 'list', '-o', 'tsv', '--no-headers', '--columns', 'id,name,note'], { env });
    expect(tsv.stdout.split('\n')[2]).toBe('e3\tgamma\tnul\\0tab\\tnl\\ncr\\rbs\\\\soh\u0001del\u007f');
    const jq = await cip(['env', 'list', '--jq', '.[] | [.id, .name, .note] | @tsv'], { env });
    expect(tsv.stdout).toBe(jq.stdout);
  });
});

describe('cip doctor', () => {
  it('passes every check against the sandbox, saying where each value came from, keys masked', async ({ sandbox, env, cip }) => {
    const result = await cip(['doctor'], { env: { ...env, NO_COLOR: '1' }, terminalColumns: 200 });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      '✓ credentials',
      '✓ base URL',
      '✓ DNS',
      '✓ TCP',
      '- TLS',
      '✓ ping',
      '✓ subscription key',
      '✓ API key and enterprise',
      '✓ clock',
    ]);
    expect(lines[0]).toContain('API key ****6789 (from CIP_API_KEY)');
    expect(result.stdout).not.toContain(sandbox.keys.apiKey);
    expect(result.stderr).toBe('All checks passed.\n');
  });

  it.for<[string, string, string, number]>([
    ['CIP_SUBSCRIPTION_KEY', 'wrong-subscription-key-0000', 'subscription key', 3],
    ['CIP_API_KEY', 'wrong-api-key-0123456789', 'API key and enterprise', 3],
    ['CIP_ENTERPRISE_ID', '11111111-2222-4333-8444-555555555555', 'API key and enterprise', 4],
  ])('a wrong %s is named by the right check', async ([variable, value, check, code], { env, cip }) => {
    const result = await cip(['doctor', '--json'], { env: { ...env, [variable]: value } });
    expect(result.exitCode).toBe(code);
    const checks = JSON.parse(result.stdout) as { check: string; status: string; fix?: string }[];
    const failed = checks.filter((entry) => entry.status === 'failed');
    expect(failed.map((entry) => entry.check)).toEqual([check]);
    expect(failed[0]!.fix).toContain(variable);
    expect(expectOneErrorLine(result.stderr)).toMatch(new RegExp(`^error: 1 of 9 checks failed; the first: ${check}: `));
  });

  it('names a ping that fails, and a base URL that is not https', async ({ env, cip, startSandbox }) => {
    const down = await startSandbox({ seed: 0, pingFails: true });
    try {
      const result = await cip(['doctor', '--json'], { env: sandboxEnv(down) });
      expect(result.exitCode).toBe(7);
      const checks = JSON.parse(result.stdout) as { check: string; status: string; detail: string }[];
      expect(checks.find((entry) => entry.check === 'ping')).toMatchObject({
        status: 'failed',
        detail: expect.stringContaining('HTTP 503'),
      });
    } finally {
      await down.close();
    }
    const plain = await cip(['doctor', '--json'], { env: { ...env, CIP_BASE_URL: 'http://example.invalid/ms', CIP_ALLOW_HTTP: '1' } });
    const checks = JSON.parse(plain.stdout) as { check: string; status: string }[];
    expect(checks.find((entry) => entry.check === 'base URL')?.status).toBe('failed');
    expect(plain.exitCode).toBe(2);
  });

  it('without credentials, still checks the network and says what is missing', async ({ sandbox, cip }) => {
    const result = await cip(['doctor', '--json'], { env: { CIP_BASE_URL: sandbox.url } });
    expect(result.exitCode).toBe(3);
    const checks = JSON.parse(result.stdout) as { check: string; status: string }[];
    expect(checks.map((entry) => `${entry.check} ${entry.status}`)).toEqual([
      'credentials failed',
      'base URL ok',
      'DNS ok',
      'TCP ok',
      'TLS skipped',
      'ping ok',
      'subscription key skipped',
      'API key and enterprise skipped',
      'clock ok',
    ]);
  });
});
