// `cip doctor`: which part of the setup is wrong, one check a line, in the order a request meets them: the
// credentials and where each came from (a token's expiry too), the base URL, DNS, TCP (through the proxy, if
// one applies), TLS, the service's anonymous ping, the gateway's verdict on the subscription key, the API's on
// the API key and the enterprise (or on the token), and the clock. Exit 0 when all pass, else the code of the
// first failure.
import { defineCommand } from './define.js';
import type { Context } from '../context.js';
import { DEFAULT_BASE_URL, SECRETS_URL, isLoopbackHost } from '../config/validate.js';
import type { ResolvedSettings } from '../config/credentials/settings.js';
import { describeExpiry, expiryOf } from '../config/token.js';
import {
  credentialName,
  expiredError,
  expiryWarning,
  mainSource,
  pieces,
  tokenOf,
  verdictWords,
} from '../config/credentials/credential.js';
import { ApiError, CipError, InterruptedError, type ExitCodeName } from '../errors.js';
import { OUTPUT_FORMATS } from '../output/format.js';
import { planStyles, writeResult } from '../output/writer.js';
import { maskKey } from '../secrets.js';
import { hideCredentials, oneLine, printable } from '../text/sanitize.js';

type Status = 'ok' | 'failed' | 'warning' | 'skipped';

interface Check {
  check: string;
  status: Status;
  detail: string;
  fix?: string;
  /** The exit code a failure stands for. */
  kind?: ExitCodeName;
}

/** A clock further off than this is worth a warning: tokens and logs elsewhere go wrong. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

function describeSettings(settings: ResolvedSettings): string {
  const chosen = settings.project !== undefined && settings.profileFrom === settings.project ? ` (from ${settings.project})` : '';
  const profile = settings.profile === undefined ? 'no profile' : `profile '${settings.profile}'${chosen}`;
  const described = pieces(settings.credentials, Date.now())
    // The expiry has a check of its own.
    .filter((piece) => piece.source !== undefined)
    .map(({ label, brief, value, secret, source }) => `${brief ?? label} ${secret ? maskKey(value) : value} (from ${source})`);
  return [profile, `base URL ${settings.baseUrl} (from ${settings.sources.baseUrl})`, ...described].join('; ');
}

/** A token's expiry as a check (an API key has none): expired fails (exit 3), within 5 minutes warns. */
function expiryCheck(settings: ResolvedSettings): Check | undefined {
  const token = tokenOf(settings.credentials);
  if (token === undefined) return undefined;
  const now = Date.now();
  const expiry = expiryOf(token.claims, now);
  const check = 'token expiry';
  if (expiry.state === 'unknown') return { check, status: 'skipped', detail: describeExpiry(expiry, now) };
  const expired = expiredError(token, settings.profile, now);
  if (expired) return { check, status: 'failed', detail: expired.message, kind: expired.kind };
  const warning = expiryWarning(token, settings.profile, now);
  if (warning !== undefined) return { check, status: 'warning', detail: warning, fix: 'get a new token before a long command' };
  return { check, status: 'ok', detail: `expires ${describeExpiry(expiry, now)}` };
}

/** The checks so far, and how each is added. */
interface Report {
  checks: Check[];
  fail: (check: string, kind: ExitCodeName, detail: string, fix?: string) => void;
  pass: (check: string, detail: string) => void;
  skip: (check: string, detail: string) => void;
}

function newReport(): Report {
  const checks: Check[] = [];
  return {
    checks,
    fail: (check, kind, detail, fix) => checks.push({ check, status: 'failed', detail, ...(fix ? { fix } : {}), kind }),
    pass: (check, detail) => checks.push({ check, status: 'ok', detail }),
    skip: (check, detail) => checks.push({ check, status: 'skipped', detail }),
  };
}

type Probe = typeof import('../api/probe.js');

async function diagnose(ctx: Context): Promise<Check[]> {
  const report = newReport();
  const { settings, expired } = await credentialsCheck(ctx, report);
  const base = baseUrlCheck(ctx, report, settings);
  if (!base) return report.checks;
  const probe = await import('../api/probe.js');
  if (!(await connectionChecks(ctx, report, base, probe))) return report.checks;
  const pinged = await pingCheck(ctx, report, base, probe);
  const listed = await keysCheck(ctx, report, settings, expired, probe);
  clockCheck(report, listed ?? pinged);
  return report.checks;
}

/** Which credentials a command would use, and a token's expiry. */
async function credentialsCheck(ctx: Context, report: Report): Promise<{ settings: ResolvedSettings | undefined; expired: boolean }> {
  const { fail, pass } = report;
  let settings: ResolvedSettings | undefined;
  let expired = false;
  try {
    settings = await ctx.settings();
    pass('credentials', describeSettings(settings));
    const expiry = expiryCheck(settings);
    if (expiry) report.checks.push(expiry);
    expired = expiry?.status === 'failed';
  } catch (error) {
    if (!(error instanceof CipError) || error instanceof InterruptedError) throw error;
    fail('credentials', error.kind, ctx.redact(error.message), error.hint);
  }

  return { settings, expired };
}

