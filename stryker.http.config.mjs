// @ts-check
// `npx stryker run stryker.http.config.mjs --mutate ...`: the mutation run over the request path and the command
// tree with the unit tests and the in-process tests written for them (vitest.mutation-http.config.ts). See
// test/MUTATION.md.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default { ...base, vitest: { configFile: 'vitest.mutation-http.config.ts' } };
