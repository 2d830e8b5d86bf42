// Crew queries: the crews of a workspace with their members.
import type { Executor } from '#db/dialect.ts';
import type { Crew } from '#db/tables.ts';

export async function findCrew(db: Executor, firmId: number, id: number): Promise<Crew | undefined> {
  return db.selectFrom('crews').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}

export async function membersOf(
  db: Executor,
  crewIds: readonly number[],
): Promise<Map<number, { id: number; name: string }[]>> {
  const byCrew = new Map<number, { id: number; name: string }[]>();
  if (crewIds.length === 0) return byCrew;
  const rows = await db
    .selectFrom('crew_members')
    .innerJoin('users', 'users.id', 'crew_members.user_id')
    .select(['crew_members.crew_id', 'users.id', 'users.name'])
    .where('crew_members.crew_id', 'in', crewIds)
    .orderBy('users.name')
    .orderBy('users.id')
    .execute();
  for (const r of rows) {
    const list = byCrew.get(r.crew_id) ?? [];
    list.push({ id: r.id, name: r.name });
    byCrew.set(r.crew_id, list);
  }
  return byCrew;
}

export async function listCrews(
  db: Executor,
  firmId: number,
  active: boolean,
  page: { limit: number; offset: number },
): Promise<{ rows: Crew[]; total: number }> {
  const base = db
    .selectFrom('crews')
    .where('firm_id', '=', firmId)
    .where('active', '=', active ? 1 : 0);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('name').orderBy('id').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Another crew of the workspace with this name (case and spacing ignored). */
export async function crewNamed(db: Executor, firmId: number, name: string, exceptId?: number) {
  const key = name.trim().replace(/\s+/g, ' ').toLowerCase();
  const rows = await db
    .selectFrom('crews')
    .select(['id', 'name'])
    .where('firm_id', '=', firmId)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .execute();
  return rows.find((r) => r.name.trim().replace(/\s+/g, ' ').toLowerCase() === key);
}

export async function replaceMembers(
  db: Executor,
  firmId: number,
  crewId: number,
  userIds: readonly number[],
  at: string,
): Promise<void> {
  await db.deleteFrom('crew_members').where('crew_id', '=', crewId).execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('crew_members')
    .values(userIds.map((user_id) => ({ firm_id: firmId, crew_id: crewId, user_id, created_at: at })))
    .execute();
}

/** The workspace's current users among `ids` (removed users excluded). */
export async function usersAmong(db: Executor, firmId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('removed_at', 'is', null)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Whether the user is a member of the crew (a work order without a crew has none). */
export async function onCrew(db: Executor, crewId: number | null, userId: number): Promise<boolean> {
  if (crewId === null) return false;
  const row = await db
    .selectFrom('crew_members')
    .select('user_id')
    .where('crew_id', '=', crewId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
