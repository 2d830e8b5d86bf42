// A worker inside `serve` sends a delivery as soon as the write that queued it commits, not at its
// next poll (events/queued.ts): its poll here is an hour, so every delivery below arrived because
// the commit woke it. Black-box over HTTP with a real receiver; the worker is started as `serve`
// starts it (worker/index.ts, every background task), on the app's environment.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { holdReplies, startReceiver, type Receiver } from '#test/helpers/receiver.ts';
import { recordEvent } from '#events/record.ts';
import { systemClock, type Clock } from '#platform/clock.ts';
import { startServeWorker } from '#test/helpers/serve-worker.ts';
import { subscribe } from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

/**
 * Far below the poll, and below the 8-second reply limit (document 1): only a wake gets a
 * delivery there in time, even past a receiver holding its attempt.
 */
const WITHIN = { timeout: 5_000, interval: 10 };

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** A receiver subscribed to job_created, and the worker as `serve` runs it on `clock`, asleep. */
async function setUp(clock: Clock) {
  const w = await t.workspace();
  const r = await startReceiver();
  await subscribe(w, { target_url: r.url, event_type: 'job_created', secret: 'wake-secret' });
  const worker = await startServeWorker({ database: t.database, deps: { ...t.env.deps, clock } });
  return {
    w,
    r,
    errors: worker.errors,
    async stop() {
      await worker.stop();
      await r.close();
    },
  };
}

const jobIds = (r: Receiver) => r.received.map((x) => x.body.job.id);

describe('the worker wakes when deliveries commit', () => {
  it('jobs created over the API reach the receiver well inside the poll, one after another', async () => {
    // The real clock, as `serve` has it. It reads Date.now() to the millisecond, and the deliveries
    // are stamped with the service's microsecond clock, a hair later: a worker that went by its
    // own clock alone found about a third of them not yet due and left them to the poll.
    const s = await setUp(systemClock);
    try {
      for (let i = 1; i <= 10; i++) {
        const job = await makeJob(s.w, { name: `Woken ${i}` });
        await vi.waitFor(() => expect(jobIds(s.r)).toContain(job.id), WITHIN);
      }
      expect(s.r.received).toHaveLength(10);
      expect(s.errors).toEqual([]);
    } finally {
      await s.stop();
    }
  });

  it('a receiver holding its attempt does not hold back what another commit queues', async () => {
    const s = await setUp(systemClock);
    const slow = await startReceiver();
    const release = holdReplies(slow);
    try {
      await subscribe(s.w, { target_url: slow.url, event_type: 'job_created', secret: 'wake-secret' });
      const first = await makeJob(s.w, { name: 'Held at one receiver' });
      await vi.waitFor(() => {
        expect(jobIds(s.r)).toEqual([first.id]);
        expect(jobIds(slow)).toEqual([first.id]);
      }, WITHIN);
      // The worker now waits for the held attempt to finish (or its poll): the next commit ends
      // that wait, and its delivery to the other receiver goes out while the first is still held.
      const second = await makeJob(s.w, { name: 'Not held back' });
      await vi.waitFor(() => expect(jobIds(s.r)).toEqual([first.id, second.id]), WITHIN);
      expect(jobIds(slow)).toContain(first.id);
    } finally {
      release();
      await slow.close();
      await s.stop();
    }
  });

  it('a worker clock half a second behind the service still takes what the commit announced', async () => {
    const s = await setUp({ now: () => Date.now() - 500 });
    try {
      const job = await makeJob(s.w, { name: 'Behind' });
      await vi.waitFor(() => expect(jobIds(s.r)).toEqual([job.id]), WITHIN);
    } finally {
      await s.stop();
    }
  });

  it('a worker clock more than a second behind goes by its own time: the delivery waits for it', async () => {
    const s = await setUp({ now: () => Date.now() - 5_000 });
    try {
      await makeJob(s.w, { name: 'Far behind' });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(s.r.received).toEqual([]);
    } finally {
      await s.stop();
    }
  });

  it('a write whose transaction rolls back sends nothing; the next commit wakes the worker', async () => {
    const s = await setUp(systemClock);
    try {
      const failed = await t.database.db
        .transaction()
        .execute(async (trx) => {
          await recordEvent(trx, {
            firmId: s.w.firmId,
            type: 'job_created',
            entity: { type: 'job', id: 1 },
            data: {},
            inFeed: false,
          });
          throw new Error('rolled back');
        })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(Error);
      const job = await makeJob(s.w, { name: 'After the rollback' });
      await vi.waitFor(() => expect(jobIds(s.r)).toEqual([job.id]), WITHIN);
    } finally {
      await s.stop();
    }
  });
});
