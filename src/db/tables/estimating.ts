// The estimating area: the catalog and estimates (005_catalog, 006_estimates).
import type { Generated } from 'kysely';
import type { Flag } from './shared.ts';

export interface CatalogItemTable {
  id: Generated<number>;
  firm_id: number;
  kind: string;
  name: string;
  name_key: string;
  unit: string;
  unit_cost_cents: number;
  /** JSON object of kind-specific attributes (capacity_tons, crew_size, …). */
  attributes: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CatalogServiceTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  category: string | null;
  unit: string;
  estimating_mode: string;
  unit_cost_cents: number | null;
  unit_price_cents: number | null;
  pricing_method: string | null;
  /** Decimal text fraction. */
  pricing_rate: string | null;
  cost_code: string | null;
  proposal_text: string | null;
  what_to_expect: string | null;
  internal_scope: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CatalogCostLineTable {
  id: Generated<number>;
  firm_id: number;
  service_id: number;
  position: number;
  type: string;
  catalog_item_id: number | null;
  name: string;
  unit: string;
  unit_cost_cents: number;
  quantity_formula: string | null;
  /** Fixed quantity as decimal text, used when there is no formula. */
  quantity: string | null;
  /** Decimal text fraction ('0.05'). */
  waste_factor: string;
  billing: string;
  haul_material: string | null;
  dump_material: string | null;
  pricing_method: string | null;
  pricing_rate: string | null;
  created_at: string;
  updated_at: string;
}

export interface PriceListTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  description: string | null;
  is_default: Flag;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PriceListEntryTable {
  id: Generated<number>;
  firm_id: number;
  price_list_id: number;
  service_id: number | null;
  catalog_item_id: number | null;
  /** A service's unit price or an item's unit cost. */
  amount_cents: number;
  position: number;
}

export interface EstimateTemplateTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  description: string | null;
  /** JSON [{name, services: [{service_id, quantity}]}]. */
  areas: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The totals the pricing engine last gave (cents; margin_pct decimal text), on an estimate and each snapshot. */
export interface EstimateTotalsColumns {
  price_cents: number | null;
  subtotal_cents: number | null;
  tax_cents: number | null;
  cost_cents: number | null;
  margin_cents: number | null;
  optional_total_cents: number | null;
  margin_pct: string | null;
}

export interface EstimateTable extends EstimateTotalsColumns {
  id: Generated<number>;
  firm_id: number;
  job_id: number | null;
  doc_number: number | null;
  name: string;
  status: string;
  is_change_order: Flag;
  parent_estimate_id: number | null;
  change_order_mode: string | null;
  template_id: number | null;
  current_version: number | null;
  priced: Flag;
  /** JSON estimate-level pricing inputs; null = the workspace default. */
  pricing: string | null;
  /** JSON job-level costs. */
  job_costs: string | null;
  /** JSON per-line and per-cost-line numbers of the last pricing (modules/estimates/calculation.ts). */
  calculation: string | null;
  awarded_at: string | null;
  award_snapshot_id: number | null;
  lost_at: string | null;
  lost_reason: string | null;
  status_before_lost: string | null;
  revision: number;
  created_by_user_id: number | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface EstimateAreaTable {
  id: Generated<number>;
  firm_id: number;
  estimate_id: number;
  name: string;
  position: number;
  quantity_source: string;
  takeoff_id: number | null;
  active: Flag;
  created_at: string;
  updated_at: string;
}

export interface EstimateLineTable {
  id: Generated<number>;
  firm_id: number;
  estimate_id: number;
  area_id: number;
  position: number;
  name: string;
  service_type: string | null;
  category: string | null;
  assembly_id: number | null;
  estimating_mode: string;
  /** Decimal text. */
  quantity: string;
  unit: string;
  quantity_source: string;
  /** In a takeoff area: the measurement quantity the line takes (docs/measurement.md, "Estimates"). */
  measurement_quantity: string | null;
  /** JSON {name: number}. */
  inputs: string | null;
  unit_cost_cents: number | null;
  unit_price_cents: number | null;
  unit_cost_typed: Flag;
  unit_price_typed: Flag;
  is_optional: Flag;
  hide_on_proposal: Flag;
  taxable: Flag;
  active: Flag;
  excluded: Flag;
  parent_service_id: number | null;
  cost_code: string | null;
  is_bundle_master: Flag;
  bundle_parent_service_id: number | null;
  pricing_method: string | null;
  pricing_rate: string | null;
  price_override_cents: number | null;
  proposal_group: string | null;
  proposal_text: string | null;
  what_to_expect: string | null;
  internal_scope: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface EstimateCostLineTable {
  id: Generated<number>;
  firm_id: number;
  estimate_id: number;
  line_item_id: number;
  position: number;
  type: string;
  catalog_item_id: number | null;
  name: string;
  unit: string;
  unit_cost_cents: number;
  unit_cost_typed: Flag;
  quantity_formula: string | null;
  manual_quantity: string | null;
  waste_factor: string;
  pricing_method: string | null;
  pricing_rate: string | null;
  billing: string;
  is_alternate: Flag;
  suppressed: Flag;
  /** JSON haul inputs. */
  haul: string | null;
  dump_material: string | null;
  /** JSON {vendor_id, name}. */
  dump_site: string | null;
  created_at: string;
  updated_at: string;
}

export interface EstimateSnapshotTable extends EstimateTotalsColumns {
  id: Generated<number>;
  firm_id: number;
  estimate_id: number;
  /** version (an issued version) | award (the estimate as won). */
  kind: 'version' | 'award';
  version: number | null;
  /** JSON estimate object. */
  document: string;
  profit_floor_overridden: Flag;
  created_by_user_id: number | null;
  created_at: string;
}

export interface EstimateRevisionTable {
  id: Generated<number>;
  firm_id: number;
  estimate_id: number;
  revision: number;
  action: string;
  summary: string;
  /** JSON. */
  changes: string;
  user_id: number | null;
  total_before_cents: number | null;
  total_after_cents: number | null;
  created_at: string;
}

/** A proposal (023): the customer's view of an estimate, its link, and what the customer decided. */
export interface ProposalTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  estimate_id: number | null;
  doc_number: number | null;
  status: 'draft' | 'sent' | 'viewed' | 'accepted' | 'rejected' | 'void';
  title: string;
  client_name: string | null;
  client_email: string | null;
  client_company: string | null;
  valid_until: string | null;
  is_customer_copy: Flag;
  approval_status: 'not_required' | 'pending' | 'approved' | 'rejected';
  approval_requested_by_user_id: number | null;
  approval_decided_by_user_id: number | null;
  approval_decided_at: string | null;
  approval_note: string | null;
  template_id: string | null;
  /** JSON ProposalContent (proposals/content.ts). */
  content: string;
  /** JSON ProposalSections (proposals/sections.ts). */
  sections: string;
  /** JSON PricedLines (proposals/priced.ts). */
  priced: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  optional_total_cents: number;
  priced_at: string;
  token_salt: string;
  token_hash: string;
  link_enabled: Flag;
  link_expires_on: string | null;
  sent_at: string | null;
  sent_to: string | null;
  sent_by_user_id: number | null;
  first_viewed_at: string | null;
  last_viewed_at: string | null;
  view_count: number;
  accepted_at: string | null;
  rejected_at: string | null;
  decline_reason: string | null;
  voided_at: string | null;
  signer_name: string | null;
  signer_email: string | null;
  signed_at: string | null;
  consent_version: string | null;
  signature_image: string | null;
  signed_document: string | null;
  document_sha256: string | null;
  executed_file_id: number | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

/** One step of what the customer did on a proposal's page; never updated. */
export interface ProposalAuditEventTable {
  id: Generated<number>;
  firm_id: number;
  proposal_id: number;
  kind: 'opened' | 'consented' | 'signed' | 'declined';
  at: string;
  ip: string | null;
  user_agent: string | null;
  data: string | null;
}

export interface ProposalTemplateTable {
  id: Generated<number>;
  firm_id: number;
  template_key: string;
  name: string;
  description: string | null;
  /** JSON ProposalLayout (proposals/templates.ts). */
  layout: string;
  starter: Flag;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

/** This area's tables, composed into DB (db/tables.ts). */
export interface EstimatingTables {
  catalog_items: CatalogItemTable;
  catalog_services: CatalogServiceTable;
  catalog_cost_lines: CatalogCostLineTable;
  price_lists: PriceListTable;
  price_list_entries: PriceListEntryTable;
  estimate_templates: EstimateTemplateTable;
  estimates: EstimateTable;
  estimate_areas: EstimateAreaTable;
  estimate_lines: EstimateLineTable;
  estimate_cost_lines: EstimateCostLineTable;
  estimate_snapshots: EstimateSnapshotTable;
  estimate_revisions: EstimateRevisionTable;
  proposals: ProposalTable;
  proposal_audit_events: ProposalAuditEventTable;
  proposal_templates: ProposalTemplateTable;
}
