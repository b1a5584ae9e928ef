// @ts-check
// `npx stryker run stryker.unit.config.mjs --mutate ...`: the mutation run with only the unit tests
// (vitest.mutation-unit.config.ts), for modules that every in-process test reaches. See test/MUTATION.md.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default { ...base, vitest: { configFile: 'vitest.mutation-unit.config.ts' } };
