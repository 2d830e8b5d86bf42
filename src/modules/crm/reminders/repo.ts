import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/jobs/repo.ts';
import type { ReminderRow } from './serialize.ts';

function withAssignee(db: Executor) {
  return db
    .selectFrom('reminders')
    .leftJoin('users as au', 'au.id', 'reminders.assigned_to_user_id')
    .selectAll('reminders')
    .select('au.name as assignee_name');
}

/** A reminder of the workspace, whoever may see it. */
export function findReminder(db: Executor, firmId: number, id: number): Promise<ReminderRow | undefined> {
  return withAssignee(db).where('reminders.firm_id', '=', firmId).where('reminders.id', '=', id).executeTakeFirst();
}

export interface ReminderFilter {
  /** open is pending or sent. */
  status: 'open' | 'pending' | 'sent' | 'done' | 'dismissed' | 'all';
  reminderType?: string;
  clientAccountId?: number;
  contactId?: number;
  jobId?: number;
  assignedToUserId?: number;
  dueBefore?: string;
  dueAfter?: string;
}

/** Soonest due first, ties by id; only reminders on jobs the user sees (or on no job). */
export async function listReminders(
  db: Executor,
  firmId: number,
  user: User,
  f: ReminderFilter,
  limit: number,
  offset: number,
) {
  const filter = <QB extends { where: (...args: any[]) => QB }>(qb: QB): QB => {
    qb = qb.where('reminders.firm_id', '=', firmId);
    if (f.status === 'open') qb = qb.where('reminders.status', 'in', ['pending', 'sent']);
    else if (f.status !== 'all') qb = qb.where('reminders.status', '=', f.status);
    if (f.reminderType !== undefined) qb = qb.where('reminders.reminder_type', '=', f.reminderType);
    if (f.clientAccountId !== undefined) qb = qb.where('reminders.client_account_id', '=', f.clientAccountId);
    if (f.contactId !== undefined) qb = qb.where('reminders.contact_id', '=', f.contactId);
    if (f.jobId !== undefined) qb = qb.where('reminders.job_id', '=', f.jobId);
    if (f.assignedToUserId !== undefined) qb = qb.where('reminders.assigned_to_user_id', '=', f.assignedToUserId);
    if (f.dueBefore !== undefined) qb = qb.where('reminders.due_at', '<', f.dueBefore);
    if (f.dueAfter !== undefined) qb = qb.where('reminders.due_at', '>', f.dueAfter);
    return qb;
  };
  const rows = onVisibleJob(filter(withAssignee(db)), 'reminders.job_id', firmId, user)
    .orderBy('reminders.due_at', 'asc')
    .orderBy('reminders.id', 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = onVisibleJob(
    filter(db.selectFrom('reminders').select((eb) => eb.fn.countAll<number>().as('n'))),
    'reminders.job_id',
    firmId,
    user,
  ).executeTakeFirstOrThrow();
  const [page, n] = await Promise.all([rows, count]);
  return { rows: page as ReminderRow[], total: Number(n.n) };
}
