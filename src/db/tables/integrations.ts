// The integrations area: webhook subscriptions, deliveries and attempts, export files (002_events_out, 007).
import type { Generated } from 'kysely';
import type { Flag } from './shared.ts';

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

/** A delivery's body, in a table of its own so the delivery's row stays narrow (migration 043). */
export interface WebhookPayloadTable {
  delivery_id: number;
  /** The exact JSON body, built when the delivery was queued; every attempt sends these bytes. */
  payload: string;
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

/** This area's tables, composed into DB (db/tables.ts). */
export interface IntegrationsTables {
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_payloads: WebhookPayloadTable;
  webhook_attempts: WebhookAttemptTable;
  export_files: ExportFileTable;
  export_file_links: ExportFileLinkTable;
}
