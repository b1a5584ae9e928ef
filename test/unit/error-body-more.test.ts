// More error bodies (src/api/error-body.ts): validation errors that are null, a string or keyed by '$', titles
// with a full stop inside, HTML without a usable <title>, and text that only mentions HTML or looks like JSON.
import { describe, expect, it } from 'vitest';
import { errorMessageFromBody } from '../../src/api/error-body.js';

const JSON_TYPE = 'application/json';

describe('validation errors in odd shapes', () => {
  it.each([
    ['a null among the messages is skipped', { title: 'Rejected', errors: [null, 'name is taken'] }, 'Rejected (name is taken)'],
    ['errors that are null are no errors', { title: 'Name conflict', errors: null }, 'Name conflict'],
    ['errors that are one string', { title: 'Rejected', errors: 'name is taken' }, 'Rejected (name is taken)'],
    [
      "errors for the whole body ('$') carry no field name",
      { errors: { $: ['the body is not JSON.', 'see line 2'] } },
      'the body is not JSON. see line 2',
    ],
    ["errors for '' carry no field name either", { errors: { '': ['empty body'], name: ['too long'] } }, 'empty body; name: too long'],
  ])('%s', (_name, body, expected) => {
    expect(errorMessageFromBody(JSON.stringify(body), JSON_TYPE)).toBe(expected);
  });
});

describe('titles, details and messages', () => {
  it.each([
    ['a full stop inside its own title stays', { title: 'Version 1.2 refused', detail: 'use 2.0.' }, 'Version 1.2 refused: use 2.0'],
    ['a trailing full stop or colon of a lone message goes', { message: 'Quota exceeded.' }, 'Quota exceeded'],
    ['so does one of a lone detail', { detail: 'Try later:' }, 'Try later'],
    ['and one of a nested error', { error: { message: 'Backend down.' } }, 'Backend down'],
  ])('%s', (_name, body, expected) => {
    expect(errorMessageFromBody(JSON.stringify(body), JSON_TYPE)).toBe(expected);
  });
});

describe('HTML and text', () => {
  it.each([
    ['a page without a <title> is not titled by other text', '<html>Gateway down</html>', 'text/html', 'an HTML page'],
    ['an unclosed <title at the end names nothing', 'Oops <title', 'text/html', 'an HTML page'],
    ['a <title tag with a stray < still gives its text', '<title<>Maintenance</title>', 'text/html', "an HTML page titled 'Maintenance'"],
    [
      'the title is found past other tags',
      '<!doctype html><head><title> Bad gateway </title></head>',
      '',
      "an HTML page titled 'Bad gateway'",
    ],
    ['text that mentions a tag later is text', 'Error: see <html> for details', 'text/plain', 'Error: see <html> for details'],
    ['text that starts like JSON but is not is no message', '{not json at all', 'text/plain', undefined],
    [
      'a JSON body with no message under a JSON type is no message, whatever else the type says',
      '{"code":7}',
      'application/vnd.html-report+json',
      undefined,
    ],
    ['a number under a text type is its text', '42', 'text/plain', '42'],
  ])('%s', (_name, body, contentType, expected) => {
    expect(errorMessageFromBody(body, contentType)).toBe(expected);
  });
});
