import type { Executor } from '#db/dialect.ts';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DB, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/jobs/access.ts';
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

/** The workspace's reminders that pass the filter. */
function matching(eb: ExpressionBuilder<DB, 'reminders'>, firmId: number, f: ReminderFilter) {
  const all: Expression<SqlBool>[] = [eb('reminders.firm_id', '=', firmId)];
  if (f.status === 'open') all.push(eb('reminders.status', 'in', ['pending', 'sent']));
  else if (f.status !== 'all') all.push(eb('reminders.status', '=', f.status));
  if (f.reminderType !== undefined) all.push(eb('reminders.reminder_type', '=', f.reminderType));
  if (f.clientAccountId !== undefined) all.push(eb('reminders.client_account_id', '=', f.clientAccountId));
  if (f.contactId !== undefined) all.push(eb('reminders.contact_id', '=', f.contactId));
  if (f.jobId !== undefined) all.push(eb('reminders.job_id', '=', f.jobId));
  if (f.assignedToUserId !== undefined) all.push(eb('reminders.assigned_to_user_id', '=', f.assignedToUserId));
  if (f.dueBefore !== undefined) all.push(eb('reminders.due_at', '<', f.dueBefore));
  if (f.dueAfter !== undefined) all.push(eb('reminders.due_at', '>', f.dueAfter));
  return eb.and(all);
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
  const rows = onVisibleJob(
    withAssignee(db).where((eb) => matching(eb, firmId, f)),
    'reminders.job_id',
    firmId,
    user,
  )
    .orderBy('reminders.due_at', 'asc')
    .orderBy('reminders.id', 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = onVisibleJob(
    db
      .selectFrom('reminders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => matching(eb, firmId, f)),
    'reminders.job_id',
    firmId,
    user,
  ).executeTakeFirstOrThrow();
  const [page, n] = await Promise.all([rows, count]);
  return { rows: page as ReminderRow[], total: Number(n.n) };
}
