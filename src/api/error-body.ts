// Turns an error response body into one readable message. The API sits behind Azure API Management, so a
// body can be APIM's {statusCode,message}, ASP.NET ProblemDetails, {message}, {error}, plain text, HTML or nothing.
import { isRecord } from '../json/record.js';
import { oneLine, truncate } from '../text/sanitize.js';

const MAX_MESSAGE = 500;
/** An error body is read for its message only: what lies beyond this many characters is never looked at. */
export const MAX_ERROR_BODY_CHARS = 64 * 1024;
// HTTP reason phrases that ASP.NET puts in ProblemDetails titles (node:http has them, but costs start-up).
const REASON_PHRASES = new Set([
  'bad request',
  'unauthorized',
  'forbidden',
  'not found',
  'method not allowed',
  'not acceptable',
  'request timeout',
  'conflict',
  'gone',
  'precondition failed',
  'payload too large',
  'unsupported media type',
  'unprocessable entity',
  'unprocessable content',
  'too many requests',
  'internal server error',
  'not implemented',
  'bad gateway',
  'service unavailable',
  'gateway timeout',
]);

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function validationErrors(errors: unknown): string | undefined {
  if (Array.isArray(errors)) {
    const items = errors.map(
      (item) => str(item) ?? (typeof item === 'object' && item ? str((item as Record<string, unknown>).message) : undefined),
    );
    const messages = items.filter((item): item is string => item !== undefined);
    return messages.length ? messages.join('; ') : undefined;
  }
  if (typeof errors !== 'object' || errors === null) return str(errors);
  const parts: string[] = [];
  for (const [field, value] of Object.entries(errors)) {
    const messages = (Array.isArray(value) ? value : [value]).map(str).filter((item): item is string => item !== undefined);
    if (messages.length) parts.push(field === '' || field === '$' ? messages.join(' ') : `${field}: ${messages.join(' ')}`);
  }
  return parts.length ? parts.join('; ') : undefined;
}

function fromObject(body: Record<string, unknown>): string | undefined {
  // ProblemDetails: title, then detail, then the per-field validation errors.
  const title = str(body.title);
  const detail = str(body.detail);
  const errors = validationErrors(body.errors);
  const message = str(body.message) ?? str(body.Message) ?? str(body.error_description);
  const nestedError = isRecord(body.error) ? fromObject(body.error) : str(body.error);
  // A ProblemDetails title is often only the reason phrase ("Not Found"), which our message already says;
  // a title of its own ("Name conflict") is kept before the detail.
  const ownTitle = title && !REASON_PHRASES.has(title.toLowerCase()) ? title.replace(/[.:]$/, '') : undefined;
  const headText = (detail ? [ownTitle, detail].filter(Boolean).join(': ') : (title ?? message ?? nestedError ?? ''))
    .replace(/[.:]$/, '')
    .trim();
  if (!headText && !errors) return undefined;
  if (!errors) return headText;
  return headText ? `${headText} (${errors})` : errors;
}

/** The page's title, found with indexOf only: a regular expression here went quadratic on '<title' x 70,000. */
function fromHtml(body: string): string {
  const lower = body.toLowerCase();
  const open = lower.indexOf('<title');
  const start = open < 0 ? -1 : lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf('<', start + 1);
  const title = end < 0 ? undefined : body.slice(start + 1, end).trim();
  return title ? `an HTML page titled '${title}'` : 'an HTML page';
}

/** The message the server sent, on one line without control characters; undefined when it sent none. */
export function errorMessageFromBody(body: string, contentType = ''): string | undefined {
  const text = body.slice(0, MAX_ERROR_BODY_CHARS).trim();
  if (!text) return undefined;
  let message: string | undefined;
  if (/^[[{"]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') message = str(parsed);
      else if (isRecord(parsed)) message = fromObject(parsed);
    } catch {
      message = undefined;
    }
    if (message === undefined && /json/i.test(contentType)) return undefined;
  }
  if (message === undefined) {
    if (/html/i.test(contentType) || /^<(!doctype|html|\?xml|head|body)/i.test(text)) message = fromHtml(text);
    else if (!/json/i.test(contentType) && !/^[[{]/.test(text)) message = text.split(/\r?\n/).find((line) => line.trim() !== '');
  }
  if (message === undefined) return undefined;
  const clean = oneLine(message);
  return clean ? truncate(clean, MAX_MESSAGE) : undefined;
}
