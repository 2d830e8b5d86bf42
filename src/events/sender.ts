// One delivery attempt over HTTP (document 1, Receiving a delivery): POST the stored body with the
// service's headers; a 2xx within 8 seconds is success, anything else a failure. Redirects are
// not followed (a 3xx is a failure), and the reply body is discarded unread.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Agent, request } from 'undici';
import { assertPublicHost, publicOnlyLookup } from '#platform/outbound.ts';
import { signatureFor } from './signing.ts';

export const REPLY_TIMEOUT_MS = 8000;

export interface AttemptRequest {
  targetUrl: string;
  secret: string | null;
  eventType: string;
  body: string;
  /** Unix seconds when signed. */
  timestamp: number;
}

export interface AttemptResult {
  deliveryUuid: string;
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export class WebhookSender {
  private readonly agent: Agent;
  /** Target URLs parsed and checked (assertPublicHost): a worker sends to few, over and over. */
  private readonly checked = new Set<string>();

  /**
   * `connections`: per origin; as many as attempts can be in flight, so none waits for a socket on
   * the 8 s clock. Each attempt's limit is its ReplyLimit; the agent's own limits are a second wall,
   * two seconds later, because undici counts the wait for headers on a clock that ticks every half
   * second and could otherwise end an attempt before the limit.
   */
  constructor(
    private readonly allowPrivateNetwork: boolean,
    private readonly timeoutMs = REPLY_TIMEOUT_MS,
    connections = 32,
  ) {
    this.agent = new Agent({
      headersTimeout: timeoutMs + 2000,
      bodyTimeout: timeoutMs + 2000,
      connectTimeout: timeoutMs,
      connections,
      ...(allowPrivateNetwork ? {} : { connect: { lookup: publicOnlyLookup as never } }),
    });
  }

  headersFor(req: AttemptRequest, deliveryUuid: string): Record<string, string> {
    return {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'x-service-event': req.eventType,
      'x-service-delivery': deliveryUuid,
      'x-service-timestamp': String(req.timestamp),
      ...(req.secret ? { 'x-service-signature': signatureFor(req.secret, req.timestamp, req.body) } : {}),
    };
  }

  async attempt(req: AttemptRequest): Promise<AttemptResult> {
    const deliveryUuid = randomUUID();
    const started = performance.now();
    const done = (status: number | null, error: string | null): AttemptResult => ({
      deliveryUuid,
      ok: error === null && status !== null && status >= 200 && status < 300,
      status,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    const limit = new ReplyLimit(this.timeoutMs);
    try {
      this.check(req.targetUrl);
      const res = await request(req.targetUrl, {
        method: 'POST',
        headers: this.headersFor(req, deliveryUuid),
        body: req.body,
        dispatcher: this.agent,
        signal: limit,
      });
      // Free the connection without waiting on a receiver that streams a long reply.
      res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      return done(res.statusCode, res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`);
    } catch (err) {
      return done(null, describe(err, this.timeoutMs));
    } finally {
      limit.clear();
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** Refuses a private address written in the URL (a name resolving to one is refused on connect). */
  private check(targetUrl: string): void {
    if (this.checked.has(targetUrl)) return;
    assertPublicHost(new URL(targetUrl), this.allowPrivateNetwork);
    if (this.checked.size >= 1000) this.checked.clear();
    this.checked.add(targetUrl);
  }
}

/**
 * One attempt's reply time limit: an emitter that says 'abort' when the limit passes, which undici
 * takes as a request's signal. It replaced `AbortSignal.timeout` per attempt: creating an
 * AbortSignal costs about 9 µs in Node 20, about a tenth of the sender's time at full speed
 * (docs/performance.md, "Webhook delivery"); a timer and an emitter cost under 1 µs.
 */
class ReplyLimit extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.reason = Object.assign(new Error('the reply time limit passed'), { name: 'TimeoutError' });
      this.emit('abort');
    }, ms);
    // Like AbortSignal.timeout's: an attempt in flight does not keep the process alive.
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `no reply within ${timeoutMs / 1000} s`;
  }
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  return code ? `${message} (${code})` : message;
}
