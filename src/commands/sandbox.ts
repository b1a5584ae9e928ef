// `cip sandbox`: the offline stand-in for the API, in the foreground until Ctrl-C.
import { InvalidArgumentError } from 'commander';
import { defineCommand } from './define.js';
import { option, type ValuesOf } from '../cli/options.js';
import type { Context } from '../context.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return port;
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > 1_000_000) throw new InvalidArgumentError('expected a whole number 0-1000000');
  return count;
}

const OPTIONS = {
  port: option('--port <n>', 'port to listen on (default: a free one)', parsePort, 0),
  seed: option('--seed <n>', 'number of sample environments to start with', parseCount, 3),
};

export default defineCommand({
  name: 'sandbox',
  description: 'run an offline sandbox of the API on this machine (Ctrl-C stops it)',
  options: OPTIONS,
  examples: ['cip sandbox', 'cip sandbox --port 4010 --seed 5'],
  run: sandbox,
});

async function sandbox(ctx: Context, options: ValuesOf<typeof OPTIONS>): Promise<void> {
  const { startSandbox } = await import('../sandbox/index.js');
  const server = await startSandbox({ port: options.port, seed: options.seed });
  const { keys } = server;
  // The keys are the sandbox's own fixed values, not secrets; printing them is the point. Still, CI logs
  // should not teach anyone to paste keys: GitHub Actions masks them.
  for (const key of [keys.apiKey, keys.subscriptionKey, keys.readOnlyApiKey]) ctx.io.maskInCI(key);
  ctx.io.stdout.write(
    [
      `export CIP_BASE_URL=${server.url}`,
      `export CIP_API_KEY=${keys.apiKey}`,
      `export CIP_SUBSCRIPTION_KEY=${keys.subscriptionKey}`,
      `export CIP_ENTERPRISE_ID=${keys.enterpriseId}`,
      '',
    ].join('\n'),
  );
  ctx.io.info(
    `Sandbox listening on ${server.url} with ${options.seed} environment(s).\n` +
      `A read-only API key (writes get 403): ${keys.readOnlyApiKey}\n` +
      'Paste the lines above into another shell, then try: cip env list. Press Ctrl-C to stop.',
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  ctx.io.info('Sandbox stopped.');
}
