// The message cip takes from an error body, case by case: each row sits on one rule of error-body.ts.
import { describe, expect, it } from 'vitest';
import { errorMessageFromBody } from '../../src/api/error-body.js';

const JSON_TYPE = 'application/json';
const PROBLEM = 'application/problem+json';

describe('errorMessageFromBody', () => {
  it.each([
    // ProblemDetails validation errors, in each shape ASP.NET and others send them
    [
      'errors as a list of strings',
      '{"title":"One or more validation errors occurred.","errors":["a"," b ",""]}',
      PROBLEM,
      'One or more validation errors occurred (a; b)',
    ],
    ['errors as a list of {message}', '{"errors":[{"message":"first"},{"message":" "},{"code":1},3,"second"]}', JSON_TYPE, 'first; second'],
    [
      'errors by field',
      '{"errors":{"Name":["required"," "],"$":["bad json"],"":["top"],"Tags":"too many"}}',
      PROBLEM,
      'Name: required; bad json; top; Tags: too many',
    ],
    ['errors as one string', '{"title":"Bad","errors":"boom"}', PROBLEM, 'Bad (boom)'],
    ['errors with nothing in them', '{"title":"Conflict.","errors":{"Name":[" "]}}', PROBLEM, 'Conflict'],
    ['only empty errors', '{"errors":[]}', PROBLEM, undefined],
    // titles and details
    [
      'an own title before the detail',
      '{"title":"Name conflict","detail":"already exists.","status":409}',
      PROBLEM,
      'Name conflict: already exists',
    ],
    ['a reason-phrase title is left out', '{"title":"Not Found","detail":"no such environment"}', PROBLEM, 'no such environment'],
    ['a title alone', '{"title":"Too busy:"}', PROBLEM, 'Too busy'],
    ['blank fields are no message', '{"title":"  ","message":""}', JSON_TYPE, undefined],
    ['message', '{"message":"m1"}', JSON_TYPE, 'm1'],
    ['Message', '{"Message":"m2"}', JSON_TYPE, 'm2'],
    ['error_description', '{"error_description":"m3"}', JSON_TYPE, 'm3'],
    ['error as a string', '{"error":"m4"}', JSON_TYPE, 'm4'],
    ['error as {message}', '{"error":{"message":"m5"}}', JSON_TYPE, 'm5'],
    ['error as a list', '{"error":["m6"]}', JSON_TYPE, undefined],
    ['a JSON string', '"quoted message"', JSON_TYPE, 'quoted message'],
    ['a JSON list', '[1,2]', 'text/plain', undefined],
    ['JSON that does not parse, said to be JSON', '{"message":', JSON_TYPE, undefined],
    ['JSON that does not parse, said to be text', '{"message":', 'text/plain', undefined],
    // text and HTML
    ['plain text: the first non-blank line', '\n  \nService down\nsecond line', 'text/plain', 'Service down'],
    ['text said to be JSON', 'Service down', JSON_TYPE, undefined],
    ['text without a type', 'Gateway says no', '', 'Gateway says no'],
    ['an HTML page by its type', '<div><title>Bad Gateway</title></div>', 'text/html', "an HTML page titled 'Bad Gateway'"],
    ['an HTML page by its start', '<!DOCTYPE html><html><head><title> Oops </title></head></html>', '', "an HTML page titled 'Oops'"],
    ['a title at the very start', '<title>First</title>', 'text/html', "an HTML page titled 'First'"],
    ['a title that never closes', '<html><title>Unclosed', 'text/html', 'an HTML page'],
    ['a title tag that never ends', '<html><title', 'text/html', 'an HTML page'],
    ['no title', '<html><body>x</body></html>', 'text/html', 'an HTML page'],
    ['nothing', '   ', JSON_TYPE, undefined],
  ])('%s', (_name, body, type, expected) => {
    expect(errorMessageFromBody(body, type)).toBe(expected);
  });

  it('reads no further than 64 KiB', () => {
    expect(errorMessageFromBody(`${'\n'.repeat(64 * 1024)}late message`, 'text/plain')).toBeUndefined();
    expect(errorMessageFromBody(`${'\n'.repeat(1024)}early message`, 'text/plain')).toBe('early message');
  });

  it('cuts a long message to 500 characters and keeps it on one line, controls replaced', () => {
    const message = errorMessageFromBody(JSON.stringify({ message: `a\u001b[31m\nb ${'x'.repeat(600)}` }), JSON_TYPE)!;
    expect(message).toHaveLength(500);
    expect(message.startsWith('a?[31m b x')).toBe(true);
    expect(message.endsWith('…')).toBe(true);
  });
});
