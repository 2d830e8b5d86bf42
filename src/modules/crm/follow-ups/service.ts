// POST /v1/follow-ups/bulk (document 2): done, snooze or reassign over job follow-ups, company
// follow-ups or reminders, in one transaction. Each row goes through the same function its own
// endpoint uses (completeTask, completeAccountTask, completeReminderIn), so completing in bulk is
// completing. An id outside the workspace is a 404 listing them and nothing changes; rows the
// user may not act on (a follow-up or reminder on a job they cannot see) and finished rows are
// skipped and listed with the reason.
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { AccountTask, DB, Reminder, Task } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { can } from '#platform/permissions.ts';
import { now } from '#platform/time.ts';
import { completeAccountTask } from '#crm/account-tasks/service.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { completeReminderIn, isOpen, mayActOn, rescheduleReminder } from '#crm/reminders/service.ts';
import { snoozedUntil, type Snooze } from '#crm/reminders/when.ts';
import { completeTask } from '#crm/tasks/service.ts';
import { findActiveUser } from '#workspace/index.ts';
import type { BulkFollowUpsInput } from './schemas.ts';

type Kind = 'task_ids' | 'account_task_ids' | 'reminder_ids';
type Skip = { id: number; reason: 'finished' | 'not_allowed' | 'unchanged' };
type Row = Task | AccountTask | Reminder;

const KINDS: readonly Kind[] = ['task_ids', 'account_task_ids', 'reminder_ids'];
const TABLE = { task_ids: 'tasks', account_task_ids: 'account_tasks', reminder_ids: 'reminders' } as const;
const NOUN = { task_ids: 'job follow-ups', account_task_ids: 'company follow-ups', reminder_ids: 'reminders' };

/** The body's one id list, and the fields its action needs (400s naming what is wrong). */
function checkBody(input: BulkFollowUpsInput): { kind: Kind; ids: number[] } {
  const sent = KINDS.filter((k) => input[k] !== undefined);
  if (sent.length !== 1)
    throw invalidField(sent[1] ?? 'task_ids', 'Send exactly one of task_ids, account_task_ids or reminder_ids');
  if (input.action === 'snooze' && input.snooze === undefined)
    throw invalidField('snooze', 'action snooze needs snooze (1h, tomorrow or next_week)');
  if (input.action !== 'snooze' && input.snooze !== undefined)
    throw invalidField('snooze', 'snooze is only taken with action snooze');
  if (input.action === 'reassign' && input.assigned_to_user_id === undefined)
    throw invalidField('assigned_to_user_id', 'action reassign needs assigned_to_user_id');
  if (input.action !== 'reassign' && input.assigned_to_user_id !== undefined)
    throw invalidField('assigned_to_user_id', 'assigned_to_user_id is only taken with action reassign');
  const kind = sent[0]!;
  return { kind, ids: [...new Set(input[kind]!)] };
}

/** The new assignee must be an active office user of the workspace (404 otherwise, as contacts' salesperson). */
async function officeTeammateOr404(db: Executor, firmId: number, id: number): Promise<number> {
  const user = await findActiveUser(db, firmId, id);
  if (!user)
    throw notFound('assigned_to_user_id does not match a user in this workspace', { field: 'assigned_to_user_id' });
  if (!can(user, 'office_user'))
    throw notFound('user is not an office teammate', {
      field: 'assigned_to_user_id',
      message: 'Follow-ups go to office users, not crew logins',
    });
  return user.id;
}

async function mayAct(ctx: ServiceContext, db: Executor, kind: Kind, row: Row): Promise<boolean> {
  if (kind === 'task_ids') return !!(await findVisibleJob(db, ctx.auth.firm.id, (row as Task).job_id, ctx.auth.user));
  if (kind === 'reminder_ids') return mayActOn(ctx, db, row as Reminder);
  return true;
}

const finished = (kind: Kind, row: Row) =>
  kind === 'reminder_ids' ? !isOpen(row as Reminder) : (row as Task | AccountTask).status !== 'open';

export async function bulkFollowUps(ctx: ServiceContext, input: BulkFollowUpsInput) {
  const firmId = ctx.auth.firm.id;
  const { kind, ids } = checkBody(input);
  const table = TABLE[kind];
  const timeZone = ctx.auth.firm.timezone;
  const snoozeTo =
    input.snooze !== undefined ? snoozedUntil(input.snooze as Snooze, ctx.deps.clock.now(), timeZone) : null;
  return inTransaction(ctx.database, async (trx) => {
    const assignee =
      input.action === 'reassign' ? await officeTeammateOr404(trx, firmId, input.assigned_to_user_id!) : null;
    const rows = (await trx
      .selectFrom(table)
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('id', 'in', ids)
      .execute()) as Row[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0)
      throw notFound('ids outside the workspace', {
        field: kind,
        ids: missing,
        message: `Not ${NOUN[kind]} of this workspace: ${missing.join(', ')}`,
      });
    const changed: number[] = [];
    const skipped: Skip[] = [];
    for (const id of ids) {
      const row = byId.get(id)!;
      if (!(await mayAct(ctx, trx, kind, row))) skipped.push({ id, reason: 'not_allowed' });
      else if (finished(kind, row)) skipped.push({ id, reason: 'finished' });
      else if (await act(ctx, trx, kind, row, input.action, snoozeTo, assignee)) changed.push(id);
      // A completion that changed nothing found the row completed by a concurrent or repeated call.
      else skipped.push({ id, reason: input.action === 'done' ? 'finished' : 'unchanged' });
    }
    return { action: input.action, changed, skipped };
  });
}

/** Applies the action to one open row the user may act on; false when it changes nothing. */
async function act(
  ctx: ServiceContext,
  trx: Transaction<DB>,
  kind: Kind,
  row: Row,
  action: BulkFollowUpsInput['action'],
  snoozeTo: string | null,
  assignee: number | null,
): Promise<boolean> {
  if (action === 'done') {
    if (kind === 'task_ids') return completeTask(ctx, trx, row as Task);
    if (kind === 'account_task_ids') return completeAccountTask(ctx, trx, row as AccountTask);
    return completeReminderIn(ctx, trx, row as Reminder);
  }
  if (action === 'snooze') {
    if (kind === 'reminder_ids') {
      await rescheduleReminder(trx, row as Reminder, snoozeTo!, ctx.auth.firm.timezone);
      return true;
    }
    if (row.due_at === snoozeTo) return false;
    await trx
      .updateTable(TABLE[kind] as 'tasks')
      .set({ due_at: snoozeTo, updated_at: now() })
      .where('id', '=', row.id)
      .execute();
    return true;
  }
  if (row.assigned_to_user_id === assignee) return false;
  await trx
    .updateTable(TABLE[kind] as 'tasks')
    .set({ assigned_to_user_id: assignee!, updated_at: now() })
    .where('id', '=', row.id)
    .execute();
  return true;
}
