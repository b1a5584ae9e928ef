// The log step (--verbose): a line for each attempt and its answer or failure, the headers both ways with
// credentials masked (api/shown-header.ts), and both bodies redacted whole and cut. It sits below the retry
// policy, so every attempt is logged as it went out; the retry policy adds its own line between attempts.
import { decodeText } from '../text/charset.js';
import { oneLine, truncate } from '../text/sanitize.js';
import { BrokenAnswer, headersToSend, type Layer } from './chain.js';
import { networkReason } from './network-errors.js';
import type { ProxyChoice } from './proxy.js';
import { shownHeader } from './shown-header.js';

/** How much of a body --verbose shows: the rest is cut, with its size said. */
const VERBOSE_BODY_CHARS = 2000;

/**
 * A body for --verbose, read as its Content-Type says (what cip sends is UTF-8: null): redacted whole, before it
 * is cut, so a key at the cut cannot show in part.
 */
function bodyForLog(body: Uint8Array, contentType: string | null, redact: (text: string) => string): string {
  const { text } = decodeText(body, contentType);
  const redacted = redact(text);
  return oneLine(
    redacted.length > VERBOSE_BODY_CHARS ? `${redacted.slice(0, VERBOSE_BODY_CHARS)}… (${text.length} characters in all)` : redacted,
  );
}

export function logged(log: (line: string) => void, redact: (text: string) => string, proxy: ProxyChoice | undefined): Layer {
  const through = proxy ? ` (through the proxy ${proxy.display}, from ${proxy.variable})` : '';
  return (next) => async (request) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    log(`> ${request.method} ${request.url}${through}`);
    for (const [name, value] of Object.entries(headersToSend(request.headers, request.body)))
      log(`>   ${name}: ${shownHeader(name, value, redact)}`);
    if (request.body) log(`>   body: ${bodyForLog(request.body, null, redact)}`);
    try {
      const answer = await next(request);
      const reason = oneLine(answer.statusText);
      const size = answer.body?.byteLength ?? 0;
      log(`< ${answer.status}${reason ? ` ${truncate(reason, 80)}` : ''} (${elapsed()} ms, ${size} bytes)`);
      for (const [name, value] of answer.headers) log(`<   ${name}: ${shownHeader(name, value, redact)}`);
      if (answer.body?.byteLength) log(`<   body: ${bodyForLog(answer.body, answer.headers.get('content-type'), redact)}`);
      return answer;
    } catch (error) {
      log(`< failed after ${elapsed()} ms: ${error instanceof BrokenAnswer ? error.message : networkReason(error)}`);
      throw error;
    }
  };
}
