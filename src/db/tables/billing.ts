// The billing area: invoices (025_invoices), their links and online payments (026_online_payments).
import type { Generated } from 'kysely';

export interface InvoiceTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  estimate_id: number | null;
  doc_number: number | null;
  status: 'draft' | 'sent' | 'paid' | 'void' | 'open' | 'uncollectible';
  payment_method: 'check' | 'online';
  billing_type: string;
  currency: string;
  /** JSON StoredLineItem[] (billing/invoices/rules.ts). */
  line_items: string;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  amount_cents: number;
  due_days: number;
  /** YYYY-MM-DD. */
  due_date: string;
  issued_at: string | null;
  paid_at: string | null;
  client_name: string | null;
  client_email: string | null;
  client_address: string | null;
  project_name: string | null;
  project_address: string | null;
  reference_number: string | null;
  memo: string | null;
  remit_to_name: string | null;
  remit_to_address: string | null;
  payment_instructions: string | null;
  sender_name: string | null;
  sender_email: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
  /** The customer link (026): salt and token hash, null until first sent or requested online. */
  token_salt: string | null;
  token_hash: string | null;
  /** Online invoices: test or stripe, and the processor's id of the payment. */
  payment_processor: 'test' | 'stripe' | null;
  payment_reference: string | null;
}

/** A processor's event about one of our invoices, applied once (026_online_payments). */
export interface PaymentEventTable {
  processor: 'test' | 'stripe';
  event_id: string;
  firm_id: number;
  invoice_id: number;
  outcome: 'paid' | 'void' | 'uncollectible';
  amount_cents: number;
  currency: string;
  applied: number;
  received_at: string;
}

/** This area's tables, composed into DB (db/tables.ts). */
export interface BillingTables {
  invoices: InvoiceTable;
  payment_events: PaymentEventTable;
}
