import { environmentUrl, type EnvironmentsApi } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { argument, choice, completedFrom, flag, type ValuesOf } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { ResolvedSettings } from '../../config/credentials/settings.js';
import { ApiError, ExitOnly, UsageError } from '../../errors.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { writeRequests, writeResult } from '../../output/writer.js';
import { confirm } from '../../terminal/prompt.js';
import { printable } from '../../text/sanitize.js';
import { shellQuote } from '../../text/shell.js';
import { readInput } from '../io.js';
import { finishBatch, refuseUnconfirmed, runBatch, stateError, type Batch } from '../../domain/environments/batch.js';
import { CONFIRM_OPTION, DEFAULT_CONCURRENCY, concurrencyOption } from '../options.js';
import { guardProtected, refuseUnconfirmedProtected } from '../../domain/profiles/protect.js';
import { checkAddressable, listForLookup, notFound, resolveIn, type ResolvedEnvironment } from '../../domain/environments/resolve.js';
import { doneText, environmentLabel, itemText, targetText } from '../../domain/environments/target.js';
import { journaledApi } from '../../domain/journal/record.js';
import { undoOfDelete } from '../../domain/journal/restore.js';

const OPTIONS = {
  yes: flag('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
  dryRun: flag('--dry-run', 'print the requests that would be sent, send nothing'),
  concurrency: concurrencyOption('deletes'),
  ifMissing: choice('--if-missing <what>', "'ok': an environment that is not there counts as done (result missing)", [
    'fail',
    'ok',
  ] as const),
  stdin: flag('--stdin', 'read ids or names from stdin, one per line (besides any given as arguments)'),
  confirm: CONFIRM_OPTION,
};

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  description: 'delete environments by id or name (asks first at a terminal)',
  outputs: OUTPUT_FORMATS,
  args: { idsOrNames: completedFrom('environments', argument('[id-or-name...]', 'environment ids, or their exact names')) },
  options: OPTIONS,
  notes: `Every id or name is looked up first, in one read of the list: a name that matches nothing fails the whole
command before anything is deleted (unless --if-missing ok), and a name two environments share is refused.
The question names each environment, the profile and the enterprise, and whether 'cip env restore' can re-create
it from the journal. Deletes then run ${DEFAULT_CONCURRENCY} at a time (--concurrency), and a failure does not stop the others.
After Ctrl-C or SIGTERM, the last line says what was deleted, what may have been, what was not attempted, and the
command that finishes the job. In JSON output, stdout gets one result per environment:
[{"given", "id", "name", "result": "deleted" | "missing" | "failed", "error"}]: "given" is the id or name as
given; "id" and "name" are the environment's (null for one that matched nothing).
Exit codes: 0 when every one is gone; when all failed, the failure's code (5 for not found, ...); 9 when some failed.
In a protected profile ('cip auth protect'), the question asks for the profile's name, --yes or not; a script
passes --confirm NAME.`,
  examples: [
    'cip env delete staging',
    'cip env delete 7d1c... 9a0b... --yes',
    'cip env list --json | jq -r \'.[] | select(.name | startswith("review-")) | .id\' | cip env delete --stdin --yes',
    'cip env delete review-41 review-42 --if-missing ok --yes --dry-run',
  ],
  run: remove,
});

type Values = ValuesOf<{ idsOrNames: ReturnType<typeof argument<'[id-or-name...]'>> } & typeof OPTIONS>;

/** What became of one environment: the JSON result a script reads. */
interface DeleteResult {
  /** The id or name as the user gave it. */
  given: string;
  /** null for a name or id that matched no environment. */
  id: string | null;
  name: string | null;
  result: 'deleted' | 'missing' | 'failed';
  error: string | null;
}

/**
 * The arguments and, with --stdin, the lines of stdin, each once. A line is a name exactly as it stands: only
 * its end (LF or CR LF) is dropped, and empty lines are skipped. Trimming would make ' x' delete 'x'.
 */
