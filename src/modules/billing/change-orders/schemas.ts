// Change orders on the wire (document 3, Change order; Change orders endpoints; docs/api-decisions.md,
// "Change orders").
import { type Static, Type } from '@sinclair/typebox';
import {
  Body,
  Nullable,
  NullableInstant,
  NullableInteger,
  NullableString,
  NullableText,
  One,
  OneOf,
  PageQuery,
  RecordId,
  StringEnum,
  TEXT_CEILING,
} from '#platform/schemas.ts';
import { AuditEventSchema } from '#platform/signing/audit.ts';
import { CHANGE_ORDER_STAGE_MEANINGS } from '#platform/workspace.ts';

export const CHANGE_ORDER_STATUSES = ['draft', 'sent', 'approved', 'declined', 'void'] as const;
export const CHANGE_ORDER_KINDS = ['quick', 'tm', 'full'] as const;
export const PRICING_MODES = ['additive', 'revision'] as const;
export type ChangeOrderKind = (typeof CHANGE_ORDER_KINDS)[number];

export const KIND_LABELS: Record<ChangeOrderKind, string> = {
  quick: 'Quick change order',
  tm: 'Time and materials',
  full: 'Full estimate',
};

/** The largest change a change order carries either way: a billion dollars, ten years. */
const DOLLARS_MAX = 1_000_000_000;
const DAYS_MAX = 3650;
export const TITLE_MAX = 200;
export const COMMENT_MAX = 2000;

const Money = (description: string) => Type.Number({ description });

/** The fields of every change order row (the list and the single read). */
const summaryFields = {
  id: Type.Integer(),
  co_number: Type.Integer({ description: 'Number within the job; a void change order keeps its number' }),
  kind: StringEnum(CHANGE_ORDER_KINDS),
  kind_label: Type.String(),
  pricing_mode: Nullable(StringEnum(PRICING_MODES, { description: 'Priced kinds (tm, full); null for quick' })),
  title: Type.String(),
  description: Type.String(),
  status: StringEnum(CHANGE_ORDER_STATUSES),
  job_id: Type.Integer(),
  job_number: Type.Integer(),
  job_name: Type.String(),
  customer: NullableString(),
  customer_name: NullableString(),
  customer_email: NullableString(),
  amount_delta: Money('Dollars, plus or minus: the change to the contract price, tax included'),
  tax_delta: Money('Dollars: the tax within amount_delta'),
  cost_delta: Money('Dollars: the change to the cost budget'),
  days_delta: Type.Integer(),
  ep_estimate_id: NullableInteger(),
  est_proposal_id: NullableInteger(),
  source: StringEnum(['office', 'field'] as const),
  created_at: Type.String({ description: 'UTC, Z' }),
  updated_at: Type.String({
    description: "UTC, Z; for a priced change order not yet decided, also moved by its estimate's changes",
  }),
};

const CostCodeLine = Type.Object({
  cost_code: NullableString(),
  amount: Money('Dollars before tax, plus or minus'),
  cost: Money('Dollars, plus or minus'),
});

