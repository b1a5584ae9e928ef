import { PassThrough } from 'node:stream';
import { describe, it, expect } from 'vitest';
import { run } from '../../src/run.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { drain, fakeIO, testContext } from '../helpers/io.js';

describe('cip env create: --field and --raw-field interleaved on the command line', () => {
  // The help promises "each --field and --raw-field in turn (later values win)": check it through the parser.
  it.each([
    [['-f', 'code=text', '-F', 'code=1'], 1],
    [['-F', 'code=1', '-f', 'code=text'], 'text'],
  ])('env create %j stores code %j', async (args, expected) => {
    const sandbox = await startSandbox();
    try {
      const stderr = new PassThrough();
      const io = fakeIO({ stderr });
      const ctx = testContext(
        io,
        {
          CIP_API_KEY: sandbox.keys.apiKey,
          CIP_SUBSCRIPTION_KEY: sandbox.keys.subscriptionKey,
          CIP_ENTERPRISE_ID: sandbox.keys.enterpriseId,
          CIP_CONFIG_DIR: '/nonexistent/cip-test-config',
        },
        '0.0.0',
      );
      const code = await run(['--base-url', sandbox.url, 'env', 'create', '-f', 'name=n', ...args], ctx);
      expect(code, drain(stderr)).toBe(0);
      const stored = [...sandbox.environments.values()];
      expect(stored).toHaveLength(1);
      expect(stored[0]!.code).toStrictEqual(expected);
    } finally {
      await sandbox.close();
    }
  });
});
