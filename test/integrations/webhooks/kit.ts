// Shared pieces of the webhook tests (document 1, Events): subscribing, a worker on a manual
// clock, and a receiver-side signature check written independently of src/events/signing.ts.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { afterEach, expect } from 'vitest';
import { WebhookWorker } from '#events/delivery-worker.ts';
import { ManualClock } from '#platform/clock.ts';
import { storedAt } from '#platform/time.ts';
import type { TestApp, Workspace } from '#test/helpers/harness.ts';
import { startReceiver, type Receiver } from '#test/helpers/receiver.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** Z form to the second (business payloads, subscriptions, the delivery log). */
export const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** Microseconds and Z (job and proposal payloads' created_at). */
export const MICRO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** Jobs' own timestamps: microseconds, no suffix. */
export const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const BUSINESS_EVENTS = [
  'job_won',
  'job_lost',
  'job_cancelled',
  'job_completed',
  'job_scheduled',
  'work_order_completed',
  'estimate_created',
  'estimate_issued',
  'estimate_revised',
  'estimate_approved',
  'estimate_declined',
  'change_order_approved',
  'invoice_created',
  'payment_received',
];
export const DOTTED_ALIASES = [
  'job.won',
  'job.lost',
  'job.cancelled',
  'job.completed',
  'job.scheduled',
  'work_order.completed',
  'estimate.created',
  'estimate.issued',
  'estimate.revised',
  'estimate.approved',
  'estimate.declined',
  'change_order.approved',
  'invoice.created',
  'payment.received',
];
export const JOB_PROPOSAL_EVENTS = [
  'job_created',
  'job_updated',
  'job_status_changed',
  'proposal_sent',
  'proposal_viewed',
  'proposal_accepted',
  'proposal_declined',
];

/** Document 1, "Job and proposal event payload": the job object's fields. */
export const WEBHOOK_JOB_FIELDS = [
  'id',
  'external_ref',
  'crm_deal_id',
  'crm_contact_id',
  'crm_company_id',
  'site_id',
  'estimate_id',
  'estimate_number',
  'estimate_total',
  'location_id',
  'location_external_ref',
  'client_account_id',
  'client_account_external_ref',
  'name',
  'company',
  'contact_name',
  'contact_email',
  'contact_phone',
  'address',
  'description',
  'notes',
  'job_type',
  'status',
  'status_label',
  'source',
  'priority',
  'estimated_value',
  'probability',
  'start_date',
  'end_date',
  'next_follow_up',
  'measurement_count',
  'firm_id',
  'assigned_to_user_id',
  'assigned_to',
  'created_at',
  'updated_at',
];

export const SUBSCRIPTION_KEYS = ['active', 'created_at', 'event_type', 'has_secret', 'id', 'target_url'];
export const DELIVERY_KEYS = [
  'attempts',
  'created_at',
  'delivered_at',
  'event_id',
  'event_type',
  'id',
  'last_attempt_at',
  'last_error',
  'last_response_status',
  'max_attempts',
  'next_attempt_at',
  'redelivery_of',
  'status',
  'target_url',
  'updated_at',
  'webhook_id',
];

export async function subscribe(w: Workspace, body: Record<string, unknown>): Promise<any> {
  const res = await w.api.post('/v1/webhooks', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function move(w: Workspace, jobId: number, status: string): Promise<any> {
  const res = await w.api.post(`/v1/jobs/${jobId}/move`, { status });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Adds an excluded stage `dead` and a completed, won-type stage `done` to the built-in pipeline. */
export async function addStages(t: TestApp, w: Workspace): Promise<void> {
  const dead = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
    key: 'dead',
    label: 'Dead',
    type: 'excluded',
  });
  expect(dead.status).toBe(201);
  const done = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
    key: 'done',
    label: 'Done',
    type: 'won',
    completed: true,
  });
  expect(done.status).toBe(201);
}

export interface TestWorker {
  clock: ManualClock;
  worker: WebhookWorker;
  /**
   * Runs every due attempt to completion. By default first brings the manual clock up to just past
   * real time (deliveries are queued at real time); `catchUp` false leaves the clock where the test
   * put it (retry schedules).
   */
  drain(catchUp?: boolean): Promise<void>;
  settle(): Promise<void>;
}

