import { environmentUrl } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { argument, completedFrom, flag, list } from '../../cli/options.js';
import { setOwn } from '../../json/record.js';
import { keepMasked, keptText, keyFor, mergeRecord, payloadFor } from '../../domain/environments/merge.js';
import { writeRecord, writeRequests } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { readInput } from '../io.js';
import { buildPayload } from '../../domain/environments/payload.js';
import { CONFIRM_OPTION, FORCE_OPTION, PAYLOAD_NOTES, PAYLOAD_OPTIONS, payloadInput } from '../options.js';
import { guardProtected } from '../../domain/profiles/protect.js';
import { checkPayloadVersion, guardedUpdate } from '../../domain/environments/conflict.js';
import { resolveForWrite } from '../../domain/environments/item.js';
import { withoutItemTag } from '../../domain/environments/version.js';
import { doneText, environmentLabel, nameOf, targetText } from '../../domain/environments/target.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { journaledApi } from '../../domain/journal/record.js';

/** The record without the fields named (any letter case); the names that matched nothing. */
function unsetFields(record: Record<string, unknown>, fields: readonly string[]): { result: Record<string, unknown>; absent: string[] } {
  const result: Record<string, unknown> = {};
  const gone = new Set<string>();
  const absent: string[] = [];
  for (const field of fields) {
    const key = keyFor(record, field);
    if (key === undefined) absent.push(field);
    else gone.add(key);
  }
  for (const key of Object.keys(record)) if (!gone.has(key)) setOwn(result, key, record[key]);
  return { result, absent };
}

export default defineCommand({
  name: 'update',
  description: 'change an environment: merge fields into it (or --replace it whole)',
  outputs: OUTPUT_FORMATS,
  args: { idOrName: completedFrom('environments', argument('<id-or-name>', 'environment id, or its exact name')) },
  options: {
    ...PAYLOAD_OPTIONS,
    replace: flag('--replace', 'send exactly the payload, replacing the whole environment (fields left out are reset)'),
    unset: list('--unset <field>', 'remove a top-level field (repeatable)', (text) => text),
    dryRun: flag('--dry-run', 'print the request that would be sent, send nothing'),
    force: FORCE_OPTION,
    confirm: CONFIRM_OPTION,
  },
  notes: `${PAYLOAD_NOTES}
By default the update merges: cip reads the environment, sets the payload's top-level fields over it, removes
the --unset fields, and sends the whole record with PUT, so every field you did not name is kept exactly as it
was. --replace sends exactly the payload, and the API resets the fields left out.
No lost updates: the PUT sends the environment's own ETag as If-Match (its @odata.etag, or the ETag of
GET {base}/Environments/{id} where the API has that read), else the list's, and an environment changed since
that read is refused (exit 6, saying what changed); nothing is overwritten. Without an ETag, cip reads it again
just before the PUT and refuses the same way; a change made between that read and the PUT (milliseconds) can
still be overwritten. A payload that carries a version (a file from 'env get' with its updatedAt or @odata.etag)
is refused when the environment changed since it was written. --replace is checked the same way. --force skips
the checks (docs/concurrency.md).
A payload whose id differs from the environment's is refused: it would write one environment's data over another's.
A value equal to the stored one as cip prints it (its keys as ***) is sent as the server holds it.
In a protected profile ('cip auth protect'), --replace and --unset ask for the profile's name; a script passes
--confirm NAME.`,
  examples: [
    'cip env update staging -f description="pre-production"',
    'cip env update 7d1c... -F isActive=false --unset tags',
    'cip env update staging --file env.json --replace',
    'cip env update staging -F isActive=false --dry-run',
  ],
  async run(ctx, { idOrName, replace, unset, dryRun, force, confirm, ...values }) {
    const input = payloadInput(values);
    const payload = await buildPayload(input, (path) => readInput(ctx, path, '--file'), unset.length > 0);
    const api = journaledApi(ctx, await ctx.api(), 'env update');
    // Resetting or removing fields in a protected profile asks for its name, before the environment is read; a
    // --confirm given is checked in any case.
    const removed = unset.length ? `remove ${unset.map((field) => printable(field)).join(', ')} from` : '';
    const change = replace
      ? `replace environment ${printable(idOrName)} whole${removed ? ` and ${removed} it` : ''}`
      : `${removed} environment ${printable(idOrName)}`;
    if (replace || removed || confirm !== undefined) await guardProtected(ctx, api.settings, { change, confirm, dryRun });
    const target = await resolveForWrite(ctx, api, idOrName);
    const { id, record } = target;
    // Checked in both modes; --replace still sends the payload as given, a null id included.
    const own = payloadFor(payload, id);
    // A value shown masked (a file written from `env get`) goes back as the server holds it.
    const { value: declared, kept } = keepMasked(replace ? payload : own, record, ctx.io.redact);
    if (kept.length) ctx.io.info(keptText(kept.map((field) => printable(field))));
    // A file written from an older version of the environment would put back what changed since.
    if (!force) {
      const document = input.file !== undefined || input.data !== undefined;
      checkPayloadVersion(target, declared, { redact: ctx.io.redact, detail: (text) => ctx.detail(text), document });
    }
    const { result: merged, absent } = unsetFields(replace ? declared : mergeRecord(record, declared), unset);
    const body = withoutItemTag(merged);
    for (const field of absent) ctx.io.warn(`--unset ${printable(field)}: the environment has no such field`);
    const label = environmentLabel(id, nameOf(body) ?? nameOf(record));
    if (dryRun) {
      await writeRequests(ctx.io, [{ method: 'PUT', url: environmentUrl(api.settings.baseUrl, id), body }]);
      ctx.io.info(doneText(`Dry run: nothing was sent to update ${label}`, targetText(api.settings)));
      return;
    }
    const updated = await withSpinner(ctx.io, 'Updating environment', () =>
      guardedUpdate(api, target, body, {
        force,
        compare: true,
        redact: ctx.io.redact,
        // Inside the spinner that says the update is under way.
        reread: target.reread,
        note: (text) => ctx.io.info(text),
        detail: (text) => ctx.detail(text),
      }),
    );
    await writeRecord(ctx.io, updated);
    ctx.io.info(doneText(`Updated ${environmentLabel(id, nameOf(updated) ?? nameOf(body) ?? nameOf(record))}`, targetText(api.settings)));
  },
});
