import { describe, it, expect } from 'vitest';
import { errorMessageFromBody } from '../../src/api/error-body.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

describe('errorMessageFromBody', () => {
  it('shows the APIM gateway message', () => {
    const body = JSON.stringify({
      statusCode: 401,
      message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
    });
    const message = errorMessageFromBody(body, JSON_TYPE);
    expect(message).toContain('Access denied due to missing subscription key');
    expect(message).not.toContain('401');
    expect(message).not.toContain('{');
  });

  it('shows a ProblemDetails detail rather than the bare title', () => {
    const body = JSON.stringify({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
      title: 'Not Found',
      status: 404,
      detail: "Environment '7d1c' was not found.",
      traceId: '00-abc-def-00',
    });
    const message = errorMessageFromBody(body, PROBLEM_TYPE);
    expect(message).toContain("Environment '7d1c' was not found");
    expect(message).not.toMatch(/^Not Found$/);
    expect(message).not.toContain('traceId');
    expect(message).not.toContain('rfc9110');
  });

  it('keeps a ProblemDetails title of its own before the detail', () => {
    const body = JSON.stringify({ title: 'Name conflict', status: 409, detail: 'An environment named prod exists.' });
    expect(errorMessageFromBody(body, 'application/problem+json')).toBe('Name conflict: An environment named prod exists');
  });

  it('shows a ProblemDetails title when there is no detail', () => {
    const body = JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403 });
    expect(errorMessageFromBody(body, PROBLEM_TYPE)).toBe('Forbidden');
  });

  it('lists ProblemDetails validation errors with their field names', () => {
    const body = JSON.stringify({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { Name: ['The Name field is required.'], Port: ['Port must be between 1 and 65535.'] },
    });
    const message = errorMessageFromBody(body, PROBLEM_TYPE)!;
    expect(message).toContain('One or more validation errors occurred');
    expect(message).toContain('Name: The Name field is required.');
    expect(message).toContain('Port: Port must be between 1 and 65535.');
  });

  it('shows a "$" (whole body) validation error without the "$" name', () => {
    const body = JSON.stringify({
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { $: ["'n' is an invalid start of a value. Path: $ | LineNumber: 0 | BytePositionInLine: 0."] },
    });
    const message = errorMessageFromBody(body, PROBLEM_TYPE)!;
    expect(message).toContain("'n' is an invalid start of a value");
    expect(message).not.toMatch(/\$:/);
  });

  it('shows errors alone when there is no title or detail', () => {
    const body = JSON.stringify({ errors: { Name: ['required'] } });
    expect(errorMessageFromBody(body, JSON_TYPE)).toBe('Name: required');
  });

  it.each([
    ['{message}', { message: 'Environment name already exists' }, 'Environment name already exists'],
    ['{Message}', { Message: 'An error has occurred' }, 'An error has occurred'],
    ['{error: string}', { error: 'invalid_request' }, 'invalid_request'],
    ['{error: {code, message}}', { error: { code: 'Conflict', message: 'Name is taken' } }, 'Name is taken'],
    ['{error_description}', { error: 'invalid_grant', error_description: 'The key has expired' }, 'The key has expired'],
  ])('reads a %s body', (_shape, body, expected) => {
    expect(errorMessageFromBody(JSON.stringify(body), JSON_TYPE)).toContain(expected);
  });

  it('reads a body that is a JSON string', () => {
    expect(errorMessageFromBody('"Service temporarily unavailable"', JSON_TYPE)).toBe('Service temporarily unavailable');
  });

  it.each([
    ['text/plain', 'Bad gateway\nupstream timed out'],
    ['', '\n\n  Bad gateway  \nmore'],
    ['text/plain; charset=utf-8', '\r\nBad gateway\r\n'],
  ])('takes the first non-empty line of a plain-text body (%j)', (contentType, body) => {
    expect(errorMessageFromBody(body, contentType)).toBe('Bad gateway');
  });

  it.each([
    ['text/html', '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502</h1><p>nginx</p></body></html>'],
    ['', '<html><head><title>502 Bad Gateway</title></head><body><script>x()</script></body></html>'],
  ])('mentions the title of an HTML page (%j) and never its markup', (contentType, body) => {
    const message = errorMessageFromBody(body, contentType)!;
    expect(message).toContain('502 Bad Gateway');
    expect(message).not.toMatch(/[<>]/);
    expect(message).not.toContain('nginx');
    expect(message).not.toContain('script');
  });

  it('describes an HTML page without a title without showing markup', () => {
    const message = errorMessageFromBody('<html><body><h1>Oops</h1></body></html>', 'text/html');
    expect(message).toBeDefined();
    expect(message).not.toMatch(/[<>]/);
  });

  it.each([[''], ['   '], ['\n\t\r\n']])('returns undefined for an empty body %j', (body) => {
    expect(errorMessageFromBody(body, JSON_TYPE)).toBeUndefined();
    expect(errorMessageFromBody(body, 'text/plain')).toBeUndefined();
    expect(errorMessageFromBody(body)).toBeUndefined();
  });

  it.each([['{not json'], ['{"message": "cut off'], ['[1,2']])('returns undefined for invalid JSON %j with a JSON content type', (body) => {
    expect(errorMessageFromBody(body, JSON_TYPE)).toBeUndefined();
    expect(errorMessageFromBody(body, PROBLEM_TYPE)).toBeUndefined();
  });

  it.each([['{}'], ['[]'], ['{"statusCode":500}'], ['null'], ['""']])('returns undefined for JSON %j that carries no message', (body) => {
    expect(errorMessageFromBody(body, JSON_TYPE)).toBeUndefined();
  });

  it.each([
    ['JSON message', JSON.stringify({ message: 'bad \u001b[31mred\u001b[0m \u0007bell\nnext\u009bline' }), JSON_TYPE],
    ['plain text', 'evil \u001b]0;pwned\u0007 title \u001b[2J', 'text/plain'],
    ['ProblemDetails errors', JSON.stringify({ title: 'x\u001b[1m', errors: { 'F\u001bield': ['m\u001b[0m'] } }), PROBLEM_TYPE],
    ['HTML title', '<html><head><title>\u001b[31mError</title></head></html>', 'text/html'],
  ])('removes control characters and ANSI escapes (%s)', (_name, body, contentType) => {
    const message = errorMessageFromBody(body, contentType)!;
    expect(message).toBeDefined();

    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(message).not.toContain('\u001b');
  });

  it('keeps the message on one line', () => {
    const message = errorMessageFromBody(JSON.stringify({ detail: 'first\nsecond\r\nthird' }), PROBLEM_TYPE)!;
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).toContain('first');
    expect(message).toContain('third');
  });

  it.each([
    ['JSON', JSON.stringify({ message: 'x'.repeat(5000) }), JSON_TYPE],
    ['plain text', 'y'.repeat(5000), 'text/plain'],
    [
      'validation errors',
      JSON.stringify({ errors: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`F${i}`, ['is required and must be valid']])) }),
      PROBLEM_TYPE,
    ],
  ])('truncates a very long %s message to at most 500 characters', (_name, body, contentType) => {
    const message = errorMessageFromBody(body, contentType)!;
    expect(message.length).toBeGreaterThan(100);
    expect(message.length).toBeLessThanOrEqual(500);
  });

  it('does not truncate a message of ordinary length', () => {
    const text = 'z'.repeat(300);
    expect(errorMessageFromBody(JSON.stringify({ message: text }), JSON_TYPE)).toBe(text);
  });
});
