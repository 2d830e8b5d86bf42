// The worker task that emails teammates when their reminders and remind-me follow-ups come due
// (document 2: "Reminders and remind-me follow-ups email the teammate when due, never the
// customer"). A due pending reminder moves to sent with last_emailed_at, and its assignee's mail is
// queued in the same transaction; a company follow-up with email_me is emailed once per round,
// that_day at its due time and day_before at the same local time the day before, and
// account_tasks.emailed_due_at remembers the round. Each row is claimed by a conditional update, so
// two workers never mail the same round twice.
import type { Env } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { queueMail } from '#platform/mail/queue.ts';
import { renderMail, teammateFooter } from '#platform/mail/templates.ts';
import { addDays, millisOf, now, storedAt } from '#platform/time.ts';
import { localToStored, localWhen, storedToLocal } from '#platform/time-zone.ts';
import type { BackgroundTask } from '#worker/index.ts';
import { repeatEveryDays } from './when.ts';

const HOUR = 3_600_000;
/** Rows taken per sweep and kind. */
const BATCH = 100;

const KIND_LABEL: Record<string, string> = {
  contract_renewal: 'Contract renewal',
  maintenance_checkin: 'Maintenance check-in',
  follow_up: 'Follow-up',
};

const TASK_TYPE_LABEL: Record<string, string> = {
  call: 'Call',
  email: 'Email',
  meeting: 'Meeting',
  site_visit: 'Site visit',
  follow_up: 'Follow-up',
};

function repeatText(every: number | null, unit: string | null): string | null {
  if (every === null || unit === null || repeatEveryDays(every, unit) === null) return null;
  return every === 1 ? `Every ${unit}` : `Every ${every} ${unit}s`;
}

/** Emails the assignees of reminders now due; answers how many it moved to sent. */
async function sweepReminders(env: Env, nowStored: string): Promise<number> {
  const db = env.database.db;
  const rows = await db
    .selectFrom('reminders')
    .innerJoin('firms', 'firms.id', 'reminders.firm_id')
    .innerJoin('users as au', 'au.id', 'reminders.assigned_to_user_id')
    .leftJoin('client_accounts as ca', 'ca.id', 'reminders.client_account_id')
    .leftJoin('contacts as co', 'co.id', 'reminders.contact_id')
    .leftJoin('jobs as j', 'j.id', 'reminders.job_id')
    .select([
      'reminders.id',
      'reminders.firm_id',
      'reminders.title',
      'reminders.description',
      'reminders.reminder_type',
      'reminders.due_at',
      'reminders.timezone',
      'reminders.repeat_every',
      'reminders.repeat_unit',
      'firms.name as firm_name',
      'au.name as assignee_name',
      'au.email as assignee_email',
      'au.removed_at as assignee_removed_at',
      'ca.name as customer_name',
      'co.name as contact_name',
      'j.name as job_name',
    ])
    .where('reminders.status', '=', 'pending')
    .where('reminders.due_at', '<=', nowStored)
    .orderBy('reminders.due_at')
    .orderBy('reminders.id')
    .limit(BATCH)
    .execute();
  for (const r of rows) {
    await inTransaction(env.database, async (trx) => {
      const claimed = await trx
        .updateTable('reminders')
        .set({ status: 'sent', last_emailed_at: nowStored, updated_at: now() })
        .where('id', '=', r.id)
        .where('status', '=', 'pending')
        .where('due_at', '=', r.due_at)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1 || r.assignee_removed_at !== null) return;
      const kind = KIND_LABEL[r.reminder_type] ?? 'Follow-up';
      await queueMail(trx, env.deps.mail, {
        firmId: r.firm_id,
        kind: 'reminder_due',
        ref: `reminder:${r.id}`,
        to: r.assignee_email,
        fromName: r.firm_name,
        replyTo: null,
        mail: renderMail({
          subject: `Reminder: ${r.title}`,
          greeting: `Hi ${r.assignee_name},`,
          paragraphs: [
            `Your ${kind.toLowerCase()} reminder "${r.title}" is due ${localWhen(r.due_at, r.timezone)}.`,
            ...(r.description.trim() !== '' ? [r.description] : []),
          ],
          facts: [
            ['Kind', kind],
            ['Customer', r.customer_name],
            ['Contact', r.contact_name],
            ['Job', r.job_name],
            ['Repeats', repeatText(r.repeat_every, r.repeat_unit)],
          ],
          footer: teammateFooter(r.firm_name),
        }),
      });
    });
  }
  return rows.length;
}

