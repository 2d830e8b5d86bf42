// The estimating catalog (issue 5): a workspace's services (the assembly_id / service_type of an
// estimate line) with their default cost lines, the priced resources those lines draw from
// (catalog items), price lists and estimate templates.
//
// Money is integer cents. Fractions and quantities that must stay exact (waste_factor,
// pricing_rate, a fixed quantity) are stored as decimal text ('0.05'), never as floats.
// Names are unique per workspace and kind in any case (name_key), archived rows included: an
// archived record is restored rather than duplicated.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = 'text';

  await db.schema
    .createTable('catalog_items')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('kind', 'text', (c) => c.notNull()) // crew | equipment | material | truck | subcontractor | dump_site | other
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}')) // JSON object (capacity_tons, crew_size, …)
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('catalog_items_name')
    .unique()
    .on('catalog_items')
    .columns(['firm_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('catalog_services')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('estimating_mode', 'text', (c) => c.notNull()) // detailed | unit_costing
    .addColumn('unit_cost_cents', 'integer')
    .addColumn('unit_price_cents', 'integer')
    .addColumn('pricing_method', 'text') // markup | margin
    .addColumn('pricing_rate', 'text') // decimal text fraction
    .addColumn('cost_code', 'text')
    .addColumn('proposal_text', 'text')
    .addColumn('what_to_expect', 'text')
    .addColumn('internal_scope', 'text')
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('catalog_services_name')
    .unique()
    .on('catalog_services')
    .columns(['firm_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('catalog_cost_lines')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('catalog_services.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('catalog_item_id', 'integer', (c) => c.references('catalog_items.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('quantity_formula', 'text')
    .addColumn('quantity', 'text') // fixed quantity, decimal text; used when there is no formula
    .addColumn('waste_factor', 'text', (c) => c.notNull()) // decimal text fraction ('0.05')
    .addColumn('billing', 'text', (c) => c.notNull()) // billed | internal_only
    .addColumn('haul_material', 'text') // trucking: asphalt | millings | spoil
    .addColumn('dump_material', 'text') // misc dump fee: millings | spoil
    .addColumn('pricing_method', 'text')
    .addColumn('pricing_rate', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('catalog_cost_lines_service')
    .on('catalog_cost_lines')
    .columns(['service_id', 'position'])
    .execute();
  await db.schema
    .createIndex('catalog_cost_lines_item')
    .on('catalog_cost_lines')
    .columns(['catalog_item_id'])
    .execute();

  await db.schema
    .createTable('price_lists')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('price_lists_name').unique().on('price_lists').columns(['firm_id', 'name_key']).execute();

  // One row per overridden service (unit price) or item (unit cost).
  await db.schema
    .createTable('price_list_entries')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('price_list_id', 'integer', (c) => c.notNull().references('price_lists.id').onDelete('cascade'))
    .addColumn('service_id', 'integer', (c) => c.references('catalog_services.id'))
    .addColumn('catalog_item_id', 'integer', (c) => c.references('catalog_items.id'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull()) // unit_price for a service, unit_cost for an item
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('price_list_entries_list')
    .on('price_list_entries')
    .columns(['price_list_id', 'position'])
    .execute();
  await db.schema
    .createIndex('price_list_entries_service')
    .unique()
    .on('price_list_entries')
    .columns(['price_list_id', 'service_id'])
    .execute();
  await db.schema
    .createIndex('price_list_entries_item')
    .unique()
    .on('price_list_entries')
    .columns(['price_list_id', 'catalog_item_id'])
    .execute();

  await db.schema
    .createTable('estimate_templates')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('areas', 'text', (c) => c.notNull()) // JSON [{name, services: [{service_id, quantity}]}]
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_templates_name')
    .unique()
    .on('estimate_templates')
    .columns(['firm_id', 'name_key'])
    .execute();
}
