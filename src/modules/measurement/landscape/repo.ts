// The landscape takeoffs' queries: a takeoff, item or run as the key's user may see it (one on a job
// they cannot see is a 404, like the job), pages of them, and the rows a save writes.
import type { Insertable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { LandscapeItem, LandscapeRun, LandscapeTakeoff, User } from '#db/tables.ts';
import type { LandscapeItemTable } from '#db/tables/landscape.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { Page } from '#platform/pagination.ts';

export function findTakeoff(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
): Promise<LandscapeTakeoff | undefined> {
  return onVisibleJob(
    db
      .selectFrom('landscape_takeoffs')
      .selectAll('landscape_takeoffs')
      .where('landscape_takeoffs.firm_id', '=', firmId)
      .where('landscape_takeoffs.id', '=', id),
    'landscape_takeoffs.job_id',
    firmId,
    user,
  ).executeTakeFirst();
}

export async function listTakeoffs(
  db: Executor,
  firmId: number,
  user: User,
  filter: { jobId?: number; type?: 'aerial' | 'blueprint' },
  page: Page,
): Promise<{ rows: LandscapeTakeoff[]; total: number }> {
  let qb = onVisibleJob(
    db.selectFrom('landscape_takeoffs').where('landscape_takeoffs.firm_id', '=', firmId),
    'landscape_takeoffs.job_id',
    firmId,
    user,
  );
  if (filter.jobId !== undefined) qb = qb.where('landscape_takeoffs.job_id', '=', filter.jobId);
  if (filter.type !== undefined) qb = qb.where('landscape_takeoffs.type', '=', filter.type);
  const [rows, count] = await Promise.all([
    qb
      .selectAll('landscape_takeoffs')
      .orderBy('landscape_takeoffs.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    qb.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function takeoffItems(db: Executor, takeoffId: number): Promise<LandscapeItem[]> {
  return db.selectFrom('landscape_items').selectAll().where('takeoff_id', '=', takeoffId).orderBy('id').execute();
}

export async function pageOfItems(
  db: Executor,
  takeoffId: number,
  filter: { class?: string },
  page: Page,
): Promise<{ rows: LandscapeItem[]; total: number }> {
  let qb = db.selectFrom('landscape_items').where('takeoff_id', '=', takeoffId);
  if (filter.class !== undefined) qb = qb.where('class', '=', filter.class);
  const [rows, count] = await Promise.all([
    qb.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
    qb.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findRun(db: Executor, firmId: number, id: number, user: User): Promise<LandscapeRun | undefined> {
  return onVisibleJob(
    db
      .selectFrom('landscape_runs')
      .selectAll('landscape_runs')
      .where('landscape_runs.firm_id', '=', firmId)
      .where('landscape_runs.id', '=', id),
    'landscape_runs.job_id',
    firmId,
    user,
  ).executeTakeFirst();
}

/** Rows per insert: well under SQLite's and PostgreSQL's bound-parameter limits at 14 columns. */
const ROWS_PER_INSERT = 500;

export async function insertItems(db: Executor, rows: Insertable<LandscapeItemTable>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const out = await db
      .insertInto('landscape_items')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .returning('id')
      .execute();
    ids.push(...out.map((r) => r.id));
  }
  return ids;
}
