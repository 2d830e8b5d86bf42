// An upload body on its way to storage: counted as it passes, cut off past `maxBytes`, and never
// held whole (the stream moves a chunk at a time under backpressure). Both adapters read through
// it, so both count and refuse alike.
import { Readable, Transform } from 'node:stream';
import { ObjectTooLarge } from './errors.ts';

export interface CountedBody {
  /** What the adapter reads. */
  stream: Readable;
  bytes(): number;
  /**
   * What stopped the body, if anything did: ObjectTooLarge, or the caller's body stream's own error
   * (passed on unchanged: not a storage failure). An adapter rethrows it in place of whatever
   * error its store reported as a consequence.
   */
  bodyError(): Error | undefined;
  /** After a failure: stop feeding the adapter and drain the rest, so the body's sender is not left hanging. */
  release(): void;
}

export function countedBody(body: Readable | Buffer, maxBytes?: number): CountedBody {
  if (Buffer.isBuffer(body)) {
    if (maxBytes !== undefined && body.length > maxBytes) throw new ObjectTooLarge(maxBytes);
    // Readable.from hands a Buffer over as one chunk, not byte by byte.
    return { stream: Readable.from([body]), bytes: () => body.length, bodyError: () => undefined, release() {} };
  }
  let bytes = 0;
  let stopped: Error | undefined;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (maxBytes !== undefined && bytes > maxBytes) {
        stopped ??= new ObjectTooLarge(maxBytes);
        done(stopped);
      } else done(null, chunk);
    },
  });
  // The adapter sees the error by reading (a failed read or pipeline); this listener only keeps
  // an error raised before the adapter starts reading from being an uncaught one.
  counter.on('error', () => {});
  // pipe, not pipeline: a failed store must not destroy the caller's body (a request's socket).
  body.on('error', (err) => {
    stopped ??= err;
    counter.destroy(err);
  });
  body.pipe(counter);
  return {
    stream: counter,
    bytes: () => bytes,
    bodyError: () => stopped,
    release() {
      body.unpipe(counter);
      if (!body.readableEnded && !body.destroyed) body.resume();
    },
  };
}
