// Workspaces, users, API keys and the events every area records (001_spine, 002_events_out), and
// the demo workspace's links (028_demo_links).
import type { Generated } from 'kysely';
import type { Flag } from './shared.ts';
import type { Role } from '#platform/permissions.ts';
import type { Plan, SubscriptionStatus } from '#platform/plans.ts';

export interface FirmTable {
  id: Generated<number>;
  name: string;
  plan: Plan;
  subscription_status: SubscriptionStatus;
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
  role: Role;
  /** admin | estimator | sales | none; read through estimating/estimates/roles.ts, which treats anything else as none. */
  estimating_role: string;
  /** Proposals with a total above this need an owner's approval before this user sends them; null: no limit. */
  proposal_send_limit_cents: number | null;
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
  /** Hourly pay in cents, set by the operator (030); shown only to users who may see pay. */
  pay_rate_cents: number | null;
  /** 0: model runs (landscape detect) are refused for this user's keys (036_landscape). */
  ai_auto_measure: Generated<Flag>;
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

/** A customer link that stopped: its page answers 410 saying why (pages/links.ts). */
export interface RetiredLinkTable {
  token_hash: string;
  firm_id: number;
  /** The link kind, as pages/links.ts names it (photo_report, photo_selection, …). */
  kind: string;
  /** disabled, rotated, revoked or replaced. */
  reason: string;
  retired_at: string;
}

export type OutgoingMailStatus = 'queued' | 'sent' | 'failed';

/** A message waiting for the worker, sent, or given up on (019_mail, platform/mail/queue.ts). */
export interface OutgoingMailTable {
  id: Generated<number>;
  firm_id: number | null;
  kind: string;
  ref: string | null;
  to_address: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  status: OutgoingMailStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  lease_token: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

/** This area's tables, composed into DB (db/tables.ts). */
/** The demo workspace's customer links (028_demo_links, src/seed/demo-links.ts). */
export interface DemoLinkTable {
  firm_id: number;
  position: number;
  label: string;
  /** The page's path before the token, such as /share/proposals/. */
  path_prefix: string;
  link_kind: string;
  token_salt: string;
}

export interface PlatformTables {
  firms: FirmTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  partner_key_grants: PartnerKeyGrantTable;
  events: EventTable;
  retired_links: RetiredLinkTable;
  outgoing_mail: OutgoingMailTable;
  demo_links: DemoLinkTable;
}
