// "Work was queued": how a background task in this process (the worker inside `serve`) hears that
// a commit queued something for it (a webhook delivery, a message, a landscape run, an export
// file) as soon as the commit is visible, instead of at its next poll (half a second by default:
// a delivery's or a detect's whole wait before it starts). A worker in another process
// (`groundwork worker`) does not hear it and keeps polling; so does this one when the transaction
// was not begun through inTransaction (db/after-commit.ts). Hearing it only makes a task sweep
// sooner: what it claims is the same.
import { afterCommit } from '#db/after-commit.ts';

/**
 * Hears a commit that queued work; `dueAt` is the latest due time (stored form) the commit gave
 * its queue, for a queue whose work is stamped with one (webhook deliveries: events/queued.ts).
 */
export type QueuedListener = (dueAt: string | undefined) => void;

const listeners = new Map<string, Set<QueuedListener>>();
/** Per transaction, the queues it announced and the latest due time given each: heard once, after the commit. */
const announced = new WeakMap<object, Map<string, string | undefined>>();

function tell(queue: string, dueAt: string | undefined): void {
  for (const listener of listeners.get(queue) ?? []) listener(dueAt);
}

/** Calls `listener` whenever a commit in this process queued work on `queue`. Returns the unsubscribe. */
export function whenWorkQueued(queue: string, listener: QueuedListener): () => void {
  let set = listeners.get(queue);
  if (!set) {
    set = new Set();
    listeners.set(queue, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** Work was just written to `queue` (its table's name) through `executor`, due at `dueAt` if given. */
export function workQueuedIn(executor: { readonly isTransaction: boolean }, queue: string, dueAt?: string): void {
  if (!executor.isTransaction) {
    afterCommit(executor, () => tell(queue, dueAt));
    return;
  }
  let queues = announced.get(executor);
  if (!queues) {
    queues = new Map();
    announced.set(executor, queues);
  }
  const seen = queues;
  if (!seen.has(queue)) afterCommit(executor, () => tell(queue, seen.get(queue)));
  const known = seen.get(queue);
  if (!seen.has(queue) || (dueAt !== undefined && (known === undefined || dueAt > known))) seen.set(queue, dueAt);
}
