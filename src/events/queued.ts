// "Deliveries were queued": the webhook worker's queue on platform/work-queued.ts, which wakes
// the worker inside `serve` as soon as the transaction that queued deliveries commits. The wake
// carries the deliveries' due time because a worker's clock (Date.now(), to the millisecond) can
// stand a fraction of a millisecond behind the service's microsecond now() the deliveries were
// stamped with; a sweep woken at once would otherwise find them not yet due and leave them to the
// poll.
import type { Executor } from '#db/dialect.ts';
import { whenWorkQueued, workQueuedIn } from '#platform/work-queued.ts';

const DELIVERY_QUEUE = 'webhook_deliveries';

/** Calls `listener` with the latest `next_attempt_at` (stored form) of deliveries a commit in this process queued. */
export function whenDeliveriesQueued(listener: (dueAt: string) => void): () => void {
  return whenWorkQueued(DELIVERY_QUEUE, (dueAt) => {
    if (dueAt !== undefined) listener(dueAt);
  });
}

/** Deliveries due at `dueAt` (their next_attempt_at) were just inserted through `executor`. */
export function deliveriesQueuedIn(executor: Executor, dueAt: string): void {
  workQueuedIn(executor, DELIVERY_QUEUE, dueAt);
}
