// Table types for Kysely. Conventions shared by both engines:
// - timestamps are TEXT in the fixed UTC form `YYYY-MM-DDTHH:MM:SS.ffffff`, so they sort and
//   compare as strings identically on SQLite and PostgreSQL (see platform/time.ts);
// - booleans are INTEGER 0/1; JSON documents are TEXT; money is integer cents.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

type Flag = number; // 0 or 1

export interface FirmTable {
  id: Generated<number>;
  name: string;
  plan: string;
  subscription_status: string;
  timezone: string;
  settings: string;
  job_types: string;
  divisions: string;
  owner_user_id: number | null;
  next_job_number: number;
  /** Feed events recorded so far (events/record.ts bumps it before each, which orders the feed). */
  feed_events: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  username: string | null;
  email: string;
  role: string;
  estimating_role: string;
  job_title: string | null;
  phone_number: string | null;
  headshot_url: string | null;
  office_user: Flag;
  schedule_editor: Flag;
  payroll_approver: Flag;
  sees_own_jobs_only: Flag;
  can_delete_jobs: Flag;
  can_view_reports: Flag;
  can_see_pay: Flag;
  can_see_job_costs: Flag;
  pricing_access: Flag;
  removed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  kind: 'workspace' | 'partner';
  name: string | null;
  prefix: string;
  key_hash: string;
  firm_id: number | null;
  user_id: number | null;
  permissions: string;
  revoked_at: string | null;
  created_at: string;
}

export interface PartnerKeyGrantTable {
  id: Generated<number>;
  api_key_id: number;
  firm_id: number;
  user_id: number;
}

export interface JobStageTable {
  id: Generated<number>;
  firm_id: number;
  key: string;
  label: string;
  type: string;
  position: number;
  is_completed: Flag;
  created_at: string;
}

