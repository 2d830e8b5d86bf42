// Work to do once a transaction has committed: telling this process's worker that the transaction
// queued something (events/queued.ts) is only right once other connections can see it. Kept on
// the transaction object itself, as db/write-order.ts keeps its mark: inTransaction
// (platform/context.ts) runs a transaction's callbacks after its commit and forgets them when it
// rolls back. A transaction begun elsewhere, or a builder derived from one (withPlugin), is another
// object that nobody runs: its callbacks are dropped, and whoever waited for them falls back to
// polling. Outside a transaction a statement commits as it runs, so the callback runs at once
// (after the current microtasks).

const pending = new WeakMap<object, (() => void)[]>();

export function afterCommit(executor: { readonly isTransaction: boolean }, callback: () => void): void {
  if (!executor.isTransaction) {
    queueMicrotask(callback);
    return;
  }
  const callbacks = pending.get(executor);
  if (callbacks) callbacks.push(callback);
  else pending.set(executor, [callback]);
}

/** Runs what `trx` registered, once it has committed. A callback's failure does not stop the others. */
export function runAfterCommit(trx: object): void {
  const callbacks = pending.get(trx);
  if (!callbacks) return;
  pending.delete(trx);
  for (const callback of callbacks) {
    try {
      callback();
    } catch {
      // A wake-up that fails leaves its waiter to its poll.
    }
  }
}
