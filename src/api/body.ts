// Reading an answer's body: decoded as its Content-Encoding says (gzip, deflate, br, as fetch does), and read no
// further than the answer limit, so a gzip bomb stops there. node:http decodes nothing, and node:http is what cip
// uses (api/transport.ts says why), so the decoding is ours.
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { oneLine, truncate } from '../text/sanitize.js';
import { BrokenAnswer, type Bytes } from './chain.js';
import { errorCode } from './network-errors.js';

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function tooLarge(limit: number): BrokenAnswer {
  return new BrokenAnswer(`answer too large: the API sent more than ${sizeText(limit)} (CIP_MAX_ANSWER_BYTES sets the limit)`);
}

/**
 * A decoder's failure is the server's broken body, not a network error worth another attempt: zlib's codes are
 * Z_DATA_ERROR and the like, brotli's ERR__ERROR_FORMAT_PADDING_1 and the like.
 */
function undecodable(error: unknown, encoding: string | null): unknown {
  if (!/^Z_|^ERR__ERROR_/.test(errorCode(error) ?? '')) return error;
  return new BrokenAnswer(
    `the API answered with a body that is not valid ${truncate(oneLine(encoding ?? ''), 40) || 'encoded'} data, though its Content-Encoding says so`,
  );
}

/**
 * Chunks read until the stream ends, refused once they pass `limit` bytes; by the stream's events: a body read this
 * way costs no async iterator, whose first use loads more of Node's stream modules than the read itself needs. A
 * stream that closes before its end is an error, as it is to an iterator.
 */
function readStreamLimited(stream: Readable, limit: number, stop: () => void): Promise<Bytes> {
  return new Promise<Bytes>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      outcome();
    };
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength;
      if (size > limit) {
        finish(() => reject(tooLarge(limit)));
        stop();
        return;
      }
      chunks.push(chunk);
    };
    stream.on('data', onData);
    stream.once('end', () => finish(() => resolve(joined(chunks, size))));
    stream.once('error', (error) => finish(() => reject(error)));
    stream.once('close', () => finish(() => reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))));
  });
}

/** The chunks as one array (the chunk itself when there is one). */
function joined(chunks: Uint8Array[], size: number): Bytes {
  // A Buffer's memory is an ArrayBuffer; only a SharedArrayBuffer would not be.
  if (chunks.length === 1) return chunks[0] as Bytes;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

type Zlib = typeof import('node:zlib');

/** The decoders for a Content-Encoding, in the order to apply them; none for an unknown coding, as fetch does. */
function decodersFor(zlib: Zlib, encoding: string): Transform[] {
  const decoders: Transform[] = [];
  for (const coding of encoding
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
    .reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    else if (coding === 'deflate') decoders.push(zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    else if (coding !== 'identity' && coding !== '') return [];
  }
  return decoders;
}

/** A node:http answer's body, decoded as its Content-Encoding says, read no further than `limit` bytes. */
export async function decodedBody(response: IncomingMessage, limit: number): Promise<Bytes> {
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > limit) {
    response.destroy();
    throw tooLarge(limit);
  }
  const encoding = response.headers['content-encoding'] ?? null;
  if (!encoding) return readStreamLimited(response, limit, () => response.destroy());
  const zlib = await import('node:zlib');
  const decoders = decodersFor(zlib, encoding);
  if (decoders.length === 0) return readStreamLimited(response, limit, () => response.destroy());
  const { pipeline } = await import('node:stream');
  // An error anywhere destroys both streams of each pipeline, so it reaches the reader through the last one.
  let decoded: Readable = response;
  for (const decoder of decoders) decoded = pipeline(decoded, decoder, () => undefined);
  try {
    return await readStreamLimited(decoded, limit, () => decoded.destroy());
  } catch (error) {
    throw undecodable(error, encoding);
  }
}