/** When a follow-up's email_me message is due: at its due time, or the same local time a day earlier. */
export function emailAt(dueAt: string, emailMe: string, timeZone: string): string {
  if (emailMe !== 'day_before') return dueAt;
  const local = storedToLocal(dueAt, timeZone);
  return localToStored(addDays(local.date, -1), local.time, timeZone);
}

/** Emails the assignees of remind-me follow-ups whose round is due to be emailed; answers how many. */
async function sweepFollowUps(env: Env, nowStored: string, nowMs: number): Promise<number> {
  const db = env.database.db;
  // day_before sends 23 to 25 hours ahead (a daylight-saving day is one of those); the exact
  // instant is checked below.
  const dayAhead = storedAt(nowMs + 25 * HOUR);
  const rows = await db
    .selectFrom('account_tasks as t')
    .innerJoin('firms', 'firms.id', 't.firm_id')
    .innerJoin('users as au', 'au.id', 't.assigned_to_user_id')
    .innerJoin('client_accounts as ca', 'ca.id', 't.client_account_id')
    .leftJoin('contacts as co', 'co.id', 't.contact_id')
    .select([
      't.id',
      't.firm_id',
      't.title',
      't.task_type',
      't.notes',
      't.due_at',
      't.repeat',
      't.email_me',
      'firms.name as firm_name',
      'firms.timezone',
      'au.name as assignee_name',
      'au.email as assignee_email',
      'au.removed_at as assignee_removed_at',
      'ca.name as customer_name',
      'co.name as contact_name',
    ])
    .where('t.status', '=', 'open')
    .where('t.due_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('t.email_me', '=', 'that_day'), eb('t.due_at', '<=', nowStored)]),
        eb.and([eb('t.email_me', '=', 'day_before'), eb('t.due_at', '<=', dayAhead)]),
      ]),
    )
    .where((eb) => eb.or([eb('t.emailed_due_at', 'is', null), eb('t.emailed_due_at', '!=', eb.ref('t.due_at'))]))
    .orderBy('t.due_at')
    .orderBy('t.id')
    .limit(BATCH)
    .execute();
  let emailed = 0;
  for (const r of rows) {
    const dueAt = r.due_at!;
    if (millisOf(emailAt(dueAt, r.email_me, r.timezone)) > millisOf(nowStored)) continue;
    emailed++;
    await inTransaction(env.database, async (trx) => {
      const claimed = await trx
        .updateTable('account_tasks')
        .set({ emailed_due_at: dueAt })
        .where('id', '=', r.id)
        .where('due_at', '=', dueAt)
        .where('status', '=', 'open')
        .where((eb) => eb.or([eb('emailed_due_at', 'is', null), eb('emailed_due_at', '!=', dueAt)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1 || r.assignee_removed_at !== null) return;
      const tomorrow = r.email_me === 'day_before';
      await queueMail(trx, env.deps.mail, {
        firmId: r.firm_id,
        kind: 'follow_up_due',
        ref: `account_task:${r.id}`,
        to: r.assignee_email,
        fromName: r.firm_name,
        replyTo: null,
        mail: renderMail({
          subject: `${tomorrow ? 'Follow-up due tomorrow' : 'Follow-up due'}: ${r.title}`,
          greeting: `Hi ${r.assignee_name},`,
          paragraphs: [`Your follow-up "${r.title}" with ${r.customer_name} is due ${localWhen(dueAt, r.timezone)}.`],
          facts: [
            ['Type', TASK_TYPE_LABEL[r.task_type] ?? r.task_type],
            ['Customer', r.customer_name],
            ['Contact', r.contact_name],
            ['Notes', r.notes],
            ['Repeats', r.repeat === 'none' ? null : r.repeat[0]!.toUpperCase() + r.repeat.slice(1)],
          ],
          footer: teammateFooter(r.firm_name),
        }),
      });
    });
  }
  return emailed;
}

/** The crm area's worker task (src/area.ts, workerTasks); its clock is the process's (env.deps.clock). */
export function dueMailTask(env: Env): BackgroundTask {
  return {
    name: 'reminders-due',
    async sweep() {
      const nowMs = env.deps.clock.now();
      const nowStored = storedAt(nowMs);
      return (await sweepReminders(env, nowStored)) + (await sweepFollowUps(env, nowStored, nowMs));
    },
  };
}
