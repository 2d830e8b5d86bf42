// Measurement (document 3, "Saved-takeoff shape" and "Saved-takeoff shapes"; document 1's
// POST /v1/detect/*; docs/measurement.md). Every table of the area is made here.
//
// - measurements: an aerial takeoff of a paved site, started by a detect call (bounds, address or a
//   tile range) with the imagery it was measured on, its revision (rev: 1 when detected, +1 per
//   saved edit), its totals (kept per save so lists and the job read them without the shapes) and
//   the office's own switches (locked for review, quantities typed over).
// - measurement_shapes: its shapes, one row each, with a stable string id (shape_id) the API
//   answers; coordinates as JSON [lat, lng] (a point, a line's points, or a polygon's rings).
// - measurement_items: the custom items a measurement counts (name, point/line/polygon, colour).
// - measurement_history: one row per saved edit, with the shapes as they were before it (what a
//   save replaced or removed), who saved it and when.
// - estimate_lines gain measurement_quantity: the measurement quantity a line in a takeoff area
//   (estimate_areas.takeoff_id) takes its quantity from.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('measurements')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    /** A job deleted outright takes its measurements with it, like its photos. */
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** bounds, address or tiles: which detect call started it. */
    .addColumn('started_from', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    /** JSON {z, x_min, x_max, y_min, y_max} for detect/tiles. */
    .addColumn('tiles', 'text')
    .addColumn('north', 'double precision', (c) => c.notNull())
    .addColumn('south', 'double precision', (c) => c.notNull())
    .addColumn('east', 'double precision', (c) => c.notNull())
    .addColumn('west', 'double precision', (c) => c.notNull())
    /** JSON: the imagery it was measured on {source, zoom, meters_per_pixel, width, height, capture_date}. */
    .addColumn('imagery', 'text', (c) => c.notNull())
    /** built_in or segmentation. */
    .addColumn('detector', 'text', (c) => c.notNull())
    /** detected (as the detector left it) or editor (after the first edit). */
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('rev', 'integer', (c) => c.notNull())
    /** Square feet of its areas less its holes. */
    .addColumn('area_sqft', 'double precision', (c) => c.notNull())
    .addColumn('shape_count', 'integer', (c) => c.notNull())
    /** JSON: the totals per surface, category and item (docs/measurement.md). */
    .addColumn('totals', 'text', (c) => c.notNull())
    .addColumn('locked_for_review', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON {category: quantity}: categories whose quantity the office typed over. */
    .addColumn('typed_quantities', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('measurements_firm_id').on('measurements').columns(['firm_id', 'id']).execute();
  await db.schema.createIndex('measurements_job').on('measurements').columns(['job_id', 'id']).execute();

  await db.schema
    .createTable('measurement_shapes')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('measurement_id', 'integer', (c) => c.notNull().references('measurements.id').onDelete('cascade'))
    .addColumn('shape_id', 'text', (c) => c.notNull())
    /** area, count, line, painted_shape, custom. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('surface', 'text')
    .addColumn('category', 'text')
    .addColumn('label', 'text')
    .addColumn('item', 'text')
    /** point, line, polygon. */
    .addColumn('geometry', 'text', (c) => c.notNull())
    .addColumn('phase', 'text')
    .addColumn('spec', 'text')
    .addColumn('service_id', 'integer')
    .addColumn('service_labels', 'text')
    .addColumn('item_key', 'text')
    .addColumn('item_name', 'text')
    .addColumn('work_area', 'text')
    .addColumn('quantity', 'double precision', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    /** JSON [lat, lng] points: a point, a line's points, or a polygon's rings (outline first). */
    .addColumn('coordinates', 'text', (c) => c.notNull())
    /** detected (the detector's) or drawn (an edit's). */
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('measurement_shapes_shape')
    .on('measurement_shapes')
    .columns(['measurement_id', 'shape_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('measurement_shapes_order')
    .on('measurement_shapes')
    .columns(['measurement_id', 'id'])
    .execute();
  // The listing's kind and category filters, in shape order.
  await db.schema
    .createIndex('measurement_shapes_kind')
    .on('measurement_shapes')
    .columns(['measurement_id', 'kind', 'category', 'id'])
    .execute();

  await db.schema
    .createTable('measurement_items')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('measurement_id', 'integer', (c) => c.notNull().references('measurements.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** point, line, polygon. */
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('phase_split', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counts_toward_area', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('measurement_items_name')
    .on('measurement_items')
    .columns(['measurement_id', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('measurement_history')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id').onDelete('cascade'))
    .addColumn('measurement_id', 'integer', (c) => c.notNull().references('measurements.id').onDelete('cascade'))
    /** The rev this save made. */
    .addColumn('rev', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('api_key_id', 'integer')
    /** JSON: what the save did, one entry per operation {index, op, id}. */
    .addColumn('operations', 'text', (c) => c.notNull())
    /** JSON: the shapes as they were before the save (changed or removed), in the API's shape. */
    .addColumn('replaced', 'text', (c) => c.notNull())
    .addColumn('area_sqft_before', 'double precision', (c) => c.notNull())
    .addColumn('area_sqft_after', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('measurement_history_rev')
    .on('measurement_history')
    .columns(['measurement_id', 'rev'])
    .unique()
    .execute();

  await db.schema.alterTable('estimate_lines').addColumn('measurement_quantity', 'text').execute();
}
