// "Work was queued": how a background task in this process (the worker inside `serve`) hears that
// a commit queued something for it (a message, a landscape run, an export file) as soon as the
// commit is visible, instead of at its next poll (half a second by default: a detect's or an
// export's whole wait before it starts). A worker in another process (`groundwork worker`) does not
// hear it and keeps polling; so does this one when the transaction was not begun through
// inTransaction (db/after-commit.ts). Hearing it only makes a task sweep sooner: what it claims is
// the same. Webhook deliveries have their own signal, which carries their due time
// (events/queued.ts).
import { afterCommit } from '#db/after-commit.ts';

const listeners = new Map<string, Set<() => void>>();
/** Per transaction, the queues it has already announced: a listener hears a commit once. */
const announced = new WeakMap<object, Set<string>>();

/** Calls `listener` whenever a commit in this process queued work on `queue`. Returns the unsubscribe. */
export function whenWorkQueued(queue: string, listener: () => void): () => void {
  let set = listeners.get(queue);
  if (!set) {
    set = new Set();
    listeners.set(queue, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** Work due at once was just written to `queue` (its table's name) through `executor`. */
export function workQueuedIn(executor: { readonly isTransaction: boolean }, queue: string): void {
  if (executor.isTransaction) {
    let queues = announced.get(executor);
    if (queues?.has(queue)) return;
    if (!queues) {
      queues = new Set();
      announced.set(executor, queues);
    }
    queues.add(queue);
  }
  afterCommit(executor, () => {
    for (const listener of listeners.get(queue) ?? []) listener();
  });
}
