// The CRM area: jobs and their satellites, customers, sites, people, custom fields, notes, activities, follow-ups (001_spine, 003_people).
import type { Generated } from 'kysely';
import type { Flag } from './shared.ts';

export interface JobStageTable {
  id: Generated<number>;
  firm_id: number;
  key: string;
  label: string;
  type: 'open' | 'won' | 'lost' | 'excluded';
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
  /** 1: the customer company gets no automatic follow-up sequence (022_portal_sequences). */
  skip_automatic_follow_ups: Generated<Flag>;
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
  /** The latest PCI rating of the site (0–100; 034_condition_ratings), null until rated. */
  pci: number | null;
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
  /** The due_at of the round whose email_me message was queued (021_reminders). */
  emailed_due_at: Generated<string | null>;
  /** Set on the birthday follow-up of this person (021_reminders). */
  birthday_contact_id: Generated<number | null>;
}

/** A reminder (021_reminders; document 2, Reminder). */
export interface ReminderTable {
  id: Generated<number>;
  firm_id: number;
  title: string;
  description: string;
  reminder_type: string;
  status: 'pending' | 'sent' | 'done' | 'dismissed';
  client_account_id: number | null;
  contact_id: number | null;
  job_id: number | null;
  /** A lead's id, not checked against a table (leads are built beside this migration). */
  lead_id: number | null;
  due_at: string;
  timezone: string;
  repeat_every: number | null;
  repeat_unit: string | null;
  last_emailed_at: string | null;
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
  priority: 'low' | 'normal' | 'high' | 'urgent';
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
  /** Report columns (039; crm/jobs/report-columns.ts): the address's ZIP and city, when decided and bid. */
  address_zip: Generated<string | null>;
  address_city: Generated<string | null>;
  decided_at: Generated<string | null>;
  bid_at: Generated<string | null>;
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

/** A lead (020_leads): what was submitted and the records intake matched or made. */
export interface LeadTable {
  id: Generated<number>;
  firm_id: number;
  status: 'new' | 'contacted' | 'converted' | 'dismissed' | 'spam';
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  address: string | null;
  message: string | null;
  /** JSON array of job types. */
  services: string;
  timing: string | null;
  property_type: string | null;
  source: string | null;
  source_kind: 'form' | 'portal' | 'api' | 'manual';
  submitted_at: string;
  assigned_to_user_id: number;
  assignment_reason: string | null;
  assignment_rule: string | null;
  first_contacted_at: string | null;
  first_contact_kind: string | null;
  first_contacted_by_user_id: number | null;
  contact_id: number | null;
  client_account_id: number | null;
  job_id: number | null;
  location_id: number | null;
  follow_up_task_id: number | null;
  entry_stage: string | null;
  answers: string;
  utm: string;
  match_reasons: string;
  created_records: string;
  archived_records: string | null;
  respond_by: string | null;
  escalated_at: string | null;
  auto_spam: Flag;
  problem: string | null;
  on_leads_pipeline: Flag;
  pipeline_stage_id: number | null;
  estimated_value_cents: number | null;
  customer_type: string | null;
  notes: string | null;
  next_follow_up_at: string | null;
  replaced_lead_id: number | null;
  replaced_by_lead_id: number | null;
  status_changed_at: string;
  created_at: string;
  updated_at: string;
}

/** This area's tables, composed into DB (db/tables.ts). */
export interface CrmTables {
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
  reminders: ReminderTable;
  job_activity: JobActivityTable;
  jobs: JobTable;
  job_assignees: JobAssigneeTable;
  job_tags: JobTagTable;
  job_tag_links: JobTagLinkTable;
  job_counts: JobCountTable;
  portal_messages: PortalMessageTable;
  portal_links: PortalLinkTable;
  reviews: ReviewTable;
  follow_up_sequence_settings: FollowUpSequenceSettingsTable;
  job_follow_up_sequences: JobFollowUpSequenceTable;
  job_follow_up_steps: JobFollowUpStepTable;
  leads: LeadTable;
}

// ---- the customer portal, reviews and follow-up sequences (022_portal_sequences) -------------

export interface PortalMessageTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  body: string;
  author_type: 'customer' | 'staff';
  author_name: string;
  author_user_id: number | null;
  map_comment: Flag;
  latitude: number | null;
  longitude: number | null;
  location_id: number | null;
  location_name: string | null;
  created_at: string;
}

export interface PortalLinkTable {
  id: Generated<number>;
  firm_id: number;
  client_account_id: number;
  token_salt: string;
  token_hash: string;
  enabled: Flag;
  posts_in_window: Generated<number>;
  post_window_start: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ReviewTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  client_name: string | null;
  client_email: string | null;
  token_salt: string;
  token_hash: string;
  submitted: Flag;
  rating: number | null;
  content: string | null;
  is_public: Flag;
  submitted_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
}

export interface FollowUpSequenceSettingsTable {
  firm_id: number;
  enabled: Flag;
  stop_on_customer_reply: Flag;
  /** JSON array of SequenceStep (follow-up-sequences/settings.ts). */
  steps: string;
  updated_by_user_id: number | null;
  updated_at: string;
}

export interface JobFollowUpSequenceTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  status: 'running' | 'stopped' | 'finished';
  stop_reason: string | null;
  stop_on_customer_reply: Flag;
  started_by_user_id: number | null;
  started_at: string;
  ended_at: string | null;
}

export interface JobFollowUpStepTable {
  id: Generated<number>;
  sequence_id: number;
  firm_id: number;
  job_id: number;
  position: number;
  day: number;
  kind: 'email' | 'task';
  subject: string | null;
  body: string | null;
  title: string | null;
  due_at: string;
  status: 'open' | 'done' | 'skipped' | 'closed';
  done_at: string | null;
  task_id: number | null;
  mail_id: number | null;
}
