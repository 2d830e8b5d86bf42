import type { Executor } from '#db/dialect.ts';
import type { NoteRow } from './serialize.ts';

export type NoteParentColumn = 'job_id' | 'contact_id' | 'client_account_id';

function withAuthor(db: Executor) {
  return db
    .selectFrom('notes')
    .leftJoin('users as au', 'au.id', 'notes.author_user_id')
    .selectAll('notes')
    .select('au.name as author_name');
}

export async function findNote(db: Executor, firmId: number, id: number): Promise<NoteRow | undefined> {
  return withAuthor(db).where('notes.firm_id', '=', firmId).where('notes.id', '=', id).executeTakeFirst();
}

export interface NoteFilter {
  type?: string;
  pinned?: boolean;
}

/** A parent's notes, newest first (by when they happened, then by id). */
export async function listNotes(
  db: Executor,
  firmId: number,
  column: NoteParentColumn,
  parentId: number,
  f: NoteFilter,
  limit: number,
  offset: number,
) {
  let rows = withAuthor(db).where('notes.firm_id', '=', firmId).where(`notes.${column}`, '=', parentId);
  let count = db
    .selectFrom('notes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('notes.firm_id', '=', firmId)
    .where(`notes.${column}`, '=', parentId);
  if (f.type !== undefined) {
    rows = rows.where('notes.type', '=', f.type);
    count = count.where('notes.type', '=', f.type);
  }
  if (f.pinned !== undefined) {
    rows = rows.where('notes.pinned', '=', f.pinned ? 1 : 0);
    count = count.where('notes.pinned', '=', f.pinned ? 1 : 0);
  }
  const [page, n] = await Promise.all([
    rows.orderBy('notes.occurred_at', 'desc').orderBy('notes.id', 'desc').limit(limit).offset(offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: page as NoteRow[], total: Number(n.n) };
}
