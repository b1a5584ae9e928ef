// The retry policy (src/api/step-retry.ts), decision by decision: which answers and failures are asked again and
// after which wait, which attempts may have been carried out, and when a failed write may have happened. The
// waits themselves (ky's) are checked through the client in test/unit/api/http.test.ts and faults.test.ts.
import { describe, expect, it } from 'vitest';
import { BrokenAnswer } from '../../../src/api/chain.js';
import { mayHaveBeenCarriedOut, retryAnswer, retryError, writeMayHaveHappened } from '../../../src/api/step-retry.js';
import { TimedOut } from '../../../src/api/step-timeout.js';

const code = (name: string) => Object.assign(new Error(`connect ${name} 10.0.0.1:443`), { code: name });
/** A CONNECT the proxy refused, as node:https reports it. */
const proxyRefused = (status: number) =>
  Object.assign(new Error(`Failed to establish tunnel to api.test:443 via http://p:3128/: HTTP/1.1 ${status} No`), {
    code: 'ERR_PROXY_TUNNEL',
    statusCode: status,
  });
/** A proxy that closed the connection before it answered the CONNECT. */
const tunnelEnded = Object.assign(new Error('Connection to establish proxy tunnel ended unexpectedly'), { code: 'ERR_PROXY_TUNNEL' });
const eproto = Object.assign(new Error('write EPROTO error:0A00042E:SSL routines:ssl3_read_bytes:tlsv1 alert protocol version:x'), {
  code: 'EPROTO',
});

describe('retryAnswer: after an answer that is not a success', () => {
  it.each([
    // Never again.
    [400, false],
    [401, false],
    [404, false],
    [409, false],
    [413, false],
    [501, false],
    // Again, after the wait ky chooses: what Retry-After says for 429 and 503 (the waits: test/unit/api/http.test.ts).
    [408, undefined],
    [429, undefined],
    [500, undefined],
    [502, undefined],
    [503, undefined],
    [504, undefined],
  ] as const)('%i: %s', (status, decision) => {
    expect(retryAnswer(status)).toBe(decision);
  });
});

describe('retryError: after a failure to get an answer', () => {
  it.each([
    ['a reset connection', code('ECONNRESET'), true],
    ['a refused connection', code('ECONNREFUSED'), true],
    ['a body cut off', Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), true],
    ['a proxy that could not connect (502)', proxyRefused(502), true],
    ['a proxy that hung up before it answered the CONNECT', tunnelEnded, true],
    ['a time-out', new TimedOut('no answer within 30s'), false],
    ['a broken answer', new BrokenAnswer('the API answered with an invalid HTTP status (600)'), false],
    ['a self-signed certificate', code('DEPTH_ZERO_SELF_SIGNED_CERT'), false],
    ['a TLS error', code('ERR_TLS_HANDSHAKE_TIMEOUT'), false],
    ['a TLS version the two sides do not share', eproto, false],
    ['a proxy that asks for credentials (407)', proxyRefused(407), false],
    ['a proxy that refused (403)', proxyRefused(403), false],
  ])('%s: %s', (_what, error, decision) => {
    expect(retryError(error)).toBe(decision);
  });
});

describe('mayHaveBeenCarriedOut: an attempt whose answer was lost', () => {
  it.each([
    ['a 500', { status: 500 }, true],
    ['a 503', { status: 503 }, true],
    ['a 408', { status: 408 }, false],
    ['a 429', { status: 429 }, false],
    ['a reset', { error: code('ECONNRESET') }, true],
    ['a time-out', { error: new TimedOut('no answer within 30s') }, true],
    ['a refused connection', { error: code('ECONNREFUSED') }, false],
    ['an unknown host', { error: code('ENOTFOUND') }, false],
    ['a failed TLS handshake', { error: eproto }, false],
    ['a CONNECT the proxy refused', { error: proxyRefused(502) }, false],
    ['a CONNECT the proxy never answered', { error: tunnelEnded }, false],
    ['a broken answer', { error: new BrokenAnswer('x') }, false],
  ])('%s: %s', (_what, failure, expected) => {
    expect(mayHaveBeenCarriedOut(failure)).toBe(expected);
  });
});

describe('writeMayHaveHappened: the hint for a write that failed', () => {
  const HINT = "the request was sent, so it may have been carried out; check with 'cip env list' before trying again";
  it.each([
    ['POST', code('ECONNRESET'), HINT],
    ['PATCH', new TimedOut('no answer within 30s'), HINT],
    ['POST', proxyRefused(502), undefined],
    ['POST', tunnelEnded, undefined],
    ['POST', code('ECONNREFUSED'), undefined],
    ['POST', eproto, undefined],
    ['PUT', code('ECONNRESET'), undefined],
    ['DELETE', code('ECONNRESET'), undefined],
    ['GET', new TimedOut('no answer within 30s'), undefined],
  ])('%s after %s', (method, error, hint) => {
    expect(writeMayHaveHappened(method, error)).toBe(hint);
  });
});
