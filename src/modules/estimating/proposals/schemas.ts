// Proposals on the wire (document 3, Proposal; docs/api-decisions.md, "Proposals").
import { type Static, type TBoolean, type TOptional, Type } from '@sinclair/typebox';
import {
  Body,
  ListOf,
  Nullable,
  NullableInstant,
  NullableString,
  One,
  RecordId,
  StringEnum,
} from '#platform/schemas.ts';
import { HTML_MAX } from './content.ts';
import { CUSTOM_SECTIONS_MAX, DISPLAY_SWITCHES, PAGE_IDS, PHOTO_LAYOUTS, TERMS_ITEMS_MAX } from './sections.ts';
import { AuditEventSchema } from '#platform/signing/audit.ts';

export const PROPOSAL_STATUSES = ['draft', 'sent', 'viewed', 'accepted', 'rejected', 'void'] as const;
export const APPROVAL_STATUSES = ['not_required', 'pending', 'approved', 'rejected'] as const;

const Item = Type.Object({ text: Type.String(), on: Type.Boolean() });
const ItemInput = Type.Object(
  { text: Type.String({ minLength: 1, maxLength: 1000 }), on: Type.Boolean() },
  { additionalProperties: false },
);
const Html = Nullable(Type.String({ maxLength: HTML_MAX, description: 'HTML; cleaned (sanitize-html) when saved' }));
const Switches = <const T extends readonly string[]>(names: T, description: string) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, Type.Boolean()])) as { [K in T[number]]: TBoolean }, {
    description,
  });
const SwitchesInput = <const T extends readonly string[]>(names: T, description: string) =>
  Type.Object(
    Object.fromEntries(names.map((n) => [n, Type.Optional(Type.Boolean())])) as {
      [K in T[number]]: TOptional<TBoolean>;
    },
    { additionalProperties: false, description },
  );

const CustomSectionSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: Nullable(Type.String()),
  items: Type.Array(Item),
  enabled: Type.Boolean(),
});

export const SectionsSchema = Type.Object({
  about_us: Type.Object({ title: Type.String(), body_html: Nullable(Type.String()) }),
  scope: Type.Object({ title: Type.String(), intro: Nullable(Type.String()), notes_html: Nullable(Type.String()) }),
  terms: Type.Object({
    title: Type.String(),
    body_html: Nullable(Type.String()),
    footer: Nullable(Type.String()),
    items: Type.Array(Item),
  }),
  custom_sections: Type.Array(CustomSectionSchema),
  section_order: Type.Array(Type.String(), {
    description:
      'Every section in the order shown: overview, about, scope, service_info, pricing, photos, authorization, terms, acceptance, custom:<id>',
  }),
  pages: Switches(PAGE_IDS, 'Which pages are on'),
  display: Switches(DISPLAY_SWITCHES, 'Display switches'),
  deposit_percent: Nullable(Type.Number()),
  payment_due_days: Nullable(Type.Integer()),
  photo_ids: Type.Array(Type.Integer(), { description: '[] is every photo of the job marked for reports' }),
  photo_layout: StringEnum(PHOTO_LAYOUTS),
  show_photos: Type.Boolean(),
  accent_color: Type.String(),
});

/** One step of a customer's audit trail on a signing page (proposals and change orders). */
export const SignatureSchema = Type.Object({
  proposal_id: Type.Integer(),
  proposal_status: StringEnum(PROPOSAL_STATUSES),
  accepted_at: NullableInstant(),
  rejected_at: NullableInstant(),
  signer_name: NullableString(),
  signer_email: NullableString(),
  signed_at: NullableInstant(),
  envelope: Type.Object({
    document_sha256: Nullable(
      Type.String({ description: 'SHA-256 (hex) of the canonical JSON document the customer signed' }),
    ),
    consent_version: NullableString(),
    consent_text: NullableString(),
    drawn_signature: Type.Boolean({ description: 'The signer drew a signature as well as typing their name' }),
    executed_file_id: Nullable(
      Type.Integer({ description: 'The executed PDF among the job files (document_type executed_proposal)' }),
    ),
    decline_reason: NullableString(),
    audit_trail: Type.Array(AuditEventSchema, {
      description: 'What the customer did on the page, oldest first; append-only',
    }),
  }),
});

