// Assessment services (document 3, Site assessments and pins): what assessors pin on a site walk,
// each linked to the catalog service that prices it (unlinked when that service is deleted).
// Workspaces made before this migration get the starter set now, as new ones do when made.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { giveStarterServices } from '#field/assessment-services/service.ts';

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
  for (const firm of await db.selectFrom('firms').select('id').execute())
    await giveStarterServices(db as Kysely<DB>, firm.id);
}
