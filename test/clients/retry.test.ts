// withRetry (clients/typescript) following document 1's retry rules, against a loopback HTTP
// server answering as each test scripts it, and the typed client in front of the real app. Waits
// are requested from an injected sleep and recorded, never slept.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import type { Answer } from '#test/helpers/receiver.ts';
import { perTest } from '#test/integrations/webhooks/kit.ts';
import { createGroundworkClient, withRetry, type RetryOptions } from '../../clients/typescript/src/index.ts';
import { listening } from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver } = perTest(() => t);

/** Options that record each requested wait instead of waiting; jitter fixed at half the cap. */
function recorded(extra: RetryOptions = {}): { options: RetryOptions; sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    options: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...extra,
    },
  };
}

/** A loopback server answering `statuses` in turn (the last one from then on). */
async function scripted(...statuses: Answer[]) {
  const r = await receiver('');
  r.respond = () => statuses[Math.min(r.received.length, statuses.length) - 1]!;
  return r;
}

/** A loopback port nothing listens on: connections are refused. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

describe('retryable answers', () => {
  it('503 then 200: one retry after a jittered second', async () => {
    const r = await scripted(503, 200);
    const { options, sleeps } = recorded();
    const res = await withRetry(() => fetch(r.url), options);
    expect(res.status).toBe(200);
    expect(r.received).toHaveLength(2);
    expect(sleeps).toEqual([500]);
  });

  it('gives up after five tries in all, returning the last answer; the caps double 1, 2, 4, 8 s', async () => {
    const r = await scripted(500, 502, 504, 503, 500);
    const { options, sleeps } = recorded({ random: () => 0.999 });
    const res = await withRetry(() => fetch(r.url), options);
    expect(res.status).toBe(500);
    expect(r.received).toHaveLength(5);
    expect(sleeps).toEqual([999, 1998, 3996, 7992]);
  });

  it('full jitter: a wait is anywhere from 0 up to the cap; maxAttempts and the delays are options', async () => {
    const r = await scripted(503);
    const { options, sleeps } = recorded({ random: () => 0, maxAttempts: 3 });
    expect((await withRetry(() => fetch(r.url), options)).status).toBe(503);
    expect(sleeps).toEqual([0, 0]);
    const more = recorded({ random: () => 0.999, maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 250 });
    await withRetry(() => fetch(r.url), more.options);
    expect(more.sleeps).toEqual([99, 199, 249, 249, 249]);
  });

  it('429 with Retry-After in seconds waits exactly that long', async () => {
    const r = await scripted({ status: 429, headers: { 'retry-after': '3' } }, 200);
    const { options, sleeps } = recorded();
    expect((await withRetry(() => fetch(r.url), options)).status).toBe(200);
    expect(sleeps).toEqual([3000]);
  });

  it('Retry-After as an HTTP date waits until then by the injected clock', async () => {
    const r = await scripted({ status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' } }, 200);
    const { options, sleeps } = recorded({ now: () => Date.parse('2026-01-01T00:00:00Z') });
    expect((await withRetry(() => fetch(r.url), options)).status).toBe(200);
    expect(sleeps).toEqual([5000]);
  });

  it('a Retry-After beyond maxRetryAfterMs is not waited out: the 429 comes back at once', async () => {
    const r = await scripted({ status: 429, headers: { 'retry-after': '3600' } }, 200);
    const { options, sleeps } = recorded();
    expect((await withRetry(() => fetch(r.url), options)).status).toBe(429);
    expect(r.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('an unreadable Retry-After falls back to the backoff', async () => {
    const r = await scripted({ status: 503, headers: { 'retry-after': 'soon' } }, 200);
    const { options, sleeps } = recorded();
    expect((await withRetry(() => fetch(r.url), options)).status).toBe(200);
    expect(sleeps).toEqual([500]);
  });
});

describe('final answers', () => {
  it.each([400, 401, 402, 403, 404, 409, 422, 418, 501])('%i is returned without a retry', async (status) => {
    const r = await scripted(status, 200);
    const { options, sleeps } = recorded();
    expect((await withRetry(() => fetch(r.url), options)).status).toBe(status);
    expect(r.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('network errors', () => {
  it('a refused connection is retried; the next try may succeed', async () => {
    const r = await scripted(200);
    const urls = [await closedPort(), r.url];
    const { options, sleeps } = recorded();
    const res = await withRetry((attempt) => fetch(urls[attempt - 1]!), options);
    expect(res.status).toBe(200);
    expect(sleeps).toEqual([500]);
  });

  it('after the last try the network error is thrown', async () => {
    const url = await closedPort();
    const { options, sleeps } = recorded({ maxAttempts: 3 });
    let tries = 0;
    const call = withRetry(() => {
      tries++;
      return fetch(url);
    }, options);
    await expect(call).rejects.toThrow(TypeError);
    expect(tries).toBe(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('the caller cancelling (AbortError) and errors that are not network failures are not retried', async () => {
    const r = await scripted('hang');
    const controller = new AbortController();
    const { options, sleeps } = recorded();
    const call = withRetry(() => fetch(r.url, { signal: controller.signal }), options);
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await expect(withRetry(() => Promise.reject(new RangeError('bug')), options)).rejects.toThrow(RangeError);
    expect(sleeps).toEqual([]);
  });
});

describe('with the typed client', () => {
  it('retries openapi-fetch results: two 503s with Retry-After, then the real answer, typed', async () => {
    const w = await t.workspace();
    let refusals = 2;
    const api = createGroundworkClient({
      baseUrl: await listening(t),
      apiKey: w.key,
      // In front of the real server: the first calls are refused as an overloaded proxy would.
      fetch: async (request) => {
        if (refusals-- > 0) {
          return Response.json({ error: 'Service unavailable' }, { status: 503, headers: { 'retry-after': '2' } });
        }
        return fetch(request);
      },
    });
    const { options, sleeps } = recorded();
    const created = await withRetry(
      () => api.POST('/v1/jobs', { body: { name: 'Retried Lot', external_ref: 'R-1' } }),
      options,
    );
    expect(created.response.status).toBe(201);
    expect(created.data?.data.name).toBe('Retried Lot');
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('a typed 409 is final and its error body comes back', async () => {
    const w = await t.workspace();
    const api = createGroundworkClient({ baseUrl: await listening(t), apiKey: w.key });
    expect((await api.POST('/v1/jobs', { body: { name: 'Only Once' } })).response.status).toBe(201);
    const { options, sleeps } = recorded();
    const dup = await withRetry(() => api.POST('/v1/jobs', { body: { name: 'Only Once' } }), options);
    expect(dup.response.status).toBe(409);
    expect(dup.error?.duplicate_job_id).toBeTypeOf('number');
    expect(sleeps).toEqual([]);
  });
});
