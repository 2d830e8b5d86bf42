// Invoices on the wire (document 3, Invoice; docs/api-decisions.md, "Invoices").
import { type Static, Type } from '@sinclair/typebox';
import {
  Body,
  ListOf,
  Nullable,
  NullableInstant,
  NullableInteger,
  NullableString,
  NullableText,
  One,
  RecordId,
  StringEnum,
} from '#platform/schemas.ts';

export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'void', 'open', 'uncollectible'] as const;
export const PAYMENT_METHODS = ['check', 'online'] as const;
/** What a check invoice may be created as; `recurring` is only for invoices of the payment processor. */
export const BILLING_TYPES = ['line_items', 'full', 'deposit', 'milestone', 'custom'] as const;
export const LINE_ITEMS_MAX = 200;
/** The largest amount a line, a discount or a tax takes: a billion dollars. */
const DOLLARS_MAX = 1_000_000_000;

export const LineItemSchema = Type.Object({
  description: Type.String(),
  amount: Type.Number({ description: 'Dollars' }),
  amount_cents: Type.Integer(),
});

const Accounting = Type.Object(
  {
    has_invoice: Type.Boolean(),
    has_payment: Type.Boolean(),
    invoice_synced_at: NullableInstant(),
    sync_error: NullableString(),
  },
  { description: 'The accounting copy (key named quickbooks by the spec); no accounting system is connected yet' },
);

/** The fields every invoice row shows (the job's invoice list and the export leave line items out). */
const summaryFields = {
  id: Type.Integer(),
  job_id: Type.Integer(),
  doc_number: NullableInteger(),
  invoice_number: Type.String({
    description:
      "The invoice's own number, unique in the workspace and never reused: <doc_number>-<n> (1042-2) for the n-th invoice of that doc_number, INV-<n> for the n-th without one",
  }),
  status: StringEnum(INVOICE_STATUSES),
  payment_method: StringEnum(PAYMENT_METHODS),
  billing_type: Type.String({ description: 'full, deposit, milestone, custom, line_items, recurring' }),
  description: Type.String({ description: 'The first line item, or a count of line items' }),
  currency: Type.String(),
  subtotal: Type.Number(),
  subtotal_cents: Type.Integer(),
  discount: Type.Number(),
  discount_cents: Type.Integer(),
  tax: Type.Number(),
  tax_cents: Type.Integer(),
  amount: Type.Number({ description: 'subtotal - discount + tax' }),
  amount_cents: Type.Integer(),
  due_days: Type.Integer(),
  due_date: Type.String({ description: 'YYYY-MM-DD: the issue date (the creation date until issued) plus due_days' }),
  payment_terms: Type.String({ description: 'Net 30, Due on receipt' }),
  issued_at: NullableInstant(),
  paid_at: NullableInstant(),
  client_name: NullableString(),
  client_email: NullableString(),
  client_address: NullableString(),
  project_name: NullableString(),
  project_address: NullableString(),
  reference_number: NullableString(),
  memo: NullableString(),
  remit_to_name: NullableString(),
  remit_to_address: NullableString(),
  payment_instructions: NullableString(),
  sender_name: NullableString(),
  sender_email: NullableString(),
  created_by: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
  estimate_id: NullableInteger(),
  quickbooks: Accounting,
  created_at: Type.String({ description: 'UTC, Z' }),
  updated_at: Type.String({ description: 'UTC, Z' }),
};

export const InvoiceSummarySchema = Type.Object(summaryFields);
export const InvoiceSchema = Type.Object({ ...summaryFields, line_items: Type.Array(LineItemSchema) });
export const OneInvoice = One(InvoiceSchema);
export const InvoiceList = ListOf(InvoiceSchema);
export type InvoiceObject = Static<typeof InvoiceSchema>;
export type InvoiceSummary = Static<typeof InvoiceSummarySchema>;

const Money = (description: string) => Type.Number({ minimum: 0, maximum: DOLLARS_MAX, description });
const Text = (maxLength: number) => NullableText(maxLength);

