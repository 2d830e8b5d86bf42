// "Deliveries were queued": how a webhook worker in this process (inside `serve`) hears of new
// deliveries as soon as their transaction commits, instead of at its next poll (half a second by
// default: the whole of a delivery's lag when the receiver is quick). A worker in another process
// (`groundwork worker`) does not hear it and keeps polling; so does this one when the transaction
// was not begun through inTransaction (db/after-commit.ts). Hearing it only makes a worker sweep
// sooner: what it claims, and in which order, is the same.
import type { Executor } from '#db/dialect.ts';
import { afterCommit } from '#db/after-commit.ts';

/** Hears the latest `next_attempt_at` (stored form) of the deliveries a commit queued. */
export type QueuedListener = (dueAt: string) => void;

const listeners = new Set<QueuedListener>();
/** Per transaction, the latest due time it queued; the listeners hear it once, after the commit. */
const latestDue = new WeakMap<object, string>();

function tell(dueAt: string): void {
  for (const listener of listeners) listener(dueAt);
}

/** Calls `listener` whenever deliveries queued in this process are committed. Returns the unsubscribe. */
export function whenDeliveriesQueued(listener: QueuedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Deliveries due at `dueAt` (their next_attempt_at) were just inserted through `executor`: the
 * listeners hear of it once they are committed. They are told the due time because a worker's
 * clock (Date.now(), to the millisecond) can stand a fraction of a millisecond behind the
 * service's microsecond now() the deliveries were stamped with; a sweep woken at once would
 * otherwise find them not yet due and leave them to the poll.
 */
export function deliveriesQueuedIn(executor: Executor, dueAt: string): void {
  if (!executor.isTransaction) {
    afterCommit(executor, () => tell(dueAt));
    return;
  }
  const known = latestDue.get(executor);
  if (known === undefined) afterCommit(executor, () => tell(latestDue.get(executor)!));
  if (known === undefined || dueAt > known) latestDue.set(executor, dueAt);
}
