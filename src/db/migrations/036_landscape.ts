// Landscape takeoffs (document 3, "Landscape takeoff", "Landscape run" and "Landscape takeoffs";
// docs/landscape.md). Every table of the sub-area is made here.
//
// - landscape_takeoffs: an aerial takeoff (lawn, beds, trees…) or a plan takeoff (plants read from a
//   plan PDF) on a job, with its revision (rev: +1 per saved change), its quantities (kept per save so
//   a read does not walk the items) and whether its first model run has used a takeoff credit.
// - landscape_items: its items, one row each: an aerial area (rings as JSON [lat, lng]) or object
//   (a point), or a plan's plant dot (page and sheet pixels).
// - landscape_history: one row per saved change, with the items as they were before it (what it
//   replaced or removed) and the ids it added, so a run can be undone exactly.
// - landscape_runs: the work a detect (and later a plan read) hands the worker: pending until the
//   worker finishes it (completed or failed with a reason), undone when undone. A lease
//   (locked_until, lease_token) lets another worker take over a run whose worker died.
// - users gain ai_auto_measure: off refuses model runs for that user's keys (document 3, detect rules).
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('landscape_takeoffs')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    /** A job deleted outright takes its takeoffs with it, like its measurements. */
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** aerial or blueprint. */
    .addColumn('type', 'text', (c) => c.notNull())
    /** aerial: auto or manual (Manual Aerial: no model runs). */
    .addColumn('mode', 'text')
    /** blueprint: plan (editable here) or standalone (read-only here). */
    .addColumn('editor', 'text')
    .addColumn('rev', 'integer', (c) => c.notNull())
    /** JSON: the takeoff's quantities in square feet (docs/landscape.md). */
    .addColumn('quantities', 'text', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull())
    /** 1 once a model run on it has used the workspace's takeoff credit (later runs are free). */
    .addColumn('credit_used', 'integer', (c) => c.notNull().defaultTo(0))
    /** sent while the takeoff is out for cleanup (item changes are 403 until done), else null. */
    .addColumn('cleanup', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('landscape_takeoffs_firm').on('landscape_takeoffs').columns(['firm_id', 'id']).execute();
  await db.schema.createIndex('landscape_takeoffs_job').on('landscape_takeoffs').columns(['job_id', 'id']).execute();

  await db.schema
    .createTable('landscape_runs')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('takeoff_id', 'integer', (c) => c.references('landscape_takeoffs.id').onDelete('cascade'))
    /** detect (later: plan, find_plants …). */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** pending, completed, failed, undone. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON: what was asked (the detect body, normalised). */
    .addColumn('request', 'text', (c) => c.notNull())
    /** JSON: what it did, once completed. */
    .addColumn('result', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    /** 1 when this run took the takeoff's credit (returned if it fails). */
    .addColumn('charged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('undone_at', 'text')
    .execute();
  // The 3-runs-going count, and the worker's claim of the oldest pending run.
  await db.schema
    .createIndex('landscape_runs_status')
    .on('landscape_runs')
    .columns(['status', 'firm_id', 'id'])
    .execute();
  await db.schema.createIndex('landscape_runs_takeoff').on('landscape_runs').columns(['takeoff_id', 'id']).execute();

  await db.schema
    .createTable('landscape_items')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('takeoff_id', 'integer', (c) => c.notNull().references('landscape_takeoffs.id').onDelete('cascade'))
    /** area or object (aerial); dot (plan). */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('class', 'text', (c) => c.notNull())
    .addColumn('phase', 'text')
    /** JSON [[lat, lng], …] rings, outline first (areas). */
    .addColumn('rings', 'text')
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('area_sqft', 'double precision')
    /** manual (added through the API) or detected (a run's). */
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('run_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('landscape_items_order')
    .on('landscape_items')
    .columns(['takeoff_id', 'class', 'id'])
    .execute();

  await db.schema
    .createTable('landscape_history')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('takeoff_id', 'integer', (c) => c.notNull().references('landscape_takeoffs.id').onDelete('cascade'))
    /** The rev this change made. */
    .addColumn('rev', 'integer', (c) => c.notNull())
    /** add, update, delete, detect, undo. */
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('run_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** JSON: the items as they were before the change (changed or removed), in the API's shape. */
    .addColumn('replaced', 'text', (c) => c.notNull())
    /** JSON: ids of the items the change added. */
    .addColumn('added', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('landscape_history_rev')
    .on('landscape_history')
    .columns(['takeoff_id', 'rev'])
    .unique()
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('ai_auto_measure', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
