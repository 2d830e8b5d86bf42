// A change order to the wire: dollars, Z times, its figures (live from its estimate while a priced
// one is open: figures.ts), the kind's and stage's labels. The list rows leave out the workflow
// (stage, sending, the decision and signature, the revised contract and lines).
import type { ChangeOrderAuditEvent } from '#db/tables.ts';
import { auditEntry } from '#platform/signing/audit.ts';
import { consentText } from '#platform/signing/e-sign.ts';
import type { ChangeOrderStage } from '#platform/workspace.ts';
import { centsToDollars } from '#platform/money.ts';
import { storedOneOf } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import type { JobMoney } from './contract.ts';
import {
  type CostCodeLine,
  type Figures,
  figuresFromEstimate,
  followsEstimate,
  storedFigures,
  wireLines,
} from './figures.ts';
import type { ChangeOrderRow } from './repo.ts';
import {
  CHANGE_ORDER_KINDS,
  CHANGE_ORDER_STATUSES,
  type ChangeOrderObject,
  type ChangeOrderSummary,
  KIND_LABELS,
  PRICING_MODES,
} from './schemas.ts';
import { stageLabel } from './stages.ts';

/** A priced change order still following an estimate that exists. */
const live = (row: ChangeOrderRow) => followsEstimate(row) && row.est_updated_at !== null;

/** The change order's figures as they stand. */
export function figuresOf(row: ChangeOrderRow): Figures {
  if (!live(row)) return storedFigures(row);
  return figuresFromEstimate(row, {
    price_cents: row.est_price_cents,
    tax_cents: row.est_tax_cents,
    cost_cents: row.est_cost_cents,
  });
}

/** Its last change: its own, or (while its figures follow the estimate) the estimate's if later. */
function updatedAtOf(row: ChangeOrderRow): string {
  return live(row) && row.est_updated_at! > row.updated_at ? row.est_updated_at! : row.updated_at;
}

export function changeOrderSummary(row: ChangeOrderRow): ChangeOrderSummary {
  const kind = storedOneOf(CHANGE_ORDER_KINDS, row.kind);
  const f = figuresOf(row);
  return {
    id: row.id,
    co_number: row.co_number,
    kind,
    kind_label: KIND_LABELS[kind],
    pricing_mode: row.pricing_mode === null ? null : storedOneOf(PRICING_MODES, row.pricing_mode),
    title: row.title,
    description: row.description,
    status: storedOneOf(CHANGE_ORDER_STATUSES, row.status),
    job_id: row.job_id,
    job_number: row.job_number,
    job_name: row.job_name,
    customer: row.customer,
    customer_name: row.customer_name,
    customer_email: row.customer_email,
    amount_delta: centsToDollars(f.amount_cents),
    tax_delta: centsToDollars(f.tax_cents),
    cost_delta: centsToDollars(f.cost_cents),
    days_delta: row.days_delta,
    ep_estimate_id: row.ep_estimate_id,
    est_proposal_id: row.est_proposal_id,
    source: row.source,
    created_at: zWire(row.created_at),
    updated_at: zWire(updatedAtOf(row)),
  };
}

export interface ObjectParts {
  stages: readonly ChangeOrderStage[];
  lines: CostCodeLine[];
  /** The job's contract and budget with this change order (null when declined or void). */
  revised: JobMoney | null;
  shareUrl: string | null;
  trail: ChangeOrderAuditEvent[];
}

export function changeOrderObject(row: ChangeOrderRow, parts: ObjectParts): ChangeOrderObject {
  return {
    ...changeOrderSummary(row),
    stage: row.stage,
    stage_label: stageLabel(parts.stages, row.stage),
    revised_contract: centsToDollars(parts.revised?.contract_cents ?? null),
    revised_budget: centsToDollars(parts.revised?.budget_cents ?? null),
    lines: wireLines(parts.lines),
    approved_at: zWire(row.approved_at),
    approval_source: row.approval_source,
    signature_name: row.signature_name,
    signed_at: zWire(row.signed_at),
    declined_at: zWire(row.declined_at),
    voided_at: zWire(row.voided_at),
    sent_at: zWire(row.sent_at),
    decision_comment: row.decision_comment,
    share_url: parts.shareUrl,
    signature: {
      consent_version: row.consent_version,
      consent_text: row.consent_version === null ? null : consentText('change order'),
      document_sha256: row.document_sha256,
      drawn_signature: row.signature_image !== null,
      audit_trail: parts.trail.map(auditEntry),
    },
    exported_at: zWire(row.exported_at),
    export_ref: row.export_ref,
  };
}

/** The export's row (document 3, Export dataset rows: change_orders). */
export function changeOrderExportRow(row: ChangeOrderRow) {
  const s = changeOrderSummary(row);
  return {
    id: s.id,
    job_id: s.job_id,
    number: s.co_number,
    title: s.title,
    kind: s.kind,
    status: s.status,
    source: s.source,
    stage: row.stage,
    amount_delta: s.amount_delta,
    tax_delta: s.tax_delta,
    cost_delta: s.cost_delta,
    days_delta: s.days_delta,
    ep_estimate_id: s.ep_estimate_id,
    decision_comment: row.decision_comment,
    sent_at: zWire(row.sent_at),
    signed_at: zWire(row.signed_at),
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
