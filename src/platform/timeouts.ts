// How long the server waits on a client (GROUNDWORK_*_TIMEOUT_MS, config.ts). Node's own limits
// cover a request as a whole: its headers (headersTimeout), headers and body together
// (requestTimeout) and an idle kept-alive connection (keepAliveTimeout). They cannot tell a big
// upload on a slow phone link from one that has stopped, so a body is also watched for silence
// (uploadIdleMs): one that sends nothing for that long while the server waits for it is cut off
// with 408 request_timeout, and the route's own failure path removes what it stored of it.
//
// A body refused before it was read (413, or an upload refused by a check) is still read and
// thrown away, up to DRAIN_BYTES, so a client that sends its whole body before reading the answer
// reads the refusal instead of a reset connection; past that the connection is closed.
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

export interface TimeoutSettings {
  /** Headers and body must have arrived within this (Node's requestTimeout): 408. */
  requestMs: number;
  /** The request line and headers must have arrived within this (Node's headersTimeout): 408. */
  headersMs: number;
  /** An idle kept-alive connection is closed after this (Node's keepAliveTimeout). */
  keepAliveMs: number;
  /** A request body (an upload) that sends nothing for this long while the server waits: 408. */
  uploadIdleMs: number;
}

/** The defaults config.ts applies (README, Configuration). */
export const DEFAULT_TIMEOUTS: TimeoutSettings = {
  requestMs: 600_000,
  headersMs: 30_000,
  keepAliveMs: 72_000,
  uploadIdleMs: 60_000,
};

/** What is read and thrown away of a body the server answered without reading. */
export const DRAIN_BYTES = 16 * 1024 * 1024;

export const requestTimedOut = (message: string) =>
  new ApiError(408, 'Request timeout', { code: 'request_timeout', message });

const TIMEOUT_BODY = JSON.stringify(
  requestTimedOut('The request did not arrive within the time the server allows; nothing was saved').body,
);
const MALFORMED_BODY = JSON.stringify({
  error: 'Malformed request',
  code: 'invalid_request',
  message: 'The request is not valid HTTP',
});
const HEADERS_TOO_LARGE_BODY = JSON.stringify({ error: 'Request headers too large', code: 'invalid_request' });

/**
 * Node answers a request that ran out of time (and unparseable HTTP) here, outside any route:
 * the spec's error body, written on the socket, which then closes. Nothing is written when an
 * answer is already under way on the connection.
 */
function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const [status, body] = timedOut
    ? ['408 Request Timeout', TIMEOUT_BODY]
    : err.code === 'HPE_HEADER_OVERFLOW'
      ? ['431 Request Header Fields Too Large', HEADERS_TOO_LARGE_BODY]
      : ['400 Bad Request', MALFORMED_BODY];
  // A client that is slow or speaks bad HTTP is not the server's failure: never an error line.
  if (timedOut) this.log.info({ remoteAddress: socket.remoteAddress }, 'request timed out');
  else this.log.debug({ err, remoteAddress: socket.remoteAddress }, 'malformed request');
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !answering) {
    socket.end(
      `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

/** Fastify's options for the settings (Node checks its two request limits every `interval`). */
export function serverTimeoutOptions(settings: TimeoutSettings) {
  const shortest = Math.min(settings.requestMs, settings.headersMs);
  const interval = Math.min(30_000, Math.max(25, Math.floor(shortest / 4)));
  return {
    requestTimeout: settings.requestMs,
    keepAliveTimeout: settings.keepAliveMs,
    http: {
      requestTimeout: settings.requestMs,
      headersTimeout: settings.headersMs,
      connectionsCheckingInterval: interval,
    },
    clientErrorHandler,
  };
}

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0;

/**
 * Watches each request body: while a route waits for it (the body flows with nothing buffered)
 * and the connection reads nothing for `idleMs`, the body is failed with 408 request_timeout,
 * which the route meets as an error of its body stream (a multipart upload's storage put fails
 * and removes its partial object; a JSON body fails to parse). Time the server itself takes (a
 * check before reading, a slow store holding the body back) is never counted against the client.
 */
export function installBodyTimeouts(app: FastifyInstance, idleMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (hasBody(request)) watchBody(request, reply, idleMs);
    done();
  });
}

function watchBody(request: FastifyRequest, reply: FastifyReply, idleMs: number): void {
  const req = request.raw;
  const socket = req.socket;
  // Only a connection can stall (app.inject's requests have a stand-in socket).
  if (typeof socket?.bytesRead !== 'number') return;
  let lastRead = socket.bytesRead;
  const timer = setTimeout(check, idleMs);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  req.once('close', stop);
  reply.raw.once('finish', () => drainUnread(request, reply));

  function check(): void {
    if (req.complete || socket.destroyed) return;
    const read = socket.bytesRead;
    const waiting = req.readableFlowing === true && req.readableLength === 0;
    if (read !== lastRead || !waiting) {
      lastRead = read;
      timer.refresh();
      return;
    }
    if (reply.sent || reply.raw.headersSent || req.listenerCount('error') === 0) {
      // Answered already (the rest was being thrown away), or nobody reads it: just close.
      request.log.info({ idleMs }, 'request body stalled after the answer; connection closed');
      socket.destroy();
      return;
    }
    request.log.info({ idleMs }, 'request body stalled; answering 408');
    req.emit(
      'error',
      requestTimedOut(`The request body sent nothing for ${idleMs / 1000} seconds; nothing was saved. Send it again`),
    );
  }
}

/**
 * After an answer sent before its body was read: read the rest and throw it away (the connection
 * stays usable), at most DRAIN_BYTES; a body longer than that ends the connection.
 */
function drainUnread(request: FastifyRequest, reply: FastifyReply): void {
  const req = request.raw;
  const socket = req.socket;
  if (req.complete || socket.destroyed || !reply.raw.shouldKeepAlive) return;
  const start = socket.bytesRead;
  const tooMuch = () => {
    if (socket.bytesRead - start > DRAIN_BYTES) {
      req.off('data', tooMuch);
      socket.destroy();
    }
  };
  req.on('data', tooMuch);
  req.resume();
}
