// A running follow-up sequence stops by itself when its job is won or lost (document 2, Re-bid and
// follow-up sequence). Called from crm/jobs/stage-change.ts in the stage move's transaction.
import type { Executor } from '#db/dialect.ts';
import type { JobStage } from '#db/tables.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { stopRunningSequence } from './runs.ts';

export async function stopSequenceWhenDecided(
  trx: Executor,
  firmId: number,
  jobId: number,
  toStage: Pick<JobStage, 'type'>,
): Promise<void> {
  if (toStage.type !== 'won' && toStage.type !== 'lost') return;
  const closed = await stopRunningSequence(trx, firmId, jobId, toStage.type);
  if (closed !== null)
    await logJobActivity(trx, {
      firmId,
      jobId,
      userId: null,
      kind: 'follow_up_sequence_stopped',
      summary: `Follow-up sequence stopped: the job was ${toStage.type}`,
      data: { reason: toStage.type, steps_closed: closed },
    });
}