/** The base URL: a URL, without a user name or password, https (or http on this machine). Undefined: stop here. */
function baseUrlCheck(ctx: Context, report: Report, settings: ResolvedSettings | undefined): URL | undefined {
  const { fail, pass } = report;
  const baseText = settings?.baseUrl ?? ctx.globals.baseUrl ?? ctx.env.CIP_BASE_URL ?? DEFAULT_BASE_URL;
  let base: URL;
  try {
    base = new URL(baseText);
  } catch {
    fail(
      'base URL',
      'usage',
      `'${printable(hideCredentials(baseText))}' is not a URL`,
      `set --base-url, CIP_BASE_URL or the profile to ${DEFAULT_BASE_URL}`,
    );
    return undefined;
  }
  if (base.username || base.password) {
    // Refused as a setting too (config/validate.ts): the API takes its keys in headers, and fetch will not send it.
    const shown = hideCredentials(base.href).replace(/\/$/, '');
    fail('base URL', 'usage', `${shown} holds a user name or password`, 'remove the user name and password from the base URL');
    return undefined;
  }
  if (base.protocol === 'https:' || (base.protocol === 'http:' && isLoopbackHost(base.hostname))) {
    pass('base URL', `${base.href.replace(/\/$/, '')}${base.protocol === 'http:' ? ' (http, on this machine)' : ''}`);
  } else {
    fail('base URL', 'usage', `${printable(baseText)} is not https`, 'the keys must travel encrypted: use an https:// base URL');
    // cip speaks nothing but http and https: there is nothing further to check at another scheme's URL.
    if (base.protocol !== 'http:') return undefined;
  }

  return base;
}

/** DNS, TCP and TLS, through the proxy when there is one: false when one failed and nothing further can be checked. */
async function connectionChecks(ctx: Context, report: Report, base: URL, probe: Probe): Promise<boolean> {
  const { fail, pass, skip } = report;
  const proxy = await probe.proxyOf(ctx.env, base, ctx.host.nodeVersion);
  const via = proxy ? new URL(proxy.url.href) : base;
  const port = Number(via.port || (via.protocol === 'https:' ? 443 : 80));
  const through = proxy ? ` (the proxy ${proxy.display}, from ${proxy.variable})` : '';
  const dns = await probe.resolveName(via.hostname);
  if (!dns.ok) {
    fail('DNS', 'network', `${dns.reason}${through}`, proxy ? `check ${proxy.variable}` : 'check the base URL and the network (DNS, VPN)');
    return false;
  }
  pass('DNS', `${dns.detail}${through}`);
  const tcp = await probe.openTcp(via.hostname, port);
  if (!tcp.ok) {
    fail(
      'TCP',
      'network',
      `${tcp.reason}${through}`,
      proxy ? `is the proxy up? check ${proxy.variable}` : 'a firewall, or the wrong host or port',
    );
    return false;
  }
  pass('TCP', `${tcp.detail}${through}`);
  if (base.protocol !== 'https:') skip('TLS', 'http on this machine: no TLS');
  else if (proxy) skip('TLS', 'through the proxy: checked by the ping below');
  else {
    const tls = await probe.verifyTls(base.hostname, Number(base.port || 443));
    if (tls.ok) pass('TLS', tls.detail);
    else {
      const extra = ctx.env.NODE_EXTRA_CA_CERTS;
      fail(
        'TLS',
        'network',
        tls.reason,
        // A handshake that failed before any certificate came has its own fix.
        tls.fix ??
          (extra
            ? `NODE_EXTRA_CA_CERTS is ${printable(extra)}, and it does not hold the certificate that signed this one`
            : "behind a corporate proxy or CA, set NODE_EXTRA_CA_CERTS to the CA's certificate file (PEM)"),
      );
      return false;
    }
  }

  return true;
}

/** The service's ping, without keys; the server's date, when its answer had one. */
async function pingCheck(ctx: Context, report: Report, base: URL, probe: Probe): Promise<Date | undefined> {
  const { fail, pass } = report;
  let serverDate: Date | undefined;
  const pingUrl = `${base.href.replace(/\/$/, '')}/ping`;
  try {
    const answer = await probe.ping(pingUrl, ctx.env, {
      signal: ctx.signal,
      userAgent: `cip/${ctx.version} node/${ctx.host.nodeVersion}`,
      nodeVersion: ctx.host.nodeVersion,
      redact: (text) => ctx.redact(text),
    });
    serverDate = answer.date;
    if (answer.status >= 200 && answer.status < 300) pass('ping', `GET ${pingUrl} without keys: HTTP ${answer.status}`);
    else
      fail(
        'ping',
        'server',
        `GET ${pingUrl} without keys answered HTTP ${answer.status}`,
        'the service is down or the base URL points elsewhere',
      );
  } catch (error) {
    if (!(error instanceof CipError) || error instanceof InterruptedError) throw error;
    fail('ping', error.kind, ctx.redact(error.message), error.hint);
  }

  return serverDate;
}

