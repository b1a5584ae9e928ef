// The request path's shared pieces (src/api/chain.ts): the headers a request goes out with, and the status check
// that makes an answer no API sends a broken answer.
import { describe, expect, it } from 'vitest';
import { BrokenAnswer, headersToSend, httpStatusOnly, type Outgoing, type RawAnswer } from '../../../src/api/chain.js';

const request: Outgoing = {
  method: 'GET',
  url: 'http://api.test/ms',
  headers: new Headers(),
  body: undefined,
  signal: new AbortController().signal,
};
const answering = (status: number) => () =>
  Promise.resolve<RawAnswer>({ status, statusText: '', httpVersion: '1.1', headers: new Headers(), body: null });

describe('headersToSend', () => {
  it('asks for the codings cip decodes, and gives the length of a body', () => {
    expect(headersToSend(new Headers({ Accept: 'application/json' }), new Uint8Array(7))).toEqual({
      'accept-encoding': 'gzip, deflate, br',
      accept: 'application/json',
      'content-length': '7',
    });
    expect(headersToSend(new Headers(), undefined)).toEqual({ 'accept-encoding': 'gzip, deflate, br' });
  });
});

describe('httpStatusOnly', () => {
  it.each([200, 204, 302, 404, 599])('passes %i on', async (status) => {
    expect((await httpStatusOnly(answering(status))(request)).status).toBe(status);
  });

  it.each([0, 101, 199, 600, 999])('refuses %i as a broken answer', async (status) => {
    await expect(httpStatusOnly(answering(status))(request)).rejects.toThrow(
      new BrokenAnswer(`the API answered with an invalid HTTP status (${status})`),
    );
  });
});
