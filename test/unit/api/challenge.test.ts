// WWW-Authenticate read as RFC 9110 §11.6.1 and RFC 6750 §3 write it (api/challenge.ts): several challenges in one
// value, auth-params in any case with quoted-string escapes, token68; the refusal's reason cleaned, bounded and
// without a token; and a header that is no challenge at all read without a throw or a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CHALLENGE_CHARS, headerText, parseChallenges, refusalReason } from '../../../src/api/challenge.js';
import { shownHeader } from '../../../src/api/shown-header.js';
import { makeJwt } from '../../helpers/jwt.js';

const asObjects = (value: string) => parseChallenges(value).map(({ scheme, params }) => ({ scheme, params: Object.fromEntries(params) }));
const none = (text: string) => text;

describe('parseChallenges', () => {
  it("RFC 9110's example: two challenges, the first with a quoted-pair, a token value and a comma in a quoted string", () => {
    expect(asObjects('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple, and more"')).toEqual([
      { scheme: 'Newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'Basic', params: { realm: 'simple, and more' } },
    ]);
  });

  it("ASP.NET Core's JWT bearer challenge, and API Management's beside it (joined as Headers joins them)", () => {
    expect(
      asObjects(
        `Bearer error="invalid_token", error_description="The token expired at '01/02/2026 10:00:00'", AzureApiManagementKey realm="https://api.copyl.com/ms",name="Ocp-Apim-Subscription-Key",type="header"`,
      ),
    ).toEqual([
      { scheme: 'Bearer', params: { error: 'invalid_token', error_description: "The token expired at '01/02/2026 10:00:00'" } },
      { scheme: 'AzureApiManagementKey', params: { realm: 'https://api.copyl.com/ms', name: 'Ocp-Apim-Subscription-Key', type: 'header' } },
    ]);
  });

  it('names in any case (lower-cased), spaces around =, empty list elements, the first of a repeated name', () => {
    expect(asObjects(' , bearer   ERROR = invalid_token ,, Error="second" ,  Scope="a b"  ,')).toEqual([
      { scheme: 'bearer', params: { error: 'invalid_token', scope: 'a b' } },
    ]);
  });

  it('a token68 is stepped over, never taken for a parameter; a bare scheme is a challenge', () => {
    expect(asObjects('Basic dXNlcjpwYXNz==, Negotiate, Bearer realm="x"')).toEqual([
      { scheme: 'Basic', params: {} },
      { scheme: 'Negotiate', params: {} },
      { scheme: 'Bearer', params: { realm: 'x' } },
    ]);
  });

  it('what cannot be read is skipped to the next comma; an unterminated quoted string runs to the end', () => {
    expect(asObjects('"junk", Bearer "oops", error="a", =x, error_description="never closed, still here')).toEqual([
      { scheme: 'Bearer', params: { error: 'a', error_description: 'never closed, still here' } },
    ]);
    expect(asObjects('')).toEqual([]);
    expect(asObjects('=,=,"",\\')).toEqual([]);
  });

  it(`reads the first ${MAX_CHALLENGE_CHARS} characters only`, () => {
    const long = `Bearer error="invalid_token", error_description="${'x'.repeat(2 * 1024 * 1024)}"`;
    const started = performance.now();
    const [challenge] = parseChallenges(long);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(challenge!.params.get('error_description')!.length).toBeLessThan(MAX_CHALLENGE_CHARS);
  });

  it('never throws, and finds no more challenges than the text has commas and words', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', ' ', ',', '=', '"', '\\', '\t', 'é', '-', '/'), maxLength: 200 }), (text) => {
        const challenges = parseChallenges(text);
        expect(challenges.length).toBeLessThanOrEqual(text.length);
        for (const { scheme } of challenges) expect(scheme).toMatch(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('refusalReason', () => {
  it('the description, then the error; the error in words where there is no description', () => {
    expect(refusalReason('Bearer error="invalid_token", error_description="The signature key was not found"', none)).toBe(
      'The signature key was not found (invalid_token)',
    );
    expect(refusalReason('Bearer error="invalid_token"', none)).toBe('the token is not valid (invalid_token)');
    expect(refusalReason('Bearer error="invalid_request"', none)).toBe('the request is malformed (invalid_request)');
    expect(refusalReason('Bearer error="custom_thing"', none)).toBe('custom_thing');
    expect(refusalReason('Bearer error_description="Only this."', none)).toBe('Only this');
    expect(refusalReason('Bearer error="insufficient_scope", scope="environments.write"', none)).toBe(
      'the token lacks a scope this needs (insufficient_scope; needs scope environments.write)',
    );
  });

  it('nothing for a challenge that says no error, or no header', () => {
    expect(refusalReason('Bearer', none)).toBeUndefined();
    expect(refusalReason('ApiKey, AzureApiManagementKey realm="x"', none)).toBeUndefined();
    expect(refusalReason(null, none)).toBeUndefined();
  });

  it('the Bearer challenge first, whichever comes first', () => {
    expect(refusalReason('Other error="a", Bearer error="b"', none)).toBe('b');
    expect(refusalReason('Other error="a", Basic realm="x"', none)).toBe('a');
  });

  it('redacts the unquoted value (an escape cannot hide a key), then hides any JWT, cleans and cuts to 300', () => {
    const key = 'the-run-key-0123456789';
    const redact = (text: string) => text.replaceAll(key, '***');
    const escaped = [...key].map((char) => `\\${char}`).join('');
    expect(refusalReason(`Bearer error_description="key ${escaped}"`, redact)).toBe('key ***');
    expect(refusalReason(`Bearer error_description="token ${makeJwt({ sub: 'x' })} refused"`, none)).toBe('token *** refused');
    expect(refusalReason('Bearer error_description="a\x1b[31m\tb\u202ec\x9b"', none)).toBe('a?[31m b?c?');
    const long = refusalReason(`Bearer error_description="${'y'.repeat(5000)}"`, none)!;
    expect(long).toHaveLength(300);
    expect(long.endsWith('…')).toBe(true);
    // Redacted before the cut: a key that straddles it cannot show in part.
    const straddling = refusalReason(`Bearer error_description="${'z'.repeat(290)}${key}"`, redact)!;
    expect(straddling).toBe(`${'z'.repeat(290)}***`);
  });
});

describe('headerText', () => {
  it('bytes that are UTF-8 (read by Node as Latin-1) are read as UTF-8; anything else stays', () => {
    const asLatin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    expect(headerText(asLatin1('Jetón 令牌'))).toBe('Jetón 令牌');
    expect(headerText('Jet\xf3n')).toBe('Jet\xf3n');
    expect(headerText('plain ascii')).toBe('plain ascii');
    expect(headerText('already 令牌')).toBe('already 令牌');
  });
});

describe('shownHeader (--verbose)', () => {
  const key = 'the-run-key-0123456789';
  const redact = (text: string) => text.replaceAll(key, '***');

  it('masks the credential headers and cookies, whole; a Set-Cookie keeps its name and attributes', () => {
    for (const name of ['Authorization', 'ocp-apim-subscription-key', 'Cookie', 'Proxy-Authorization']) {
      expect(shownHeader(name, 'anything at all', redact)).toBe('***');
    }
    expect(shownHeader('set-cookie', 'ARRAffinity=0123456789abcdef; Path=/; HttpOnly', redact)).toBe('ARRAffinity=***; Path=/; HttpOnly');
    expect(shownHeader('set-cookie', 'no-equals-sign', redact)).toBe('no-equals-sign');
    expect(shownHeader('enterpriseid', '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b', redact)).toBe('3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b');
  });

  it('redacts the run’s keys and hides any JWT in the others, on one line, cut at 2000 after redaction', () => {
    expect(shownHeader('x-echo', `got ${key}\r\nand ${makeJwt({ sub: 'x' })}`, redact)).toBe('got *** and ***');
    const long = shownHeader('x-long', `${'a'.repeat(1995)}${key}${'b'.repeat(3000)}`, redact);
    expect(long).toBe(`${'a'.repeat(1995)}***b… (5017 characters in all)`);
  });
});
