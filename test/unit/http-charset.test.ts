// The HTTP client (api/http.ts) and text that is not UTF-8: an answer is parsed as its charset says; a read it
// could not read exactly is said once (warn) and turns every later write of the client into an InexactReadError
// (exit 7) before anything is sent. Over a scripted transport: what was sent is exactly what the script saw.
import { describe, expect, it } from 'vitest';
import type { Outgoing, RawAnswer } from '../../src/api/chain.js';
import { createHttp } from '../../src/api/http.js';
import { InexactReadError, ProtocolError } from '../../src/errors.js';
import { caught } from '../helpers/errors.js';

const LATIN1_LIST = Buffer.from('[{"id":"a1","owner":"José"}]', 'latin1');

function answer(status: number, body: Uint8Array, contentType: string): RawAnswer {
  return { status, statusText: '', httpVersion: '1.1', headers: new Headers({ 'content-type': contentType }), body: new Uint8Array(body) };
}

async function client(script: RawAnswer[]) {
  const sent: Outgoing[] = [];
  const warnings: string[] = [];
  const http = await createHttp({
    baseUrl: 'http://api.test/ms',
    headers: {},
    timeout: 30,
    signal: new AbortController().signal,
    redact: (text) => text,
    warn: (message) => warnings.push(message),
    transport: (request) => {
      sent.push(request);
      return Promise.resolve(script.shift() ?? answer(200, new Uint8Array(), 'application/json'));
    },
  });
  return { http, sent, warnings };
}

describe('an answer in another charset', () => {
  it('is parsed as its charset says, and a write after it goes out', async () => {
    const { http, sent, warnings } = await client([answer(200, LATIN1_LIST, 'application/json; charset=ISO-8859-1')]);
    expect(await http.request('GET', 'Environments', 'list environments')).toEqual([{ id: 'a1', owner: 'José' }]);
    await http.request('PUT', 'Environments/a1', 'update a1', { id: 'a1', owner: 'José' });
    expect(Buffer.from(sent[1]!.body!).toString('hex')).toBe(Buffer.from('{"id":"a1","owner":"José"}', 'utf8').toString('hex'));
    expect(sent[1]!.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(warnings).toEqual([]);
  });

  it('not valid for what it claims: shown with one warning, and every later write refused before it is sent', async () => {
    const bad = answer(200, LATIN1_LIST, 'application/json');
    const { http, sent, warnings } = await client([bad, bad]);
    expect(await http.request('GET', 'Environments', 'list environments')).toEqual([{ id: 'a1', owner: 'Jos\ufffd' }]);
    expect(await http.request('GET', 'Environments', 'list environments')).toEqual([{ id: 'a1', owner: 'Jos\ufffd' }]);
    expect(warnings).toEqual([
      "cip could not read the API's answer to list environments exactly (it is not valid UTF-8, and its Content-Type names no charset): it is shown as well as cip can, and this run writes nothing back",
    ]);
    for (const [method, body] of [
      ['PUT', { id: 'a1' }],
      ['POST', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const error = await caught(http.request(method, 'Environments/a1', `${method} a1`, body), InexactReadError);
      expect(error).toMatchObject({
        exitCode: 7,
        message: `cannot ${method} a1: cip could not read the API's answer to list environments exactly (it is not valid UTF-8, and its Content-Type names no charset), and would send back text it could not read`,
        hint: 'nothing was sent; the API must send UTF-8, or name the charset it sends in its Content-Type',
      });
    }
    expect(sent.map((request) => request.method)).toEqual(['GET', 'GET']);
  });

  it("a write's own answer read inexactly refuses nothing after it: only what was read is sent back", async () => {
    const { http, sent, warnings } = await client([answer(200, LATIN1_LIST, 'application/json')]);
    await http.request('PUT', 'Environments/a1', 'update a1', { id: 'a1' });
    await http.request('PUT', 'Environments/b2', 'update b2', { id: 'b2' });
    expect(sent.map((request) => request.method)).toEqual(['PUT', 'PUT']);
    expect(warnings).toHaveLength(1);
  });

  it('a body that is not JSON says what was wrong with its text too', async () => {
    const { http } = await client([answer(200, Buffer.from('{"a":"b"}', 'utf16le').subarray(1), 'application/json; charset=utf-16le')]);
    const error = await caught(http.request('GET', 'Environments', 'list environments'), ProtocolError);
    expect(error.message).toBe(
      "cannot list environments: the API answered HTTP 200 with a body that is not valid JSON (it is not valid 'utf-16le', the charset its Content-Type names)",
    );
  });
});
