// Records that ride along in a delivery's body (document 1: `job` on job events and on business
// events that belong to a job, `estimate` on estimate_* events). Each area names how to build its
// parts in its manifest (src/area.ts), so the events code does not depend on the areas that emit events.
import type { Executor } from '#db/dialect.ts';
import type { Event } from '#db/tables.ts';

export interface PayloadPart {
  /** Top-level field of the body. */
  field: string;
  appliesTo(event: Event): boolean;
  /** The record as it is now (null when it no longer exists). */
  build(db: Executor, event: Event): Promise<unknown>;
}