export interface ClientAccountTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  external_ref: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  notes: string | null;
  custom_fields: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LocationTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  address: string;
  address_key: string;
  external_ref: string | null;
  client_account_id: number | null;
  property_reference: string | null;
  notes: string | null;
  custom_fields: string;
  /** Set when the site was merged away (it stays archived; its id resolves to this one). */
  merged_into_id: number | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContactTable {
  id: Generated<number>;
  firm_id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  client_account_id: number | null;
  title: string | null;
  contact_type: string | null;
  notes: string | null;
  assigned_user_id: number | null;
  preferred_channel: string | null;
  do_not_contact: Generated<Flag>;
  do_not_contact_reason: string | null;
  birthday: string | null;
  /** JSON array of strings. */
  tags: Generated<string>;
  custom_fields: Generated<string>;
  /** casefold(display name): the A-to-Z order of the contact list. */
  sort_key: Generated<string>;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A phone or email of a person; contacts.email / contacts.phone mirror each kind's primary. */
export interface ContactChannelTable {
  id: Generated<number>;
  firm_id: number;
  contact_id: number;
  kind: 'phone' | 'email';
  label: string;
  value: string;
  /** Lower-cased email or the phone's digits (duplicates, the exact email filter). */
  value_key: string;
  is_primary: Flag;
  do_not_contact: Flag;
  position: number;
  created_at: string;
  updated_at: string;
}

/** A person's company (client account) or site (location), with roles; ended links are history. */
export interface ContactLinkTable {
  id: Generated<number>;
  firm_id: number;
  contact_id: number;
  kind: 'company' | 'location';
  target_id: number;
  /** JSON array of role names. */
  roles: string;
  is_primary: Flag;
  started_on: string | null;
  ended_on: string | null;
  created_at: string;
  updated_at: string;
}

export type CustomFieldEntity = 'job' | 'account' | 'contact' | 'location';

export interface CustomFieldDefinitionTable {
  id: Generated<number>;
  firm_id: number;
  entity_type: CustomFieldEntity;
  key: string;
  label: string;
  label_key: string;
  field_type: string;
  /** JSON array of strings. */
  options: string;
  required: Flag;
  filterable: Flag;
  show_as_flag: Flag;
  section: string;
  position: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A note or a logged call, email or meeting, on exactly one of a job, a person or a company. */
export interface NoteTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number | null;
  contact_id: number | null;
  client_account_id: number | null;
  type: string;
  content: string;
  pinned: Flag;
  author_user_id: number | null;
  occurred_at: string;
  created_at: string;
  updated_at: string;
}

/** An activity logged by another system (POST /v1/activities). */
export interface ActivityTable {
  id: Generated<number>;
  firm_id: number;
  type: string;
  subject: string | null;
  body: string | null;
  outcome: string | null;
  direction: string | null;
  duration_seconds: number | null;
  source: string;
  external_id: string | null;
  job_id: number | null;
  client_account_id: number | null;
  contact_id: number | null;
  lead_id: number | null;
  user_id: number | null;
  occurred_at: string;
  created_at: string;
  updated_at: string;
}

/** A job follow-up. */
export interface TaskTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  contact_id: number | null;
  title: string;
  task_type: string;
  notes: string | null;
  due_at: string | null;
  status: 'open' | 'done';
  assigned_to_user_id: number;
  created_by_user_id: number | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A company follow-up. */
export interface AccountTaskTable {
  id: Generated<number>;
  firm_id: number;
  client_account_id: number;
  contact_id: number | null;
  title: string;
  task_type: string;
  notes: string | null;
  due_at: string | null;
  repeat: string;
  email_me: string;
  status: 'open' | 'done';
  assigned_to_user_id: number;
  created_by_user_id: number | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One entry of a job's activity log (job-page changes: tags, custom fields, notes, people). */
export interface JobActivityTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  user_id: number | null;
  kind: string;
  summary: string;
  /** JSON object with the change's details. */
  data: string;
  created_at: string;
}

export interface JobContactTable {
  job_id: number;
  contact_id: number;
  role: string | null;
  is_primary: Flag;
  bills_separately: Flag;
  created_at: string;
}

export interface JobTable {
  id: Generated<number>;
  firm_id: number;
  team_id: number | null;
  name: string;
  name_key: string;
  company: string | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  bill_to_name: string | null;
  bill_to_email: string | null;
  address: string | null;
  description: string | null;
  notes: string | null;
  job_type: string | null;
  status: string;
  source: string | null;
  priority: string;
  estimated_value_cents: number | null;
  probability: number | null;
  start_date: string | null;
  end_date: string | null;
  next_follow_up: string | null;
  measurement_count: number;
  client_account_id: number | null;
  location_id: number | null;
  external_ref: string | null;
  custom_fields: string;
  accounting_sync_error: string | null;
  assigned_to_user_id: number;
  crm_deal_id: string | null;
  crm_contact_id: string | null;
  crm_company_id: string | null;
  job_number: number;
  accounting_job_number: string | null;
  own_property_reference: string | null;
  external_work_order_number: string | null;
  description_customer_visible: Flag;
  bid_due_date: string | null;
  customer_type: string | null;
  property_type: string | null;
  bond_required: Flag | null;
  liquidated_damages: Flag | null;
  davis_bacon: Flag | null;
  liquidated_damages_per_day_cents: number | null;
  linked_contact_id: number | null;
  operations_division: string | null;
  operations_assignee_user_id: number | null;
  created_at: string;
  updated_at: string;
  /** The job's estimate (kept by estimate writes; see modules/estimates/job-estimate.ts). */
  estimate_id: Generated<number | null>;
  estimate_number: Generated<number | null>;
  estimate_total_cents: Generated<number | null>;
}

export interface JobAssigneeTable {
  job_id: number;
  user_id: number;
}

export interface JobTagTable {
  id: Generated<number>;
  firm_id: number;
  name: string;
  name_key: string;
  color: string;
  created_at: string;
}

export interface JobTagLinkTable {
  job_id: number;
  tag_id: number;
  created_at: string;
}

/** Per-workspace, per-stage job counts, kept in the job's transaction so list totals cost O(1). */
export interface JobCountTable {
  firm_id: number;
  status: string;
  count: number;
}

export interface EventTable {
  id: Generated<number>;
  firm_id: number;
  event_id: string;
  event_type: string;
  /** 1 for feed events (raw job events and business events); 0 for webhook-only job events. */
  in_feed: Flag;
  occurred_at: string;
  created_at: string;
  entity_type: string;
  entity_id: number;
  job_id: number | null;
  data: string;
}

export interface WebhookSubscriptionTable {
  id: Generated<number>;
  firm_id: number;
  /** Canonical subscription name: an underscore event name, `all` or `*`. */
  event_type: string;
  target_url: string;
  /** Kept in clear: it keys the HMAC of every delivery (unlike API keys, which are only compared). */
  secret: string | null;
  active: Flag;
  created_by_user_id: number | null;
  deactivated_at: string | null;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'abandoned';

export interface WebhookDeliveryTable {
  id: Generated<number>;
  firm_id: number;
  subscription_id: number;
  /** events.id of the event delivered. */
  event_row_id: number;
  event_id: string;
  event_type: string;
  /** The exact JSON body, built when the delivery was queued; every attempt sends these bytes. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  /** A worker holds the delivery until then (a crashed worker's hold simply runs out). */
  locked_until: string | null;
  lease_token: string | null;
  last_attempt_at: string | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  redelivery_of: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  number: number;
  /** The X-Service-Delivery header of the attempt. */
  delivery_uuid: string;
  /** Where the attempt went (a subscription's URL can change between attempts). */
  target_url: string;
  signed_at: string;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
}

/** expired: the 24 hours are over and the file is deleted (the row stays as history). */
export type ExportFileStatus = 'pending' | 'ready' | 'failed' | 'expired';

export interface ExportFileTable {
  id: Generated<number>;
  firm_id: number;
  kind: string;
  status: ExportFileStatus;
  /** The finished zip's name under `<dataDir>/exports/`; null until ready and after expiry. */
  file_name: string | null;
  size_bytes: number | null;
  /** JSON {dataset: rows} of the finished file. */
  row_counts: string | null;
  /** One minute before the build started reading (stored form): the next updated_after. */
  watermark: string | null;
  error: string | null;
  attempts: number;
  locked_until: string | null;
  lease_token: string | null;
  /** The requester: the file holds what this user sees (own jobs only, when so restricted). */
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  expires_at: string;
}

/**
 * Keyless download links of a ready export. Each authenticated read of a ready export mints one,
 * because only a SHA-256 of a link's token is kept, so a link can never be shown twice.
 */
export interface ExportFileLinkTable {
  id: Generated<number>;
  firm_id: number;
  export_file_id: number;
  token_hash: string;
  /** The link's token, so the file's one link can be shown on every poll (null: made before 007). */
  token: string | null;
  created_at: string;
}

// ---- estimating catalog (005_catalog) ----

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
  is_default: number;
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
  is_change_order: number;
  parent_estimate_id: number | null;
  change_order_mode: string | null;
  template_id: number | null;
  current_version: number | null;
  priced: number;
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
  active: number;
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
  /** JSON {name: number}. */
  inputs: string | null;
  unit_cost_cents: number | null;
  unit_price_cents: number | null;
  unit_cost_typed: number;
  unit_price_typed: number;
  is_optional: number;
  hide_on_proposal: number;
  taxable: number;
  active: number;
  excluded: number;
  parent_service_id: number | null;
  cost_code: string | null;
  is_bundle_master: number;
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
  unit_cost_typed: number;
  quantity_formula: string | null;
  manual_quantity: string | null;
  waste_factor: string;
  pricing_method: string | null;
  pricing_rate: string | null;
  billing: string;
  is_alternate: number;
  suppressed: number;
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
  kind: string;
  version: number | null;
  /** JSON estimate object. */
  document: string;
  profit_floor_overridden: number;
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

export interface DB {
  firms: FirmTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  partner_key_grants: PartnerKeyGrantTable;
  job_stages: JobStageTable;
  client_accounts: ClientAccountTable;
  locations: LocationTable;
  contacts: ContactTable;
  job_contacts: JobContactTable;
  contact_channels: ContactChannelTable;
  contact_links: ContactLinkTable;
  custom_field_definitions: CustomFieldDefinitionTable;
  notes: NoteTable;
  activities: ActivityTable;
  tasks: TaskTable;
  account_tasks: AccountTaskTable;
  job_activity: JobActivityTable;
  jobs: JobTable;
  job_assignees: JobAssigneeTable;
  job_tags: JobTagTable;
  job_tag_links: JobTagLinkTable;
  job_counts: JobCountTable;
  events: EventTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  export_files: ExportFileTable;
  export_file_links: ExportFileLinkTable;
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
}

export type Firm = Selectable<FirmTable>;
export type User = Selectable<UserTable>;
export type ApiKey = Selectable<ApiKeyTable>;
export type JobStage = Selectable<JobStageTable>;
export type ClientAccount = Selectable<ClientAccountTable>;
export type Location = Selectable<LocationTable>;
export type Contact = Selectable<ContactTable>;
export type ContactChannel = Selectable<ContactChannelTable>;
export type ContactLink = Selectable<ContactLinkTable>;
export type CustomFieldDefinition = Selectable<CustomFieldDefinitionTable>;
export type Note = Selectable<NoteTable>;
export type Activity = Selectable<ActivityTable>;
export type Task = Selectable<TaskTable>;
export type AccountTask = Selectable<AccountTaskTable>;
export type JobActivity = Selectable<JobActivityTable>;
export type Job = Selectable<JobTable>;
export type NewJob = Insertable<JobTable>;
export type JobUpdate = Updateable<JobTable>;
export type JobTag = Selectable<JobTagTable>;
export type NewUser = Insertable<UserTable>;
export type Event = Selectable<EventTable>;
export type WebhookSubscription = Selectable<WebhookSubscriptionTable>;
export type WebhookDelivery = Selectable<WebhookDeliveryTable>;
export type ExportFile = Selectable<ExportFileTable>;
export type CatalogItem = Selectable<CatalogItemTable>;
export type CatalogService = Selectable<CatalogServiceTable>;
export type CatalogCostLine = Selectable<CatalogCostLineTable>;
export type PriceList = Selectable<PriceListTable>;
export type PriceListEntry = Selectable<PriceListEntryTable>;
export type EstimateTemplate = Selectable<EstimateTemplateTable>;
export type Estimate = Selectable<EstimateTable>;
export type EstimateArea = Selectable<EstimateAreaTable>;
export type EstimateLine = Selectable<EstimateLineTable>;
export type EstimateCostLine = Selectable<EstimateCostLineTable>;
export type EstimateSnapshot = Selectable<EstimateSnapshotTable>;
export type EstimateRevision = Selectable<EstimateRevisionTable>;
