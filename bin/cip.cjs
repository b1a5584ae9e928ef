#!/usr/bin/env node
// A CommonJS launcher, as the rest of the build (ARCHITECTURE.md, "Build and start-up"): on Node 20 a CommonJS
// entry spared Node's ES module loader, about 4 ms of CPU a run; on Node 24 and 26 both cost the same.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// `cip --version`, the most frequent call in scripts, is answered here: loading dist/main.cjs cost it 1.5 ms, a
// twentieth of its run. The version is package.json's, the one scripts/build.mjs builds into dist/. Anything that
// goes wrong (a write that fails or is cut short, a package.json that cannot be read) leaves it to dist/main.cjs,
// which reports a failed write as every command does.
const argv = process.argv.slice(2);
if (!(argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V') && writeVersion())) {
  require('../dist/main.cjs')
    .main()
    .then((code) => {
      process.exitCode = code;
    });
}

function writeVersion() {
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    if (typeof version !== 'string') return false;
    const line = `${version}\n`;
    return fs.writeSync(1, line) === Buffer.byteLength(line);
  } catch {
    return false;
  }
}
