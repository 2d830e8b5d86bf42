// What else happens when a job moves to another pipeline stage, in the move's transaction (called
// by applyUpdate in service.ts once the move and its events are written). Each rule lives with the
// records it changes; this file only names them in order.
import type { Transaction } from 'kysely';
import type { DB, JobStage } from '#db/tables.ts';
import type { AuthContext } from '#platform/auth.ts';
import { stopSequenceWhenDecided } from '#crm/follow-up-sequences/stage-rule.ts';

export async function onJobStageChanged(
  trx: Transaction<DB>,
  auth: AuthContext,
  jobId: number,
  _fromStage: JobStage,
  toStage: JobStage,
): Promise<void> {
  // A running follow-up sequence stops when the job is won or lost (document 2).
  await stopSequenceWhenDecided(trx, auth.firm.id, jobId, toStage);
}
