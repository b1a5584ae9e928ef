// `cip sandbox`: the offline stand-in for the API, in the foreground until Ctrl-C.
import { InvalidArgumentError } from 'commander';
import { defineCommand } from './define.js';
import { choice, flag, hidden, option, type ValuesOf } from '../cli/options.js';
import { checkEnterpriseId, checkKey } from '../config/validate.js';
import { UsageError } from '../errors.js';
import type { Context } from '../context.js';

const DEFAULT_COUNT = 3;
const MAX_LATENCY_MS = 60_000;
/** How long the token it prints is good for: a working day and then some, with no clock to watch. */
const TOKEN_HOURS = 24;
/** RFC 7518 §3.2: an HS256 key has 256 bits at least; ASP.NET Core refuses a shorter one. */
const MIN_TOKEN_SECRET_LENGTH = 32;

function wholeNumber(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) throw new InvalidArgumentError(`expected a whole number ${min}-${max}`);
    return number;
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return port;
}

const parseCount = wholeNumber(0, 1_000_000);

// No defaultValue where the help text says the default in words: commander would add its own "(default: 0)".
const OPTIONS = {
  port: option('--port <n>', 'port to listen on (default: a free one)', parsePort),
  count: option('--count <n>', `number of sample environments to start with (default: ${DEFAULT_COUNT})`, parseCount),
  // The old name of --count, kept working for scripts, shown nowhere.
  seed: hidden(option('--seed <n>', 'same as --count', parseCount)),
  pageSize: option(
    '--page-size <n>',
    'serve lists at most n environments a page, ?page=2 for the next (default: all in one answer)',
    wholeNumber(1, 1_000_000),
  ),
  paging: choice('--paging <style>', 'how a page and its next link look (default: odata)', ['odata', 'link', 'next']),
  latency: option(
    '--latency <ms>',
    'wait this many milliseconds before every answer, as a distant server would',
    wholeNumber(0, MAX_LATENCY_MS),
  ),
  etags: choice(
    '--etags <style>',
    "how ETags work: strong (the list's tag guards each environment), item (each environment has its own, served on GET by id), odata (item, and @odata.etag on each list item), weak or none (default: strong)",
    ['strong', 'item', 'odata', 'weak', 'none'],
  ),
  failPing: flag('--fail-ping', "answer the anonymous ping with 503, to see 'cip doctor' name it"),
  apiKey: option('--api-key <key>', "the API key the sandbox accepts (default: the sandbox's own)"),
  readOnlyKey: option('--read-only-key <key>', 'the read-only API key it accepts (default: one derived from --api-key)'),
  subscriptionKey: option('--subscription-key <key>', "the subscription key it accepts (default: the sandbox's own)"),
  tokenSecret: option(
    '--token-secret <secret>',
    `the secret Bearer tokens must be signed with, HS256, ${MIN_TOKEN_SECRET_LENGTH} characters or more (default: the sandbox's own)`,
  ),
};

export default defineCommand({
  name: 'sandbox',
  description: 'run an offline sandbox of the API on this machine (Ctrl-C stops it)',
  // Shell lines to eval: no other format.
  outputs: [],
  options: OPTIONS,
  notes:
    'The sandbox answers for one enterprise: the global --enterprise-id chooses it. Keys given here are the\n' +
    "sandbox's own test values, so unlike 'cip auth login' it takes them as options. It also accepts Bearer\n" +
    'tokens (JWTs signed with --token-secret, naming the enterprise in an enterpriseId claim) and prints, as\n' +
    `a comment, a CIP_TOKEN line with one valid for ${TOKEN_HOURS} hours.`,
  examples: [
    'cip sandbox',
    'cip sandbox --port 4010 --count 5',
    'cip sandbox --count 250 --page-size 100 --paging link',
    'cip sandbox --etags item',
    'cip sandbox --enterprise-id 0c6f1f9e-2b1d-4a57-9d0e-6a8b2f4c1d3e --api-key second-api-key-0123456789 --subscription-key second-sub-key-0123456789',
  ],
  run: sandbox,
});

/** What a failed listen means to the user: a port that is taken or not allowed is their input, not a bug. */
export function listenFailure(error: unknown, port: number | undefined): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const hint = 'choose another with --port, or leave --port out to get a free one';
  if (code === 'EADDRINUSE') return new UsageError(`port ${port} is in use`, hint);
  if (code === 'EACCES')
    return new UsageError(`port ${port} may not be opened here (permission denied; ports below 1024 need privileges)`, hint);
  return error;
}

