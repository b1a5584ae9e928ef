// The one-line message cip shows for an error body (src/api/error-body.ts), spelled out exactly for the
// shapes servers send: ProblemDetails with and without titles of their own, validation errors in every
// form ASP.NET and others use (also null, a string or keyed by '$'), nested errors, HTML pages (with and
// without a usable <title>), plain text, and bodies that only look like JSON; row by row, each rule of
// error-body.ts; and, for bodies of any shape (fast-check), one clean, bounded line.
import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { errorMessageFromBody, MAX_ERROR_BODY_CHARS } from '../../../src/api/error-body.js';
import { oneLine } from '../../../src/text/sanitize.js';
import { CONTROL, holds, huge, json, nasty } from '../../helpers/arbitraries.js';

const JSON_UTF8 = 'application/json; charset=utf-8';
const PROBLEM_UTF8 = 'application/problem+json; charset=utf-8';

describe('errorMessageFromBody', () => {
  it('shows the APIM gateway message', () => {
    const body = JSON.stringify({
      statusCode: 401,
      message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
    });
    const message = errorMessageFromBody(body, JSON_UTF8);
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
    const message = errorMessageFromBody(body, PROBLEM_UTF8);
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
    expect(errorMessageFromBody(body, PROBLEM_UTF8)).toBe('Forbidden');
  });

  it('lists ProblemDetails validation errors with their field names', () => {
    const body = JSON.stringify({
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { Name: ['The Name field is required.'], Port: ['Port must be between 1 and 65535.'] },
    });
    const message = errorMessageFromBody(body, PROBLEM_UTF8)!;
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
    const message = errorMessageFromBody(body, PROBLEM_UTF8)!;
    expect(message).toContain("'n' is an invalid start of a value");
    expect(message).not.toMatch(/\$:/);
  });

  it('shows errors alone when there is no title or detail', () => {
    const body = JSON.stringify({ errors: { Name: ['required'] } });
    expect(errorMessageFromBody(body, JSON_UTF8)).toBe('Name: required');
  });

  it.each([
    ['{message}', { message: 'Environment name already exists' }, 'Environment name already exists'],
    ['{Message}', { Message: 'An error has occurred' }, 'An error has occurred'],
    ['{error: string}', { error: 'invalid_request' }, 'invalid_request'],
    ['{error: {code, message}}', { error: { code: 'Conflict', message: 'Name is taken' } }, 'Name is taken'],
    ['{error_description}', { error: 'invalid_grant', error_description: 'The key has expired' }, 'The key has expired'],
  ])('reads a %s body', (_shape, body, expected) => {
    expect(errorMessageFromBody(JSON.stringify(body), JSON_UTF8)).toContain(expected);
  });

  it('reads a body that is a JSON string', () => {
    expect(errorMessageFromBody('"Service temporarily unavailable"', JSON_UTF8)).toBe('Service temporarily unavailable');
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
    expect(errorMessageFromBody(body, JSON_UTF8)).toBeUndefined();
    expect(errorMessageFromBody(body, 'text/plain')).toBeUndefined();
    expect(errorMessageFromBody(body)).toBeUndefined();
  });

  it.each([['{not json'], ['{"message": "cut off'], ['[1,2']])('returns undefined for invalid JSON %j with a JSON content type', (body) => {
    expect(errorMessageFromBody(body, JSON_UTF8)).toBeUndefined();
    expect(errorMessageFromBody(body, PROBLEM_UTF8)).toBeUndefined();
  });

  it.each([['{}'], ['[]'], ['{"statusCode":500}'], ['null'], ['""']])('returns undefined for JSON %j that carries no message', (body) => {
    expect(errorMessageFromBody(body, JSON_UTF8)).toBeUndefined();
  });

  it.each([
    ['JSON message', JSON.stringify({ message: 'bad \u001b[31mred\u001b[0m \u0007bell\nnext\u009bline' }), JSON_UTF8],
    ['plain text', 'evil \u001b]0;pwned\u0007 title \u001b[2J', 'text/plain'],
    ['ProblemDetails errors', JSON.stringify({ title: 'x\u001b[1m', errors: { 'F\u001bield': ['m\u001b[0m'] } }), PROBLEM_UTF8],
    ['HTML title', '<html><head><title>\u001b[31mError</title></head></html>', 'text/html'],
  ])('removes control characters and ANSI escapes (%s)', (_name, body, contentType) => {
    const message = errorMessageFromBody(body, contentType)!;
    expect(message).toBeDefined();

    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(message).not.toContain('\u001b');
  });

  it('keeps the message on one line', () => {
    const message = errorMessageFromBody(JSON.stringify({ detail: 'first\nsecond\r\nthird' }), PROBLEM_UTF8)!;
    expect(message).not.toMatch(/[\r\n]/);
    expect(message).toContain('first');
    expect(message).toContain('third');
  });

  it.each([
    ['JSON', JSON.stringify({ message: 'x'.repeat(5000) }), JSON_UTF8],
    ['plain text', 'y'.repeat(5000), 'text/plain'],
    [
      'validation errors',
      JSON.stringify({ errors: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`F${i}`, ['is required and must be valid']])) }),
      PROBLEM_UTF8,
    ],
  ])('truncates a very long %s message to at most 500 characters', (_name, body, contentType) => {
    const message = errorMessageFromBody(body, contentType)!;
    expect(message.length).toBeGreaterThan(100);
    expect(message.length).toBeLessThanOrEqual(500);
  });

  it('does not truncate a message of ordinary length', () => {
    const text = 'z'.repeat(300);
    expect(errorMessageFromBody(JSON.stringify({ message: text }), JSON_UTF8)).toBe(text);
  });
});

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

