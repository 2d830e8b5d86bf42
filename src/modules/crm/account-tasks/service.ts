// Company follow-ups (document 2: POST /v1/account-tasks needs client_account_id; the title
// defaults from the type and the customer's name). The remind-me endpoints of a later issue
// create the same records.
import type { Executor } from '#db/dialect.ts';
import type { AccountTask } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import type { Page } from '#platform/pagination.ts';
import { truncate } from '#platform/text.ts';
import { millisOf, now } from '#platform/time.ts';
import { assignableUserOr404, clientAccountOr404, contactOr404, requiredText } from '#crm/notes/parents.ts';
import { localToStored, storedToLocal } from '#platform/time-zone.ts';
import { dueFromInput } from '#crm/tasks/due.ts';
import { leadFollowUpCompleted } from '#crm/leads/implicit.ts';
import type { TaskType } from '#crm/tasks/serialize.ts';
import { findAccountTask, listAccountTasks, type AccountTaskFilter } from './repo.ts';
import type { CreateAccountTaskInput, UpdateAccountTaskInput } from './schemas.ts';
import { accountTaskObject, type Repeat } from './serialize.ts';

export const MAX_TITLE_LENGTH = 200;

const VERB: Record<TaskType, string> = {
  call: 'Call',
  email: 'Email',
  meeting: 'Meet',
  site_visit: 'Visit',
  follow_up: 'Follow up with',
};

/** 'Call Acme Paving', 'Follow up with Acme Paving' … */
export function defaultTitle(type: TaskType, customerName: string): string {
  return truncate(`${VERB[type]} ${customerName.trim()}`, MAX_TITLE_LENGTH);
}

const accountTaskNotFound = () => notFound('Account task not found');
const blankToNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim();

async function taskOr404(ctx: ServiceContext, db: Executor, id: number) {
  const task = await findAccountTask(db, ctx.auth.firm.id, id);
  if (!task) throw accountTaskNotFound();
  return task;
}

/** A repeating or emailing follow-up needs a due date. */
function assertSchedulable(t: Pick<AccountTask, 'due_at' | 'repeat' | 'email_me'>): void {
  if (t.due_at !== null) return;
  if (t.repeat !== 'none') throw invalidField('due_date', 'A repeating follow-up needs a due_date');
  if (t.email_me !== 'none') throw invalidField('due_date', 'email_me needs a due_date');
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
}

function nextLocalDate(date: string, repeat: Exclude<Repeat, 'none'>, anchorDay: number): string {
  const [y, m, d] = date.split('-').map(Number);
  let ny = y,
    nm = m - 1,
    nd = d;
  if (repeat === 'weekly') {
    const next = new Date(Date.UTC(y, m - 1, d + 7));
    return next.toISOString().slice(0, 10);
  }
  if (repeat === 'monthly') {
    nm += 1;
    if (nm > 11) {
      nm = 0;
      ny += 1;
    }
  } else ny += 1;
  nd = Math.min(anchorDay, daysInMonth(ny, nm));
  return `${String(ny).padStart(4, '0')}-${String(nm + 1).padStart(2, '0')}-${String(nd).padStart(2, '0')}`;
}

/** The next round of a repeating follow-up: one interval on, and on until it is in the future. */
export function nextRound(dueAt: string, repeat: Exclude<Repeat, 'none'>, timeZone: string, nowStored: string): string {
  const local = storedToLocal(dueAt, timeZone);
  const anchorDay = Number(local.date.slice(8, 10));
  let date = local.date;
  let next = dueAt;
  for (let i = 0; i < 10_000; i++) {
    date = nextLocalDate(date, repeat, anchorDay);
    next = localToStored(date, local.time, timeZone);
    if (millisOf(next) > millisOf(nowStored)) break;
  }
  return next;
}

