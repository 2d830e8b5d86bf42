// The measurement's queries: one measurement as the key's user may see it (a measurement on a job
// they cannot see is a 404, like the job), a page of them, its shapes and items, and the rows a
// detect writes.
import type { Insertable } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { Measurement, MeasurementItem, MeasurementShape, User } from '#db/tables.ts';
import type { MeasurementShapeTable } from '#db/tables/measurement.ts';
import { onVisibleJob } from '#crm/index.ts';
import type { Page } from '#platform/pagination.ts';

export async function findMeasurement(
  db: Executor,
  firmId: number,
  id: number,
  user: User,
): Promise<Measurement | undefined> {
  return onVisibleJob(
    db.selectFrom('measurements').selectAll('measurements').where('firm_id', '=', firmId).where('id', '=', id),
    'measurements.job_id',
    firmId,
    user,
  ).executeTakeFirst();
}

export async function listMeasurements(
  db: Executor,
  firmId: number,
  user: User,
  filter: { jobId?: number },
  page: Page,
): Promise<{ rows: Measurement[]; total: number }> {
  let qb = onVisibleJob(
    db.selectFrom('measurements').where('firm_id', '=', firmId),
    'measurements.job_id',
    firmId,
    user,
  );
  if (filter.jobId !== undefined) qb = qb.where('job_id', '=', filter.jobId);
  const [rows, count] = await Promise.all([
    qb.selectAll('measurements').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    qb.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function shapeRows(db: Executor, measurementId: number): Promise<MeasurementShape[]> {
  return db
    .selectFrom('measurement_shapes')
    .selectAll()
    .where('measurement_id', '=', measurementId)
    .orderBy('id')
    .execute();
}

export function itemRows(db: Executor, measurementId: number): Promise<MeasurementItem[]> {
  return db
    .selectFrom('measurement_items')
    .selectAll()
    .where('measurement_id', '=', measurementId)
    .orderBy('id')
    .execute();
}

/** Rows per insert: well under SQLite's and PostgreSQL's bound-parameter limits at 23 columns. */
const ROWS_PER_INSERT = 500;

export async function insertShapeRows(db: Executor, rows: Insertable<MeasurementShapeTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
    await db
      .insertInto('measurement_shapes')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .execute();
}

/** An edit leaves the job's measurement_count as it is; its updated_at moves so a sync sees the change. */
export async function touchJob(db: Executor, firmId: number, jobId: number | null, at: string): Promise<void> {
  if (jobId === null) return;
  await db.updateTable('jobs').set({ updated_at: at }).where('id', '=', jobId).where('firm_id', '=', firmId).execute();
}

/** Keeps the job's measurement_count (document 2: "Takeoffs on the job") right after a change. */
export async function recountJob(db: Executor, firmId: number, jobId: number | null, at: string): Promise<void> {
  if (jobId === null) return;
  const { n } = await db
    .selectFrom('measurements')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('firm_id', '=', firmId)
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('jobs')
    .set({ measurement_count: Number(n), updated_at: at })
    .where('id', '=', jobId)
    .where('firm_id', '=', firmId)
    .execute();
}
