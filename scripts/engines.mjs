// @ts-check
// The Node versions cip supports, as package.json's engines.node names them: a `||` of `^X.Y.Z` (that release
// line from X.Y.Z) and `>=X.Y.Z` (that release and every later one). npm's semver reads more; this reads only
// these two, and throws on anything else, so a check never passes by misreading a range. The test run checks
// the running Node against it (scripts/pretest.mjs), and the build targets its lowest version (scripts/build.mjs).
import { readFileSync } from 'node:fs';

/** package.json's engines.node. */
export const SUPPORTED = /** @type {{ engines: { node: string } }} */ (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
).engines.node;

/** @typedef {[number, number, number]} Version */

/** @param {string} text @returns {Version} */
function parse(text) {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!match) throw new Error(`not a version: '${text}'`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** @param {Version} a @param {Version} b */
const compare = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** @param {string} range @returns {{ caret: boolean, from: Version }[]} */
function comparators(range) {
  return range.split('||').map((part) => {
    const match = /^\s*(\^|>=)(\d+\.\d+\.\d+)\s*$/.exec(part);
    if (!match) throw new Error(`engines.node: '${part.trim()}' is not '^X.Y.Z' or '>=X.Y.Z' (scripts/engines.mjs reads only those)`);
    return { caret: match[1] === '^', from: parse(match[2] ?? '') };
  });
}

/** Whether a Node version (process.versions.node) is in the range. @param {string} range @param {string} version */
export function supports(range, version) {
  const v = parse(version);
  return comparators(range).some(({ caret, from }) => compare(v, from) >= 0 && (!caret || v[0] === from[0]));
}

/** The lowest version in the range, as "X.Y.Z". @param {string} range */
export function lowest(range) {
  const [low] = comparators(range)
    .map(({ from }) => from)
    .sort(compare);
  return /** @type {Version} */ (low).join('.');
}
