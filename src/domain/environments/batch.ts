// Work on many environments at once (delete, apply): at most `concurrency` requests under way, a failure
// that does not stop the others, a live count at a terminal (`Deleting 57/200`), one line per item otherwise,
// and an interrupt that stops new work and says what became of each item. The exit code follows one rule:
// all done 0; all failed, the failure's own code; some failed, 9 (partly done).
import type { Context } from '../../context.js';
import { CipError, InexactReadError, InterruptedError, UsageError, restated } from '../../errors.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { doneText } from './target.js';

/** What became of one item. `line` is what a person is told; an error's message says it for a failure. */
export type ItemState =
  { state: 'done' | 'missing'; line: string } | { state: 'failed'; error: CipError } | { state: 'under-way' } | { state: 'not-attempted' };

export interface Batch<T> {
  items: readonly T[];
  concurrency: number;
  /** 'Deleting': the spinner says `Deleting 3/10`, or `Deleting <what>` for a single item. */
  verb: string;
  describe(item: T): string;
  /** Does one item; a CipError it throws is that item's failure (the others go on). */
  run(item: T): Promise<{ state: 'done' | 'missing'; line: string }>;
}

export async function runBatch<T>(ctx: Context, batch: Batch<T>): Promise<{ states: ItemState[]; interrupted: boolean }> {
  const { items } = batch;
  const states: ItemState[] = items.map(() => ({ state: 'not-attempted' }));
  const single = items.length === 1;
  const heldLines: string[] = [];
  let next = 0;
  let finished = 0;
  let interrupted = false;
  /** A refusal every item would meet (nothing was sent): the batch stops, and it is the command's error. */
  let refused: InexactReadError | undefined;
  // A function, so that the check after an await is not narrowed away.
  const aborted = () => ctx.signal.aborted;
  const report = (line: string, failed: boolean) => {
    // One item's failure is the command's error line; nothing to say twice.
    if (single && failed) return;
    // At a terminal the spinner holds the line: failures are listed once it stops, successes only counted.
    if (ctx.io.spinnerEnabled && !single) {
      if (failed) heldLines.push(line);
    } else if (failed) ctx.io.warn(line);
    else ctx.io.info(line);
  };
  const first = items[0];
  const spinnerText = single && first !== undefined ? `${batch.verb} ${batch.describe(first)}` : `${batch.verb} 0/${items.length}`;
  await withSpinner(ctx.io, spinnerText, async (setText) => {
    const worker = async () => {
      while (next < items.length && !interrupted && !refused) {
        if (aborted()) {
          interrupted = true;
          break;
        }
        const index = next++;
        try {
          const outcome = await batch.run(items[index]!);
          states[index] = outcome;
          report(outcome.line, false);
        } catch (error) {
          if (error instanceof InterruptedError || aborted()) {
            interrupted = true;
            states[index] = { state: 'under-way' };
            break;
          }
          if (!(error instanceof CipError)) throw error;
          if (error instanceof InexactReadError) {
            refused ??= error;
            break;
          }
          states[index] = { state: 'failed', error };
          report(error.message, true);
        }
        finished++;
        if (!single) setText(`${batch.verb} ${finished}/${items.length}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(batch.concurrency, items.length) }, worker));
  });
  for (const line of heldLines) ctx.io.warn(line);
  if (refused) throw refused;
  return { states, interrupted };
}

/** The error text a state leaves in a JSON result (keys redacted), or null; doneWord as in Finish. */
export function stateError(ctx: Context, state: ItemState, doneWord: string): string | null {
  if (state.state === 'failed') return ctx.redact(state.error.message);
  if (state.state === 'under-way') return `interrupted while under way: it may or may not have been ${doneWord}`;
  if (state.state === 'not-attempted') return 'not attempted: interrupted';
  return null;
}

export interface Finish {
  /** The items as people know them, in order, for the interrupt report: `name (id)` for an environment. */
  names: readonly string[];
  states: readonly ItemState[];
  interrupted: boolean;
  /** Items already known to be done without a request (delete --if-missing ok of an unknown name). */
  alsoMissing?: number;
  /** 'deleted', 'changed': the word for done in the summary. */
  doneWord: string;
  /** "in profile 'p', enterprise ..." */
  target: string;
  /**
   * After an interrupt, the command that finishes the job: the one that does these items (by index: those failed,
   * under way or not attempted), quoted for a shell. Said last.
   */
  resume?: (left: readonly number[]) => string;
}

/** Ends a batch: the summary line, and the exit code as an error when not all is done. */
export function finishBatch(ctx: Context, { names, states, interrupted, alsoMissing = 0, doneWord, target, resume }: Finish): void {
  const count = (kind: ItemState['state']) => states.filter((state) => state.state === kind).length;
  const all = states.length + alsoMissing;
  if (interrupted) {
    // A script must know what is left to do: what is done, what may be, what was never tried, and how to finish.
    const left = states.flatMap((state, index) => (state.state === 'done' || state.state === 'missing' ? [] : [index]));
    if (all > 1) ctx.io.warn(interruptReport(ctx, names, states, doneWord, left.length && resume ? resume(left) : undefined));
    throw new InterruptedError();
  }
  const failures = states.flatMap((state) => (state.state === 'failed' ? [state.error] : []));
  if (all === 1) {
    if (failures[0]) throw failures[0];
    return;
  }
  const missing = count('missing') + alsoMissing;
  const counts = `${count('done')} ${doneWord}${missing ? `, ${missing} missing` : ''}, ${failures.length} failed of ${all}`;
  const summary = `${counts} ${target}`;
  if (!failures[0]) {
    ctx.io.info(doneText(`Done: ${counts}`, target));
    return;
  }
  if (failures.length === all) {
    throw restated(failures[0], `nothing was ${doneWord}: ${summary}; the first failure: ${failures[0].message}`);
  }
  throw new CipError('partial', `partly done: ${summary}`, 'the failed ones are listed above; run the command again for them');
}

/**
 * What became of each item after an interrupt, and the command that finishes the job (last). At a terminal, one
 * item a line under a count of each kind; in a log, one line that says it all.
 */
function interruptReport(
  ctx: Context,
  names: readonly string[],
  states: readonly ItemState[],
  doneWord: string,
  resume: string | undefined,
): string {
  const picked = (kind: ItemState['state']) => names.filter((_name, index) => states[index]?.state === kind).map((name) => printable(name));
  const done = picked('done');
  const failed = picked('failed');
  const underWay = picked('under-way');
  const notAttempted = picked('not-attempted');
  const unknown = underWay.length === 1 ? 'the one under way may be' : `the ${underWay.length} under way may be`;
  if (ctx.io.stderrIsTTY) {
    const counts = [
      `${done.length} ${doneWord}`,
      ...(failed.length ? [`${failed.length} failed`] : []),
      ...(underWay.length ? [`${underWay.length} under way (may or may not have been ${doneWord})`] : []),
      `${notAttempted.length} not attempted`,
    ];
    const rows = [
      ...done.map((name) => `  ${doneWord}: ${name}`),
      ...failed.map((name) => `  failed: ${name}`),
      ...underWay.map((name) => `  under way: ${name}`),
      ...notAttempted.map((name) => `  not attempted: ${name}`),
      ...(resume === undefined ? [] : [`To finish${underWay.length ? ` (${unknown} ${doneWord} already)` : ''}: ${resume}`]),
    ];
    return [`interrupted: ${counts.join(', ')}`, ...rows].join('\n');
  }
  const list = (items: string[]) => (items.length ? items.join(', ') : 'none');
  const failures = failed.length ? ` failed: ${list(failed)};` : '';
  const mayBe = underWay.length ? ` ${list(underWay)} may or may not have been ${doneWord} (its request was under way);` : '';
  const finish = resume === undefined ? '' : `; to finish: ${resume}`;
  return `interrupted: ${doneWord} ${list(done)};${failures}${mayBe} not attempted: ${list(notAttempted)}${finish}`;
}

/**
 * Refuses work that needs a yes when nobody can be asked (a pipe, CI, --quiet): said before anything is read or
 * sent, so a script that forgot --yes learns it at once. At a terminal the hint says why no question came.
 */
export function refuseUnconfirmed(ctx: Context, action: string, advice = 'pass --yes to confirm'): UsageError {
  const why = ctx.io.stdinIsTTY && ctx.io.stderrIsTTY ? `${ctx.io.noPromptReason}; ` : '';
  return new UsageError(`refusing to ${action} without confirmation`, `${why}${advice}`);
}
