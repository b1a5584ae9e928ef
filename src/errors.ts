// Typed errors and the one table that maps them to exit codes. Help, README and tests all read EXIT_CODES.

export const EXIT_CODES = [
  { code: 0, name: 'ok', meaning: 'success' },
  { code: 1, name: 'unexpected', meaning: 'unexpected error (a bug)' },
  { code: 2, name: 'usage', meaning: 'usage or invalid local input: unknown command/option, bad JSON, bad GUID, missing confirmation' },
  { code: 3, name: 'auth', meaning: 'not authenticated: no credentials, or the API answered 401' },
  { code: 4, name: 'forbidden', meaning: 'forbidden: the API answered 403' },
  { code: 5, name: 'not-found', meaning: 'not found: the API answered 404' },
  { code: 6, name: 'rejected', meaning: 'rejected: the API answered another 4xx (400, 409, 422, ...)' },
  { code: 7, name: 'server', meaning: 'server error: 5xx, or a response that is not what the API promises' },
  { code: 8, name: 'network', meaning: 'network error or timeout' },
  { code: 9, name: 'partial', meaning: 'partly done: some items of a command on several items failed (see the results)' },
  { code: 10, name: 'changes', meaning: 'changes found: env diff --exit-code found the environments out of step with the file' },
  { code: 11, name: 'output', meaning: 'the output could not be written (stdout failed: disk full, I/O error)' },
  { code: 12, name: 'filter', meaning: 'the --jq filter failed on the data (the command itself succeeded)' },
  { code: 130, name: 'interrupted', meaning: 'interrupted (Ctrl-C)' },
  { code: 143, name: 'terminated', meaning: 'terminated (SIGTERM)' },
] as const;

export type ExitCodeName = (typeof EXIT_CODES)[number]['name'];

export function exitCode(name: ExitCodeName): number {
  return EXIT_CODES.find((row) => row.name === name)!.code;
}

/** The line said when stdout failed (a full disk, a file-size limit): exit code 11. */
export function outputFailure(error: NodeJS.ErrnoException): string {
  const reason = error.code ? `${error.code}${OUTPUT_REASONS[error.code] ? ` (${OUTPUT_REASONS[error.code]})` : ''}` : error.message;
  return `error: cannot write the output to stdout: ${reason}\n`;
}

const OUTPUT_REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EIO: 'input/output error',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EBADF: 'stdout is closed',
};

/** A failure the user can act on: printed as one `error:` line, never with a stack. */
export class CipError extends Error {
  /** The kind of failure, which names its exit code. */
  readonly kind: ExitCodeName;
  readonly exitCode: number;
  readonly hint: string | undefined;
  constructor(kind: ExitCodeName, message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.kind = kind;
    this.exitCode = exitCode(kind);
    this.hint = hint;
  }
}

/** The same failure (same class and exit code) in other words. */
export function restated(error: CipError, message: string, hint: string | undefined = error.hint): CipError {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as CipError;
  Object.assign(copy, error);
  Object.defineProperty(copy, 'message', { value: message });
  Object.defineProperty(copy, 'hint', { value: hint });
  return copy;
}

/** The same failure (same exit code) with different advice. */
export function withHint(error: CipError, hint: string): CipError {
  return restated(error, error.message, hint);
}

/**
 * An outcome the command has already told the user about (a question answered no, drift found by
 * `diff --exit-code`): it ends the run with its exit code and no `error:` line, as gh ends a declined prompt.
 */
export class ExitOnly extends CipError {}

export class UsageError extends CipError {
  constructor(message: string, hint?: string) {
    super('usage', message, hint);
  }
}

/** The profile store is unreadable or hand-broken; we refuse rather than reset it. */
export class ConfigError extends CipError {
  constructor(message: string, hint?: string) {
    super('usage', message, hint);
  }
}

export class AuthError extends CipError {
  constructor(message: string, hint = "run 'cip auth login', or set CIP_API_KEY, CIP_SUBSCRIPTION_KEY and CIP_ENTERPRISE_ID") {
    super('auth', message, hint);
  }
}

/** What a failed status means: its exit code, the words for it, and advice that holds whatever was asked. */
interface StatusMeaning {
  kind: ExitCodeName;
  summary: string;
  hint?: string;
}

const STATUS_MEANINGS: Readonly<Record<number, StatusMeaning>> = {
  401: { kind: 'auth', summary: 'the API rejected the credentials' },
  403: { kind: 'forbidden', summary: 'forbidden', hint: 'the credentials lack permission for this operation or enterprise' },
  404: { kind: 'not-found', summary: 'not found' },
  429: { kind: 'rejected', summary: 'the API rejected the request', hint: 'too many requests; try again later' },
};
const CLIENT_ERROR: StatusMeaning = { kind: 'rejected', summary: 'the API rejected the request' };
const SERVER_ERROR: StatusMeaning = { kind: 'server', summary: 'the API failed' };

function statusMeaning(status: number): StatusMeaning {
  return STATUS_MEANINGS[status] ?? (status >= 400 && status < 500 ? CLIENT_ERROR : SERVER_ERROR);
}

/** The words for a failed status: "not found", "the API failed". */
export function statusSummary(status: number): string {
  return statusMeaning(status).summary;
}

/** An HTTP answer that is not success; kind follows the status. */
export class ApiError extends CipError {
  readonly status: number;
  /** An earlier attempt of this request may have been carried out, though its answer was lost. */
  readonly afterUncertainAttempt: boolean;
  /** hint: advice of the caller's; undefined for the status's own; null for none (the server's message says it). */
  constructor(status: number, message: string, hint?: string | null, afterUncertainAttempt = false) {
    const meaning = statusMeaning(status);
    super(meaning.kind, message, hint === null ? undefined : (hint ?? meaning.hint));
    this.status = status;
    this.afterUncertainAttempt = afterUncertainAttempt;
  }
}

/** A response that breaks the API's promise (invalid JSON, wrong shape, a redirect). */
export class ProtocolError extends CipError {
  constructor(message: string, hint?: string) {
    super('server', message, hint);
  }
}

/**
 * A write refused before anything was sent: an answer this run read could not be read exactly as text (its bytes
 * are not valid in the charset it claims), and writing now would send that text back. Every later write of the
 * run would be refused the same way, so a batch stops at the first.
 */
export class InexactReadError extends ProtocolError {}

export class NetworkError extends CipError {
  constructor(message: string, hint?: string) {
    super('network', message, hint);
  }
}

export class InterruptedError extends CipError {
  constructor(message = 'interrupted') {
    super('interrupted', message);
  }
}