/** The keys, on a list of environments: the gateway's verdict on the subscription key, then the API's on the credential. */
async function keysCheck(
  ctx: Context,
  report: Report,
  settings: ResolvedSettings | undefined,
  expired: boolean,
  probe: Probe,
): Promise<Date | undefined> {
  const { fail, pass, skip } = report;
  let serverDate: Date | undefined;
  const verdict = settings && verdictWords(settings.credentials);
  if (!settings || !verdict) {
    skip('subscription key', 'no credentials to check');
    skip('API key and enterprise', 'no credentials to check');
  } else if (expired) {
    // An expired token is never sent (exit 3 before any request): the check above said so.
    skip('subscription key', 'the token expired: nothing was sent');
    skip(verdict.check, 'the token expired: nothing was sent');
  } else {
    const { http } = await ctx.http();
    try {
      const answer = await http.exchange('GET', 'Environments', 'list environments');
      serverDate = probe.dateOf(answer.headers.get('date'));
      pass('subscription key', `accepted by the gateway (from ${settings.credentials.sources.subscriptionKey})`);
      pass(verdict.check, `GET Environments: HTTP ${answer.status}; ${verdict.accepted}`);
    } catch (error) {
      if (!(error instanceof CipError) || error instanceof InterruptedError) throw error;
      const message = ctx.redact(error.message);
      const status = error instanceof ApiError ? error.status : undefined;
      const subscriptionSource = settings.credentials.sources.subscriptionKey;
      if (status === undefined) {
        // No HTTP answer came (the network, or an answer that is not what the API sends): neither verdict is known.
        skip('subscription key', 'no verdict from the gateway: see the next check');
        fail(verdict.check, error.kind, message, error.hint);
      } else if (status === 401 && /subscription key/i.test(message)) {
        fail('subscription key', 'auth', message, `check the subscription key (from ${subscriptionSource}); keys are at ${SECRETS_URL}`);
        skip(verdict.check, 'the gateway stopped the request first');
      } else {
        pass('subscription key', `accepted by the gateway (from ${subscriptionSource})`);
        if (status === 401)
          fail(
            verdict.check,
            'auth',
            message,
            `check the ${credentialName(settings.credentials)} (from ${mainSource(settings.credentials)})`,
          );
        else if (status === 403) fail(verdict.check, 'forbidden', message, verdict.forbidden);
        else fail(verdict.check, error.kind, message, error.hint);
      }
    }
  }

  return serverDate;
}

/** This machine's clock against the server's date. */
function clockCheck(report: Report, serverDate: Date | undefined): void {
  const { pass, skip } = report;
  if (serverDate) {
    const skew = Date.now() - serverDate.getTime();
    const seconds = Math.round(Math.abs(skew) / 1000);
    if (Math.abs(skew) <= MAX_CLOCK_SKEW_MS) pass('clock', `within ${Math.max(seconds, 1)} s of the server's`);
    else
      report.checks.push({
        check: 'clock',
        status: 'warning',
        detail: `${seconds} s ${skew > 0 ? 'ahead of' : 'behind'} the server's`,
        fix: 'set the clock right (NTP)',
      });
  } else skip('clock', 'the server sent no Date header');
}

const MARKS: Record<Status, string> = { ok: '✓', failed: '✗', warning: '!', skipped: '-' };

export default defineCommand({
  name: 'doctor',
  description: 'check the setup, step by step, and say which part is wrong',
  outputs: OUTPUT_FORMATS,
  notes: `Checks, in order: the credentials (and where each value came from, keys masked), a token's expiry (expired
fails, within 5 minutes warns), the base URL, DNS and TCP (to the proxy when one applies), TLS, the service's
anonymous ping, the subscription key (APIM's verdict), the API key and enterprise id or the token (GET
Environments), and the clock against the server's. Exit 0 when all pass, else the code of the first failure; a
clock more than 5 minutes off is a warning. -o json gives the checks as an array.`,
  examples: ['cip doctor', 'cip doctor --profile prod', 'cip doctor -o json | jq -r \'.[] | select(.status == "failed") | .fix\''],
  async run(ctx) {
    const checks = await diagnose(ctx);
    await writeResult(
      ctx.io,
      checks.map(({ kind: _kind, ...check }) => check),
      async () => {
        const styles = await planStyles(ctx.io, ctx.io.stdoutIsTTY);
        const paint = { ok: styles.add, failed: styles.remove, warning: styles.change, skipped: (text: string) => text };
        return checks.flatMap(({ check, status, detail, fix }) => [
          paint[status](`${MARKS[status]} ${check}: ${oneLine(detail)}`),
          ...(fix && status !== 'ok' ? [`    fix: ${oneLine(fix)}`] : []),
        ]);
      },
    );
    const failed = checks.filter((check) => check.status === 'failed');
    const first = failed[0];
    if (first?.kind !== undefined) {
      throw new CipError(
        first.kind,
        `${failed.length} of ${checks.length} checks failed; the first: ${first.check}: ${oneLine(first.detail)}`,
      );
    }
    ctx.io.info('All checks passed.');
  },
});
