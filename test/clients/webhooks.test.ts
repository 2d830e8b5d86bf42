// verifyWebhook (clients/typescript) against real deliveries: the server's worker posts to a
// loopback receiver, which keeps the exact bytes and headers a receiver's framework would see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { Received } from '#test/helpers/receiver.ts';
import { perTest } from '#test/integrations/webhooks/kit.ts';
import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookFailure,
  type WebhookHeaders,
} from '../../clients/typescript/src/index.ts';
import { typedClient } from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);

/** Subscribes through the typed client, creates a job and returns the one delivery received. */
async function deliveryOf(w: Workspace, jobName: string, secret?: string): Promise<Received> {
  const api = await typedClient(t, w.key);
  const r = await receiver();
  const wk = worker();
  const sub = await api.POST('/v1/webhooks', {
    body: { target_url: r.url, event_type: 'job_created', ...(secret ? { secret } : {}) },
  });
  expect(sub.response.status, JSON.stringify(sub.error)).toBe(201);
  expect((await api.POST('/v1/jobs', { body: { name: jobName } })).response.status).toBe(201);
  await wk.drain();
  expect(r.received).toHaveLength(1);
  return r.received[0]!;
}

function refusal(call: () => unknown): WebhookFailure {
  try {
    call();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
  throw new Error('verifyWebhook accepted the delivery');
}

const atSeconds = (s: number) => new Date(s * 1000);

describe('verifyWebhook on a real delivery', () => {
  const secret = 'whsec_ü✓ client secret';
  let got: Received;
  let ts: number;
  beforeAll(async () => {
    got = await deliveryOf(await t.workspace(), 'Café Ünïcode ✓ 舗装 "Lot"', secret);
    ts = Number(got.headers['x-service-timestamp']);
  });

  it('accepts the exact bytes, or their text, and returns the parsed event', () => {
    const event = verifyWebhook(got.bytes, got.headers, secret);
    expect(event).toMatchObject({ event_type: 'job_created', event_id: got.body.event_id });
    expect((event.job as { name: string }).name).toBe('Café Ünïcode ✓ 舗装 "Lot"');
    expect(verifyWebhook(got.raw, got.headers, secret)).toEqual(event);
  });

  it('reads headers from a fetch Headers or a plain object in any case', () => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(got.headers)) if (typeof v === 'string') headers.set(k, v);
    expect(verifyWebhook(got.bytes, headers, secret).event_id).toBe(got.body.event_id);
    const shouting: WebhookHeaders = {
      'X-Service-Timestamp': String(got.headers['x-service-timestamp']),
      'X-SERVICE-SIGNATURE': String(got.headers['x-service-signature']),
    };
    expect(verifyWebhook(got.raw, shouting, secret).event_id).toBe(got.body.event_id);
  });

  it('refuses a tampered body: one character, re-serialised JSON, a trailing newline', () => {
    const edits = [
      got.raw.replace('Lot', 'Lit'),
      JSON.stringify(JSON.parse(got.raw)),
      JSON.stringify(JSON.parse(got.raw), null, 2),
      `${got.raw}\n`,
    ];
    for (const body of edits) {
      if (body === got.raw) continue; // the server's own serialisation may already be compact
      expect(refusal(() => verifyWebhook(body, got.headers, secret))).toBe('signature_mismatch');
    }
  });

  it('refuses a wrong secret, and will not run without one', () => {
    expect(refusal(() => verifyWebhook(got.bytes, got.headers, 'wrong-secret'))).toBe('signature_mismatch');
    expect(refusal(() => verifyWebhook(got.bytes, got.headers, `${secret} `))).toBe('signature_mismatch');
    expect(() => verifyWebhook(got.bytes, got.headers, '')).toThrow(TypeError);
  });

  it('refuses a timestamp outside the tolerance either way (checked with `now`, not by waiting)', () => {
    const at = (s: number, toleranceSeconds?: number) => () =>
      verifyWebhook(got.bytes, got.headers, secret, { now: atSeconds(s), toleranceSeconds });
    expect(refusal(at(ts + 301))).toBe('timestamp_out_of_tolerance');
    expect(refusal(at(ts - 301))).toBe('timestamp_out_of_tolerance');
    expect(at(ts + 300)()).toMatchObject({ event_type: 'job_created' });
    expect(refusal(at(ts + 61, 60))).toBe('timestamp_out_of_tolerance');
    expect(at(ts + 3600, 7200)()).toMatchObject({ event_type: 'job_created' });
  });

  it('refuses a changed timestamp: it is part of what is signed', () => {
    const moved = { ...got.headers, 'x-service-timestamp': String(ts + 1) };
    expect(refusal(() => verifyWebhook(got.bytes, moved, secret))).toBe('signature_mismatch');
  });

  it('refuses missing and malformed headers', () => {
    const { 'x-service-signature': sig, 'x-service-timestamp': _ts, ...rest } = got.headers;
    const cases: [Record<string, string | string[] | undefined>, WebhookFailure][] = [
      [{ ...rest, 'x-service-signature': sig }, 'missing_timestamp'],
      [{ ...rest, 'x-service-timestamp': String(ts) }, 'missing_signature'],
      [{ ...got.headers, 'x-service-timestamp': `${ts}.5` }, 'malformed_timestamp'],
      [{ ...got.headers, 'x-service-timestamp': '' }, 'malformed_timestamp'],
      [{ ...got.headers, 'x-service-timestamp': [String(ts), String(ts)] }, 'malformed_timestamp'],
      [{ ...got.headers, 'x-service-signature': [String(sig), String(sig)] }, 'malformed_signature'],
      [{ ...got.headers, 'x-service-signature': String(sig).toUpperCase() }, 'malformed_signature'],
      [{ ...got.headers, 'x-service-signature': String(sig).replace('sha256=', 'sha1=') }, 'malformed_signature'],
      [{ ...got.headers, 'x-service-signature': String(sig).slice(0, -2) }, 'malformed_signature'],
    ];
    for (const [headers, reason] of cases) {
      expect(
        refusal(() => verifyWebhook(got.bytes, headers, secret)),
        JSON.stringify(headers),
      ).toBe(reason);
    }
  });
});

describe('an unsigned subscription', () => {
  it('delivers no signature, which verifyWebhook refuses', async () => {
    const got = await deliveryOf(await t.workspace(), 'Unsigned Lot');
    expect(got.headers['x-service-signature']).toBeUndefined();
    expect(refusal(() => verifyWebhook(got.bytes, got.headers, 'any-secret'))).toBe('missing_signature');
  });
});
