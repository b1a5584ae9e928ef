import { environmentUrl } from '../../api/environments.js';
import { defineCommand } from '../define.js';
import { choice, flag, option } from '../../cli/options.js';
import { CipError, UsageError } from '../../errors.js';
import { writeRecord, writeRequests } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { readInput } from '../io.js';
import { keepMasked, keptText, mergeRecord, payloadFor } from '../../domain/environments/merge.js';
import { buildPayload } from '../../domain/environments/payload.js';
import { FORCE_OPTION, PAYLOAD_NOTES, PAYLOAD_OPTIONS, payloadInput } from '../options.js';
import { checkPayloadVersion, guardedUpdate } from '../../domain/environments/conflict.js';
import { writeTarget } from '../../domain/environments/item.js';
import { withoutItemTag } from '../../domain/environments/version.js';
import { keyOf } from '../../domain/environments/plan.js';
import { checkAddressable, distinctById, readForLookup, sameIdConflict } from '../../domain/environments/resolve.js';
import { doneText, environmentLabel, idOf, nameOf, targetText } from '../../domain/environments/target.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { journaledApi } from '../../domain/journal/record.js';

export default defineCommand({
  name: 'create',
  description: 'create an environment (or, with --if-exists, find the one that exists)',
  outputs: OUTPUT_FORMATS,
  options: {
    ...PAYLOAD_OPTIONS,
    dryRun: flag('--dry-run', 'print the request that would be sent, send nothing'),
    ifExists: choice('--if-exists <what>', 'when one with the same --key exists: fail (exit 6), skip (print it), update (merge into it)', [
      'fail',
      'skip',
      'update',
    ] as const),
    key: option('--key <field>', 'the field --if-exists compares (default: name)', (text) => text.trim()),
    force: FORCE_OPTION,
  },
  notes: `${PAYLOAD_NOTES}
Without --if-exists, create always POSTs: run twice, it creates two environments. With it, cip first reads the list
and looks for an environment whose --key field (default name) equals the payload's: 'fail' exits 6 naming it and
sends nothing; 'skip' prints it and exits 0 (so '| jq -r .id' works on every run); 'update' merges the payload
into it, as 'env update' does, with its check that the environment did not change meanwhile (--force skips it).`,
  examples: [
    'cip env create -f name=staging -F isActive=true',
    `cip env create --data '{"name":"staging","description":"pre-production"}'`,
    'cip env create --file env.yaml',
    'cip env create -f name=review-42 --if-exists skip | jq -r .id',
    'cip env create -f name=staging --dry-run',
  ],
  async run(ctx, { dryRun, ifExists, key: keyOption, force, ...values }) {
    if (keyOption !== undefined && ifExists === undefined)
      throw new UsageError('--key is for --if-exists', 'add --if-exists fail, skip or update');
    if (force && ifExists !== 'update') throw new UsageError('--force is for --if-exists update', 'it skips the check of a merge');
    const key = keyOption ?? 'name';
    const payload = await buildPayload(payloadInput(values), (path) => readInput(ctx, path, '--file'));
    const wanted = ifExists === undefined ? undefined : keyOf(payload, key);
    if (ifExists !== undefined && wanted === undefined) {
      throw new UsageError(
        `--if-exists needs the payload's '${printable(key)}' to look for`,
        `set it, for example -f ${printable(key)}=...`,
      );
    }
    const api = journaledApi(ctx, await ctx.api(), 'env create');
    const target = targetText(api.settings);

    if (ifExists !== undefined && wanted !== undefined) {
      const { items, validator } = await readForLookup(ctx, api);
      const matches = distinctById(items).filter((item) => keyOf(item, key) === wanted);
      if (matches.length > 1) {
        const conflict = sameIdConflict(matches);
        if (conflict) throw conflict;
        const ids = matches.map((item) => printable(idOf(item) ?? '(no id)')).join(', ');
        throw new UsageError(`${matches.length} environments have ${printable(key)} '${printable(wanted)}': ${ids}`, 'nothing was sent');
      }
      const existing = matches[0] as Record<string, unknown> | undefined;
      const id = idOf(existing);
      if (existing !== undefined && id !== undefined) {
        const label = environmentLabel(id, nameOf(existing));
        if (ifExists === 'fail') {
          const named = key.toLowerCase() === 'name' ? 'named' : `with ${printable(key)}`;
          throw new CipError(
            'rejected',
            `an environment ${named} '${printable(wanted)}' already exists (id ${printable(id)}) ${target}`,
            'nothing was sent',
          );
        }
        if (ifExists === 'skip') {
          await writeRecord(ctx.io, existing);
          ctx.io.info(doneText(`The ${label} already exists; nothing was sent`, target));
          return;
        }
        // Merged as 'env update' merges: refused when the payload carries another environment's id, and a value
        // shown masked goes back as the server holds it.
        checkAddressable({ id, name: nameOf(existing) });
        const found = await writeTarget(
          api,
          { id, name: nameOf(existing), record: existing },
          validator,
          () => api.read(),
          (text) => ctx.detail(text),
        );
        const { value: declared, kept } = keepMasked(payloadFor(payload, id), found.record, ctx.io.redact);
        if (kept.length) ctx.io.info(keptText(kept.map((field) => printable(field))));
        if (!force) checkPayloadVersion(found, declared, { redact: ctx.io.redact, detail: (text) => ctx.detail(text), document: false });
        const body = withoutItemTag(mergeRecord(found.record, declared));
        if (dryRun) {
          await writeRequests(ctx.io, [{ method: 'PUT', url: environmentUrl(api.settings.baseUrl, id), body }]);
          ctx.io.info(doneText(`Dry run: nothing was sent to update the existing ${label}`, target));
          return;
        }
        const updated = await withSpinner(ctx.io, 'Updating environment', () =>
          guardedUpdate(api, found, body, {
            force,
            compare: true,
            redact: ctx.io.redact,
            // Inside the spinner that says the update is under way.
            reread: found.reread,
            note: (text) => ctx.io.info(text),
            detail: (text) => ctx.detail(text),
          }),
        );
        await writeRecord(ctx.io, updated ?? body);
        ctx.io.info(doneText(`Updated the existing ${label}`, target));
        return;
      }
    }

    if (dryRun) {
      await writeRequests(ctx.io, [{ method: 'POST', url: environmentUrl(api.settings.baseUrl), body: payload }]);
      ctx.io.info(doneText(`Dry run: nothing was sent to create ${environmentLabel(undefined, nameOf(payload))}`, target));
      return;
    }
    const created = await withSpinner(ctx.io, 'Creating environment', () => api.create(payload));
    await writeRecord(ctx.io, created);
    const label = environmentLabel(idOf(created), nameOf(created) ?? nameOf(payload));
    ctx.io.info(doneText(`Created ${label}${created === undefined ? ' (the API returned no body)' : ''}`, target));
  },
});
