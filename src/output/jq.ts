// --jq: real jq (1.8, compiled to WebAssembly: nothing to download, loaded only when --jq is given). The data goes
// in as exact JSON text and jq keeps the digits of numbers it does not change; strings come out raw, as with
// `jq -r` and `gh --jq`.
import { UsageError } from '../errors.js';
import { oneLine } from '../text/sanitize.js';

type Jq = Awaited<ReturnType<typeof import('jq-wasm/inline').loadJq>>;
let loaded: Promise<Jq> | undefined;

function jq(): Promise<Jq> {
  loaded ??= import('jq-wasm/inline').then(({ loadJq }) => loadJq());
  return loaded;
}

/** jq's own message, on one line, without its "jq: error:" prefix and compile-error count. */
function message(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^jq: \d+ compile errors?$/.test(line));
  return oneLine((lines[0] ?? 'jq failed').replace(/^jq: error(?: \(at [^)]*\))?: /, ''));
}

/** Refuses a filter jq cannot compile (exit 2), before the command sends anything. */
export async function checkJqFilter(filter: string): Promise<void> {
  // Run on null: a compile error is exit 3; what the filter does with null (an error, say) does not matter here.
  const result = (await jq()).raw('null', filter, ['-r']);
  if (result.exitCode === 3) throw new UsageError(`--jq: ${message(result.stderr)}`);
}

// jq-wasm trims its output, which would eat white space that belongs to the first and last results (a @tsv
// line that ends in an empty field). Marker lines around the filter's output keep it whole.
const FENCE = `cip-jq-${Math.random().toString(36).slice(2)}`;

/** The filter's output for the JSON text: each result on its line, strings raw. */
export async function runJq(filter: string, json: string): Promise<string> {
  // The filter on lines of its own, so that a trailing # comment cannot swallow the closing parenthesis.
  const fenced = `"${FENCE}", (\n${filter}\n), "${FENCE}"`;
  const result = (await jq()).raw(json, fenced, ['-r']);
  if (result.exitCode !== 0 && result.stderr.trim() !== '') {
    throw new UsageError(`--jq: ${message(result.stderr)}`, 'the command itself did its work; only the filter failed');
  }
  // Each JSON value of the input (JSON Lines give several) has its results between two markers, each result
  // ending with a newline as jq -r writes it; the trim took the last newline. A halt leaves out the closing
  // marker, and what came before it is printed, as jq does.
  return result.stdout === '' ? '' : `${result.stdout}\n`.split(`${FENCE}\n`).join('');
}
