// `cip api <path>`: any endpoint of the platform with the profile's credentials (after `gh api`). The keys go
// only to the base URL's origin; the answer's body reaches stdout unchanged in a pipe.
import { InvalidArgumentError } from 'commander';
import type { RawAnswer } from '../api/chain.js';
import type { AnyMethod } from '../api/http.js';
import { requestUrl } from '../api/url.js';
import { isCredentialHeader } from '../config/credentials/credential.js';
import { defineCommand } from './define.js';
import { argument, flag, list, option } from '../cli/options.js';
import { UsageError } from '../errors.js';
import { stringifyExactJson } from '../json/exact.js';
import { writeAnswer } from '../output/writer.js';
import { withSpinner } from '../terminal/spinner.js';
import { manyLines, oneLine, printable, truncate } from '../text/sanitize.js';
import { decodeText } from '../text/charset.js';
import { readInput } from './io.js';
import { buildPayload } from '../domain/environments/payload.js';
import { CONFIRM_OPTION, PAYLOAD_OPTIONS, payloadInput } from './options.js';
import { guardProtected } from '../domain/profiles/protect.js';
import { journaledCall, writesWith } from '../domain/journal/record.js';
import { doneText, targetText } from '../domain/environments/target.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** The methods that change nothing: the others are guarded in a protected profile, and say where they went. */
const READS: readonly AnyMethod[] = ['GET', 'HEAD', 'OPTIONS'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** How much of a failure's body -i shows: any error page; a larger one is cut, and the rest counted. */
const SHOWN_ERROR_BODY_CHARS = 64 * 1024;

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

/** The status line and the headers, as curl -i prints them: the version and reason phrase the server sent, cleaned. */
function head(answer: RawAnswer, redact: (text: string) => string): string {
  const reason = truncate(oneLine(answer.statusText), 200);
  const lines = [
    `HTTP/${answer.httpVersion} ${answer.status}${reason ? ` ${reason}` : ''}`,
    ...[...answer.headers].map(([name, value]) => `${name}: ${oneLine(value)}`),
  ];
  return `${redact(lines.join('\n'))}\n`;
}

/**
 * A failure's body, for -i: after a blank line, as curl -i shows it, but on stderr (a failure has no data for
 * stdout). Redacted whole before it is cut, so the cut cannot leave part of a key; line breaks kept, anything
 * else unsafe shown as '?'.
 */
function failedBody(answer: RawAnswer, redact: (text: string) => string): string {
  if (!answer.body?.byteLength) return '';
  const text = redact(decodeText(answer.body, answer.headers.get('content-type')).text);
  const cut =
    text.length > SHOWN_ERROR_BODY_CHARS
      ? `${text.slice(0, SHOWN_ERROR_BODY_CHARS)}\n… (${text.length - SHOWN_ERROR_BODY_CHARS} more characters not shown)`
      : text;
  return `\n${manyLines(cut).replace(/\n$/, '')}\n`;
}

/** What the protected profile's question says of undoing a write sent with `cip api`. */
const NO_UNDO = "This cannot be undone: the journal keeps the request, not what it changed, so 'cip env restore' cannot undo it";

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
    include: flag('-i, --include', 'print the status line and the answer headers on stderr (and, for a failure, its body)'),
    confirm: CONFIRM_OPTION,
  },
  notes: `The path is relative to the base URL: with the default base URL, 'cip api Integrations' calls
https://api.copyl.com/ms/Integrations. A full URL must be on the base URL's origin: the keys go nowhere else.
-F and -f build a JSON body as for 'env create' (for GET, HEAD and DELETE they become query parameters).
The answer's body is printed unchanged in a pipe, pretty-printed at a terminal when it is JSON; --jq filters
it. Failures have the usual exit codes. POST and PATCH are never retried.
-i prints the status line and headers on stderr, for a failure too (4xx, 5xx, a redirect), then that
failure's body on stderr after a blank line, then the error line; stdout stays empty when the request failed.
A method other than GET, HEAD or OPTIONS says where it went once it is answered (the profile, and the
.cip.json that chose it). In a protected profile ('cip auth protect'), such a method asks for the profile's
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
    const writes = !READS.includes(chosen);
    if (writes || confirm !== undefined)
      await guardProtected(ctx, settings, {
        change: `send ${chosen} ${shown}${writesWith(chosen) ? `. ${NO_UNDO}` : ''}`,
        confirm,
      });
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
    // The answer of a failure, kept for -i: printed once the spinner has stopped, before the error line.
    const failure: { answer?: RawAnswer } = {};
    const request = {
      ...(body === undefined ? {} : { body }),
      headers: Object.fromEntries(header),
      ...(include ? { failed: (answer: RawAnswer) => (failure.answer = answer) } : {}),
    };
    let answer: RawAnswer & { body: Uint8Array };
    try {
      answer = await withSpinner(ctx.io, what, () =>
        journaledCall(ctx, settings, { method: chosen, url: target, text: body }, () => http.exchange(chosen, target, what, request)),
      );
    } catch (error) {
      // Asked for, so not a note that --quiet silences; the error line, with its exit code, follows.
      const redact = (text: string) => ctx.redact(text);
      if (failure.answer) ctx.io.stderr.write(head(failure.answer, redact) + failedBody(failure.answer, redact));
      throw error;
    }
    // Asked for, so not a note that --quiet silences; on stderr, to keep stdout the body alone.
    if (include) ctx.io.stderr.write(head(answer, (text) => ctx.redact(text)));
    // The writer redacts a key the server echoes; any other answer goes out byte for byte.
    await writeAnswer(ctx.io, answer.body, answer.headers.get('content-type') ?? '');
    // Where a write went, said as env writes say it: a profile that a .cip.json chose is named with the file.
    if (writes) ctx.io.info(doneText(`Sent ${what} (HTTP ${answer.status})`, targetText(settings)));
  },
});
