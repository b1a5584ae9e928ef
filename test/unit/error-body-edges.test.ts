// The one-line message cip shows for an error body (src/api/error-body.ts), spelled out exactly for the
// shapes servers send: ProblemDetails with and without titles of their own, validation errors in every
// form ASP.NET and others use, nested errors, HTML pages, plain text, and bodies that only look like JSON.
import { describe, expect, it } from 'vitest';
import { MAX_ERROR_BODY_CHARS, errorMessageFromBody } from '../../src/api/error-body.js';

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
const message = (body: unknown, contentType = JSON_TYPE) => errorMessageFromBody(JSON.stringify(body), contentType);

describe('ProblemDetails, exactly', () => {
  it('drops a reason-phrase title, in any case, before the detail; and a trailing full stop', () => {
    expect(message({ title: 'NOT FOUND', detail: 'No environment e1.' }, PROBLEM_TYPE)).toBe('No environment e1');
    expect(message({ title: 'Unprocessable Entity', detail: 'Port is out of range:' }, PROBLEM_TYPE)).toBe('Port is out of range');
    expect(message({ title: 'Too Many Requests', detail: 'Slow down' }, PROBLEM_TYPE)).toBe('Slow down');
  });

  it('puts the validation errors after the title, in parentheses, fields separated by "; "', () => {
    const body = {
      title: 'One or more validation errors occurred.',
      errors: { Name: ['The Name field is required.'], Port: ['Too low.', 'Not a number.'] },
    };
    expect(message(body, PROBLEM_TYPE)).toBe(
      'One or more validation errors occurred (Name: The Name field is required.; Port: Too low. Not a number.)',
    );
  });

  it('shows whole-body errors ("$" or "") without a field name', () => {
    expect(message({ errors: { '': ['The body is empty.'], $: ['Bad JSON.'] } })).toBe('The body is empty.; Bad JSON.');
  });

  it('reads errors given as one text per field, skips fields with nothing to say', () => {
    expect(message({ errors: { Name: 'required', Port: [], Tags: ['  '], Note: 5 } })).toBe('Name: required');
    expect(message({ title: 'Bad', errors: { Port: [] } })).toBe('Bad');
  });

  it('reads errors given as a list of texts or of objects with a message', () => {
    expect(message({ errors: ['name is taken', { message: 'port is busy' }, { code: 'X' }, 7, null, ' '] })).toBe(
      'name is taken; port is busy',
    );
    expect(message({ title: 'Conflict!', errors: [{ code: 'X' }] })).toBe('Conflict!');
  });

  it('reads errors given as one text, and ignores errors of no known shape', () => {
    expect(message({ errors: 'the name is taken' })).toBe('the name is taken');
    expect(message({ errors: 42 })).toBeUndefined();
    expect(message({ detail: 'Bad input', errors: true })).toBe('Bad input');
  });
});

describe('which field wins', () => {
  it('prefers the title to a message, a message to Message, Message to error_description, and that to error', () => {
    expect(message({ title: 'Title', message: 'msg' })).toBe('Title');
    expect(message({ message: 'msg', Message: 'Msg', error_description: 'desc', error: 'err' })).toBe('msg');
    expect(message({ Message: 'Msg', error_description: 'desc', error: 'err' })).toBe('Msg');
    expect(message({ error_description: 'desc', error: 'err' })).toBe('desc');
    expect(message({ error: { error: { message: 'deep' } } })).toBe('deep');
  });

  it('skips fields that are blank or not text', () => {
    expect(message({ title: '  ', message: 5, Message: '', error: 'err' })).toBe('err');
    expect(message({ error: { code: 'Conflict' } })).toBeUndefined();
    expect(message({ detail: '   ', message: ' spaced out ' })).toBe('spaced out');
  });

  it('keeps a title of its own with the detail, without its full stop; a reason phrase alone without one', () => {
    // Titles end with a full stop ("One or more validation errors occurred."); "occurred.: detail" was shown.
    expect(message({ title: 'Name conflict.', detail: 'Taken.' })).toBe('Name conflict: Taken');
    expect(message({ title: 'Invalid port:', detail: 'Too low' })).toBe('Invalid port: Too low');
    expect(message({ title: 'Not Found' })).toBe('Not Found');
  });
});