async function wantedOf(ctx: Context, { idsOrNames, stdin }: Values): Promise<string[]> {
  const given = [...idsOrNames];
  if (stdin) {
    const text = await readInput(ctx, '-', '--stdin');
    given.push(...text.split(/\r?\n/).filter((line) => line !== ''));
  }
  // A name is looked up as it is ('..' may be one); only the ids found are checked as paths (resolve.ts).
  for (const argument of given) {
    if (argument.trim() === '') throw new UsageError('an environment id or name cannot be empty');
  }
  const unique = [...new Set(given)];
  if (!unique.length && !stdin) throw new UsageError('give the ids or names of the environments to delete, or --stdin');
  return unique;
}

/**
 * The question before a delete: a protected profile asks for its name instead (every environment named), whatever
 * --yes says; else a prompt unless --yes. Declined: nothing was deleted, exit 2.
 */
async function confirmDelete(
  ctx: Context,
  settings: ResolvedSettings,
  {
    environments,
    label,
    target,
    named,
    values,
  }: {
    environments: ResolvedEnvironment[];
    label: (environment: ResolvedEnvironment) => string;
    target: string;
    named: boolean;
    values: Values;
  },
): Promise<void> {
  const short = (environment: ResolvedEnvironment) => label(environment).replace(/^environment /, '');
  const listed = environments.map((environment) => `  ${short(environment)}`);
  // Whether, and how, the journal can undo it: said in the question, which is where it matters.
  const undo = undoOfDelete(
    ctx,
    environments.map((environment) => ({ label: short(environment), record: environment.record })),
  );
  const change =
    environments.length === 1
      ? `delete ${label(environments[0]!)}. ${undo}`
      : [`delete ${environments.length} environments:`, ...listed, undo].join('\n');
  if (!named && !(await guardProtected(ctx, settings, { change, confirm: values.confirm, yes: values.yes })) && !values.yes) {
    // The target once; several environments one short line each, not one line of every name and id.
    const question =
      environments.length === 1
        ? `Delete ${label(environments[0]!)} ${target}? ${undo}.`
        : [`Delete ${environments.length} environments ${target}?`, ...listed, `${undo}.`].join('\n');
    if (!(await confirm(ctx.io, question))) {
      // As gh ends a declined prompt: said plainly, not as an error, and exit 2 for a script's sake.
      ctx.io.info('Nothing was deleted.');
      throw new ExitOnly('usage', 'nothing deleted: not confirmed');
    }
  }
}

/** Deletes one environment: gone already (an earlier attempt's answer lost) is done; 404 with --if-missing ok is missing. */
function deleteOne(
  api: EnvironmentsApi,
  {
    label,
    target,
    single,
    ifMissing,
  }: { label: (environment: ResolvedEnvironment) => string; target: string; single: boolean; ifMissing: Values['ifMissing'] },
) {
  return async (environment: ResolvedEnvironment): ReturnType<Batch<ResolvedEnvironment>['run']> => {
    try {
      const { alreadyGone } = await api.remove(environment.id);
      return {
        state: 'done',
        line: itemText(
          alreadyGone
            ? `The ${label(environment)} was already gone: an earlier attempt deleted it, but its answer was lost`
            : `Deleted ${label(environment)}`,
          target,
          single,
        ),
      };
    } catch (error) {
      if (ifMissing === 'ok' && error instanceof ApiError && error.status === 404) {
        return {
          state: 'missing',
          line: itemText(`The ${label(environment)} was not there (HTTP 404): nothing to delete`, target, single),
        };
      }
      throw error;
    }
  };
}

