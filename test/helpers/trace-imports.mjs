// `node --import ./trace-imports.mjs app.js` appends the file of every module the app loads, ES module or
// CommonJS (and node:<name> for each of Node's own modules the app requires), to the file named by TRACE_IMPORTS_FILE: tests use it to prove which code a command does (not)
// load. (CommonJS is traced through Module._load; run with NODE_DISABLE_COMPILE_CACHE=1 so that cip loads
// dist/cli.cjs by require rather than from its code cache.) The first read of process.stdin or process.stdout,
// which makes the stream (and loads its modules), is written as the line `process.stdin` or `process.stdout`.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.TRACE_IMPORTS_FILE;
if (file) {
  register(
    `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(file)}, url + '\\n');
  return next(url, context);
}`)}`,
  );
  for (const name of ['stdin', 'stdout']) {
    const stream = Object.getOwnPropertyDescriptor(process, name);
    let read = false;
    Object.defineProperty(process, name, {
      ...stream,
      get() {
        if (!read) appendFileSync(file, `process.${name}\n`);
        read = true;
        return stream.get.call(process);
      },
    });
  }
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    try {
      const resolved = Module._resolveFilename(request, parent, isMain);
      if (resolved.startsWith('/')) appendFileSync(file, `${pathToFileURL(resolved).href}\n`);
      // Node's own modules, as the app asks for them (node:net), written node:<name> whichever way it asked.
      else if (Module.isBuiltin(resolved)) appendFileSync(file, `node:${resolved.replace(/^node:/, '')}\n`);
    } catch {
      // Let the real load report it.
    }
    return load.apply(this, arguments);
  };
}
