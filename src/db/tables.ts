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
  archived_at: string | null;
  created_at: string;
  updated_at: string;
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
}

export type Firm = Selectable<FirmTable>;
export type User = Selectable<UserTable>;
export type ApiKey = Selectable<ApiKeyTable>;
export type JobStage = Selectable<JobStageTable>;
export type ClientAccount = Selectable<ClientAccountTable>;
export type Location = Selectable<LocationTable>;
export type Contact = Selectable<ContactTable>;
export type Job = Selectable<JobTable>;
export type NewJob = Insertable<JobTable>;
export type JobUpdate = Updateable<JobTable>;
export type JobTag = Selectable<JobTagTable>;
export type NewUser = Insertable<UserTable>;
export type Event = Selectable<EventTable>;
export type WebhookSubscription = Selectable<WebhookSubscriptionTable>;
export type WebhookDelivery = Selectable<WebhookDeliveryTable>;
export type ExportFile = Selectable<ExportFileTable>;
