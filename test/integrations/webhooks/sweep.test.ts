// How often the webhook worker sweeps while its slots are taken (src/events/delivery-worker.ts):
// the writes that free slots claim into them, so a sweep waits for news of a commit, the poll or
// idle. News that comes while every slot is held by a receiver that has not answered must not set
// it sweeping back to back for as long as the attempts last (up to the 8-second reply limit).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebhookWorker } from '#events/delivery-worker.ts';
import { systemClock } from '#platform/clock.ts';
import { startRunner } from '#worker/index.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { holdReplies, startReceiver } from '#test/helpers/receiver.ts';
import { job as makeJob } from '#test/helpers/records.ts';
import { subscribe } from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** The worker, counting its sweeps. */
class CountedWorker extends WebhookWorker {
  sweeps = 0;
  override sweep(): Promise<number> {
    this.sweeps++;
    return super.sweep();
  }
}

describe('WebhookWorker.sweep()', () => {
  it('news while every slot is held waits for a slot instead of sweeping again and again', async () => {
    const w = await t.workspace();
    const r = await startReceiver();
    const release = holdReplies(r);
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    const worker = new CountedWorker(t.database, {
      clock: systemClock,
      leaseMs: 60_000,
      concurrency: 1,
      allowPrivateNetwork: true,
      pollMs: 3_600_000,
    });
    const runner = startRunner([worker], 3_600_000, () => {});
    try {
      const first = await makeJob(w, { name: 'Holds the slot' });
      await vi.waitFor(() => expect(r.received.map((x) => x.body.job.id)).toEqual([first.id]), { timeout: 5_000 });
      // The commit of the second job is news, with the one slot taken.
      const second = await makeJob(w, { name: 'Waits for the slot' });
      const before = worker.sweeps;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(worker.sweeps - before).toBeLessThanOrEqual(3);
      release();
      await vi.waitFor(() => expect(r.received.map((x) => x.body.job.id)).toEqual([first.id, second.id]), {
        timeout: 5_000,
      });
    } finally {
      release();
      await runner.stop();
      await r.close();
    }
  });
});