describe('errorMessageFromBody', () => {
  it.each([
    // ProblemDetails validation errors, in each shape ASP.NET and others send them
    [
      'errors as a list of strings',
      '{"title":"One or more validation errors occurred.","errors":["a"," b ",""]}',
      PROBLEM_TYPE,
      'One or more validation errors occurred (a; b)',
    ],
    ['errors as a list of {message}', '{"errors":[{"message":"first"},{"message":" "},{"code":1},3,"second"]}', JSON_TYPE, 'first; second'],
    [
      'errors by field',
      '{"errors":{"Name":["required"," "],"$":["bad json"],"":["top"],"Tags":"too many"}}',
      PROBLEM_TYPE,
      'Name: required; bad json; top; Tags: too many',
    ],
    ['errors as one string', '{"title":"Bad","errors":"boom"}', PROBLEM_TYPE, 'Bad (boom)'],
    ['errors with nothing in them', '{"title":"Conflict.","errors":{"Name":[" "]}}', PROBLEM_TYPE, 'Conflict'],
    ['only empty errors', '{"errors":[]}', PROBLEM_TYPE, undefined],
    // titles and details
    [
      'an own title before the detail',
      '{"title":"Name conflict","detail":"already exists.","status":409}',
      PROBLEM_TYPE,
      'Name conflict: already exists',
    ],
    ['a reason-phrase title is left out', '{"title":"Not Found","detail":"no such environment"}', PROBLEM_TYPE, 'no such environment'],
    ['a title alone', '{"title":"Too busy:"}', PROBLEM_TYPE, 'Too busy'],
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

describe('errorMessageFromBody', () => {
  const contentType = fc.constantFrom('', 'application/json', 'application/problem+json', 'text/plain', 'text/html');

  function expectCleanMessage(message: unknown): void {
    if (message === undefined) return;
    expect(typeof message).toBe('string');
    const text = message as string;
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text).not.toMatch(CONTROL);
    expect(text).not.toContain('\u001b');
  }

  it('any text body gives undefined or one clean line of at most 500 characters', async () => {
    const body = fc.oneof(
      nasty,
      huge,
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
      fc.tuple(nasty, nasty).map(([title, rest]) => `<!doctype html><html><title>${title}</title>${rest}`),
    );
    await holds(
      fc.property(body, contentType, (text, type) => {
        expectCleanMessage(errorMessageFromBody(text, type));
      }),
      1000,
    );
  });

  it('any JSON body gives undefined or one clean line of at most 500 characters', async () => {
    const body = fc.oneof(fc.jsonValue(), fc.jsonValue({ maxDepth: 6 }), json).map((v) => JSON.stringify(v));
    await holds(
      fc.property(body, contentType, (text, type) => {
        expectCleanMessage(errorMessageFromBody(text, type));
      }),
      1000,
    );
  });

  it('deeply nested {"error": {...}} bodies never throw', async () => {
    await holds(
      fc.property(fc.integer({ min: 1, max: 5_000 }), nasty, contentType, (depth, message, type) => {
        const body = `${'{"error":'.repeat(depth)}${JSON.stringify({ message })}${'}'.repeat(depth)}`;
        expectCleanMessage(errorMessageFromBody(body, type));
      }),
      40,
    );
  });

  // What the message is made of, cleaned the way the module promises: trimmed, no trailing '.' or ':', one line.
  const cleaned = (text: string) => oneLine(text.trim().replace(/[.:]$/, '').trim());
  const short = fc.oneof(nasty, fc.string({ maxLength: 60 })).map((s) => s.slice(0, 80));

  it('APIM {statusCode, message}: the message is the cleaned message', async () => {
    await holds(
      fc.property(fc.integer({ min: 400, max: 599 }), short, contentType, (statusCode, message, type) => {
        const result = errorMessageFromBody(JSON.stringify({ statusCode, message }), type);
        expectCleanMessage(result);
        const expected = cleaned(message);
        if (expected) expect(result).toBe(expected);
        else if (!type.includes('html')) expect(result).toBeUndefined();
      }),
      500,
    );
  });

  it('ProblemDetails: the cleaned detail and every validation message are in the message', async () => {
    const title = fc.oneof(short, fc.constantFrom('Not Found', 'Bad Request', 'One or more validation errors occurred.'));
    const errors = fc.dictionary(fc.oneof(fc.constantFrom('Name', '$', '', 'EnterpriseId'), short), fc.array(short, { maxLength: 3 }), {
      maxKeys: 3,
    });
    const problem = fc.record(
      {
        type: fc.constant('https://tools.ietf.org/html/rfc9110#section-15.5.1'),
        title,
        status: fc.integer({ min: 400, max: 599 }),
        detail: short,
        traceId: short,
        errors,
      },
      { requiredKeys: ['type', 'title', 'status'] },
    );
    await holds(
      fc.property(problem, contentType, (body, type) => {
        const result = errorMessageFromBody(JSON.stringify(body), type);
        expectCleanMessage(result);
        const detail = body.detail === undefined ? '' : cleaned(body.detail);
        const messages = Object.values(body.errors ?? {})
          .flat()
          .map((m) => oneLine(m.trim()))
          .filter(Boolean);
        if (detail) {
          expect(result).toBeDefined();
          expect(result).toContain(detail);
        }
        if (messages.length) {
          expect(result).toBeDefined();
          if (!result!.endsWith('…')) for (const m of messages) expect(result).toContain(m);
        }
      }),
      600,
    );
  });

  it('{message}, {error}, {error: {message}}, {error_description}: the message comes from that field', async () => {
    const shape = fc.oneof(
      short.map((m) => ({ body: { message: m }, text: m })),
      short.map((m) => ({ body: { Message: m }, text: m })),
      short.map((m) => ({ body: { error: m }, text: m })),
      // The inner object is read as a body of its own first, so its final '.' or ':' is dropped twice.
      short.map((m) => ({ body: { error: { message: m } }, text: m.trim().replace(/[.:]$/, '').trim() })),
      short.map((m) => ({ body: { error_description: m }, text: m })),
    );
    await holds(
      fc.property(shape, contentType, ({ body, text }, type) => {
        const result = errorMessageFromBody(JSON.stringify(body), type);
        expectCleanMessage(result);
        // As the server's text is read: trimmed (JavaScript's trim includes U+FEFF), a final '.' or ':' dropped, then cleaned.
        const expected = oneLine(text.trim().replace(/[.:]$/, '').trim());
        if (expected) expect(result).toContain(expected.slice(0, 20).trim());
      }),
      400,
    );
  });
});
