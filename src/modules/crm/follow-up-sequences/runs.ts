// A follow-up sequence running on a job: its row and steps, and stopping it. Used by the API
// (service.ts), by a job entering a won or lost stage (stage-rule.ts), by the customer's portal
// reply (portal-links/visit.ts) and by the worker (worker.ts).
import type { Selectable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import { transition } from '#db/transition.ts';
import type { JobFollowUpSequenceTable, JobFollowUpStepTable } from '#db/tables.ts';
import { now } from '#platform/time.ts';

export type SequenceRun = Selectable<JobFollowUpSequenceTable>;
export type RunStep = Selectable<JobFollowUpStepTable>;

/** Why a running sequence stopped: the stop call, the job won or lost, the customer's reply, the customer skipping follow-ups. */
export type StopReason = 'stopped' | 'won' | 'lost' | 'customer_reply' | 'customer_skips';

export function runningSequence(db: Executor, firmId: number, jobId: number): Promise<SequenceRun | undefined> {
  return db
    .selectFrom('job_follow_up_sequences')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .where('status', '=', 'running')
    .executeTakeFirst();
}

export function stepsOf(db: Executor, sequenceId: number, onlyOpen: boolean): Promise<RunStep[]> {
  let q = db.selectFrom('job_follow_up_steps').selectAll().where('sequence_id', '=', sequenceId);
  if (onlyOpen) q = q.where('status', '=', 'open');
  return q.orderBy('position').execute();
}

/**
 * Stops the job's running sequence, if any: its open steps close (no more emails) and it ends
 * with `reason`. `onlyIfReplyStops` keeps a sequence whose settings say a reply does not stop it.
 * Answers how many steps closed, or null when nothing was running (or it keeps running).
 */
export async function stopRunningSequence(
  trx: Executor,
  firmId: number,
  jobId: number,
  reason: StopReason,
): Promise<number | null> {
  const run = await runningSequence(trx, firmId, jobId);
  if (!run) return null;
  if (reason === 'customer_reply' && run.stop_on_customer_reply !== 1) return null;
  const at = now();
  // running → stopped first: of concurrent stops one stops it (and closes its steps); the others
  // find it stopped and change nothing.
  if (
    !(await transition(
      trx,
      'job_follow_up_sequences',
      run.id,
      { status: 'running' },
      { status: 'stopped', stop_reason: reason, ended_at: at },
    ))
  )
    return null;
  const closed = await trx
    .updateTable('job_follow_up_steps')
    .set({ status: 'closed', done_at: at })
    .where('sequence_id', '=', run.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(closed.numUpdatedRows);
}
