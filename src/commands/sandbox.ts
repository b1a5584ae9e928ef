// `cip sandbox`: the offline stand-in for the API, in the foreground until Ctrl-C.
import type { Context } from '../context.js';

export interface SandboxCommandOptions {
  port: number;
  seed: number;
}

export async function sandbox(ctx: Context, options: SandboxCommandOptions): Promise<void> {
  const { startSandbox } = await import('../sandbox/index.js');
  const server = await startSandbox({ port: options.port, seed: options.seed });
  const { keys } = server;
  // The keys are the sandbox's own fixed values, not secrets; printing them is the point. Still, CI logs
  // should not teach anyone to paste keys: GitHub Actions masks them.
  for (const key of [keys.apiKey, keys.subscriptionKey, keys.readOnlyApiKey]) ctx.maskInCI(key);
  ctx.io.stdout.write(
    [
      `export CIP_BASE_URL=${server.url}`,
      `export CIP_API_KEY=${keys.apiKey}`,
      `export CIP_SUBSCRIPTION_KEY=${keys.subscriptionKey}`,
      `export CIP_ENTERPRISE_ID=${keys.enterpriseId}`,
      '',
    ].join('\n'),
  );
  ctx.info(
    `Sandbox listening on ${server.url} with ${options.seed} environment(s).\n` +
      `A read-only API key (writes get 403): ${keys.readOnlyApiKey}\n` +
      'Paste the lines above into another shell, then try: cip env list. Press Ctrl-C to stop.',
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  ctx.info('Sandbox stopped.');
}
