// Assessment services (document 3, Site assessments and pins): what assessors pin on a site walk,
// each linked to the catalog service that prices it (unlinked when that service is deleted).
// Workspaces made before this migration get the starter set now, as new ones do when made.
//
// The set is written here as it stood when this migration was made, with its own insert: a
// migration is a fixed step, so it never calls live code (which may change, or stop existing)
// and its outcome is the same whenever it runs.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

/** name, group, colour, measurement type and the starter-catalog service that prices it. */
const STARTER: readonly [string, string, string, string, string | null][] = [
  ['Crack sealing', 'Asphalt', '#f59e0b', 'lf', 'Crack sealing'],
  ['Pothole patching', 'Asphalt', '#dc2626', 'sqft', 'Full-depth asphalt patch'],
  ['Base failure repair', 'Asphalt', '#991b1b', 'dimensions', 'Full-depth asphalt patch'],
  ['Sealcoating', 'Asphalt', '#374151', 'sqft', 'Sealcoating, 2 coats'],
  ['Mill and overlay', 'Asphalt', '#1f2937', 'sqft', 'Mill and overlay, 2"'],
  ['Line striping', 'Striping', '#eab308', 'lf', 'Line striping'],
  ['Parking stall striping', 'Striping', '#facc15', 'count', 'Parking stall striping'],
  ['ADA stall', 'Striping', '#2563eb', 'count', 'ADA stall with stencil'],
  ['Concrete repair', 'Concrete', '#9ca3af', 'dimensions', 'Concrete flatwork'],
  ['Drainage', 'Drainage', '#0ea5e9', 'count', null],
  ['Mulch beds', 'Landscape', '#92400e', 'sqft', 'Mulch install'],
  ['Sod repair', 'Landscape', '#16a34a', 'sqft', 'Sod install'],
  ['Tree work', 'Landscape', '#15803d', 'count', null],
];

/** The name key of the time (platform/text.ts nameKey): trimmed, spaces collapsed, lower case. */
const keyOf = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** The starter set for one workspace, linked to its live catalog services of those names. */
async function giveStarterSet(db: Kysely<any>, firmId: number, at: string): Promise<void> {
  const catalog: { id: number; name_key: string }[] = await db
    .selectFrom('catalog_services')
    .select(['id', 'name_key'])
    .where('firm_id', '=', firmId)
    .where('archived_at', 'is', null)
    .execute();
  const catalogId = new Map(catalog.map((c) => [c.name_key, c.id]));
  await db
    .insertInto('assessment_services')
    .values(
      STARTER.map(([name, group, color, measurement, service], i) => ({
        firm_id: firmId,
        name,
        name_key: keyOf(name),
        service_group: group,
        color,
        measurement_type: measurement,
        catalog_service_id: service === null ? null : (catalogId.get(keyOf(service)) ?? null),
        position: i + 1,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
}

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('assessment_services')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('service_group', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('measurement_type', 'text', (c) => c.notNull()) // none | count | sqft | dimensions | volume | lf
    .addColumn('catalog_service_id', 'integer', (c) => c.references('catalog_services.id').onDelete('set null'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assessment_services_name')
    .unique()
    .on('assessment_services')
    .columns(['firm_id', 'name_key'])
    .execute();
  // The stored-timestamp form (platform/time.ts): UTC to the microsecond, no suffix.
  const at = `${new Date().toISOString().slice(0, 23)}000`;
  for (const firm of await db.selectFrom('firms').select('id').execute()) await giveStarterSet(db, firm.id, at);
}