export async function createAccountTask(ctx: ServiceContext, input: CreateAccountTaskInput) {
  const firmId = ctx.auth.firm.id;
  const tz = ctx.auth.firm.timezone;
  const due = dueFromInput(input, tz) ?? null;
  const id = await inTransaction(ctx.database, async (trx) => {
    const account = await clientAccountOr404(trx, firmId, input.client_account_id, 'client_account_id');
    if (input.contact_id != null) await contactOr404(trx, firmId, input.contact_id, 'contact_id');
    const assignee =
      input.assigned_to_user_id !== undefined
        ? (await assignableUserOr404(trx, firmId, input.assigned_to_user_id)).id
        : ctx.auth.user.id;
    const type = input.task_type ?? 'call';
    const title = input.title !== undefined ? requiredText(input.title, 'title') : defaultTitle(type, account.name);
    const t = now();
    const row = {
      firm_id: firmId,
      client_account_id: account.id,
      contact_id: input.contact_id ?? null,
      title,
      task_type: type,
      notes: blankToNull(input.notes) ?? null,
      due_at: due,
      repeat: input.repeat ?? 'none',
      email_me: input.email_me ?? 'none',
      status: 'open' as const,
      assigned_to_user_id: assignee,
      created_by_user_id: ctx.auth.user.id,
      completed_at: null,
      created_at: t,
      updated_at: t,
    };
    assertSchedulable(row);
    return (await trx.insertInto('account_tasks').values(row).returning('id').executeTakeFirstOrThrow()).id;
  });
  return accountTaskObject((await findAccountTask(ctx.database.db, firmId, id))!, tz);
}

export async function getAccountTask(ctx: ServiceContext, id: number) {
  return accountTaskObject(await taskOr404(ctx, ctx.database.db, id), ctx.auth.firm.timezone);
}

export async function listAccountTasksOf(ctx: ServiceContext, filter: AccountTaskFilter, page: Page) {
  const { rows, total } = await listAccountTasks(ctx.database.db, ctx.auth.firm.id, filter, page.limit, page.offset);
  return { data: rows.map((r) => accountTaskObject(r, ctx.auth.firm.timezone)), total };
}

/**
 * Changes a company follow-up. Marking a repeating one done records completed_at and moves it to
 * its next round, still open (the way a repeating reminder stays open for its next round).
 */
export async function updateAccountTask(ctx: ServiceContext, id: number, input: UpdateAccountTaskInput) {
  const firmId = ctx.auth.firm.id;
  const tz = ctx.auth.firm.timezone;
  await inTransaction(ctx.database, async (trx) => {
    const task = await taskOr404(ctx, trx, id);
    const changes: Partial<AccountTask> = {};
    if (input.title !== undefined) changes.title = requiredText(input.title, 'title');
    if (input.task_type !== undefined) changes.task_type = input.task_type;
    if (input.notes !== undefined) changes.notes = blankToNull(input.notes) ?? null;
    if (input.repeat !== undefined) changes.repeat = input.repeat;
    if (input.email_me !== undefined) changes.email_me = input.email_me;
    const due = dueFromInput(input, tz, task.due_at);
    if (due !== undefined) changes.due_at = due;
    if (input.contact_id !== undefined) {
      changes.contact_id =
        input.contact_id === null ? null : (await contactOr404(trx, firmId, input.contact_id, 'contact_id')).id;
    }
    if (input.assigned_to_user_id !== undefined)
      changes.assigned_to_user_id = (await assignableUserOr404(trx, firmId, input.assigned_to_user_id)).id;
    const merged = { ...task, ...changes };
    assertSchedulable(merged);
    const t = now();
    if (input.status === 'done' && task.status === 'open') {
      changes.completed_at = t;
      if (merged.repeat !== 'none' && merged.due_at !== null)
        changes.due_at = nextRound(merged.due_at, merged.repeat as Exclude<Repeat, 'none'>, tz, t);
      else changes.status = 'done';
    } else if (input.status === 'open' && task.status === 'done') {
      changes.status = 'open';
      changes.completed_at = null;
    }
    const changed = (Object.keys(changes) as (keyof AccountTask)[]).filter((k) => changes[k] !== task[k]);
    if (changed.length === 0) return;
    await trx
      .updateTable('account_tasks')
      .set({ ...changes, updated_at: t })
      .where('id', '=', id)
      .execute();
    // Completing a lead's Call new lead follow-up moves the lead to contacted.
    if (changes.completed_at !== undefined && changes.completed_at !== null)
      await leadFollowUpCompleted(trx, ctx.auth, task);
  });
  return accountTaskObject((await findAccountTask(ctx.database.db, firmId, id))!, tz);
}

export async function deleteAccountTask(ctx: ServiceContext, id: number): Promise<void> {
  await inTransaction(ctx.database, async (trx) => {
    await taskOr404(ctx, trx, id);
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('account_tasks').where('id', '=', id).execute();
  });
}