const LineItemInput = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 1000 }),
    amount: Type.Number({ exclusiveMinimum: 0, maximum: DOLLARS_MAX, description: 'Dollars, more than zero' }),
  },
  { additionalProperties: false },
);

const editable = {
  line_items: Type.Array(LineItemInput, { minItems: 1, maxItems: LINE_ITEMS_MAX }),
  client_name: Text(200),
  client_email: Text(255),
  client_address: Text(500),
  billing_type: StringEnum(BILLING_TYPES),
  due_days: Type.Integer({ minimum: 0, maximum: 365, description: '0 is due on receipt' }),
  discount: Money('Dollars; not more than the subtotal'),
  tax: Money('Dollars'),
  memo: Text(2000),
  reference_number: Text(100),
  project_name: Text(200),
  project_address: Text(500),
  remit_to_name: Text(200),
  remit_to_address: Text(500),
  payment_instructions: Text(2000),
};

export const CreateInvoiceBody = Body(
  {
    job_id: RecordId(),
    estimate_id: Nullable(RecordId({ description: 'An estimate of the same job: the invoice takes its doc_number' })),
    ...editable,
  },
  { required: ['job_id', 'line_items'] },
);
export type CreateInvoiceInput = Static<typeof CreateInvoiceBody>;

export const UpdateInvoiceBody = Body(editable);
export type UpdateInvoiceInput = Static<typeof UpdateInvoiceBody>;

export const InvoiceParams = Type.Object({ id: RecordId() });

/** GET /v1/jobs/{id}/invoices: the job's invoices (rows without line items) and their totals. */
export const JobInvoicesSchema = Type.Object({
  data: Type.Array(InvoiceSummarySchema),
  totals: Type.Object(
    {
      invoiced: Type.Number(),
      invoiced_cents: Type.Integer(),
      paid: Type.Number(),
      paid_cents: Type.Integer(),
      outstanding: Type.Number(),
      outstanding_cents: Type.Integer(),
    },
    {
      description:
        'invoiced: every invoice but drafts and void ones; paid: the paid ones; outstanding: those awaiting payment (sent, open)',
    },
  ),
});

/** POST /v1/invoices/{id}/send: the invoice as it now is, and that the email went. */
export const InvoiceSent = Type.Object({
  data: InvoiceSchema,
  emailed: Type.Boolean({ description: 'Always true: an email the mail server did not take is a 502' }),
});

/** POST /v1/estimates/{id}/request-payment. */
export const REQUEST_KINDS = ['full', 'deposit', 'progress', 'itemized'] as const;

export const RequestPaymentBody = Body({
  kind: StringEnum(REQUEST_KINDS, {
    description:
      "full (default): the contract; deposit: the proposal's deposit_percent of it; progress: work done minus what is already billed; itemized: the contract line by line",
  }),
  percent_complete: Type.Number({
    minimum: 0,
    maximum: 100,
    description:
      "progress only: how much of the contract's work is done, in percent (default: 100 once the job is in a completed stage, else what its work orders have completed, weighted by line price)",
  }),
  due_days: Type.Integer({ minimum: 0, maximum: 365, description: "Default: the proposal's payment_due_days, else 0" }),
  memo: Text(2000),
  reference_number: Text(100),
  client_name: Text(200),
  client_email: Text(255),
  confirm_duplicate: Type.Boolean({
    description: 'Make the invoice even when it repeats one of the last 10 minutes or bills more than the contract',
  }),
});
export type RequestPaymentInput = Static<typeof RequestPaymentBody>;

export const PaymentRequested = Type.Object({
  data: Type.Object({
    invoice: InvoiceSchema,
    payment_url: Type.String({ description: 'The page where the customer pays (keyless link)' }),
    emailed: Type.Boolean({ description: 'false: share payment_url yourself instead of requesting again' }),
    message: Type.String(),
  }),
});
