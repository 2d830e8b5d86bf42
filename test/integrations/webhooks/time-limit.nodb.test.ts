// The reply time limit (document 1, Receiving a delivery: a 2xx within 8 seconds is success),
// against a real local receiver: each attempt's own timer (sender.ts, ReplyLimit) ends it at the
// limit; undici's wait for headers, counted on a coarse clock, is only a wall behind it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookSender } from '#events/sender.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

/** A receiver that reads the body `pauseMs` after the request arrives and answers 200 `replyMs` after reading it all. */
async function slowReader(pauseMs: number, replyMs: number): Promise<string> {
  const server = http.createServer((req, res) => {
    req.pause();
    setTimeout(() => {
      req.resume();
      req.on('data', () => {});
      req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), replyMs));
    }, pauseMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const attempt = async (sender: WebhookSender, targetUrl: string, body: string) => {
  try {
    return await sender.attempt({ targetUrl, secret: 'whsec_test', eventType: 'job_won', body, timestamp: 1 });
  } finally {
    await sender.close();
  }
};

describe('the reply time limit', () => {
  it('a 2xx within the limit is a success', async () => {
    const result = await attempt(new WebhookSender(true, 900), await slowReader(0, 100), '{}');
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
  });

  it('a 2xx after the limit is a failure, ended at the limit', async () => {
    const result = await attempt(new WebhookSender(true, 300), await slowReader(0, 1500), '{}');
    expect(result).toMatchObject({ ok: false, status: null, error: 'no reply within 0.3 s' });
    expect(result.durationMs).toBeGreaterThanOrEqual(295);
    // Not undici's wait for headers (2.3 s on its half-second clock): the attempt's own timer.
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('a receiver that never reads the request fails at the limit too', async () => {
    const result = await attempt(new WebhookSender(true, 300), await slowReader(60_000, 0), '{}');
    expect(result).toMatchObject({ ok: false, status: null, error: 'no reply within 0.3 s' });
    expect(result.durationMs).toBeLessThan(1500);
  });
});
