// `node --import ./trace-imports.mjs app.js` appends every module URL the app loads to the file named by
// TRACE_IMPORTS_FILE: tests use it to prove which code a command does (not) load.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (process.env.TRACE_IMPORTS_FILE) appendFileSync(process.env.TRACE_IMPORTS_FILE, url + '\\n');
  return next(url, context);
}`)}`,
);
