// Company follow-ups (document 2: POST /v1/account-tasks needs client_account_id; the title
// defaults from the type and the customer's name). The remind-me and birthday-reminder endpoints
// (crm/remind-me) create the same records through insertAccountTask, and every completion goes
// through completeAccountTask.
import type { Executor } from '#db/dialect.ts';
import { transition } from '#db/transition.ts';
import { updateChanged } from '#db/update-changed.ts';
import type { Transaction } from 'kysely';
import type { AccountTask, DB } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { invalidField, notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import type { Page } from '#platform/pagination.ts';
import { truncate } from '#platform/text.ts';
import { isDuplicateRepeat } from '#platform/repeats.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';
import { assignableUserOr404, clientAccountOr404, contactOr404, requiredText } from '#crm/notes/parents.ts';
import { localToStored, storedToLocal } from '#platform/time-zone.ts';
import { dueFromInput } from '#crm/tasks/due.ts';
import { blankToNull, followUpChanges } from '#crm/tasks/follow-up-changes.ts';
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

/** What a caller other than POST /v1/account-tasks adds to a new company follow-up. */
export interface AccountTaskExtras {
  /** The name the default title uses instead of the customer's (remind-me on a person). */
  titleName?: string;
  /** Marks the follow-up as this person's birthday follow-up (birthday-reminder). */
  birthdayContactId?: number;
}

/**
 * Inserts a company follow-up in `trx`: the one create path of POST /v1/account-tasks, remind-me
 * and birthday reminders. Returns its id.
 */
export async function insertAccountTask(
  ctx: ServiceContext,
  trx: Executor,
  input: CreateAccountTaskInput,
  extras: AccountTaskExtras = {},
): Promise<number> {
  const firmId = ctx.auth.firm.id;
  const due = dueFromInput(input, ctx.auth.firm.timezone) ?? null;
  const account = await clientAccountOr404(trx, firmId, input.client_account_id, 'client_account_id');
  if (input.contact_id != null) await contactOr404(trx, firmId, input.contact_id, 'contact_id');
  const assignee =
    input.assigned_to_user_id !== undefined
      ? (await assignableUserOr404(trx, firmId, input.assigned_to_user_id)).id
      : ctx.auth.user.id;
  const type = input.task_type ?? 'call';
  const title =
    input.title !== undefined
      ? requiredText(input.title, 'title')
      : defaultTitle(type, extras.titleName ?? account.name);
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
    birthday_contact_id: extras.birthdayContactId ?? null,
    created_at: t,
    updated_at: t,
  };
  assertSchedulable(row);
  return (await trx.insertInto('account_tasks').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function createAccountTask(ctx: ServiceContext, input: CreateAccountTaskInput) {
  const id = await inTransaction(ctx.database, (trx) => insertAccountTask(ctx, trx, input));
  return accountTaskObjectOf(ctx, ctx.database.db, id);
}

/** The wire object of a follow-up of this workspace (after a write). */
export async function accountTaskObjectOf(ctx: ServiceContext, db: Executor, id: number) {
  return accountTaskObject((await findAccountTask(db, ctx.auth.firm.id, id))!, ctx.auth.firm.timezone);
}

/**
 * Completes an open company follow-up: THE completion path (PATCH with status done and
 * POST /v1/follow-ups/bulk both come here, so whatever hangs on "a follow-up was completed" runs
 * for every caller). A repeating follow-up records completed_at and moves to its next round,
 * still open; any other is done. Answers false (and changes nothing) when it is already done.
 */
export async function completeAccountTask(
  ctx: ServiceContext,
  trx: Transaction<DB>,
  task: AccountTask,
): Promise<boolean> {
  if (task.status !== 'open') return false;
  // Completed a moment ago, unchanged since, and its next round not yet due: the same completion
  // again (a round that has come due by the clock the rounds follow is a new one to complete).
  if (
    task.due_at !== null &&
    millisOf(task.due_at) > ctx.deps.clock.now() &&
    isDuplicateRepeat(task.completed_at, task.updated_at)
  )
    return false;
  const t = now();
  const changes: Pick<AccountTask, 'completed_at' | 'updated_at'> & Partial<AccountTask> = {
    completed_at: t,
    updated_at: t,
  };
  if (task.repeat !== 'none' && task.due_at !== null)
    changes.due_at = nextRound(
      task.due_at,
      task.repeat as Exclude<Repeat, 'none'>,
      ctx.auth.firm.timezone,
      storedAt(ctx.deps.clock.now()),
    );
  else changes.status = 'done';
  // The round `task` shows is completed once: a concurrent completion that got there first wins.
  if (!(await transition(trx, 'account_tasks', task.id, { status: 'open', due_at: task.due_at }, changes)))
    return false;
  // Completing a lead's Call new lead follow-up moves the lead to contacted (document 2, Lead states).
  await leadFollowUpCompleted(trx, ctx.auth, task);
  return true;
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
  await inTransaction(ctx.database, async (trx) => {
    const task = await taskOr404(ctx, trx, id);
    const changes: Partial<AccountTask> = await followUpChanges(ctx, trx, input, task);
    if (input.repeat !== undefined) changes.repeat = input.repeat;
    if (input.email_me !== undefined) changes.email_me = input.email_me;
    const merged = { ...task, ...changes };
    assertSchedulable(merged);
    await updateChanged(trx, 'account_tasks', task, changes, { stamp: { updated_at: now() } });
    if (input.status === 'open' && task.status === 'done')
      await transition(
        trx,
        'account_tasks',
        id,
        { status: 'done' },
        {
          status: 'open',
          completed_at: null,
          updated_at: now(),
        },
      );
    if (input.status === 'done' && task.status === 'open') await completeAccountTask(ctx, trx, merged);
  });
  return getAccountTask(ctx, id);
}

export async function deleteAccountTask(ctx: ServiceContext, id: number): Promise<void> {
  await inTransaction(ctx.database, async (trx) => {
    await taskOr404(ctx, trx, id);
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('account_tasks').where('id', '=', id).execute();
  });
}