describe('bodies that are not JSON objects', () => {
  it('reads the first line of plain text, and a JSON string body whatever the content type says', () => {
    expect(errorMessageFromBody('"quoted text"', 'text/plain')).toBe('quoted text');
    expect(errorMessageFromBody('"unterminated', 'text/plain')).toBe('"unterminated');
    expect(errorMessageFromBody('42', 'text/plain')).toBe('42');
    expect(errorMessageFromBody('plain words')).toBe('plain words');
  });

  it('says nothing for JSON-looking text that holds no message', () => {
    expect(errorMessageFromBody('[1, 2]', 'text/plain')).toBeUndefined();
    expect(errorMessageFromBody('{broken', 'text/plain')).toBeUndefined();
    expect(errorMessageFromBody('[broken')).toBeUndefined();
    expect(errorMessageFromBody('42', JSON_TYPE)).toBeUndefined();
    expect(errorMessageFromBody('   ', 'text/html')).toBeUndefined();
  });

  it('finds an HTML page by its opening tag when the content type does not say', () => {
    for (const start of ['<!DOCTYPE html>', '<HTML>', '<?xml version="1.0"?>', '<head>', '<body>']) {
      expect(errorMessageFromBody(`${start}<title>Down</title>`, 'text/plain')).toBe("an HTML page titled 'Down'");
    }
    expect(errorMessageFromBody('<p>not a page</p>', '')).toBe('<p>not a page</p>');
  });

  it('reads an HTML title with attributes, and says only "an HTML page" when there is none to read', () => {
    expect(errorMessageFromBody('<html><TITLE lang="en"> Gateway Timeout </TITLE></html>', 'text/html')).toBe(
      "an HTML page titled 'Gateway Timeout'",
    );
    expect(errorMessageFromBody('<html><title></title></html>', 'text/html')).toBe('an HTML page');
    expect(errorMessageFromBody('<html><title>never closed', 'text/html')).toBe('an HTML page');
    expect(errorMessageFromBody('<html><title', 'text/html')).toBe('an HTML page');
    expect(errorMessageFromBody('<html><body>no title</body></html>', 'TEXT/HTML')).toBe('an HTML page');
  });

  it('takes an HTML content type over what the body looks like', () => {
    expect(errorMessageFromBody('{"message":"json"}', 'text/html')).toBe('json');
    expect(errorMessageFromBody('{"nothing":1}', 'text/html')).toBe('an HTML page');
  });
});

describe('limits', () => {
  it('cuts a long message to 500 characters, the last an ellipsis', () => {
    const cut = message({ message: 'x'.repeat(5000) })!;
    expect(cut).toBe(`${'x'.repeat(499)}…`);
    expect(message({ message: 'y'.repeat(500) })).toBe('y'.repeat(500));
  });

  it('never reads past 64 KiB of a body', () => {
    expect(MAX_ERROR_BODY_CHARS).toBe(64 * 1024);
    const padded = JSON.stringify({ message: 'fits', pad: 'p'.repeat(MAX_ERROR_BODY_CHARS - 40) });
    expect(padded.length).toBeLessThan(MAX_ERROR_BODY_CHARS);
    expect(errorMessageFromBody(padded, JSON_TYPE)).toBe('fits');
    const long = JSON.stringify({ pad: 'p'.repeat(MAX_ERROR_BODY_CHARS), message: 'beyond' });
    expect(errorMessageFromBody(long, JSON_TYPE)).toBeUndefined();
    expect(errorMessageFromBody(`${' '.repeat(MAX_ERROR_BODY_CHARS)}late text`, 'text/plain')).toBeUndefined();
  });

  it('shows control characters as ? and turns line separators into spaces', () => {
    expect(message({ message: '\u0007\u0008' })).toBe('??');
    expect(errorMessageFromBody('\u2028\u2029 x', 'text/plain')).toBe('x');
  });
});
