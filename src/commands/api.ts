// `cip api <path>`: any endpoint of the platform with the profile's credentials (after `gh api`). The keys go
// only to the base URL's origin; the answer's body reaches stdout unchanged in a pipe.
import { InvalidArgumentError } from 'commander';
import type { AnyMethod } from '../api/http.js';
import { requestUrl } from '../api/url.js';
import { isCredentialHeader } from '../config/credentials.js';
import { defineCommand } from './define.js';
import { argument, flag, list, option } from '../cli/options.js';
import { UsageError } from '../errors.js';
import { stringifyExactJson } from '../json/exact.js';
import { writeAnswer } from '../output/writer.js';
import { withSpinner } from '../terminal/spinner.js';
import { oneLine, printable, truncate } from '../text/sanitize.js';
import { readInput } from './io.js';
import { buildPayload } from '../domain/environments/payload.js';
import { CONFIRM_OPTION, PAYLOAD_OPTIONS, payloadInput } from './options.js';
import { guardProtected } from '../domain/profiles/protect.js';
import { journaledCall } from '../domain/journal/record.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseMethod(text: string): AnyMethod {
  const method = text.trim().toUpperCase();
  const known = METHODS.find((candidate) => candidate === method);
  if (!known) throw new InvalidArgumentError(`expected one of ${METHODS.join(', ')}`);
  return known;
}

function parseHeader(text: string): [string, string] {
  const at = text.indexOf(':');
  const name = text.slice(0, Math.max(at, 0)).trim();
  const value = text.slice(at + 1).trim();
  if (at <= 0 || !TOKEN.test(name)) throw new InvalidArgumentError("expected 'Name: value'");
  if (/[\r\n\0]/.test(value)) throw new InvalidArgumentError('a header value cannot hold a line break');
  // HTTP carries a header's bytes: a character beyond Latin-1 (漢, an emoji) or a control character has no
  // one way to go, and would fail only when the request is made, looking like a network failure.
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value))
    throw new InvalidArgumentError('a header value can hold only printable ASCII and Latin-1 characters');
  if (isCredentialHeader(name)) {
    throw new InvalidArgumentError(`${name} comes from the profile or the CIP_* variables, never from -H`);
  }
  return [name, value];
}

export default defineCommand({
  name: 'api',
  description: 'call any endpoint of the API with the credentials in use, and print the answer',
  // The answer as the server sent it (pretty at a terminal, or through --jq): no table, YAML or TSV.
  outputs: ['json'],
  args: { path: argument('<path>', 'a path below the base URL (Integrations, /Environments, Environments/ID), or a URL on its origin') },
  options: {
    method: option('-X, --method <method>', 'HTTP method (default: GET, or POST when fields or --input are given)', parseMethod),
    field: PAYLOAD_OPTIONS.field,
    rawField: PAYLOAD_OPTIONS.rawField,
    input: option('--input <file>', "the request body, as it is, from a file ('-' for stdin)"),
    header: list('-H, --header <name:value>', 'add a request header (repeatable); not the three credential headers', parseHeader),
    include: flag('-i, --include', 'print the status line and the answer headers on stderr'),
    confirm: CONFIRM_OPTION,
  },
  notes: `The path is relative to the base URL: with the default base URL, 'cip api Integrations' calls
https://api.copyl.com/ms/Integrations. A full URL must be on the base URL's origin: the keys go nowhere else.
-F and -f build a JSON body as for 'env create' (for GET, HEAD and DELETE they become query parameters).
The answer's body is printed unchanged in a pipe, pretty-printed at a terminal when it is JSON; --jq filters
it. Failures have the usual exit codes. POST and PATCH are never retried.
In a protected profile ('cip auth protect'), a method other than GET, HEAD or OPTIONS asks for the profile's
name; a script passes --confirm NAME.`,
  examples: [
    'cip api Integrations',
    'cip api /Environments --jq ".[].name"',
    'cip api Environments/7d1c... -X PUT --input body.json',
    'cip api Environments -f name=from-api -i',
  ],
  async run(ctx, { path, method, field, rawField, input, header, include, confirm }) {
    const fields = payloadInput({ field, rawField, data: undefined, file: undefined }).fields ?? [];
    if (input !== undefined && fields.length) throw new UsageError('give the body with --input or with -f/-F, not both');
    const chosen = method ?? (input !== undefined || fields.length ? 'POST' : 'GET');
    const { settings, http } = await ctx.http();
    // Refused here, before any input is read, when it would leave the base URL's origin.
    const url = requestUrl(settings.baseUrl, path);
    // Any method that may change something, in a protected profile: its name, before the body is read.
    // Redacted before printable() cuts it: a key cut short would no longer be found.
    const shown = printable(ctx.redact(path));
    if (!['GET', 'HEAD', 'OPTIONS'].includes(chosen) || confirm !== undefined)
      await guardProtected(ctx, settings, { change: `send ${chosen} ${shown}`, confirm });
    let body: string | undefined;
    if (input !== undefined) body = await readInput(ctx, input, '--input');
    else if (fields.length) {
      const payload = await buildPayload({ fields }, () => Promise.reject(new Error('no file')));
      if (chosen === 'GET' || chosen === 'HEAD' || chosen === 'DELETE') {
        for (const [key, value] of Object.entries(payload))
          url.searchParams.append(key, typeof value === 'string' ? value : stringifyExactJson(value));
      } else body = stringifyExactJson(payload);
    }
    const target = url.href;

    const what = `${chosen} ${shown}`;
    const answer = await withSpinner(ctx.io, what, () =>
      journaledCall(ctx, settings, { method: chosen, url: target, text: body }, () =>
        http.exchange(chosen, target, what, { ...(body === undefined ? {} : { body }), headers: Object.fromEntries(header) }),
      ),
    );
    if (include) {
      // As curl prints it: the version and reason phrase the server sent, cleaned for the terminal.
      const reason = truncate(oneLine(answer.statusText), 200);
      const lines = [
        `HTTP/${answer.httpVersion} ${answer.status}${reason ? ` ${reason}` : ''}`,
        ...[...answer.headers].map(([name, value]) => `${name}: ${oneLine(value)}`),
      ];
      // Asked for, so not a note that --quiet silences; on stderr, to keep stdout the body alone.
      ctx.io.stderr.write(`${ctx.redact(lines.join('\n'))}\n`);
    }
    // The writer redacts a key the server echoes; any other answer goes out byte for byte.
    await writeAnswer(ctx.io, answer.body, answer.headers.get('content-type') ?? '');
  },
});
