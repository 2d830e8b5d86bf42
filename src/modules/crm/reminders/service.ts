// Reminders (document 2: the Reminder resource, its state table and the reminder rows of "Re-bids,
// reminders, follow-ups"). pending -> sent when the worker emails the assignee as it comes due
// (due-mail.ts); pending or sent -> done by complete (a repeating reminder rolls to its next round
// and stays open) or dismissed (never emails again). A new due time (PATCH due or snooze, a next
// round) puts a sent reminder back to pending, so its new round emails once more.
import type { Executor } from '#db/dialect.ts';
import { transition } from '#db/transition.ts';
import type { Transaction } from 'kysely';
import type { DB, Reminder } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { conflict, invalidField, notFound } from '#platform/errors.ts';
import type { Page } from '#platform/pagination.ts';
import { isDuplicateRepeat } from '#platform/repeats.ts';
import { millisOf, now, storedAt } from '#platform/time.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { addNote, type NoteParent } from '#crm/notes/service.ts';
import {
  assignableUserOr404,
  clientAccountOr404,
  contactOr404,
  requiredText,
  visibleJobOr404,
} from '#crm/notes/parents.ts';
import { findReminder, listReminders, type ReminderFilter } from './repo.ts';
import type { CompleteReminderInput, CreateReminderInput, UpdateReminderInput } from './schemas.ts';
import { reminderObject, type ReminderRow } from './serialize.ts';
import { localDue, nextReminderRound, snoozedUntil, timeZoneField, type RepeatUnit, type Snooze } from './when.ts';

export const reminderNotFound = () => notFound('Reminder not found');
export const reminderFinished = () =>
  conflict('reminder already done or dismissed', {
    code: 'invalid_status',
    message: 'This reminder is already done or dismissed',
  });

/** A reminder is open while it is pending or sent. */
export const isOpen = (r: Pick<Reminder, 'status'>) => r.status === 'pending' || r.status === 'sent';

/** May the key's user see (and so act on) this reminder? Not when it hangs on a job they cannot see. */
export async function mayActOn(ctx: ServiceContext, db: Executor, r: Pick<Reminder, 'job_id'>): Promise<boolean> {
  return r.job_id === null || !!(await findVisibleJob(db, ctx.auth.firm.id, r.job_id, ctx.auth.user));
}

async function visibleReminder(ctx: ServiceContext, db: Executor, id: number): Promise<ReminderRow> {
  const r = await findReminder(db, ctx.auth.firm.id, id);
  if (!r || !(await mayActOn(ctx, db, r))) throw reminderNotFound();
  return r;
}

async function answer(ctx: ServiceContext, id: number) {
  return reminderObject((await findReminder(ctx.database.db, ctx.auth.firm.id, id))!);
}

/** The repeat a body sets: undefined when it says nothing, {null, null} to stop (repeat_every 0). */
function repeatFrom(
  input: { repeat_every?: number; repeat_unit?: RepeatUnit },
  current: { every: number | null; unit: string | null },
): { every: number | null; unit: string | null } | undefined {
  if (input.repeat_every === undefined) {
    if (input.repeat_unit === undefined) return undefined;
    if (current.every === null) throw invalidField('repeat_every', 'repeat_unit needs repeat_every');
    return { every: current.every, unit: input.repeat_unit };
  }
  if (input.repeat_every === 0) return { every: null, unit: null };
  const unit = input.repeat_unit ?? current.unit;
  if (unit === null) throw invalidField('repeat_unit', 'repeat_every needs repeat_unit (day, week or month)');
  return { every: input.repeat_every, unit };
}

