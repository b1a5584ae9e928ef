// --jq: real jq (1.8, compiled to WebAssembly: nothing to download, loaded only when --jq is given). The data goes
// in as exact JSON text and jq keeps the digits of numbers it does not change; strings come out raw, as with
// `jq -r` and `gh --jq`. jq runs in a worker thread (output/jq-worker.ts, built as dist/jq-worker.cjs), so that
// Ctrl-C can end a filter that runs long: the thread is terminated.
import { Worker } from 'node:worker_threads';
import type { Env } from '../env.js';
import { CipError, InterruptedError, UsageError } from '../errors.js';
import { oneLine } from '../text/sanitize.js';
import type { JqJob, JqMessage, JqWorkerData } from './jq-worker.js';

/**
 * The thread's script: its file (dist/jq-worker.cjs), or its code (the single executable's, which runs the
 * worker from the executable: load-cli.ts).
 */
export type JqWorkerScript = string | { readonly code: string };

/** Where a filter runs: the worker's script, the caller's environment and the signal that ends the run. */
export interface JqRunner {
  readonly worker: JqWorkerScript;
  /** The caller's environment: the filter's $ENV and env, without credentials (jqEnvironment). */
  readonly env: Env;
  /** Aborts when the run is interrupted: a filter still running is ended then. */
  readonly signal: AbortSignal;
}

/** What jq said at the end of a run: its stderr and exit code. */
interface JqEnd {
  stderr: string;
  exitCode: number;
}

/**
 * Takes what the filter prints, in whole lines; resolves once it is written, to false when the reader is gone
 * (then the filter is ended: its output would go nowhere).
 */
export type JqWrite = (text: string) => Promise<boolean> | boolean;

interface Waiting {
  resolve: (end: JqEnd) => void;
  reject: (error: Error) => void;
  write: (bytes: Uint8Array) => void;
}

/** A worker thread with jq loaded, taking one job at a time. It never keeps the process alive while idle. */
class JqThread {
  readonly #worker: Worker;
  readonly #unwritten = new Int32Array(new SharedArrayBuffer(4));
  readonly #waiting = new Map<number, Waiting>();
  #next = 0;
  #ended = false;

  constructor(script: JqWorkerScript) {
    const workerData = { unwritten: this.#unwritten.buffer } satisfies JqWorkerData;
    this.#worker = typeof script === 'string' ? new Worker(script, { workerData }) : new Worker(script.code, { eval: true, workerData });
    this.#worker.unref();
    this.#worker.on('message', (message: JqMessage) => {
      const waiting = this.#waiting.get(message.id);
      if ('stdout' in message) {
        if (waiting) waiting.write(message.stdout);
        else this.#written(message.stdout.byteLength);
        return;
      }
      this.#waiting.delete(message.id);
      if (!this.#waiting.size) this.#worker.unref();
      waiting?.resolve(message);
    });
    this.#worker.on('error', (error) => this.#end(error));
    this.#worker.on('exit', (code) => this.#end(new Error(`the jq thread ended (exit ${code})`)));
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Output the thread posted is written: it may go on (it waits past MAX_UNWRITTEN bytes). */
  #written(bytes: number): void {
    Atomics.sub(this.#unwritten, 0, bytes);
    Atomics.notify(this.#unwritten, 0);
  }

  run(job: Omit<JqJob, 'id'>, signal: AbortSignal, write: JqWrite = () => true): Promise<JqEnd> {
    if (signal.aborted) return Promise.reject(new InterruptedError());
    const id = this.#next++;
    // Whole lines go out (so that what is done to each piece, such as redaction, sees whole values); the rest
    // waits for the next piece, or the end.
    const decoder = new TextDecoder();
    let rest = '';
    let writes = Promise.resolve();
    let gone = false;
    const out = (text: string, bytes: number) => {
      writes = writes
        .then(async () => text === '' || gone || (await write(text)))
        .catch(() => false)
        .then((open) => {
          this.#written(bytes);
          if (open) return;
          // Nobody reads any more: the filter ends, quietly, as the command's work is done.
          gone = true;
          this.#end(new Error('the reader of the output went away'));
        });
    };
    return new Promise<JqEnd>((resolve, reject) => {
      const stop = () => this.#end(new InterruptedError());
      signal.addEventListener('abort', stop, { once: true });
      const done = () => signal.removeEventListener('abort', stop);
      this.#waiting.set(id, {
        write: (bytes) => {
          const text = rest + decoder.decode(bytes, { stream: true });
          const whole = text.lastIndexOf('\n') + 1;
          rest = text.slice(whole);
          out(text.slice(0, whole), bytes.byteLength);
        },
        resolve: (end) => {
          done();
          out(rest + decoder.decode(), 0);
          void writes.then(() => resolve(end));
        },
        reject: (error) => {
          done();
          if (gone) resolve({ stderr: '', exitCode: 0 });
          else reject(error);
        },
      });
      this.#worker.ref();
      this.#worker.postMessage({ ...job, id } satisfies JqJob);
    });
  }

  /** Ends the thread (a filter that runs is stopped) and every job waiting on it with the error. */
  #end(error: Error): void {
    if (!this.#ended) {
      this.#ended = true;
      void this.#worker.terminate();
    }
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}

/** One thread per worker script, started by the first --jq of the process and kept until a run is interrupted. */
const threads = new Map<JqWorkerScript, JqThread>();

function jq(runner: JqRunner, job: Omit<JqJob, 'id'>, write?: JqWrite): Promise<JqEnd> {
  let thread = threads.get(runner.worker);
  if (!thread || thread.ended) {
    thread = new JqThread(runner.worker);
    threads.set(runner.worker, thread);
  }
  return thread.run(job, runner.signal, write);
}

