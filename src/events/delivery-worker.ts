// The webhook worker: a background task (worker/runner.ts) that keeps up to `concurrency`
// attempts in flight. It claims due deliveries in batches as slots free up and records finished
// attempts in batches, so the database sees a few transactions per batch rather than two per
// attempt. Its clock is injectable, so tests walk the whole 33-hour retry schedule by moving time.
// Run by the runner, it sweeps as soon as deliveries queued in this process commit, not only at
// its poll.
import type { Database } from '#db/database.ts';
import type { Clock } from '#platform/clock.ts';
import type { BackgroundTask } from '#worker/runner.ts';
import { claimDueDeliveries, recordAttempts, type AttemptOutcome, type ClaimedDelivery } from './deliveries.ts';
import { WebhookSender } from './sender.ts';
import { pruneSettledDeliveries } from './prune.ts';
import { whenDeliveriesQueued } from './queued.ts';
import { DEFAULT_DELIVERY_RETENTION_DAYS } from '#src/config.ts';
import { storedAt } from '#platform/time.ts';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface WebhookWorkerOptions {
  clock: Clock;
  leaseMs: number;
  concurrency: number;
  allowPrivateNetwork: boolean;
  /** Attempts in flight to one subscription at once (default half of concurrency, at least 1). */
  perSubscription?: number;
  /** Reply time limit; document 1 says 8 seconds. */
  timeoutMs?: number;
  /** How long an idle worker waits before looking again (the runner's poll interval). */
  pollMs?: number;
  /** Days settled deliveries are kept; an idle worker prunes older ones at most once an hour (events/prune.ts). */
  retentionDays?: number;
  onError?: (err: unknown) => void;
}

export class WebhookWorker implements BackgroundTask {
  readonly name = 'webhooks';
  private readonly sender: WebhookSender;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perSubscriptionBusy = new Map<number, number>();
  private readonly perSubscription: number;
  /**
   * Claims wait for this many free slots while attempts are in flight: fewer, larger claims. Half
   * the slots: on SQLite each claim is a commit that writes its pages to the log, and waiting for a
   * quarter claimed twice as often for 15–25% fewer deliveries a second (docs/performance.md).
   */
  private readonly claimBatch: number;
  private finished: AttemptOutcome[] = [];
  /** When this worker last pruned settled deliveries (its clock's ms); it prunes on its first idle sweep. */
  private prunedAt = Number.NEGATIVE_INFINITY;
  private flushing: Promise<void> = Promise.resolve();
  /**
   * The latest due time of deliveries committed in this process since the last claim (wakeWhen):
   * the next claim takes what is due by then, even if this worker's clock has not quite reached it.
   */
  private announcedDue: string | null = null;
  /** Called whenever an attempt finishes, to wake the sweep waiting for slots (one sweep runs at a time). */
  private slotFreed: () => void = () => {};
  /** Ends the sweep's current wait for slots, if it is in one (a commit announced deliveries). */
  private endWait: () => void = () => {};

  constructor(
    private readonly database: Database,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.sender = new WebhookSender(options.allowPrivateNetwork, options.timeoutMs, options.concurrency);
    this.perSubscription = options.perSubscription ?? Math.max(1, Math.floor(options.concurrency / 2));
    this.claimBatch = Math.max(1, Math.floor(options.concurrency / 2));
  }

  /**
   * Claims what is due into the free slots. Returns 0 only when idle (nothing due, nothing in
   * flight); while attempts are in flight it waits for a slot to free (or a poll interval) so the
   * runner comes straight back.
   */
  async sweep(): Promise<number> {
    const free = this.options.concurrency - this.inFlight.size;
    // Deliveries just committed here are claimed into any free slot, without waiting for a batch.
    const news = this.announcedDue !== null;
    if (this.inFlight.size > 0 && (free === 0 || (free < this.claimBatch && !news))) {
      await this.slotsOrPoll(news ? 1 : this.claimBatch - free);
      return 1;
    }
    // Idle only if nothing was in flight while claiming: otherwise the claim may have passed over
    // deliveries held back by the per-subscription share, and attempts may have finished since.
    const busyWhileClaiming = this.inFlight.size > 0;
    const announced = this.announcedDue;
    this.announcedDue = null;
    const claimed = await claimDueDeliveries(
      this.database,
      this.options.clock.now(),
      free,
      this.options.leaseMs,
      this.perSubscriptionBusy,
      this.perSubscription,
      announced,
    );
    for (const delivery of claimed) this.start(delivery);
    if (claimed.length > 0) return claimed.length;
    if (!busyWhileClaiming && this.inFlight.size === 0) {
      await this.flush();
      await this.pruneWhenDue();
      return 0;
    }
    // Held back by the per-subscription share: claim again once a batch's worth has finished.
    if (this.inFlight.size > 0) await this.slotsOrPoll(Math.min(this.claimBatch, this.inFlight.size));
    return 1;
  }