export async function createReminder(ctx: ServiceContext, input: CreateReminderInput) {
  const firmId = ctx.auth.firm.id;
  const timeZone = input.timezone !== undefined ? timeZoneField(input.timezone) : ctx.auth.firm.timezone;
  const title = requiredText(input.title, 'title');
  const dueAt = localDue(input.due, timeZone);
  const repeat = repeatFrom(input, { every: null, unit: null }) ?? { every: null, unit: null };
  const type = input.reminder_type ?? 'follow_up';
  const id = await inTransaction(ctx.database, async (trx) => {
    let clientAccountId = input.client_account_id ?? null;
    if (clientAccountId !== null) await clientAccountOr404(trx, firmId, clientAccountId, 'client_account_id');
    let contactCompany: number | null = null;
    if (input.contact_id !== undefined) {
      await contactOr404(trx, firmId, input.contact_id, 'contact_id');
      const c = await trx
        .selectFrom('contacts')
        .select('client_account_id')
        .where('id', '=', input.contact_id)
        .executeTakeFirstOrThrow();
      contactCompany = c.client_account_id;
    }
    let jobCompany: number | null = null;
    if (input.job_id !== undefined)
      jobCompany = (await visibleJobOr404(trx, firmId, input.job_id, ctx.auth.user, 'job_id')).client_account_id;
    // The customer the reminder is about: as sent, else the job's, else the person's company.
    clientAccountId ??= jobCompany ?? contactCompany;
    if (type !== 'follow_up' && clientAccountId === null)
      throw invalidField(
        'client_account_id',
        `A ${type} reminder is about a customer: send client_account_id, or a job_id or contact_id that has one`,
      );
    const assignee =
      input.assigned_to_user_id !== undefined
        ? (await assignableUserOr404(trx, firmId, input.assigned_to_user_id)).id
        : ctx.auth.user.id;
    const t = now();
    const row = await trx
      .insertInto('reminders')
      .values({
        firm_id: firmId,
        title,
        description: input.description?.trim() ?? '',
        reminder_type: type,
        status: 'pending',
        client_account_id: clientAccountId,
        contact_id: input.contact_id ?? null,
        job_id: input.job_id ?? null,
        lead_id: input.lead_id ?? null,
        due_at: dueAt,
        timezone: timeZone,
        repeat_every: repeat.every,
        repeat_unit: repeat.unit,
        last_emailed_at: null,
        assigned_to_user_id: assignee,
        created_by_user_id: ctx.auth.user.id,
        completed_at: null,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return answer(ctx, id);
}

export async function getReminder(ctx: ServiceContext, id: number) {
  return reminderObject(await visibleReminder(ctx, ctx.database.db, id));
}

export async function listRemindersOf(ctx: ServiceContext, filter: ReminderFilter, page: Page) {
  const { rows, total } = await listReminders(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    filter,
    page.limit,
    page.offset,
  );
  return { data: rows.map(reminderObject), total };
}

/** Moves an open reminder to `dueAt` (read in `timeZone`): pending again, so the new round emails. */
export async function rescheduleReminder(trx: Executor, r: Reminder, dueAt: string, timeZone: string): Promise<void> {
  await trx
    .updateTable('reminders')
    .set({ due_at: dueAt, timezone: timeZone, status: 'pending', updated_at: now() })
    .where('id', '=', r.id)
    .execute();
}

/** Where `snooze` moves a reminder, by the process clock. */
export function snoozeTarget(ctx: ServiceContext, snooze: Snooze, timeZone: string): string {
  return snoozedUntil(snooze, ctx.deps.clock.now(), timeZone);
}

export async function updateReminder(ctx: ServiceContext, id: number, input: UpdateReminderInput) {
  const firmId = ctx.auth.firm.id;
  if (input.due !== undefined && input.snooze !== undefined)
    throw invalidField('snooze', 'Send due or snooze, not both');
  const timeZone = input.timezone !== undefined ? timeZoneField(input.timezone) : ctx.auth.firm.timezone;
  const dueAt =
    input.due !== undefined
      ? localDue(input.due, timeZone)
      : input.snooze !== undefined
        ? snoozeTarget(ctx, input.snooze, timeZone)
        : undefined;
  await inTransaction(ctx.database, async (trx) => {
    const r = await visibleReminder(ctx, trx, id);
    const changes: Partial<Reminder> = {};
    if (input.title !== undefined) changes.title = requiredText(input.title, 'title');
    if (input.description !== undefined) changes.description = input.description.trim();
    const repeat = repeatFrom(input, { every: r.repeat_every, unit: r.repeat_unit });
    if (repeat !== undefined) {
      changes.repeat_every = repeat.every;
      changes.repeat_unit = repeat.unit;
    }
    if (input.assigned_to_user_id !== undefined)
      changes.assigned_to_user_id = (await assignableUserOr404(trx, firmId, input.assigned_to_user_id)).id;
    if (input.timezone !== undefined) changes.timezone = timeZone;
    if (dueAt !== undefined) {
      if (!isOpen(r)) throw reminderFinished();
      changes.due_at = dueAt;
      changes.timezone = timeZone;
      changes.status = 'pending';
    }
    const changed = (Object.keys(changes) as (keyof Reminder)[]).filter((k) => changes[k] !== r[k]);
    if (changed.length === 0) return;
    await trx
      .updateTable('reminders')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', id)
      .execute();
  });
  return answer(ctx, id);
}

/** The record a reminder's completion notes are logged on: its job, else its person, else its customer. */
function noteParentOf(r: Reminder): NoteParent | null {
  if (r.job_id !== null) return { column: 'job_id', id: r.job_id };
  if (r.contact_id !== null) return { column: 'contact_id', id: r.contact_id };
  if (r.client_account_id !== null) return { column: 'client_account_id', id: r.client_account_id };
  return null;
}

/**
 * Completes an open reminder in `trx` (POST …/complete and bulk done): a repeating one moves to its
 * next round after now and is pending again; any other is done. `notes` are logged as a note on
 * the linked record. False (nothing changed) when it is already done or dismissed.
 */
export async function completeReminderIn(
  ctx: ServiceContext,
  trx: Transaction<DB>,
  r: Reminder,
  notes?: string,
): Promise<boolean> {
  if (!isOpen(r)) return false;
  // Completed a moment ago, unchanged since, and its next round not yet due: the same completion
  // again (a round that has come due by the clock the rounds follow is a new one to complete).
  if (millisOf(r.due_at) > ctx.deps.clock.now() && isDuplicateRepeat(r.completed_at, r.updated_at)) return false;
  const t = now();
  const changes: Pick<Reminder, 'completed_at' | 'updated_at'> & Partial<Reminder> = { completed_at: t, updated_at: t };
  if (r.repeat_every !== null && r.repeat_unit !== null) {
    changes.due_at = nextReminderRound(
      r.due_at,
      r.repeat_every,
      r.repeat_unit as RepeatUnit,
      r.timezone,
      storedAt(ctx.deps.clock.now()),
    );
    changes.status = 'pending';
  } else changes.status = 'done';
  // The round `r` shows is completed once: a call that finds it already completed (or dismissed)
  // by a concurrent one changes nothing and logs no note.
  if (!(await transition(trx, 'reminders', r.id, { status: r.status, due_at: r.due_at }, changes))) return false;
  const text = notes?.trim();
  if (text) {
    const parent = noteParentOf(r);
    if (!parent)
      throw invalidField('notes', 'This reminder is linked to no job, person or customer to log the notes on');
    await addNote(ctx, trx, parent, { content: `Reminder "${r.title}" done: ${text}` });
  }
  return true;
}

/**
 * Completes the reminder's round once: a call that finds it done or dismissed (by a concurrent call
 * too) is 409; one that finds the round just completed by another (a repeating reminder, a repeat
 * within the window) answers the reminder as it now is, with no second move and no second note.
 */
export async function completeReminder(ctx: ServiceContext, id: number, input: CompleteReminderInput) {
  await inTransaction(ctx.database, async (trx) => {
    const r = await visibleReminder(ctx, trx, id);
    if (!isOpen(r)) throw reminderFinished();
    if (!(await completeReminderIn(ctx, trx, r, input.notes)) && !isOpen(await visibleReminder(ctx, trx, id)))
      throw reminderFinished();
  });
  return answer(ctx, id);
}

/** Dismisses an open reminder: it never emails again. A dismissed one answers as it is; a done one is 409. */
export async function dismissReminder(ctx: ServiceContext, id: number) {
  await inTransaction(ctx.database, async (trx) => {
    const r = await visibleReminder(ctx, trx, id);
    if (r.status === 'dismissed') return;
    if (r.status === 'done') throw reminderFinished();
    // From the open state read: a concurrent complete or dismiss that got there first wins.
    if (!(await transition(trx, 'reminders', id, { status: r.status }, { status: 'dismissed', updated_at: now() })))
      if ((await visibleReminder(ctx, trx, id)).status === 'done') throw reminderFinished();
  });
  return answer(ctx, id);
}
