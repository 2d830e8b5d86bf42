// What the worker hands a run's work (run-worker.ts): renewing its lease between long steps, and
// finishing it, in one short transaction under the workspace lock, only while the run is still
// this worker's. A run whose lease another worker took over ends in LeaseLost: the other worker
// ends it.
import type { LandscapeRun } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';

export class LeaseLost extends Error {}

export interface Finished {
  result: unknown;
  /** The takeoff the run made (a plan takeoff's first run), when it made one. */
  takeoffId?: number;
}

export interface RunHooks {
  renew(): Promise<void>;
  /** Writes the run's change and completes it with what `write` answers, in one transaction. */
  finish(write: (trx: Executor, run: LandscapeRun) => Promise<Finished>): Promise<void>;
}
