// stdout when it is a regular file (`cip ... > out.json`): each write is made at once with writeSync, as Node's
// own stream for a file (SyncWriteStream) makes it, but without making that stream, whose making loads Node's
// stream modules (a tenth of `cip --help`). It behaves as that stream does for what cip asks of stdout: a write
// that fails (a full disk, a file-size limit) makes it emit that error, and then 'close', and it takes nothing
// more; a write after that is refused with ERR_STREAM_DESTROYED. A terminal, a pipe or another device keeps
// Node's own stream: writing to a pipe may have to wait, which must not hold the process (Ctrl-C).
import { EventEmitter } from 'node:events';
import { writeWhole } from './write-whole.js';

type Callback = (error?: Error | null) => void;

export class FileStdout extends EventEmitter {
  readonly isTTY = false;
  readonly columns = undefined;
  readonly writableEnded = false;
  /** Set once the failure has been emitted, as Node's stream sets it: a caller that waits for the stream sees the error first. */
  destroyed = false;
  /** A write failed: nothing more is written. */
  private failed = false;

  /** `defer` runs a function after the current one, as Node's streams defer their callbacks (process.nextTick). */
  constructor(
    private readonly fd: number,
    private readonly defer: (run: () => void) => void,
  ) {
    super();
  }

  write(chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, callback?: Callback): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (this.failed) {
      const error = Object.assign(new Error('Cannot call write after a stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' });
      this.defer(() => done?.(error));
      return false;
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
    // A write may be cut short (a file-size limit reached part-way): the rest is written, or fails, in turn.
    // Node's own stream for a file drops the rest, and a run that lost part of its output succeeded.
    const written = writeWhole(this.fd, bytes);
    if (!written.ok) {
      this.failed = true;
      this.defer(() => {
        this.destroyed = true;
        done?.(written.error);
        this.emit('error', written.error);
        this.emit('close');
      });
      return false;
    }
    if (done) this.defer(() => done());
    return true;
  }
}
