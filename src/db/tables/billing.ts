// The billing area: invoices (025_invoices), their links and online payments (026_online_payments).
import type { Generated } from 'kysely';

export interface InvoiceTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  estimate_id: number | null;
  doc_number: number | null;
  /** "<doc_number>-<n>" or "INV-<n>", unique per workspace, never reused (029; invoices/numbers.ts). */
  invoice_number: string;
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

/** The last invoice number given per workspace and doc_number ('' for none) (029_invoice_numbers). */
export interface InvoiceNumberCounterTable {
  firm_id: number;
  doc_key: string;
  last_n: number;
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
  invoice_number_counters: InvoiceNumberCounterTable;
  payment_events: PaymentEventTable;
}

// ---- change orders (027_change_orders) -------------------------------------------------------

export interface ChangeOrderTable {
  id: Generated<number>;
  firm_id: number;
  job_id: number;
  co_number: number;
  kind: 'quick' | 'tm' | 'full';
  pricing_mode: 'additive' | 'revision' | null;
  title: string;
  description: string;
  status: 'draft' | 'sent' | 'approved' | 'declined' | 'void';
  stage: string;
  source: 'office' | 'field';
  customer_name: string | null;
  customer_email: string | null;
  amount_delta_cents: number;
  tax_delta_cents: number;
  cost_delta_cents: number;
  days_delta: number;
  /** JSON CostCodeLine[] (billing/change-orders/figures.ts), frozen once decided; null while live. */
  lines: string | null;
  base_price_cents: number | null;
  base_tax_cents: number | null;
  base_cost_cents: number | null;
  /** JSON CostCodeLine[]: what a revision is measured against. */
  base_lines: string | null;
  revised_contract_cents: number | null;
  revised_budget_cents: number | null;
  ep_estimate_id: number | null;
  request_key: string | null;
  approved_at: string | null;
  approval_source: 'office' | 'customer' | null;
  declined_at: string | null;
  decided_by_user_id: number | null;
  decision_comment: string | null;
  voided_at: string | null;
  signature_name: string | null;
  signed_at: string | null;
  consent_version: string | null;
  signature_image: string | null;
  signed_document: string | null;
  document_sha256: string | null;
  sent_at: string | null;
  sent_to: string | null;
  sent_by_user_id: number | null;
  token_salt: string | null;
  token_hash: string | null;
  first_viewed_at: string | null;
  last_viewed_at: string | null;
  view_count: Generated<number>;
  exported_at: string | null;
  export_ref: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ChangeOrderAuditEventTable {
  id: Generated<number>;
  firm_id: number;
  change_order_id: number;
  kind: 'opened' | 'consented' | 'signed' | 'declined';
  at: string;
  ip: string | null;
  user_agent: string | null;
  /** JSON. */
  data: string | null;
}

/** What approved change orders posted to a job (its revised contract and budget). */
export interface JobContractTable {
  job_id: number;
  firm_id: number;
  approved_amount_cents: number;
  approved_tax_cents: number;
  approved_cost_cents: number;
  approved_days: number;
  approved_count: number;
  updated_at: string;
}

/** The change-order tables, composed into DB with BillingTables (db/tables.ts). */
export interface ChangeOrderTables {
  change_orders: ChangeOrderTable;
  change_order_audit_events: ChangeOrderAuditEventTable;
  job_contracts: JobContractTable;
}