const summaryFields = {
  id: Type.Integer(),
  estimate_id: Nullable(Type.Integer()),
  job_id: Type.Integer(),
  doc_number: Nullable(Type.Integer({ description: "Shared with the proposal's estimate" })),
  status: StringEnum(PROPOSAL_STATUSES),
  title: Type.String(),
  client_name: NullableString(),
  client_email: NullableString(),
  client_company: NullableString(),
  valid_until: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  share_url: Nullable(Type.String({ description: 'The customer link; null while turned off or expired' })),
  is_customer_copy: Type.Boolean(),
  approval_status: StringEnum(APPROVAL_STATUSES),
  template_id: NullableString(),
  sent_at: NullableInstant(),
  sent_to: NullableString(),
  first_viewed_at: NullableInstant(),
  last_viewed_at: NullableInstant(),
  accepted_at: NullableInstant(),
  rejected_at: NullableInstant(),
  voided_at: NullableInstant(),
  view_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const ProposalSummarySchema = Type.Object(summaryFields);

export const ProposalSchema = Type.Object({
  ...summaryFields,
  totals: Type.Object(
    {
      subtotal: Type.Number(),
      tax: Type.Number(),
      total: Type.Number(),
      optional_total: Type.Number(),
      deposit: Nullable(Type.Number({ description: 'total × deposit_percent; null without a deposit' })),
    },
    { description: 'Refreshed from the estimate while a draft; frozen once sent' },
  ),
  content: Type.Object({
    cover_html: NullableString(),
    intro_html: NullableString(),
    scope_html: NullableString(),
    terms_html: NullableString(),
    closing_html: NullableString(),
  }),
  signature: SignatureSchema,
  pdf_url: Type.String({ description: 'API path; GET it with the key for the PDF' }),
  link: Type.Object({
    has_link: Type.Boolean(),
    enabled: Type.Boolean(),
    expires_on: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
    active: Type.Boolean({ description: 'The customer can open it: on, not expired, not void' }),
    preview_url: Type.String({
      description: "The office's preview of the customer page: not counted as a view, no accept form",
    }),
  }),
  sections: SectionsSchema,
  approval: Type.Object({
    requested_by_user_id: Nullable(Type.Integer()),
    decided_by_user_id: Nullable(Type.Integer()),
    decided_at: NullableInstant(),
    note: NullableString(),
  }),
});

export type ProposalObject = Static<typeof ProposalSchema>;
export type ProposalSummary = Static<typeof ProposalSummarySchema>;
export type SignatureObject = Static<typeof SignatureSchema>;

export const OneProposal = One(ProposalSchema);
export const ProposalList = ListOf(ProposalSummarySchema);
export const ProposalParams = Type.Object({ id: RecordId() });

const CustomSectionInput = Type.Object(
  {
    id: Type.Optional(Type.String({ pattern: '^[a-z0-9_-]{1,40}$', description: 'Made from the title when left out' })),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    body: Type.Optional(Nullable(Type.String({ maxLength: 20_000, description: 'Plain text' }))),
    items: Type.Optional(Type.Array(ItemInput, { maxItems: TERMS_ITEMS_MAX })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateProposalBody = Body({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  client_name: Nullable(Type.String({ maxLength: 200 })),
  client_email: Nullable(Type.String({ maxLength: 254 })),
  client_company: Nullable(Type.String({ maxLength: 200 })),
  valid_until: Type.Unsafe<string | null>({ description: 'YYYY-MM-DD or null' }),
  cover_html: Html,
  intro_html: Html,
  scope_html: Html,
  terms_html: Html,
  closing_html: Html,
  accent_color: Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Hex colour, #RRGGBB' }),
  about_us: Type.Object(
    { title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), body_html: Type.Optional(Html) },
    { additionalProperties: false, description: 'body_html is intro_html' },
  ),
  scope: Type.Object(
    {
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      intro: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
      notes_html: Type.Optional(Html),
    },
    { additionalProperties: false, description: 'notes_html is scope_html' },
  ),
  terms: Type.Object(
    {
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      body_html: Type.Optional(Html),
      footer: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      items: Type.Optional(Type.Array(ItemInput, { maxItems: TERMS_ITEMS_MAX, description: 'Replaces the list' })),
      reset: Type.Optional(Type.Boolean({ description: 'true restores the starter items' })),
    },
    { additionalProperties: false, description: 'body_html is terms_html' },
  ),
  custom_sections: Type.Array(CustomSectionInput, {
    maxItems: CUSTOM_SECTIONS_MAX,
    description: 'Replaces the custom sections (up to 32)',
  }),
  section_order: Type.Array(Type.String({ maxLength: 60 }), { maxItems: 60 }),
  pages: SwitchesInput(PAGE_IDS, 'Page id to true or false'),
  display: SwitchesInput(DISPLAY_SWITCHES, 'Display switch to true or false'),
  deposit_percent: Nullable(Type.Number({ description: '0 to 100, at most 2 decimals' })),
  payment_due_days: Nullable(Type.Integer({ minimum: 0, maximum: 365 })),
  photo_ids: Type.Array(RecordId(), {
    maxItems: 200,
    uniqueItems: true,
    description: '[] is every photo marked for reports',
  }),
  photo_layout: StringEnum(PHOTO_LAYOUTS),
  show_photos: Type.Boolean(),
});
export type UpdateProposalInput = Static<typeof UpdateProposalBody>;

export const ShareLinkBody = Body({
  regenerate: Type.Boolean({ description: 'Replace the link: the old one stops' }),
});

export const LinkBody = Body({
  enabled: Type.Boolean({ description: 'false turns the link off; true turns the same link on' }),
  expires_on: Type.Unsafe<string | null>({ description: 'YYYY-MM-DD or null' }),
});

export const ApplyTemplateBody = Body(
  { template_id: Type.String({ minLength: 1, maxLength: 60 }) },
  { required: ['template_id'] },
);

export const SendBody = Body({
  to: Type.String({ maxLength: 254, description: "Another recipient instead of the proposal's client_email" }),
  message: Type.String({ maxLength: 5000, description: 'A note shown above the link in the email' }),
  start_follow_up_sequence: Type.Boolean({
    description: "Start the workspace's follow-up sequence on the job (default true when the sequence is on)",
  }),
});

export const ApprovalBody = Body(
  {
    decision: StringEnum(['approve', 'reject'] as const),
    note: Type.String({ maxLength: 2000 }),
  },
  { required: ['decision'] },
);

export const VoidBody = Type.Object({}, { additionalProperties: false });

export const TemplateSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: NullableString(),
  starter: Type.Boolean(),
  layout: Type.Object({
    section_order: Type.Array(Type.String()),
    pages: Switches(PAGE_IDS, 'Which pages are on'),
    display: Switches(DISPLAY_SWITCHES, 'Display switches'),
    photo_layout: StringEnum(PHOTO_LAYOUTS),
    show_photos: Type.Boolean(),
    accent_color: Type.String(),
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type TemplateObject = Static<typeof TemplateSchema>;

export const SaveTemplateBody = Body(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Nullable(Type.String({ maxLength: 500 })),
    proposal_id: RecordId({ description: "Save this proposal's layout, pages and display switches" }),
  },
  { required: ['name', 'proposal_id'] },
);
