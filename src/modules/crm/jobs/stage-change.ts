// What other records do when a job moves to another pipeline stage: the one place applyUpdate
// (service.ts) calls, in the move's transaction, after the stage events are recorded. Each rule
// lives with its record and is named here, so a move can never skip one.
import type { Transaction } from 'kysely';
import type { DB, JobStage } from '#db/tables.ts';
import type { AuthContext } from '#platform/auth.ts';
import { stopSequenceWhenDecided } from '#crm/follow-up-sequences/stage-rule.ts';
import { leadJobLeftStage } from '#crm/leads/implicit.ts';

export async function onJobStageChanged(
  trx: Transaction<DB>,
  auth: AuthContext,
  jobId: number,
  fromStage: JobStage,
  toStage: JobStage,
): Promise<void> {
  // Document 2, Lead states: the lead's job leaving its first stage moves the lead to converted.
  await leadJobLeftStage(trx, auth, jobId, fromStage, toStage);
  // A running follow-up sequence stops when the job is won or lost (document 2).
  await stopSequenceWhenDecided(trx, auth.firm.id, jobId, toStage);
}
