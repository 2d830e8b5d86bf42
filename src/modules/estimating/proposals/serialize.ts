// Proposals on the wire: summary rows (lists), the single object (with totals, content, signature,
// pdf_url, link and sections) and the signature status object.
import type { Proposal, ProposalAuditEvent } from '#db/tables.ts';
import { centsToDollars } from '#platform/money.ts';
import { storedOneOf } from '#platform/schemas.ts';
import { zWire } from '#platform/time.ts';
import { consentText } from '#platform/signing/e-sign.ts';
import { depositCents } from './priced.ts';
import {
  APPROVAL_STATUSES,
  PROPOSAL_STATUSES,
  type ProposalObject,
  type ProposalSummary,
  type SignatureObject,
} from './schemas.ts';
import { orderedSections, SECTION_BODY, sectionsOf } from './sections.ts';
import { contentOf } from './stored.ts';
import { auditEntry } from '#platform/signing/audit.ts';

export function proposalSummary(p: Proposal, shareUrl: string | null): ProposalSummary {
  return {
    id: p.id,
    estimate_id: p.estimate_id,
    job_id: p.job_id,
    doc_number: p.doc_number,
    status: storedOneOf(PROPOSAL_STATUSES, p.status),
    title: p.title,
    client_name: p.client_name,
    client_email: p.client_email,
    client_company: p.client_company,
    valid_until: p.valid_until,
    share_url: shareUrl,
    is_customer_copy: p.is_customer_copy === 1,
    approval_status: storedOneOf(APPROVAL_STATUSES, p.approval_status),
    template_id: p.template_id,
    sent_at: zWire(p.sent_at),
    sent_to: p.sent_to,
    first_viewed_at: zWire(p.first_viewed_at),
    last_viewed_at: zWire(p.last_viewed_at),
    accepted_at: zWire(p.accepted_at),
    rejected_at: zWire(p.rejected_at),
    voided_at: zWire(p.voided_at),
    view_count: p.view_count,
    created_at: zWire(p.created_at),
    updated_at: zWire(p.updated_at),
  };
}

export function signatureObject(p: Proposal, trail: ProposalAuditEvent[]): SignatureObject {
  return {
    proposal_id: p.id,
    proposal_status: storedOneOf(PROPOSAL_STATUSES, p.status),
    accepted_at: zWire(p.accepted_at),
    rejected_at: zWire(p.rejected_at),
    signer_name: p.signer_name,
    signer_email: p.signer_email,
    signed_at: zWire(p.signed_at),
    envelope: {
      document_sha256: p.document_sha256,
      consent_version: p.consent_version,
      // The text of the version recorded: one version, one text (consent.ts).
      consent_text: p.consent_version === null ? null : consentText('proposal'),
      drawn_signature: p.signature_image !== null,
      executed_file_id: p.executed_file_id,
      decline_reason: p.decline_reason,
      audit_trail: trail.map(auditEntry),
    },
  };
}

export function sectionsObject(p: Proposal): ProposalObject['sections'] {
  const s = sectionsOf(p.sections);
  const content = contentOf(p);
  return {
    about_us: { title: s.about_us.title, body_html: content[SECTION_BODY.about_us] },
    scope: { title: s.scope.title, intro: s.scope.intro, notes_html: content[SECTION_BODY.scope] },
    terms: {
      title: s.terms.title,
      body_html: content[SECTION_BODY.terms],
      footer: s.terms.footer,
      items: s.terms.items,
    },
    custom_sections: s.custom_sections,
    section_order: orderedSections(s),
    pages: s.pages,
    display: s.display,
    deposit_percent: s.deposit_percent,
    payment_due_days: s.payment_due_days,
    photo_ids: s.photo_ids,
    photo_layout: s.photo_layout,
    show_photos: s.show_photos,
    accent_color: s.accent_color,
  };
}

export function proposalObject(
  p: Proposal,
  parts: { shareUrl: string | null; link: ProposalObject['link']; trail: ProposalAuditEvent[] },
): ProposalObject {
  const sections = sectionsOf(p.sections);
  const deposit = depositCents(p.total_cents, sections.deposit_percent);
  return {
    ...proposalSummary(p, parts.shareUrl),
    totals: {
      subtotal: centsToDollars(p.subtotal_cents),
      tax: centsToDollars(p.tax_cents),
      total: centsToDollars(p.total_cents),
      optional_total: centsToDollars(p.optional_total_cents),
      deposit: deposit === null ? null : centsToDollars(deposit),
    },
    content: contentOf(p),
    signature: signatureObject(p, parts.trail),
    pdf_url: `/v1/proposals/${p.id}/pdf`,
    link: parts.link,
    sections: sectionsObject(p),
    approval: {
      requested_by_user_id: p.approval_requested_by_user_id,
      decided_by_user_id: p.approval_decided_by_user_id,
      decided_at: zWire(p.approval_decided_at),
      note: p.approval_note,
    },
  };
}
