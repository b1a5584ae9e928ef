// A sandbox in its own process for the benchmark, so serving never competes with the timing loop.
// Arguments: the number of environments (default 10), the latency of every answer in ms (default 0), and for
// HTTPS the paths of a key and a certificate. Prints one JSON line {url, keys}, then serves until stdin closes.
import { readFileSync } from 'node:fs';
import { startSandbox } from '../../dist/sandbox.js';

const [seed = '10', latencyMs = '0', keyPath, certPath] = process.argv.slice(2);
const tls = keyPath && certPath ? { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') } : undefined;
const sandbox = await startSandbox({ seed: Number(seed), cacheList: true, latencyMs: Number(latencyMs), ...(tls ? { tls } : {}) });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, keys: sandbox.keys })}\n`);
process.stdin.resume();
process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