export const ChangeOrderSummarySchema = Type.Object(summaryFields);
export const ChangeOrderSchema = Type.Object({
  ...summaryFields,
  stage: Type.String(),
  stage_label: Type.String(),
  revised_contract: Nullable(
    Type.Number({
      description:
        "The job's signed contract (its latest accepted proposal's total plus approved change orders) with this change order: as posted when it was approved; with it added while draft or sent; null when declined or void, or when no proposal of the job has been accepted",
    }),
  ),
  revised_budget: Nullable(
    Type.Number({
      description:
        "The job's cost budget (the signed proposal's estimate cost plus approved change orders' cost) with this change order; null as revised_contract is, or when that estimate has no cost",
    }),
  ),
  lines: Type.Array(CostCodeLine, { description: 'By cost code (priced kinds); empty for quick' }),
  approved_at: NullableInstant(),
  approval_source: Nullable(StringEnum(['office', 'customer'] as const)),
  signature_name: NullableString(),
  signed_at: NullableInstant(),
  declined_at: NullableInstant(),
  voided_at: NullableInstant(),
  sent_at: NullableInstant(),
  decision_comment: NullableString(),
  share_url: Nullable(Type.String({ description: "The customer's review-and-sign page; made by the first send" })),
  signature: Type.Object(
    {
      consent_version: NullableString(),
      consent_text: NullableString(),
      document_sha256: Nullable(
        Type.String({ description: 'SHA-256 (hex) of the canonical JSON document the customer signed' }),
      ),
      drawn_signature: Type.Boolean({ description: 'The signer drew a signature as well as typing their name' }),
      audit_trail: Type.Array(AuditEventSchema, { description: 'What the customer did on the page, oldest first' }),
    },
    { description: "The customer's signature and what they did on the page (as a proposal's signature envelope)" },
  ),
  exported_at: NullableInstant(),
  export_ref: NullableString(),
});
export type ChangeOrderObject = Static<typeof ChangeOrderSchema>;
export type ChangeOrderSummary = Static<typeof ChangeOrderSummarySchema>;

export const OneChangeOrder = One(ChangeOrderSchema);

/** Document 1's exception: {change_orders, total, limit, offset}. */
export const ChangeOrderList = Type.Object({
  change_orders: Type.Array(ChangeOrderSummarySchema),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const ListQuery = Type.Object({
  job_id: Type.Optional(RecordId()),
  status: Type.Optional(Type.String({ maxLength: 40, description: CHANGE_ORDER_STATUSES.join(', ') })),
  ...PageQuery(200),
});

const Title = Type.String({ minLength: 1, maxLength: TITLE_MAX, pattern: '\\S' });
const editable = {
  title: Title,
  description: NullableText(TEXT_CEILING),
  amount_delta: Type.Number({
    minimum: -DOLLARS_MAX,
    maximum: DOLLARS_MAX,
    description: 'Dollars, plus or minus (quick only: tm and full are priced by their estimate)',
  }),
  days_delta: Type.Integer({ minimum: -DAYS_MAX, maximum: DAYS_MAX }),
  customer_name: NullableText(200),
  customer_email: NullableText(254),
};

export const CreateChangeOrderBody = Body(
  {
    job_id: RecordId(),
    kind: OneOf(CHANGE_ORDER_KINDS),
    ...editable,
    title: Type.String({
      minLength: 1,
      maxLength: TITLE_MAX,
      pattern: '\\S',
      description: 'Required for quick; tm and full default to "Change order <co_number>"',
    }),
    pricing_mode: OneOf(PRICING_MODES, { description: 'full: additive (default) or revision; tm is additive' }),
    request_key: Type.String({
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      description: 'A UUID: a create repeated with it answers the change order the first one made (200)',
    }),
  },
  { required: ['job_id'] },
);
export type CreateChangeOrderInput = Static<typeof CreateChangeOrderBody>;

export const UpdateChangeOrderBody = Body(editable);
export type UpdateChangeOrderInput = Static<typeof UpdateChangeOrderBody>;

export const DecisionBody = Body({ comment: NullableText(COMMENT_MAX) });
export type DecisionInput = Static<typeof DecisionBody>;

export const StageBody = Body({ stage: Type.String({ minLength: 1, maxLength: 100 }) }, { required: ['stage'] });

export const SendResult = Type.Object({
  data: ChangeOrderSchema,
  url: Type.String({ description: "The customer's review-and-sign page" }),
  emailed: Type.Boolean({ description: 'false: no customer_email; share url yourself' }),
  message: NullableString(),
});

export const StageList = Type.Object({
  data: Type.Array(
    Type.Object({
      key: Type.String(),
      label: Type.String(),
      meaning: StringEnum(CHANGE_ORDER_STAGE_MEANINGS),
    }),
  ),
});

export const ChangeOrderParams = Type.Object({ id: RecordId() });
