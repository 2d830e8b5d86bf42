// A running follow-up sequence stops by itself when its job is won or lost (document 2, Re-bid and
// follow-up sequence). Called from crm/jobs/stage-change.ts in the stage move's transaction.
import type { Executor } from '#db/dialect.ts';
import type { JobStage } from '#db/tables.ts';
import { stopRunningSequence } from './runs.ts';

export async function stopSequenceWhenDecided(
  trx: Executor,
  firmId: number,
  jobId: number,
  toStage: Pick<JobStage, 'type'>,
): Promise<void> {
  if (toStage.type === 'won' || toStage.type === 'lost') await stopRunningSequence(trx, firmId, jobId, toStage.type);
}
