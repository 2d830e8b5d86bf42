// A job's follow-up sequence (document 2, Follow-up sequence): read, start (400 when the workspace
// has no sequence on or the customer company skips automatic follow-ups; started_now false when it
// runs already), stop (owner only; steps_closed). Starting copies the workspace's steps onto the
// job with the time each is due (the start plus its day); the worker (worker.ts) carries them out.
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction, inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest } from '#platform/errors.ts';
import { millisOf, now, storedAt, zWire } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { visibleJobOr404 } from '#crm/notes/parents.ts';
import type { Executor } from '#db/dialect.ts';
import type { Job } from '#db/tables.ts';
import { type RunStep, runningSequence, stepsOf, stopRunningSequence } from './runs.ts';
import { requireOwner, type SequenceSettings, sequenceOn, sequenceSettingsOf } from './settings.ts';
import { customerEmailOf } from './worker.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function unavailable(
  message: string,
  code: 'sequence_not_enabled' | 'customer_skips_follow_ups' | 'no_customer_email',
) {
  return badRequest('sequence not enabled or customer skips follow-ups', { code, message });
}

function stepObject(s: RunStep) {
  return {
    day: s.day,
    kind: s.kind,
    subject: s.subject,
    body: s.body,
    title: s.title,
    due_at: zWire(s.due_at),
    status: s.status,
  };
}

async function sequenceObject(db: Executor, firmId: number, jobId: number, settings: SequenceSettings) {
  const run = await runningSequence(db, firmId, jobId);
  if (run) {
    const all = await stepsOf(db, run.id, false);
    return {
      job_id: jobId,
      sequence_enabled: sequenceOn(settings),
      running: true,
      steps: all.filter((s) => s.status === 'open').map(stepObject),
      through_day: all.length > 0 ? Math.max(...all.map((s) => s.day)) : null,
    };
  }
  return {
    job_id: jobId,
    sequence_enabled: sequenceOn(settings),
    running: false,
    steps: settings.steps.map((s) => ({ ...s, due_at: null, status: null })),
    through_day: settings.steps.length > 0 ? Math.max(...settings.steps.map((s) => s.day)) : null,
  };
}

export async function getJobSequence(ctx: ServiceContext, jobId: number) {
  const db = ctx.database.db;
  const firmId = ctx.auth.firm.id;
  const job = await visibleJobOr404(db, firmId, jobId, ctx.auth.user);
  return sequenceObject(db, firmId, job.id, await sequenceSettingsOf(db, firmId));
}

async function skipsFollowUps(db: Executor, job: Job): Promise<boolean> {
  if (job.client_account_id === null) return false;
  const account = await db
    .selectFrom('client_accounts')
    .select('skip_automatic_follow_ups')
    .where('id', '=', job.client_account_id)
    .executeTakeFirst();
  return account?.skip_automatic_follow_ups === 1;
}

export async function startJobSequence(ctx: ServiceContext, jobId: number) {
  const firmId = ctx.auth.firm.id;
  // The workspace lock (PostgreSQL) makes a second start wait and then see the first one running.
  return inWorkspaceTransaction(ctx, async (trx) => {
    const job = await visibleJobOr404(trx, firmId, jobId, ctx.auth.user);
    const settings = await sequenceSettingsOf(trx, firmId);
    const startedNow = await startSequenceIn(ctx, trx, job, settings);
    return { ...(await sequenceObject(trx, firmId, job.id, settings)), started_now: startedNow };
  });
}

/**
 * Starts the workspace's sequence on `job` in the caller's workspace transaction: true when it
 * started, false when one runs already; the documented 400s when it cannot (off, the customer
 * skips follow-ups, no customer email for an email step). Sending a proposal starts it this way.
 */
export async function startSequenceIn(
  ctx: ServiceContext,
  trx: Executor,
  job: Job,
  settings: SequenceSettings,
): Promise<boolean> {
  const firmId = ctx.auth.firm.id;
  if (!sequenceOn(settings))
    throw unavailable('The workspace has no follow-up sequence turned on', 'sequence_not_enabled');
  if (await skipsFollowUps(trx, job))
    throw unavailable("The job's customer company skips automatic follow-ups", 'customer_skips_follow_ups');
  if (await runningSequence(trx, firmId, job.id)) return false;
  if (settings.steps.some((s) => s.kind === 'email') && (await customerEmailOf(trx, job)) === null)
    throw unavailable(
      "The job has no customer email (contact_email, bill_to_email or the customer's email) for the sequence's emails",
      'no_customer_email',
    );
  const at = now();
  const run = await trx
    .insertInto('job_follow_up_sequences')
    .values({
      firm_id: firmId,
      job_id: job.id,
      status: 'running',
      stop_reason: null,
      stop_on_customer_reply: settings.stop_on_customer_reply ? 1 : 0,
      started_by_user_id: ctx.auth.user.id,
      started_at: at,
      ended_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('job_follow_up_steps')
    .values(
      settings.steps.map((s, position) => ({
        sequence_id: run.id,
        firm_id: firmId,
        job_id: job.id,
        position,
        day: s.day,
        kind: s.kind,
        subject: s.subject,
        body: s.body,
        title: s.title,
        due_at: storedAt(millisOf(at) + s.day * DAY_MS),
        status: 'open' as const,
        done_at: null,
        task_id: null,
        mail_id: null,
      })),
    )
    .execute();
  await logJobActivity(trx, {
    firmId,
    jobId: job.id,
    userId: ctx.auth.user.id,
    kind: 'follow_up_sequence_started',
    summary: `Follow-up sequence started (${settings.steps.length} step${settings.steps.length === 1 ? '' : 's'})`,
    data: { sequence_id: run.id },
  });
  return true;
}

export async function stopJobSequence(ctx: ServiceContext, jobId: number) {
  const firmId = ctx.auth.firm.id;
  return inTransaction(ctx.database, async (trx) => {
    const job = await visibleJobOr404(trx, firmId, jobId, ctx.auth.user);
    requireOwner(ctx, 'Stopping a follow-up sequence');
    const closed = await stopRunningSequence(trx, firmId, job.id, 'stopped');
    if (closed !== null)
      await logJobActivity(trx, {
        firmId,
        jobId: job.id,
        userId: ctx.auth.user.id,
        kind: 'follow_up_sequence_stopped',
        summary: 'Follow-up sequence stopped',
        data: { reason: 'stopped', steps_closed: closed },
      });
    const settings = await sequenceSettingsOf(trx, firmId);
    return { ...(await sequenceObject(trx, firmId, job.id, settings)), steps_closed: closed ?? 0 };
  });
}