async function remove(ctx: Context, values: Values): Promise<void> {
  const wanted = await wantedOf(ctx, values);
  // A pipe that selected nothing (no review-* environment left) has nothing to do: that is not a failure.
  if (!wanted.length) {
    ctx.io.info('stdin held no ids or names: nothing to delete.');
    await writeResult(ctx.io, []);
    return;
  }
  const api = journaledApi(ctx, await ctx.api(), 'env delete');
  const target = targetText(api.settings);
  const what = wanted.length === 1 ? `environment ${printable(wanted[0]!)}` : `${wanted.length} environments`;
  const named = refuseUnconfirmedProtected(ctx, api.settings, {
    change: `delete ${what}`,
    confirm: values.confirm,
    dryRun: values.dryRun,
    yes: values.yes,
  });
  // Refused before anything is read: a script that forgot --yes learns it at once, and nothing is sent.
  if (!values.yes && !named && !values.dryRun && !ctx.io.canPrompt) {
    throw refuseUnconfirmed(ctx, `delete ${what} ${target}`);
  }
  const { found, missing } = resolveIn(await listForLookup(ctx, api), wanted);
  if (missing.length && values.ifMissing !== 'ok') throw notFound(missing);
  // An id and its name given together are one environment.
  const environments = [...new Map(found.map((environment) => [environment.id, environment])).values()];
  for (const environment of environments) checkAddressable(environment);
  const label = (environment: ResolvedEnvironment) => environmentLabel(environment.id, environment.name);
  const absent: DeleteResult[] = missing.map((argument) => ({ given: argument, id: null, name: null, result: 'missing', error: null }));

  if (values.dryRun) {
    await writeRequests(
      ctx.io,
      environments.map(({ id }) => ({ method: 'DELETE', url: environmentUrl(api.settings.baseUrl, id) })),
    );
    for (const argument of missing) ctx.io.info(`'${printable(argument)}' is no environment's id or name: nothing to delete.`);
    ctx.io.info(doneText('Dry run: nothing was deleted', target));
    return;
  }
  if (!environments.length) {
    for (const argument of missing) ctx.io.info(`'${printable(argument)}' is no environment's id or name: nothing to delete.`);
    await writeResult(ctx.io, absent);
    return;
  }
  await confirmDelete(ctx, api.settings, { environments, label, target, named, values });

  for (const argument of missing) ctx.io.info(`'${printable(argument)}' is no environment's id or name: nothing to delete.`);
  const single = environments.length + absent.length === 1;
  const { states, interrupted } = await runBatch(ctx, {
    items: environments,
    concurrency: values.concurrency,
    verb: 'Deleting',
    describe: label,
    run: deleteOne(api, { label, target, single, ifMissing: values.ifMissing }),
  });
  const results: DeleteResult[] = [
    ...absent,
    ...environments.map((environment, index): DeleteResult => {
      const state = states[index]!;
      return {
        given: environment.argument,
        id: environment.id,
        name: environment.name ?? null,
        result: state.state === 'done' ? 'deleted' : state.state === 'missing' ? 'missing' : 'failed',
        error: stateError(ctx, state, 'deleted'),
      };
    }),
  ];
  await writeResult(ctx.io, results);
  finishBatch(ctx, {
    names: environments.map(({ id, name }) => (name === undefined ? id : `${name} (${id})`)),
    states,
    interrupted,
    alsoMissing: absent.length,
    doneWord: 'deleted',
    target,
    resume: (left) => {
      // An item whose request was under way may be gone already: --if-missing ok makes that done.
      const uncertain = left.some((index) => states[index]!.state === 'under-way');
      return finishCommand(
        ctx,
        left.map((index) => environments[index]!.id),
        { ...values, ifMissing: uncertain ? 'ok' : values.ifMissing },
        api.settings.profile,
      );
    },
  });
}

/**
 * The `cip env delete` that finishes an interrupted one: the ids left, where the same run would act (the profile
 * it used; the base URL and enterprise id given as flags), with its answers (--yes, --confirm), quoted for a shell.
 */
function finishCommand(ctx: Context, ids: readonly string[], values: Values, profile: string | undefined): string {
  const { baseUrl, enterpriseId, journal } = ctx.globals;
  const options = [
    ...(profile === undefined ? [] : ['--profile', profile]),
    ...(baseUrl === undefined ? [] : ['--base-url', baseUrl]),
    ...(enterpriseId === undefined ? [] : ['--enterprise-id', enterpriseId]),
    ...(values.ifMissing === 'ok' ? ['--if-missing', 'ok'] : []),
    ...(journal ? [] : ['--no-journal']),
    ...(values.confirm === undefined ? [] : ['--confirm', values.confirm]),
    ...(values.yes ? ['--yes'] : []),
  ];
  // An id that starts with '-' would be read as an option: the ids then follow the options and '--'.
  const words = ids.some((id) => id.startsWith('-')) ? [...options, '--', ...ids] : [...ids, ...options];
  return ['cip env delete', ...words.map(shellQuote)].join(' ');
}
