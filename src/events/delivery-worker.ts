// The webhook worker: a background task (worker/runner.ts) that keeps up to `concurrency`
// attempts in flight. Finished attempts are written in batches, and each write also claims due
// deliveries into the slots it frees, so at full speed the database sees one transaction per batch
// rather than two per attempt. Its clock is injectable, so tests walk the whole 33-hour retry
// schedule by moving time. Run by the runner, it sweeps as soon as deliveries queued in this
// process commit, not only at its poll.
import type { Database } from '#db/database.ts';
import type { Clock } from '#platform/clock.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { recordAndClaim, type AttemptOutcome, type ClaimedDelivery, type ClaimRequest } from './deliveries.ts';
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
  /** Attempts answered and not yet written. */
  private finished: AttemptOutcome[] = [];
  /** The write running or last run; writes go one at a time. */
  private writing: Promise<number> = Promise.resolve(0);
  /** The write that will take the attempts finishing now, while it waits for its turn. */
  private nextWrite: Promise<number> | null = null;
  /** A sweep asked the next write to claim even if the queue looked empty. */
  private claimAsked = false;
  /** Stopping (settle): writes claim nothing more. */
  private settling = false;
  /**
   * The last claim took fewer than it could with no subscription at its share: nothing more was
   * due. Writes then stop claiming until news of a commit or the next sweep, so a quiet queue
   * costs no empty claim per batch.
   */
  private dry = false;
  /** When this worker last pruned settled deliveries (its clock's ms); it prunes on its first idle sweep. */
  private prunedAt = Number.NEGATIVE_INFINITY;
  /**
   * The latest due time of deliveries committed in this process since the last claim (wakeWhen):
   * the next claim takes what is due by then, even if this worker's clock has not quite reached it.
   */
  private announcedDue: string | null = null;
  /** Ends the sweep's wait while attempts are in flight (news of a commit, or the last attempt finished). */
  private endWait: () => void = () => {};

  constructor(
    private readonly database: Database,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.sender = new WebhookSender(options.allowPrivateNetwork, options.timeoutMs, options.concurrency);
    this.perSubscription = options.perSubscription ?? Math.max(1, Math.floor(options.concurrency / 2));
  }

  /**
   * Claims what is due into the free slots. Returns 0 only when idle (nothing due, nothing in
   * flight). While attempts are in flight their writes keep the slots filled, so a sweep first waits
   * for news of a commit (unless it has some and a slot is free), the poll interval (retries coming
   * due) or the last attempt to finish.
   */
  async sweep(): Promise<number> {
    // News is claimed at once into a free slot; with every slot taken, the writes that free them
    // claim it (a sweep then would find no room and come straight back, over and over).
    const full = this.inFlight.size >= this.options.concurrency;
    if (this.inFlight.size > 0 && (this.announcedDue === null || full)) await this.newsPollOrIdle();
    // Idle only if nothing was in flight while claiming: otherwise the claim may have passed over
    // deliveries held back by the per-subscription share, and attempts may have finished since.
    const busyWhileClaiming = this.inFlight.size > 0;
    this.claimAsked = true;
    const claimed = await this.write();
    if (claimed > 0) return claimed;
    if (busyWhileClaiming || this.inFlight.size > 0) return 1;
    await this.pruneWhenDue();
    return 0;
  }

  /** Woken by deliveries committed in this process (events/queued.ts), not only by the poll. */
  wakeWhen(wake: () => void): () => void {
    return whenDeliveriesQueued((dueAt) => {
      if (this.announcedDue === null || dueAt > this.announcedDue) this.announcedDue = dueAt;
      this.dry = false;
      // A sweep waiting on attempts in flight (a slow receiver holding some slots) claims into the free ones now.
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

  /**
   * Runs sweeps until nothing is due and nothing is in flight (tests and benchmarks). An attempt
   * leaves the in-flight set only once its outcome is written, so nothing is left unwritten.
   */
  async drain(): Promise<void> {
    while ((await this.sweep()) > 0 || this.inFlight.size > 0) {
      /* keep sweeping */
    }
  }

  /** On stop: claims no more, and waits for the attempts in flight to be written. */
  async settle(): Promise<void> {
    this.settling = true;
    // A write running when the stop came may still start what it claimed.
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    await this.sender.close();
  }

  /** Waits for news of a commit, a poll interval, or no attempt left in flight. */
  private newsPollOrIdle(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), this.options.pollMs ?? 500);
      const done = () => {
        clearTimeout(timer);
        this.endWait = () => {};
        resolve();
      };
      this.endWait = done;
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
        if (this.inFlight.size === 0) this.endWait();
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
    await this.write();
  }

  /**
   * Writes the finished attempts and claims into the slots free once they are written: one write
   * at a time, each taking all that have finished by the time it starts. Resolves to the number
   * claimed. Every caller until the write starts shares it.
   */
  private write(): Promise<number> {
    if (this.nextWrite) return this.nextWrite;
    // A failed write must not stop later ones: the chain continues from a settled promise.
    const next = this.writing
      .catch(() => 0)
      .then(async () => {
        // One turn of the event loop first, so the attempts answered in this turn go in this write:
        // on SQLite a write otherwise ran (synchronously, in microtasks) before the next reply was
        // read, one transaction per delivery.
        await new Promise<void>((resolve) => setImmediate(resolve));
        this.nextWrite = null;
        const batch = this.finished;
        this.finished = [];
        const claim = this.claimFor(batch);
        if (batch.length === 0 && claim === null) return 0;
        const claimed = await recordAndClaim(this.database, batch, claim);
        if (claim !== null) this.dry = claimed.length < claim.limit && !this.anyAtShare(claim.busy, claimed);
        for (const delivery of claimed) this.start(delivery);
        return claimed.length;
      });
    this.nextWrite = next;
    this.writing = next;
    return next;
  }

  /**
   * The claim a write makes once `batch` is written: every slot then free, unless the queue was
   * found empty and nothing has been asked or announced since. The batch's slots count as free and
   * its subscriptions' shares as released (their attempts leave the in-flight set when the write is done).
   */
  private claimFor(batch: AttemptOutcome[]): ClaimRequest | null {
    const asked = this.claimAsked || this.announcedDue !== null || !this.dry;
    this.claimAsked = false;
    const limit = this.options.concurrency - this.inFlight.size + batch.length;
    if (!asked || limit <= 0 || this.settling) return null;
    const busy = new Map(this.perSubscriptionBusy);
    for (const { claimed } of batch) {
      const n = (busy.get(claimed.subscription_id) ?? 1) - 1;
      if (n <= 0) busy.delete(claimed.subscription_id);
      else busy.set(claimed.subscription_id, n);
    }
    const announced = this.announcedDue;
    this.announcedDue = null;
    return {
      at: this.options.clock.now(),
      limit,
      leaseMs: this.options.leaseMs,
      busy,
      perSubscription: this.perSubscription,
      announced,
    };
  }

  /** Whether some subscription is at its share counting a claim's deliveries, so the share may have held some back. */
  private anyAtShare(busy: ReadonlyMap<number, number>, claimed: ClaimedDelivery[]): boolean {
    const counts = new Map(busy);
    for (const { subscription_id: sub } of claimed) counts.set(sub, (counts.get(sub) ?? 0) + 1);
    for (const n of counts.values()) if (n >= this.perSubscription) return true;
    return false;
  }
}