/** The sandbox's settings from the options and the global --enterprise-id, checked as cip checks them elsewhere. */
function settingsOf(ctx: Context, options: ValuesOf<typeof OPTIONS>) {
  if (options.count !== undefined && options.seed !== undefined) {
    throw new UsageError('--seed is the old name of --count; give only --count');
  }
  if (options.paging !== undefined && options.pageSize === undefined) {
    throw new UsageError('--paging needs --page-size', 'without a page size the whole list is one answer');
  }
  const key = (value: string | undefined, what: string, flag: string) => (value === undefined ? undefined : checkKey(value, what, flag));
  const apiKey = key(options.apiKey, 'API key', '--api-key');
  const readOnlyApiKey = key(options.readOnlyKey, 'read-only API key', '--read-only-key');
  if (readOnlyApiKey !== undefined && readOnlyApiKey === apiKey) throw new UsageError('--read-only-key must differ from --api-key');
  const tokenSecret = key(options.tokenSecret, 'token secret', '--token-secret');
  if (tokenSecret !== undefined && tokenSecret.length < MIN_TOKEN_SECRET_LENGTH) {
    throw new UsageError(
      `the token secret from --token-secret has ${tokenSecret.length} characters; HS256 needs ${MIN_TOKEN_SECRET_LENGTH} at least`,
    );
  }
  const enterpriseId = ctx.globals.enterpriseId;
  return {
    port: options.port,
    seed: options.count ?? options.seed ?? DEFAULT_COUNT,
    pageSize: options.pageSize,
    paging: options.paging,
    latencyMs: options.latency,
    etags: options.etags,
    pingFails: options.failPing,
    apiKey,
    readOnlyApiKey,
    subscriptionKey: key(options.subscriptionKey, 'subscription key', '--subscription-key'),
    tokenSecret,
    enterpriseId: enterpriseId === undefined ? undefined : checkEnterpriseId(enterpriseId, '--enterprise-id'),
  };
}

async function sandbox(ctx: Context, options: ValuesOf<typeof OPTIONS>): Promise<void> {
  const settings = settingsOf(ctx, options);
  const { startSandbox } = await import('../sandbox/index.js');
  const server = await startSandbox(settings).catch((error: unknown) => {
    throw listenFailure(error, settings.port);
  });
  const { keys } = server;
  const token = server.token({ expiresIn: TOKEN_HOURS * 3600 });
  // The keys are the sandbox's own test values, not secrets; printing them is the point. Still, CI logs
  // should not teach anyone to paste keys: GitHub Actions masks them.
  for (const key of [keys.apiKey, keys.subscriptionKey, keys.readOnlyApiKey, token]) ctx.io.maskInCI(key);
  ctx.io.stdout.write(
    [
      `export CIP_BASE_URL=${server.url}`,
      `export CIP_API_KEY=${keys.apiKey}`,
      `export CIP_SUBSCRIPTION_KEY=${keys.subscriptionKey}`,
      `export CIP_ENTERPRISE_ID=${keys.enterpriseId}`,
      // A comment: a shell that evaluates these lines keeps to the API key, since cip takes one credential.
      `# export CIP_TOKEN=${token}`,
      '',
    ].join('\n'),
  );
  const paging =
    settings.pageSize === undefined ? '' : `Lists come ${settings.pageSize} to a page (${settings.paging ?? 'odata'} style).\n`;
  const latency = settings.latencyMs ? `Every answer waits ${settings.latencyMs} ms.\n` : '';
  const pingFails = settings.pingFails ? 'The ping answers 503 (--fail-ping).\n' : '';
  ctx.io.info(
    `Sandbox listening on ${server.url} with ${settings.seed} environment(s).\n` +
      paging +
      latency +
      pingFails +
      `A read-only API key (writes get 403): ${keys.readOnlyApiKey}\n` +
      `To use the Bearer token instead (valid ${TOKEN_HOURS} h), unset CIP_API_KEY and export the CIP_TOKEN line.\n` +
      'Paste the lines above into another shell, then try: cip env list. Press Ctrl-C to stop.',
  );
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  ctx.io.info('Sandbox stopped.');
}
