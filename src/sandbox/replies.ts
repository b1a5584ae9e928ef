// Answers in the shapes the real service sends: JSON, API Management's {statusCode, message}, and ASP.NET's
// ProblemDetails (with the title and RFC 9110 section ASP.NET uses for each status).
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface Reply {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

// Title and RFC 9110 section ASP.NET puts in ProblemDetails for each status it produces.
const PROBLEM_STATUS: Record<number, [title: string, section: string]> = {
  400: ['Bad Request', '15.5.1'],
  401: ['Unauthorized', '15.5.2'],
  403: ['Forbidden', '15.5.4'],
  404: ['Not Found', '15.5.5'],
  405: ['Method Not Allowed', '15.5.6'],
  412: ['Precondition Failed', '15.5.13'],
  415: ['Unsupported Media Type', '15.5.16'],
  500: ['An error occurred while processing your request.', '15.6.1'],
};

export function send(res: ServerResponse, reply: Reply): void {
  const body = reply.body ?? '';
  // A 204 must not carry Content-Length; everything else gets one so keep-alive clients know where it ends.
  if (reply.status !== 204) res.setHeader('Content-Length', Buffer.byteLength(body));
  // setHeader replaces case-insensitively, so fault headers override the defaults whatever their casing.
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.writeHead(reply.status);
  res.end(body);
}

export function json(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, body: Buffer.from(body, 'utf8'), headers: { 'Content-Type': JSON_TYPE, ...headers } };
}

export function apim(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return json(status, JSON.stringify({ statusCode: status, message }), headers);
}

export function problem(
  status: number,
  extra: { title?: string; detail?: string; errors?: Record<string, string[]> } = {},
  headers: Record<string, string> = {},
): Reply {
  const [defaultTitle, section] = PROBLEM_STATUS[status] ?? PROBLEM_STATUS[500]!;
  const payload = {
    type: `https://tools.ietf.org/html/rfc9110#section-${section}`,
    title: extra.title ?? defaultTitle,
    status,
    ...(extra.detail === undefined ? {} : { detail: extra.detail }),
    ...(extra.errors === undefined ? {} : { errors: extra.errors }),
    traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`,
  };
  return { status, body: JSON.stringify(payload), headers: { 'Content-Type': PROBLEM_TYPE, ...headers } };
}

export function validationProblem(errors: Record<string, string[]>): Reply {
  return problem(400, { title: 'One or more validation errors occurred.', errors });
}

export function notFound(id: string): Reply {
  return problem(404, { detail: `Environment '${id}' was not found.` });
}

// Routing's own 405: no body, only the methods the path has.
export function methodNotAllowed(allow: string): Reply {
  return { status: 405, headers: { Allow: allow } };
}

/** The anonymous ping: 200, or (pingFails, to show `cip doctor` failing) a 503 as an unhealthy service gives. */
export function ping(fails = false): Reply {
  return fails
    ? { status: 503, body: 'Service Unavailable', headers: { 'Content-Type': 'text/plain; charset=utf-8' } }
    : { status: 200, body: 'pong', headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
}

// Fault bodies are plain strings; label them the way a real upstream would have.
export function sniffContentType(body: string): string {
  if (body.trimStart().startsWith('<')) return 'text/html; charset=utf-8';
  try {
    JSON.parse(body);
    return JSON_TYPE;
  } catch {
    return 'text/plain; charset=utf-8';
  }
}