/** Whether a pending delivery is due and unclaimed at `at` (the sweep's own condition). */
async function anythingDue(t: TestApp, at: number): Promise<boolean> {
  const due = storedAt(at);
  const row = await t.database.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', due)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', due)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function startWorker(
  t: TestApp,
  options: { allowPrivateNetwork?: boolean; timeoutMs?: number } = {},
): TestWorker {
  const clock = new ManualClock();
  const worker = new WebhookWorker(t.database, {
    clock,
    leaseMs: 30_000,
    concurrency: 8,
    allowPrivateNetwork: options.allowPrivateNetwork ?? true,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    onError: (err) => {
      errors.push(err);
    },
  });
  const errors: unknown[] = [];
  return {
    clock,
    worker,
    async drain(catchUp = true) {
      // A second ahead of real time: queued deliveries are due at the service's microsecond
      // now(), which need not equal Date.now() to the millisecond.
      const behind = Date.now() + 1000 - clock.now();
      if (catchUp && behind > 0) clock.advance(behind);
      await worker.drain();
      if (errors.length > 0) throw errors[0];
      // drain() promises nothing due is left (test/webhooks/drain.test.ts checks the race it once lost).
      if (await anythingDue(t, clock.now()))
        throw new Error('WebhookWorker.drain() returned while deliveries were still due');
    },
    settle: () => worker.settle(),
  };
}

/** Business events of the feed (GET /v1/events), oldest first. */
export async function feedOf(w: Workspace, query = ''): Promise<any[]> {
  const res = await w.api.get(`/v1/events?limit=200${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function deliveriesOf(w: Workspace, query = ''): Promise<any[]> {
  const res = await w.api.get(`/v1/webhooks/deliveries?limit=200${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export async function deliveryDetail(w: Workspace, id: number): Promise<any> {
  const res = await w.api.get(`/v1/webhooks/deliveries/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/**
 * What a receiver does (document 1, Signature), written from the spec alone: HMAC-SHA256 keyed with
 * the secret over `<X-Service-Timestamp>.<raw body>` of the exact bytes received, compared in
 * constant time, and refused when the timestamp is more than `toleranceSec` from now.
 */
export function verifyDelivery(
  secret: string,
  headers: http.IncomingHttpHeaders,
  rawBody: Buffer | string,
  nowSec = Math.floor(Date.now() / 1000),
  toleranceSec = 300,
): boolean {
  const timestamp = headers['x-service-timestamp'];
  const signature = headers['x-service-signature'];
  if (typeof timestamp !== 'string' || !/^\d+$/.test(timestamp) || typeof signature !== 'string') return false;
  if (Math.abs(nowSec - Number(timestamp)) > toleranceSec) return false;
  const m = /^sha256=([0-9a-f]{64})$/.exec(signature);
  if (!m) return false;
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${timestamp}.`, 'utf8'))
    .update(bytes)
    .digest();
  const given = Buffer.from(m[1]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const sorted = (xs: string[]) => [...xs].sort();

/**
 * Receivers and workers that close after each test. `app` is read when a worker is made, so a
 * file can pass `() => t` before its beforeAll has started the app.
 */
export function perTest(app: () => TestApp) {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return {
    /** Runs `close` after the test (for servers a test starts itself). */
    afterTest(close: () => Promise<void>): void {
      cleanups.push(close);
    },
    async receiver(path?: string): Promise<Receiver> {
      const r = await startReceiver(path);
      cleanups.push(() => r.close());
      return r;
    },
    worker(options: { allowPrivateNetwork?: boolean; timeoutMs?: number } = {}): TestWorker {
      const w = startWorker(app(), options);
      cleanups.push(async () => {
        await w.settle();
        // A test's retries still pending would fall due in a later test, whose worker moves its
        // clock ahead, and go to their receiver's port, which that test's own receiver may have
        // been given: a request it never caused (retries.test.ts once counted 3 for 2).
        await app()
          .database.db.updateTable('webhook_deliveries')
          .set({ status: 'abandoned', next_attempt_at: null })
          .where('status', '=', 'pending')
          .execute();
      });
      return w;
    },
  };
}
