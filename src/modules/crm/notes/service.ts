// Notes and logged calls, emails and meetings on a job, a person or a company (document 2,
// Required fields of create calls: "type call, email or meeting logs an interaction").
import type { Executor } from '#db/dialect.ts';
import type { Transaction } from 'kysely';
import type { DB, Note } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inTransaction } from '#platform/context.ts';
import { notFound } from '#platform/errors.ts';
import { assertDeletionAllowed } from '#platform/guards.ts';
import type { Page } from '#platform/pagination.ts';
import { truncate } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { logJobActivity } from '#crm/job-activity/log.ts';
import { findVisibleJob } from '#crm/jobs/access.ts';
import { leadInteractionLogged } from '#crm/leads/implicit.ts';
import { clientAccountOr404, contactOr404, requiredText, timestampField, visibleJobOr404 } from './parents.ts';
import { findNote, listNotes, type NoteFilter, type NoteParentColumn } from './repo.ts';
import type { CreateNoteInput, UpdateNoteInput } from './schemas.ts';
import { noteObject, type NoteType } from './serialize.ts';

export type NoteParent = { column: NoteParentColumn; id: number };

const noteNotFound = () => notFound('Note not found');

const LOGGED: Record<NoteType, string> = {
  note: 'Note added',
  call: 'Call logged',
  email: 'Email logged',
  meeting: 'Meeting logged',
};

async function assertParent(ctx: ServiceContext, db: Executor, parent: NoteParent): Promise<void> {
  const firmId = ctx.auth.firm.id;
  if (parent.column === 'job_id') await visibleJobOr404(db, firmId, parent.id, ctx.auth.user);
  else if (parent.column === 'contact_id') await contactOr404(db, firmId, parent.id);
  else await clientAccountOr404(db, firmId, parent.id);
}

/** A note the user may see: one on a job they cannot see is as missing as a note that is not there. */
async function visibleNote(ctx: ServiceContext, db: Executor, id: number) {
  const note = await findNote(db, ctx.auth.firm.id, id);
  if (!note) throw noteNotFound();
  if (note.job_id !== null && !(await findVisibleJob(db, ctx.auth.firm.id, note.job_id, ctx.auth.user)))
    throw noteNotFound();
  return note;
}

function snippet(content: string): string {
  return truncate(content.replace(/\s+/g, ' '), 80) + (content.length > 80 ? '…' : '');
}

/**
 * Adds a note in `trx` (the parent checked: visible job, contact or customer of the workspace) and
 * logs it on the job page: the one insert path of POST …/notes and of notes other writes log
 * (a reminder's completion notes). Returns its id.
 */
export async function addNote(
  ctx: ServiceContext,
  trx: Transaction<DB>,
  parent: NoteParent,
  input: CreateNoteInput,
): Promise<number> {
  const firmId = ctx.auth.firm.id;
  const content = requiredText(input.content, 'content');
  const type = input.type ?? 'note';
  const t = now();
  const occurredAt = input.occurred_at !== undefined ? timestampField(input.occurred_at, 'occurred_at') : t;
  await assertParent(ctx, trx, parent);
  const row = await trx
    .insertInto('notes')
    .values({
      firm_id: firmId,
      job_id: parent.column === 'job_id' ? parent.id : null,
      contact_id: parent.column === 'contact_id' ? parent.id : null,
      client_account_id: parent.column === 'client_account_id' ? parent.id : null,
      type,
      content,
      pinned: input.pinned ? 1 : 0,
      author_user_id: ctx.auth.user.id,
      occurred_at: occurredAt,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (parent.column === 'job_id') {
    await logJobActivity(trx, {
      firmId,
      jobId: parent.id,
      userId: ctx.auth.user.id,
      kind: 'note_added',
      summary: `${LOGGED[type]}: ${snippet(content)}`,
      data: { note_id: row.id, type },
    });
  }
  // A call, email or meeting logged with a new lead's person, job or company: the lead is contacted.
  await leadInteractionLogged(
    trx,
    ctx.auth,
    {
      contactId: parent.column === 'contact_id' ? parent.id : null,
      jobId: parent.column === 'job_id' ? parent.id : null,
      clientAccountId: parent.column === 'client_account_id' ? parent.id : null,
    },
    type,
  );
  return row.id;
}

export async function createNote(ctx: ServiceContext, parent: NoteParent, input: CreateNoteInput) {
  const id = await inTransaction(ctx.database, (trx) => addNote(ctx, trx, parent, input));
  return noteObject((await findNote(ctx.database.db, ctx.auth.firm.id, id))!);
}

export async function listNotesOf(ctx: ServiceContext, parent: NoteParent, filter: NoteFilter, page: Page) {
  const db = ctx.database.db;
  await assertParent(ctx, db, parent);
  const { rows, total } = await listNotes(
    db,
    ctx.auth.firm.id,
    parent.column,
    parent.id,
    filter,
    page.limit,
    page.offset,
  );
  return { data: rows.map(noteObject), total };
}

export async function getNote(ctx: ServiceContext, id: number) {
  return noteObject(await visibleNote(ctx, ctx.database.db, id));
}

export async function updateNote(ctx: ServiceContext, id: number, input: UpdateNoteInput) {
  await inTransaction(ctx.database, async (trx) => {
    const note = await visibleNote(ctx, trx, id);
    const changes: Partial<Note> = {};
    if (input.content !== undefined) changes.content = requiredText(input.content, 'content');
    if (input.type !== undefined) changes.type = input.type;
    if (input.pinned !== undefined) changes.pinned = input.pinned ? 1 : 0;
    if (input.occurred_at !== undefined) changes.occurred_at = timestampField(input.occurred_at, 'occurred_at');
    const changed = (Object.keys(changes) as (keyof Note)[]).filter((k) => changes[k] !== note[k]);
    if (changed.length === 0) return;
    await trx
      .updateTable('notes')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', id)
      .execute();
  });
  return noteObject((await findNote(ctx.database.db, ctx.auth.firm.id, id))!);
}

export async function deleteNote(ctx: ServiceContext, id: number): Promise<void> {
  const firmId = ctx.auth.firm.id;
  await inTransaction(ctx.database, async (trx) => {
    const note = await visibleNote(ctx, trx, id);
    assertDeletionAllowed(ctx);
    await trx.deleteFrom('notes').where('id', '=', id).execute();
    if (note.job_id !== null) {
      await logJobActivity(trx, {
        firmId,
        jobId: note.job_id,
        userId: ctx.auth.user.id,
        kind: 'note_deleted',
        summary: `${note.type === 'note' ? 'Note' : `Logged ${note.type}`} deleted: ${snippet(note.content)}`,
        data: { note_id: note.id, type: note.type },
      });
    }
  });
}
