// The rows a shape save writes once its compare-and-set on rev has landed: the removed shapes
// deleted, the changed ones updated (one statement, not one each), the added ones inserted, the
// history row, and the job's updated_at (a sync sees its takeoff change).
// On PostgreSQL all of it is one statement (data-modifying WITH clauses, which PostgreSQL runs
// together on one snapshot): a 200-operation save is a handful of round trips
// (docs/performance.md, "Measurement"). SQLite, in the
// same process, runs them one by one. A save holds at most 200 operations, so each part is one
// statement's worth of rows (well under either engine's bound-parameter limit).
import { type Insertable, sql } from 'kysely';
import type { Trx } from '#estimating/index.ts';
import type { MeasurementHistoryTable, MeasurementShapeTable } from '#db/tables/measurement.ts';
import { insertShapeRows, touchJob } from '../measurements/repo.ts';
import type { ShapeState } from './state.ts';

/** What an edit can change on a shape that exists (no op moves a shape, so its geometry and quantity stay). */
const EDITED = ['surface', 'category', 'label', 'item', 'phase', 'spec'] as const;

export interface ShapeWrites {
  firmId: number;
  measurementId: number;
  jobId: number | null;
  at: string;
  removed: string[];
  changed: ShapeState[];
  added: Insertable<MeasurementShapeTable>[];
  history: Insertable<MeasurementHistoryTable>;
}

function edits(trx: Trx, w: ShapeWrites) {
  const caseOf = (column: (typeof EDITED)[number]) =>
    sql<string | null>`case shape_id ${sql.join(
      w.changed.map((s) => sql`when ${s.shape_id} then ${s[column]}`),
      sql` `,
    )} end`;
  return trx
    .updateTable('measurement_shapes')
    .set({
      surface: caseOf('surface'),
      category: caseOf('category'),
      label: caseOf('label'),
      item: caseOf('item'),
      phase: caseOf('phase'),
      spec: caseOf('spec'),
      updated_at: w.at,
    })
    .where('measurement_id', '=', w.measurementId)
    .where(
      'shape_id',
      'in',
      w.changed.map((s) => s.shape_id),
    );
}

const removal = (trx: Trx, w: ShapeWrites) =>
  trx.deleteFrom('measurement_shapes').where('measurement_id', '=', w.measurementId).where('shape_id', 'in', w.removed);

export async function writeShapeRows(trx: Trx, engine: 'sqlite' | 'postgres', w: ShapeWrites): Promise<void> {
  if (engine === 'postgres') return writeInOne(trx, w);
  if (w.removed.length > 0) await removal(trx, w).execute();
  if (w.changed.length > 0) await edits(trx, w).execute();
  await insertShapeRows(trx, w.added);
  await trx.insertInto('measurement_history').values(w.history).execute();
  await touchJob(trx, w.firmId, w.jobId, w.at);
}

// PostgreSQL's parts take the shape ids and the edited columns as arrays, one parameter each: the
// text is the same for every save (one prepared statement, not one per count of changed shapes),
// and each shape is found through the (measurement_id, shape_id) index by a join with the arrays
// rather than by testing every row of the measurement against a list.
const removalByArray = (w: ShapeWrites) =>
  sql`(delete from measurement_shapes where measurement_id = ${w.measurementId} and shape_id = any(${w.removed}::text[]) returning id)`;

function editsByArray(w: ShapeWrites) {
  const ids = w.changed.map((s) => s.shape_id);
  const column = (c: (typeof EDITED)[number]) => sql`${w.changed.map((s) => s[c])}::text[]`;
  return sql`(update measurement_shapes as s set surface = v.surface, category = v.category, label = v.label,
    item = v.item, phase = v.phase, spec = v.spec, updated_at = ${w.at}
    from unnest(${ids}::text[], ${sql.join(EDITED.map(column))})
      as v(shape_id, surface, category, label, item, phase, spec)
    where s.measurement_id = ${w.measurementId} and s.shape_id = any(${ids}::text[]) and s.shape_id = v.shape_id returning s.id)`;
}

async function writeInOne(trx: Trx, w: ShapeWrites): Promise<void> {
  // Each part a WITH clause; the statement's own part is the job's updated_at (or nothing).
  let q = trx.with('history_row', (db) => db.insertInto('measurement_history').values(w.history).returning('id'));
  // The parts are the same builders SQLite runs one by one; the WITH clause's typing of them is
  // widened (each is only run, never selected from).
  if (w.removed.length > 0) q = q.with('removed', () => removalByArray(w) as never) as unknown as typeof q;
  if (w.changed.length > 0) q = q.with('changed', () => editsByArray(w) as never) as unknown as typeof q;
  if (w.added.length > 0)
    q = q.with('added', (db) =>
      db.insertInto('measurement_shapes').values(w.added).returning('id'),
    ) as unknown as typeof q;
  if (w.jobId !== null)
    await q
      .updateTable('jobs')
      .set({ updated_at: w.at })
      .where('id', '=', w.jobId)
      .where('firm_id', '=', w.firmId)
      .execute();
  else await q.selectNoFrom(sql<number>`1`.as('done')).execute();
}
