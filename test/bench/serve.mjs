// A sandbox in its own process for the benchmark, so serving never competes with the timing loop.
// Arguments: the number of environments (default 10) and the latency of every answer in ms (default 0).
// Prints one JSON line {url, keys}, then serves until stdin closes.
import { startSandbox } from '../../dist/sandbox.js';

const seed = Number(process.argv[2] ?? 10);
const latencyMs = Number(process.argv[3] ?? 0);
const sandbox = await startSandbox({ seed, cacheList: true, latencyMs });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, keys: sandbox.keys })}\n`);
process.stdin.resume();
process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
