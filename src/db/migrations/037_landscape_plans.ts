// Plan (blueprint) takeoffs (document 3, "Plan takeoff"; docs/landscape.md, "Plan takeoffs"): the
// takeoff keeps where its PDF is stored, its page count, the plant schedule as read (or as placed
// with PUT …/schedule) and the irrigation a run applied. Its sheets and its plants get tables of
// their own; its dots are landscape_items of kind dot, with the plant, page and sheet position.
//
// - landscape_sheets: one row per page taken off: the sheet's size at 144 dpi, its image's storage
//   key, and its text layer as the plan engine read it (so the schedule can be placed again, and
//   callouts re-read, without opening the PDF).
// - landscape_plants: the plants of a plan takeoff (the schedule's rows): code, names, size, the
//   schedule's typed quantity and the position in the schedule. Dots name their plant.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('landscape_takeoffs').addColumn('page_count', 'integer').execute();
  /** The stored PDF (firms/<id>/plans/…), for runs that read the drawing again. */
  await db.schema.alterTable('landscape_takeoffs').addColumn('plan_key', 'text').execute();
  /** Where the PDF came from: {file_id} or {file_url}, and its size and the pages taken off. */
  await db.schema.alterTable('landscape_takeoffs').addColumn('plan_source', 'text').execute();
  /** JSON: the plant schedule {status, page, box, rows, rows_ignored} as last read or placed. */
  await db.schema.alterTable('landscape_takeoffs').addColumn('schedule', 'text').execute();
  /** JSON: the irrigation an irrigation run applied (heads and valves, pipes, zones), or null. */
  await db.schema.alterTable('landscape_takeoffs').addColumn('irrigation', 'text').execute();

  await db.schema
    .createTable('landscape_sheets')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('takeoff_id', 'integer', (c) => c.notNull().references('landscape_takeoffs.id').onDelete('cascade'))
    /** The page's number in the PDF, from 1. */
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('image_bytes', 'integer', (c) => c.notNull())
    /** JSON: the sheet's text layer (engines/plans SheetText). */
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('landscape_sheets_page')
    .on('landscape_sheets')
    .columns(['takeoff_id', 'page'])
    .unique()
    .execute();

  await db.schema
    .createTable('landscape_plants')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('takeoff_id', 'integer', (c) => c.notNull().references('landscape_takeoffs.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('common_name', 'text')
    .addColumn('size', 'text')
    /** plant (a schedule row), callout, callout_tag or other. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    /** The quantity typed in the schedule's quantity column, null when it states none. */
    .addColumn('typed_quantity', 'integer')
    /** The row's symbol cell on the schedule's page (JSON box), the sample find-plants matches. */
    .addColumn('symbol_box', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('landscape_plants_takeoff')
    .on('landscape_plants')
    .columns(['takeoff_id', 'position'])
    .execute();

  // A plan's dots: the plant they count, where (page, sheet pixels at 144 dpi), the quantity a
  // user typed on it (null: one plant, or a callout's stated count) and the count a callout states.
  await db.schema.alterTable('landscape_items').addColumn('plant_id', 'integer').execute();
  await db.schema.alterTable('landscape_items').addColumn('page', 'integer').execute();
  await db.schema.alterTable('landscape_items').addColumn('x', 'double precision').execute();
  await db.schema.alterTable('landscape_items').addColumn('y', 'double precision').execute();
  await db.schema.alterTable('landscape_items').addColumn('quantity', 'double precision').execute();
  await db.schema.alterTable('landscape_items').addColumn('callout_quantity', 'integer').execute();
  await db.schema
    .createIndex('landscape_items_plant')
    .on('landscape_items')
    .columns(['takeoff_id', 'plant_id', 'id'])
    .execute();
}