/**
 * jq's own message, on one line, without its "jq: error:" prefix and compile-error count; the first line of
 * stderr when jq did not say it (halt_error). The data is jq's stdin, which jq calls <stdin> (jq-wasm gives it
 * as the file /dev/stdin). A compile error's position ends in a colon, with the filter's line and carets under
 * the offending text on the lines after it: they are said after the colon.
 */
function message(stderr: string): string {
  const lines = stderr
    .replaceAll('(at /dev/stdin:', '(at <stdin>:')
    .split('\n')
    .filter((line) => line.trim() && !/^jq: \d+ compile errors?$/.test(line.trim()));
  // jq's error, not what the filter wrote before it (debug, stderr).
  const index = lines.findIndex((line) => /^jq: (?:error\b|parse error:)/.test(line.trim()));
  let error = (lines[index] ?? lines[0])?.trim().replace(/^jq: error(?: \(at [^)]*\))?: /, '') ?? 'jq failed';
  const where = index >= 0 && error.endsWith(':') ? excerpt(lines[index + 1], lines[index + 2]) : undefined;
  if (where) error = `${error} ${where}`;
  return oneLine(error);
}

/** The widest part of the filter's line an error shows. */
const EXCERPT = 60;

/**
 * jq's quoted line ("    .a | foo(1)") and its carets ("         ^^^") as "'.a | foo(1)' (at 'foo')". jq
 * counts the carets' columns in bytes.
 */
function excerpt(quoted: string | undefined, carets: string | undefined): string | undefined {
  const marks = carets === undefined ? null : /^ {4}( *)(\^+)\s*$/.exec(carets);
  if (quoted === undefined || !quoted.startsWith('    ') || !marks) return undefined;
  const bytes = Buffer.from(quoted.slice(4), 'utf8');
  const before = bytes.subarray(0, marks[1]!.length).toString('utf8');
  const marked = bytes.subarray(marks[1]!.length, marks[1]!.length + marks[2]!.length).toString('utf8');
  const line = bytes.toString('utf8');
  const from = line.length <= EXCERPT ? 0 : Math.min(Math.max(0, before.length - EXCERPT / 2), line.length - EXCERPT);
  const shown = `${from > 0 ? '…' : ''}${line.slice(from, from + EXCERPT)}${from + EXCERPT < line.length ? '…' : ''}`;
  return `'${shown}'${marked.trim() ? ` (at '${marked}')` : ''}`;
}

/**
 * Refuses a filter jq cannot compile (exit 2), before the command sends anything. The filter is compiled, not
 * run: jq is given no input, so a filter that is slow, or fails on some data, is not run here.
 */
export async function checkJqFilter(filter: string, runner: JqRunner): Promise<void> {
  // The filter as it will run, after the prelude (each run of jq costs a few milliseconds: one is enough).
  const run = await jq(runner, { input: '', program: prelude(runner.env) + filter, flags: ['-r'] });
  if (run.exitCode === 0) return;
  // Compiled alone, for jq's message with the filter's own columns. Only a module directive (`module {...};`),
  // which must come first, compiles alone and not after the prelude.
  const alone = await jq(runner, { input: '', program: filter, flags: ['-r'] });
  if (alone.exitCode !== 0) throw new UsageError(`--jq: ${message(alone.stderr)}`);
  throw new UsageError(`--jq: ${message(run.stderr)}`, '--jq takes no module directive');
}

/**
 * Whether an environment variable may be seen by a filter ($ENV, env): not when its name says it holds a
 * credential (KEY, TOKEN, SECRET, PASS, AUTH or CREDENTIAL, in any case: CIP_API_KEY, GITHUB_TOKEN...), nor
 * when its value is a URL with a password in it (a proxy, a base URL).
 */
function shownToFilter(name: string, value: string): boolean {
  return !/KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL/i.test(name) && !/\/\/[^/?#@\s]*:[^/?#@\s]*@/.test(value);
}

/** The environment a filter sees as $ENV: the caller's, without credentials. */
export function jqEnvironment(env: Env): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    // Lone surrogates (jq refuses them in a string literal) as the replacement character.
    if (value !== undefined && shownToFilter(name, value)) shown[name] = value.replace(/\p{Cs}/gu, '\uFFFD');
  }
  return shown;
}

/**
 * What goes before the filter, on its first line: $ENV and env are the caller's environment, and
 * input_filename is null (the data comes on stdin), as for `jq FILTER` in a shell. The filter still starts on
 * line 1, so $__loc__ tells its lines as jq does; nothing comes after it, so a trailing comment is harmless.
 */
function prelude(env: Env): string {
  return `${JSON.stringify(jqEnvironment(env))} as $ENV | def env: $ENV; def input_filename: null; `;
}

/**
 * Runs the filter on the JSON text; what it prints goes to write as it comes (each result on its line, strings
 * raw). A filter that fails at run time has printed what came before the error; its failure is returned.
 */
export async function runJq(filter: string, json: string, runner: JqRunner, write: JqWrite): Promise<CipError | undefined> {
  const result = await jq(runner, { input: json, program: prelude(runner.env) + filter, flags: ['-r'] }, write);
  // A halt (exit 0, or halt_error with nothing to say) is a quiet end; what came before it is printed.
  if (result.exitCode === 0 || result.stderr.trim() === '') return undefined;
  return new CipError('filter', `--jq: ${message(result.stderr)}`, 'the command itself did its work; only the filter failed');
}
