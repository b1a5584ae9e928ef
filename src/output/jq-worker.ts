// The thread --jq runs in (built as dist/jq-worker.cjs). Real jq, compiled to WebAssembly, runs synchronously,
// so a filter such as `range(1e9)` would hold the main thread and with it Ctrl-C. Here it holds only this
// thread, which output/jq.ts ends (Worker.terminate) when the run is interrupted. It takes one job at a time.
//
// What jq writes goes to the main thread as it comes, as jq's own writes to stdout would: jq-wasm would keep it
// all until the filter ends (and trim it). jq's writes (WASI fd_write) to stdout and stderr are taken where
// the module imports them. The main thread says how much it has written: past MAX_UNWRITTEN bytes not yet
// written, this thread waits, as jq waits on a full pipe.
import { parentPort, workerData } from 'node:worker_threads';
import { loadJq } from 'jq-wasm/inline';

/** One run of jq: the input on its stdin, the program, the flags before it. */
export interface JqJob {
  id: number;
  input: string;
  program: string;
  flags: string[];
}

/** What the thread posts: output as it comes, then the end of the run. */
export type JqMessage = { id: number; stdout: Uint8Array } | { id: number; stderr: string; exitCode: number };

/** The thread's data: one Int32, the bytes posted that the main thread has not written yet. */
export interface JqWorkerData {
  unwritten: SharedArrayBuffer;
}

/** Output is posted in pieces of about this size (and at the end of a run). */
const PIECE = 64 * 1024;
/** The most output posted and not yet written before jq waits. */
export const MAX_UNWRITTEN = 1024 * 1024;
/** What is kept of stderr: jq's error comes first; a filter that writes much there with `stderr` is cut. */
const MAX_STDERR = 64 * 1024;

const unwritten = new Int32Array((workerData as JqWorkerData).unwritten);
let memory: WebAssembly.Memory | undefined;
/** Whether jq's writes are taken (fd_write found); else jq-wasm's own result is used. */
let taken = false;
let job: { id: number; pieces: Uint8Array[]; size: number; stderr: string } | undefined;

function post(): void {
  if (!job?.size) return;
  const stdout = Buffer.concat(job.pieces, job.size);
  job.pieces = [];
  job.size = 0;
  Atomics.add(unwritten, 0, stdout.byteLength);
  parentPort!.postMessage({ id: job.id, stdout } satisfies JqMessage);
  for (let now = Atomics.load(unwritten, 0); now > MAX_UNWRITTEN; now = Atomics.load(unwritten, 0)) {
    Atomics.wait(unwritten, 0, now);
  }
}

/** WASI fd_write, for jq's stdout and stderr: the bytes of each iovec, as jq wrote them. */
function fdWrite(original: (...args: number[]) => number) {
  return (fd: number, iovs: number, count: number, written: number): number => {
    if ((fd !== 1 && fd !== 2) || !memory || !job) return original(fd, iovs, count, written);
    const view = new DataView(memory.buffer);
    let total = 0;
    for (let index = 0; index < count; index++) {
      const start = view.getUint32(iovs + index * 8, true);
      const length = view.getUint32(iovs + index * 8 + 4, true);
      const bytes = new Uint8Array(memory.buffer, start, length).slice();
      total += length;
      if (fd === 2) {
        if (job.stderr.length < MAX_STDERR) job.stderr += Buffer.from(bytes).toString('utf8');
      } else {
        job.pieces.push(bytes);
        job.size += length;
      }
    }
    view.setUint32(written, total, true);
    if (job.size >= PIECE) post();
    return 0;
  };
}

// jq-wasm instantiates its module once, here: its fd_write import (found by its name) is replaced, and its
// memory kept, for the iovecs.
const instantiate = WebAssembly.instantiate.bind(WebAssembly);
WebAssembly.instantiate = (async (source: BufferSource | WebAssembly.Module, imports?: WebAssembly.Imports) => {
  for (const functions of Object.values(imports ?? {})) {
    for (const [name, value] of Object.entries(functions)) {
      if (typeof value === 'function' && value.name === '_fd_write') {
        functions[name] = fdWrite(value as (...args: number[]) => number);
        taken = true;
      }
    }
  }
  const result = await instantiate(source as BufferSource, imports);
  const instance: WebAssembly.Instance = result instanceof WebAssembly.Instance ? result : result.instance;
  memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
  return result;
}) as typeof WebAssembly.instantiate;
const jq = loadJq();

parentPort!.on('message', (next: JqJob) => {
  void jq.then((loaded) => {
    job = { id: next.id, pieces: [], size: 0, stderr: '' };
    const result = loaded.raw(next.input, next.program, next.flags);
    if (!taken && result.stdout) job.pieces.push(Buffer.from(`${result.stdout}\n`));
    job.size = job.pieces.reduce((size, piece) => size + piece.byteLength, 0);
    post();
    parentPort!.postMessage({ id: next.id, stderr: taken ? job.stderr : result.stderr, exitCode: result.exitCode } satisfies JqMessage);
    job = undefined;
  });
});
