// Estimates (issue 5): the estimate with its areas, line items and cost lines (the pricing
// engine's inputs), the numbers the engine last calculated, issued versions and the award
// snapshot (frozen estimate objects), and the edit log.
//
// Money is integer cents; quantities and rates that must stay exact are decimal text. What the
// engine calculates per line and cost line is kept as one JSON document on the estimate
// (`calculation`): a write re-prices every line, and one row write beats rewriting hundreds.
// The totals are also columns, so lists, exports and the job's estimate_total read them directly.
import type { Kysely } from 'kysely';
import type { Dialect } from '#db/dialect.ts';

/** The money totals an estimate and each of its snapshots keep (margin_pct is decimal text beside them). */
const TOTALS_CENTS = [
  'price_cents',
  'subtotal_cents',
  'tax_cents',
  'cost_cents',
  'margin_cents',
  'optional_total_cents',
];

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = 'text';
  const money = (name: string) => (t: any) => t.addColumn(name, 'bigint');

  let estimates = db.schema
    .createTable('estimates')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    // A deleted job leaves its estimates (and their numbers) in place, unlinked.
    .addColumn('job_id', 'integer', (c) => c.references('jobs.id').onDelete('set null'))
    .addColumn('doc_number', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // draft | estimate | won | lost | change_order
    .addColumn('is_change_order', 'integer', (c) => c.notNull())
    .addColumn('parent_estimate_id', 'integer', (c) => c.references('estimates.id').onDelete('set null'))
    .addColumn('change_order_mode', 'text') // additive | revision (change-order estimates)
    .addColumn('template_id', 'integer')
    .addColumn('current_version', 'integer')
    .addColumn('priced', 'integer', (c) => c.notNull())
    .addColumn('pricing', 'text') // JSON estimate-level inputs; null = the workspace default
    .addColumn('job_costs', 'text') // JSON job-level costs (mobilization, overhead, bond, rounding)
    .addColumn('calculation', 'text'); // JSON: per-line and per-cost-line numbers of the last pricing
  for (const col of TOTALS_CENTS) {
    estimates = money(col)(estimates);
  }
  await estimates
    .addColumn('margin_pct', 'text')
    .addColumn('awarded_at', ts)
    .addColumn('award_snapshot_id', 'integer')
    .addColumn('lost_at', ts)
    .addColumn('lost_reason', 'text')
    .addColumn('status_before_lost', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('estimates_updated').on('estimates').columns(['firm_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('estimates_job').on('estimates').columns(['job_id']).execute();
  await db.schema.createIndex('estimates_parent').on('estimates').columns(['parent_estimate_id']).execute();
  await db.schema.createIndex('estimates_doc_number').on('estimates').columns(['firm_id', 'doc_number']).execute();

  await db.schema
    .createTable('estimate_areas')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('estimate_id', 'integer', (c) => c.notNull().references('estimates.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('quantity_source', 'text', (c) => c.notNull()) // manual | takeoff | assessment
    .addColumn('takeoff_id', 'integer')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_areas_estimate')
    .on('estimate_areas')
    .columns(['estimate_id', 'position'])
    .execute();

  await db.schema
    .createTable('estimate_lines')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('estimate_id', 'integer', (c) => c.notNull().references('estimates.id').onDelete('cascade'))
    .addColumn('area_id', 'integer', (c) => c.notNull().references('estimate_areas.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('service_type', 'text')
    .addColumn('category', 'text')
    .addColumn('assembly_id', 'integer') // catalog service; no foreign key: the line keeps its copy
    .addColumn('estimating_mode', 'text', (c) => c.notNull()) // detailed | unit_costing
    .addColumn('quantity', 'text', (c) => c.notNull()) // decimal text
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('quantity_source', 'text', (c) => c.notNull()) // inherited | manual | derived
    .addColumn('inputs', 'text') // JSON {name: number} for cost-line formulas
    .addColumn('unit_cost_cents', 'bigint') // unit_costing inputs
    .addColumn('unit_price_cents', 'bigint')
    .addColumn('unit_cost_typed', 'integer', (c) => c.notNull()) // typed values survive a price-list change
    .addColumn('unit_price_typed', 'integer', (c) => c.notNull())
    .addColumn('is_optional', 'integer', (c) => c.notNull())
    .addColumn('hide_on_proposal', 'integer', (c) => c.notNull())
    .addColumn('taxable', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('excluded', 'integer', (c) => c.notNull()) // excluded from the bid
    .addColumn('parent_service_id', 'integer')
    .addColumn('cost_code', 'text')
    .addColumn('is_bundle_master', 'integer', (c) => c.notNull())
    .addColumn('bundle_parent_service_id', 'integer')
    .addColumn('pricing_method', 'text')
    .addColumn('pricing_rate', 'text')
    .addColumn('price_override_cents', 'bigint')
    .addColumn('proposal_group', 'text')
    .addColumn('proposal_text', 'text')
    .addColumn('what_to_expect', 'text')
    .addColumn('internal_scope', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_lines_estimate')
    .on('estimate_lines')
    .columns(['estimate_id', 'area_id', 'position'])
    .execute();

  await db.schema
    .createTable('estimate_cost_lines')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('estimate_id', 'integer', (c) => c.notNull().references('estimates.id').onDelete('cascade'))
    .addColumn('line_item_id', 'integer', (c) => c.notNull().references('estimate_lines.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('catalog_item_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('unit_cost_typed', 'integer', (c) => c.notNull())
    .addColumn('quantity_formula', 'text')
    .addColumn('manual_quantity', 'text')
    .addColumn('waste_factor', 'text', (c) => c.notNull())
    .addColumn('pricing_method', 'text')
    .addColumn('pricing_rate', 'text')
    .addColumn('billing', 'text', (c) => c.notNull())
    .addColumn('is_alternate', 'integer', (c) => c.notNull())
    .addColumn('suppressed', 'integer', (c) => c.notNull())
    .addColumn('haul', 'text') // JSON haul inputs (trucking hauls)
    .addColumn('dump_material', 'text')
    .addColumn('dump_site', 'text') // JSON {vendor_id, name}
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_cost_lines_line')
    .on('estimate_cost_lines')
    .columns(['line_item_id', 'position'])
    .execute();
  await db.schema
    .createIndex('estimate_cost_lines_estimate')
    .on('estimate_cost_lines')
    .columns(['estimate_id'])
    .execute();

  // Issued versions (kind version) and the award snapshot (kind award): the whole estimate object
  // as it was, frozen.
  let snapshots = db.schema
    .createTable('estimate_snapshots')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('estimate_id', 'integer', (c) => c.notNull().references('estimates.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('version', 'integer')
    .addColumn('document', 'text', (c) => c.notNull());
  for (const col of TOTALS_CENTS) {
    snapshots = money(col)(snapshots);
  }
  await snapshots
    .addColumn('margin_pct', 'text')
    .addColumn('profit_floor_overridden', 'integer', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_snapshots_estimate')
    .on('estimate_snapshots')
    .columns(['estimate_id', 'kind', 'version'])
    .execute();

  await db.schema
    .createTable('estimate_revisions')
    .addColumn('id', 'integer', d.idColumn)
    .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
    .addColumn('estimate_id', 'integer', (c) => c.notNull().references('estimates.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull()) // JSON
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('total_before_cents', 'bigint')
    .addColumn('total_after_cents', 'bigint')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('estimate_revisions_estimate')
    .on('estimate_revisions')
    .columns(['estimate_id', 'revision'])
    .execute();

  // The job object's estimate_id, estimate_number and estimate_total: kept here by estimate writes
  // without moving the job's updated_at (document 2: it moves only when the job itself changes).
  await db.schema.alterTable('jobs').addColumn('estimate_id', 'integer').execute();
  await db.schema.alterTable('jobs').addColumn('estimate_number', 'integer').execute();
  await db.schema.alterTable('jobs').addColumn('estimate_total_cents', 'bigint').execute();
}
