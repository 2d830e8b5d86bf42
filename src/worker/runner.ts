// The background worker: each task runs its own loop, sweeping for due work, sleeping `pollMs`
// when a sweep finds nothing. Runs inside `serve` or alone as `groundwork worker`; several
// processes may run it at once (claims are leases, see events/deliveries.ts).
export interface BackgroundTask {
  name: string;
  /** Starts what is due; returns how much it took on (0 when idle). */
  sweep(): Promise<number>;
  /** Waits for work this task started to finish (on stop). */
  settle?(): Promise<void>;
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
  const loops = tasks.map(async (task) => {
    while (running) {
      let took = 0;
      try {
        took = await task.sweep();
      } catch (err) {
        onError(task.name, err);
      }
      if (took > 0 || !running) continue;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, pollMs);
        sleepers.add(wake);
      });
    }
  });
  return {
    async stop() {
      running = false;
      for (const wake of [...sleepers]) wake();
      await Promise.all(loops);
      await Promise.all(tasks.map((t) => t.settle?.()));
    },
  };
}
