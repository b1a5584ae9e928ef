#!/usr/bin/env node
import module from 'node:module';
// Node >= 22.1 can keep compiled code between runs; older Nodes lack the function and skip it.
module.enableCompileCache?.();
const { main } = await import('../dist/main.js');
process.exitCode = await main();
