// The follow-up sequence worker task (a crm area workerTask): each sweep carries out the open
// steps of running sequences whose time has come by the worker's clock (env.deps.clock), oldest
// first, each in its own transaction. An email step queues the step's mail to the job's customer
// (kind sequence_step, ref job:<id>; From shows the workspace, Reply-To the job's salesperson, a
// footer names the workspace) for the mail worker to send; a task step makes a job follow-up for
// the salesperson. A step is claimed by moving it from open in the same transaction, so two
// workers never carry out one step twice, and a stop that closed it first wins. The sequence
// finishes when its last step is done; it stops instead when the customer company has since
// chosen to skip automatic follow-ups.
import type { Executor } from '#db/dialect.ts';
import type { Job } from '#db/tables.ts';
import type { Env } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { queueMail } from '#platform/mail/queue.ts';
import { customerFooter, renderMail } from '#platform/mail/templates.ts';
import { now, storedAt } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { type RunStep, stopRunningSequence } from './runs.ts';
import { fillTemplate, type Placeholder } from './templates.ts';

/** Steps one sweep takes on. */
const BATCH = 50;

/** The address the job's customer mail goes to: the job contact, else the bill-to, else the customer's. */
export async function customerEmailOf(
  db: Executor,
  job: Pick<Job, 'contact_email' | 'bill_to_email' | 'client_account_id'>,
): Promise<string | null> {
  const direct = [job.contact_email, job.bill_to_email].find((e) => e != null && e.trim() !== '');
  if (direct) return direct.trim();
  if (job.client_account_id === null) return null;
  const account = await db
    .selectFrom('client_accounts')
    .select('email')
    .where('id', '=', job.client_account_id)
    .executeTakeFirst();
  return account?.email?.trim() || null;
}

function paragraphsOf(body: string): string[] {
  return body
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** Carries out one due step (claimed here); answers whether it was still open. */
async function carryOut(env: Env, trx: Executor, step: RunStep): Promise<boolean> {
  const claimed = await trx
    .updateTable('job_follow_up_steps')
    .set({ status: 'done', done_at: now() })
    .where('id', '=', step.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false;
  const job = await trx.selectFrom('jobs').selectAll().where('id', '=', step.job_id).executeTakeFirstOrThrow();
  const firm = await trx
    .selectFrom('firms')
    .select(['name', 'timezone'])
    .where('id', '=', job.firm_id)
    .executeTakeFirstOrThrow();
  const account =
    job.client_account_id === null
      ? undefined
      : await trx
          .selectFrom('client_accounts')
          .select(['name', 'skip_automatic_follow_ups'])
          .where('id', '=', job.client_account_id)
          .executeTakeFirst();
  if (account?.skip_automatic_follow_ups === 1) {
    await trx.updateTable('job_follow_up_steps').set({ status: 'closed' }).where('id', '=', step.id).execute();
    await stopRunningSequence(trx, job.firm_id, job.id, 'customer_skips');
    return true;
  }
  // The job's salesperson; once they have left the workspace, its first owner takes their place.
  const salesperson =
    (await trx
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('id', '=', job.assigned_to_user_id)
      .where('removed_at', 'is', null)
      .executeTakeFirst()) ??
    (await trx
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where('firm_id', '=', job.firm_id)
      .where('role', '=', 'owner')
      .where('removed_at', 'is', null)
      .orderBy('id')
      .executeTakeFirst());
  const values: Record<Placeholder, string> = {
    customer_name: job.contact_name?.trim() || job.company?.trim() || account?.name || 'there',
    job_name: job.name,
    job_address: job.address ?? '',
    workspace_name: firm.name,
    salesperson_name: salesperson?.name ?? firm.name,
  };
  if (step.kind === 'email') {
    const to = await customerEmailOf(trx, job);
    if (to === null) {
      await trx.updateTable('job_follow_up_steps').set({ status: 'skipped' }).where('id', '=', step.id).execute();
    } else {
      const mailId = await queueMail(trx, env.deps.mail, {
        firmId: job.firm_id,
        kind: 'sequence_step',
        ref: `job:${job.id}`,
        to,
        fromName: firm.name,
        replyTo: salesperson?.email ?? null,
        mail: renderMail({
          subject: fillTemplate(step.subject ?? '', values),
          paragraphs: paragraphsOf(fillTemplate(step.body ?? '', values)),
          footer: customerFooter(firm.name),
        }),
      });
      await trx.updateTable('job_follow_up_steps').set({ mail_id: mailId }).where('id', '=', step.id).execute();
    }
  } else {
    const title = fillTemplate(step.title ?? '', values).slice(0, 200);
    const at = now();
    const task = await trx
      .insertInto('tasks')
      .values({
        firm_id: job.firm_id,
        job_id: job.id,
        contact_id: null,
        title,
        task_type: 'follow_up',
        notes: `From the follow-up sequence (day ${step.day})`,
        due_at: step.due_at,
        status: 'open',
        assigned_to_user_id: salesperson?.id ?? job.assigned_to_user_id,
        created_by_user_id: null,
        completed_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning(['id', 'assigned_to_user_id'])
      .executeTakeFirstOrThrow();
    await trx.updateTable('job_follow_up_steps').set({ task_id: task.id }).where('id', '=', step.id).execute();
    await logJobActivity(trx, {
      firmId: job.firm_id,
      jobId: job.id,
      userId: null,
      kind: 'task_added',
      summary: `Follow-up "${title}" added by the follow-up sequence due ${storedToLocal(step.due_at, firm.timezone).date}`,
      data: {
        task_id: task.id,
        title,
        task_type: 'follow_up',
        due_at: step.due_at,
        assigned_to_user_id: task.assigned_to_user_id,
      },
    });
  }
  const open = await trx
    .selectFrom('job_follow_up_steps')
    .select('id')
    .where('sequence_id', '=', step.sequence_id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (!open)
    await trx
      .updateTable('job_follow_up_sequences')
      .set({ status: 'finished', ended_at: now() })
      .where('id', '=', step.sequence_id)
      .where('status', '=', 'running')
      .execute();
  return true;
}

export function followUpSequenceTask(env: Env): BackgroundTask {
  return {
    name: 'follow-up-sequences',
    async sweep() {
      const due = await env.database.db
        .selectFrom('job_follow_up_steps as s')
        .innerJoin('job_follow_up_sequences as r', 'r.id', 's.sequence_id')
        .selectAll('s')
        .where('s.status', '=', 'open')
        .where('r.status', '=', 'running')
        .where('s.due_at', '<=', storedAt(env.deps.clock.now()))
        .orderBy('s.due_at')
        .orderBy('s.id')
        .limit(BATCH)
        .execute();
      let done = 0;
      for (const step of due) if (await inTransaction(env.database, (trx) => carryOut(env, trx, step))) done++;
      return done;
    },
  };
}
