// The background worker: each task runs its own loop, sweeping for due work, sleeping `pollMs`
// when a sweep finds nothing. Runs inside `serve` or alone as `groundwork worker`; several
// processes may run it at once (claims are leases, see events/deliveries.ts). A task may also be
// woken before its poll is up (wakeWhen), when this process knows its work is due.
export interface BackgroundTask {
  name: string;
  /** Starts what is due; returns how much it took on (0 when idle). */
  sweep(): Promise<number>;
  /** Waits for work this task started to finish (on stop). */
  settle?(): Promise<void>;
  /**
   * Hands the task a function that ends its loop's wait for the next poll, for the task to call
   * when it learns that work is due (webhook deliveries just committed in this process). Returns
   * what stops it calling (on stop).
   */
  wakeWhen?(wake: () => void): () => void;
}

export interface Runner {
  stop(): Promise<void>;
}

export function startRunner(
  tasks: BackgroundTask[],
  pollMs: number,
  onError: (task: string, err: unknown) => void,
): Runner {
  let running = true;
  const sleepers = new Set<() => void>();
  const unsubscribes: (() => void)[] = [];
  const loops = tasks.map(async (task) => {
    // A wake that comes while the task sweeps is kept for the wait after it: that sweep may have
    // looked before the work it announces was there.
    let woken = false;
    let sleeping: (() => void) | null = null;
    if (task.wakeWhen)
      unsubscribes.push(
        task.wakeWhen(() => {
          woken = true;
          sleeping?.();
        }),
      );
    while (running) {
      woken = false;
      let took = 0;
      try {
        took = await task.sweep();
      } catch (err) {
        onError(task.name, err);
      }
      if (took > 0 || woken || !running) continue;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          sleeping = null;
          resolve();
        };
        const timer = setTimeout(wake, pollMs);
        sleepers.add(wake);
        sleeping = wake;
      });
    }
  });
  return {
    async stop() {
      running = false;
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const wake of [...sleepers]) wake();
      await Promise.all(loops);
      await Promise.all(tasks.map((t) => t.settle?.()));
    },
  };
}
