// @ts-check
// Changes scripts/build.mjs makes to third-party code as it bundles it, each for a cost measured at every run of
// cip. Each replaces one exact text, and the build fails if that text is not there (a new version of the
// package): the change is then looked at again, never applied blindly. test/tooling/patches.test.ts holds each
// replacement equal to what it replaces.

/** @typedef {{ file: RegExp, from: string, to: string, why: string }} Patch */

/** @type {Patch[]} */
export const PATCHES = [
  {
    // commander's Option tells a variadic option (`--tag <name...>`) by a regular expression with a Unicode
    // property, which V8 compiles from ICU's tables the first time it runs: 0.4 ms of every run of cip, for
    // every command (the first option made is --version's). Tested first by the suffix, it is compiled only for
    // flags that end the way a variadic option's do; cip declares none.
    file: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]option\.js$/,
    from: 'this.variadic = /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);',
    to: 'this.variadic = /\\.\\.\\.[>\\]]$/.test(flags) && /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);',
    why: "a Unicode property compiled at every run (commander's variadic test)",
  },
];

/**
 * The text of a file with the patches for it made; throws when one's text is not there.
 * @param {string} path
 * @param {string} text
 */
export function patched(path, text) {
  let result = text;
  for (const { file, from, to, why } of PATCHES) {
    if (!file.test(path)) continue;
    if (!result.includes(from)) throw new Error(`${path}: the text to patch (${why}) is not there: look at scripts/patches.mjs again`);
    result = result.replace(from, to);
  }
  return result;
}