  /** Woken by deliveries committed in this process (events/queued.ts), not only by the poll. */
  wakeWhen(wake: () => void): () => void {
    return whenDeliveriesQueued((dueAt) => {
      if (this.announcedDue === null || dueAt > this.announcedDue) this.announcedDue = dueAt;
      // A sweep waiting for slots (a slow receiver holding some) claims into the free ones now.
      this.endWait();
      wake();
    });
  }

  /** Idle: settled deliveries past the retention are pruned, at most once an hour. */
  private async pruneWhenDue(): Promise<void> {
    const at = this.options.clock.now();
    if (at - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = at;
    const days = this.options.retentionDays ?? DEFAULT_DELIVERY_RETENTION_DAYS;
    await pruneSettledDeliveries(this.database, storedAt(at - days * DAY_MS));
  }

  /** Runs sweeps until nothing is due and nothing is in flight (tests and benchmarks). */
  async drain(): Promise<void> {
    while ((await this.sweep()) > 0 || this.inFlight.size > 0) {
      /* keep sweeping */
    }
    await this.flush();
  }

  async settle(): Promise<void> {
    await Promise.all(this.inFlight);
    await this.flush();
    await this.sender.close();
  }

  /** Waits until `count` attempts have finished (or all in flight have), a poll interval, or a commit's news. */
  private slotsOrPoll(count: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let left = count;
      const timer = setTimeout(() => done(), this.options.pollMs ?? 500);
      const done = () => {
        clearTimeout(timer);
        this.endWait = () => {};
        resolve();
      };
      this.endWait = done;
      const wait = () => {
        left--;
        if (left <= 0 || this.inFlight.size === 0) done();
        else this.slotFreed = wait;
      };
      this.slotFreed = wait;
    });
  }

  private start(delivery: ClaimedDelivery): void {
    const sub = delivery.subscription_id;
    this.perSubscriptionBusy.set(sub, (this.perSubscriptionBusy.get(sub) ?? 0) + 1);
    const work = this.attempt(delivery)
      .catch((err) => this.options.onError?.(err))
      .finally(() => {
        this.inFlight.delete(work);
        const n = (this.perSubscriptionBusy.get(sub) ?? 1) - 1;
        if (n <= 0) this.perSubscriptionBusy.delete(sub);
        else this.perSubscriptionBusy.set(sub, n);
        const wake = this.slotFreed;
        this.slotFreed = () => {};
        wake();
      });
    this.inFlight.add(work);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const signedAt = this.options.clock.now();
    const result = await this.sender.attempt({
      targetUrl: delivery.target_url,
      secret: delivery.secret,
      eventType: delivery.event_type,
      // Signed with the real time: the receiver checks it against its own clock.
      body: delivery.payload,
      timestamp: Math.floor(Date.now() / 1000),
    });
    this.finished.push({ claimed: delivery, result, signedAt, finishedAt: this.options.clock.now() });
    // The slot stays taken until the outcome is written, so a crash can cost at most
    // `concurrency` answered attempts (the lease then has them made again). Outcomes that finish
    // while a write is running go together in the next one: a group commit, no timer.
    await this.flush();
  }

  /** Writes the finished attempts: one write at a time, each taking all that have finished by then. */
  private flush(): Promise<void> {
    // A failed write must not stop later ones: the chain continues from a settled promise.
    this.flushing = this.flushing
      .catch(() => {})
      .then(async () => {
        // One turn of the event loop first, so the attempts answered in this turn go in this write:
        // on SQLite a write otherwise ran (synchronously, in microtasks) before the next reply was
        // read, one transaction per delivery.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = this.finished;
        this.finished = [];
        await recordAttempts(this.database, batch);
      });
    return this.flushing;
  }
}
