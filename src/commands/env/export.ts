import { defineCommand } from '../define.js';
import { flag } from '../../cli/options.js';
import { isRecord } from '../../json/record.js';
import { redactData, writeData } from '../../output/writer.js';
import { withSpinner } from '../../terminal/spinner.js';
import { printable } from '../../text/sanitize.js';
import { SERVER_FIELDS, keyOf, withoutFields } from '../../domain/environments/plan.js';
import { KEY_OPTIONS } from '../options.js';
import { EXPORTED, exportedSection } from '../../domain/environments/since.js';
import { idOf } from '../../domain/environments/target.js';
import { ODATA_ETAG } from '../../domain/environments/version.js';

export default defineCommand({
  name: 'export',
  description: "write every environment as a file that 'env apply' accepts (YAML, or JSON with -o json)",
  // A file to keep in git: YAML unless JSON is asked for, at a terminal, in a file or in a pipe.
  outputs: ['yaml', 'json'],
  defaultOutput: 'yaml',
  options: {
    ...KEY_OPTIONS,
    allFields: flag('--all-fields', 'keep the fields the server manages (id, createdAt, updatedAt) too'),
  },
  notes: `The file is 'environments:' with a list of records, YAML unless -o json asks for JSON, with numbers exactly as
the API wrote them. The fields the server manages are left out (--ignore-fields changes the list, --all-fields
keeps them), so the file says only what can be set. Before the list, 'exported:' says where it was read (base URL,
enterprise) and holds a short digest of each field of each environment, by id: 'env apply' uses it to refuse to
undo a change someone made after the export (a field the server changed since, which the file would set back).
Keep it in the file; without it apply cannot tell. An environment without the key field (--key, default name),
or two with the same value, is named in a warning: apply could not tell them apart. A value that holds one of
the keys in use is written with the key as ***; apply and diff read such a value as the one the server holds.`,
  examples: [
    'cip env export > environments.yaml',
    'cip env export -o json > environments.json',
    'cip env export --ignore-fields id,createdAt,updatedAt,etag',
  ],
  async run(ctx, { key, ignoreFields, allFields }) {
    const api = await ctx.api();
    const items = await withSpinner(ctx.io, 'Loading environments', () => api.list());
    // An item's `@odata.etag` is the version it was read at, which `exported:` holds: not a field to set.
    const ignored = allFields ? [] : [...(ignoreFields ?? SERVER_FIELDS), ODATA_ETAG];
    const records = items.map((item) => (isRecord(item) ? withoutFields(item, ignored) : item));
    const seen = new Map<string, number>();
    let unkeyed = 0;
    for (const item of items) {
      const value = keyOf(item, key);
      if (value === undefined) unkeyed++;
      else seen.set(value, (seen.get(value) ?? 0) + 1);
    }
    if (unkeyed)
      ctx.io.warn(
        `${unkeyed} environment${unkeyed === 1 ? ' has' : 's have'} no '${printable(key)}': apply cannot match ${unkeyed === 1 ? 'it' : 'them'}`,
      );
    for (const [value, count] of seen) {
      if (count > 1)
        ctx.io.warn(`${count} environments have ${printable(key)} '${printable(value)}': apply will refuse them until they differ`);
    }
    // The writer masks keys; said here, since the file is meant to be applied again.
    if (redactData(ctx.io, records) !== records) {
      ctx.io.info("Values that hold a key in use are written with the key as ***; 'env apply' keeps them as the server holds them.");
    }
    // What was read, field by field, so that apply refuses to undo a change made after this export.
    const exported = exportedSection(
      api.settings,
      items.map((item, index) => ({ id: idOf(item), record: records[index] })),
    );
    // First, as a header: what is added to the file goes at its end, into environments:.
    await writeData(ctx.io, { [EXPORTED]: exported, environments: records });
  },
});
