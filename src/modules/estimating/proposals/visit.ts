// The customer's side of a proposal link (its page is page.ts beside it; document 3, Proposal
// state table): which proposal a token opens and in what state, counting a customer's open, and
// the two answers a customer can give. No API key: the token is the credential.
//
// - An open by the customer counts (view_count, last_viewed_at, first_viewed_at once) and appends
//   an `opened` row to the audit trail; the first open of a sent proposal moves it to viewed with
//   one proposal_viewed. An open of a draft's link counts nothing: the trail alone keeps it
//   (`before_send`), so first_viewed_at is never before sent_at. The office's preview
//   (`?preview=`, a second token) changes nothing.
// - Accepting signs the exact document the page showed, through the signing kit
//   (platform/signing/answer.ts): the executed PDF is made and stored first (storage is never called
//   inside a transaction), then one transaction under the workspace lock records its file, the
//   signature, the audit rows, the job's move and proposal_accepted. A proposal decided meanwhile
//   (two tabs, two signers) keeps the first answer; the second's stored PDF is removed again.
// - Declining records the optional reason, the audit row and proposal_declined.
// - Either answer alerts the office (crm's customer alerts: the job's assignee, else the owners) by
//   mail queued in the answer's transaction, with the proposal's figures.
// Every transition is a conditional UPDATE on the status it leaves, so each event fires exactly once.
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import type { Proposal } from '#db/tables.ts';
import { listStages, moveJobIn, queueCustomerAlert } from '#crm/index.ts';
import { recordServiceFileIn, storeFileObject } from '#field/index.ts';
import { actingAs } from '#platform/auth.ts';
import type { ServiceContext } from '#platform/context.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import type { Deps } from '#platform/deps.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { can } from '#platform/permissions.ts';
import {
  type AnswerResult,
  declineDocument,
  recordOpen as recordDocumentOpen,
  signedKind,
  type SignForm,
  signDocument,
} from '#platform/signing/answer.ts';
import type { Visitor } from '#platform/signing/audit.ts';
import { documentHash } from '#platform/signing/document-hash.ts';
import { pngDataUrl, sameText } from '#platform/signing/e-sign.ts';
import { todayIn } from '#platform/time-zone.ts';
import { zWire } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';
import { formatMoney } from './document.ts';
import { recordProposalEvent } from './events.ts';
import { linkExpired, previewToken } from './link.ts';
import { type LoadedDocument, loadDocument } from './load.ts';
import { renderLoadedPdf } from './pdf-route.ts';
import { depositCents } from './priced.ts';
import { proposalByTokenHash } from './repo.ts';
import { sectionsOf } from './sections.ts';

export { SIGNER_EMAIL_MAX } from '#platform/signing/answer.ts';
export const DECLINE_REASON_MAX = 2000;

export interface Sender {
  firmName: string;
  timezone: string;
}

export type ProposalVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason | 'expired' }
  | { state: 'void'; sender: Sender }
  | { state: 'open'; proposal: Proposal; sender: Sender; preview: boolean };

/**
 * The proposal a token opens. `preview` is the `?preview=` value, if any: the right one (compared
 * in constant time) makes an office preview, which also shows a link the customer can no longer
 * open (off or expired), so the office can check it before turning it on again.
 */
export async function visitProposal(
  database: Database,
  deps: Pick<Deps, 'links'>,
  token: string,
  preview?: string,
): Promise<ProposalVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const proposal = await proposalByTokenHash(database.db, hash);
  if (!proposal) return deadLinkVisit(database.db, 'proposal', token);
  const firm = await database.db
    .selectFrom('firms')
    .select(['name', 'timezone'])
    .where('id', '=', proposal.firm_id)
    .executeTakeFirstOrThrow();
  const sender = { firmName: firm.name, timezone: firm.timezone };
  const isPreview = preview !== undefined && sameText(preview, await previewToken(deps, proposal));
  if (proposal.status === 'void') return { state: 'void', sender };
  if (!isPreview) {
    if (proposal.link_enabled !== 1) return { state: 'gone', why: 'disabled' };
    if (linkExpired(proposal, todayIn(firm.timezone))) return { state: 'gone', why: 'expired' };
  }
  return { state: 'open', proposal, sender, preview: isPreview };
}

async function jobStatus(db: Executor, jobId: number): Promise<string> {
  const job = await db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow();
  return job.status;
}

/** How the signing kit reads, answers and audits a proposal. */
const proposalKind = signedKind({
  document: 'proposal',
  table: 'proposals',
  // The counts are on the proposal object, so an open is a change updated_after sees.
  openTouchesRecord: true,
  reread: (db, id) => db.selectFrom('proposals').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  // Document 3: accept and decline only from sent or viewed.
  answersFrom: ['sent', 'viewed'],
  answered: ['accepted', 'rejected'],
  trail: { table: 'proposal_audit_events', owner: (p: Proposal) => ({ firm_id: p.firm_id, proposal_id: p.id }) },
});

/** The states a customer may answer from. */
export const awaitsAnswer = proposalKind.awaitsAnswer;

/**
 * A customer's open: counts it, appends `opened`, and moves a sent proposal to viewed. The status
 * change is its own conditional UPDATE (WHERE status = 'sent'), so of two first opens at once only
 * one moves it and only that one records proposal_viewed. Answers the proposal as it now is.
 */
export function recordOpen(database: Database, proposal: Proposal, who: Visitor): Promise<Proposal> {
  return recordDocumentOpen(database, proposalKind, proposal, who, async (trx, p, at) => {
    const viewed = await trx
      .updateTable('proposals')
      .set({ status: 'viewed', updated_at: at })
      .where('id', '=', p.id)
      .where('status', '=', 'sent')
      .returningAll()
      .executeTakeFirst();
    if (!viewed) return;
    const status = await jobStatus(trx, viewed.job_id);
    await recordProposalEvent(trx, {
      type: 'proposal_viewed',
      proposal: viewed,
      actorUserId: null,
      jobStatus: { previous: status, current: status },
    });
  });
}

/** The hash of the document the page shows now: what its accept form carries (acceptProposal checks it). */
export async function pageDocumentHash(db: Executor, p: Proposal): Promise<string> {
  return documentHash((await loadDocument(db, p)).document);
}

/** The API calls that read a proposal and its PDF (the signed one once accepted). */
const proposalApi = (p: Proposal) => [`GET /v1/proposals/${p.id}`, `GET /v1/proposals/${p.id}/pdf`];

/** "proposal 1042": the number the customer saw. */
const proposalName = (p: Proposal) => `proposal ${p.doc_number ?? p.id}`;

/** Past its valid_until (a date in the workspace's time zone; the offer stands through that day). */
export const offerLapsed = (p: Pick<Proposal, 'valid_until'>, timezone: string) =>
  p.valid_until !== null && p.valid_until < todayIn(timezone);

// ---- accepting -----------------------------------------------------------------------------

/**
 * Who the executed PDF is stored as, and who moves the job: the teammate who sent the proposal,
 * else who made it; when that user was removed, or sees only their own jobs (the job may have been
 * reassigned since, and the customer's signature must not fail on who may see it), the owner.
 */
async function actingUserId(db: Executor, p: Proposal): Promise<number> {
  for (const id of [p.sent_by_user_id, p.created_by_user_id]) {
    if (id === null) continue;
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('firm_id', '=', p.firm_id)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (user && !can(user, 'sees_own_jobs_only')) return user.id;
  }
  const firm = await db
    .selectFrom('firms')
    .select('owner_user_id')
    .where('id', '=', p.firm_id)
    .executeTakeFirstOrThrow();
  if (firm.owner_user_id === null) throw new Error(`workspace ${p.firm_id} has no owner to store the signed proposal`);
  return firm.owner_user_id;
}

/** The stage an acceptance moves the job to: the workspace's setting, else the first won stage. */
async function acceptanceStage(ctx: ServiceContext, trx: Executor): Promise<string | null> {
  const stages = await listStages(trx, ctx.auth.firm.id);
  const chosen = settingsOf(ctx.auth.firm).proposal_acceptance_stage;
  if (chosen !== null) return stages.some((s) => s.key === chosen) ? chosen : null;
  return stages.find((s) => s.type === 'won')?.key ?? null;
}

/**
 * Accepts with the customer's signature (the form asks for an email too): the executed PDF, made
 * from the signed document, is stored first and recorded as the job's file in the acceptance's
 * transaction, with the signature, the audit rows, the job's move and proposal_accepted.
 */
export async function acceptProposal(
  database: Database,
  deps: Deps,
  proposal: Proposal,
  form: SignForm,
  who: Visitor,
): Promise<AnswerResult<Proposal>> {
  const ctx: ServiceContext = {
    database,
    deps,
    auth: await actingAs(database.db, proposal.firm_id, await actingUserId(database.db, proposal)),
  };
  let loaded: LoadedDocument | null = null;
  return signDocument(database, deps.storage, proposalKind, proposal, form, who, {
    refuse: async (p) => (offerLapsed(p, ctx.auth.firm.timezone) ? { problem: 'lapsed' } : null),
    document: async (db, p) => {
      loaded = await loadDocument(db, p);
      return loaded.document;
    },
    storeCopy: async (p, _document, signature) => {
      const pdf = await renderLoadedPdf(deps.storage, loaded!, {
        signer_name: signature.name,
        signer_email: signature.email ?? '',
        signed_at: zWire(signature.signedAt),
        document_sha256: signature.documentSha256,
        consent_version: signature.consentVersion,
        image_png: signature.png,
      });
      return storeFileObject(ctx, pdf, 'application/pdf', `Proposal ${p.doc_number ?? p.id} - signed.pdf`);
    },
    write: async (trx, p, signature, copy) => {
      const fileId = await recordServiceFileIn(trx, ctx, copy!, {
        jobId: p.job_id,
        documentType: 'executed_proposal',
        source: 'proposal',
        description: `Signed by ${signature.name} (${signature.email})`,
      });
      const accepted = await trx
        .updateTable('proposals')
        .set({
          status: 'accepted',
          accepted_at: signature.signedAt,
          signer_name: signature.name,
          signer_email: signature.email,
          signed_at: signature.signedAt,
          consent_version: signature.consentVersion,
          signature_image: signature.png === null ? null : pngDataUrl(signature.png),
          signed_document: signature.signedDocument,
          document_sha256: signature.documentSha256,
          executed_file_id: fileId,
          updated_at: signature.signedAt,
        })
        .where('id', '=', p.id)
        .where('status', 'in', ['sent', 'viewed'])
        .returningAll()
        .executeTakeFirst();
      if (!accepted) return undefined;
      const job = await trx.selectFrom('jobs').selectAll().where('id', '=', accepted.job_id).executeTakeFirstOrThrow();
      const target = await acceptanceStage(ctx, trx);
      if (target !== null && target !== job.status) await moveJobIn(ctx, trx, job, target);
      const moved = await jobStatus(trx, job.id);
      await recordProposalEvent(trx, {
        type: 'proposal_accepted',
        proposal: accepted,
        actorUserId: null,
        jobStatus: { previous: job.status, current: moved },
      });
      const deposit = depositCents(accepted.total_cents, sectionsOf(accepted.sections).deposit_percent);
      await queueCustomerAlert(trx, deps.mail, {
        action: 'proposal_accepted',
        firmId: accepted.firm_id,
        jobId: accepted.job_id,
        ref: `proposal:${accepted.id}`,
        did: `accepted ${proposalName(accepted)}`,
        at: signature.signedAt,
        facts: [
          ['Title', accepted.title],
          ['Total', formatMoney(accepted.total_cents)],
          ['Deposit due', deposit === null || deposit === 0 ? null : formatMoney(deposit)],
          ['Signed by', `${signature.name} (${signature.email})`],
          ['Job stage', moved === job.status ? null : `${job.status} → ${moved}`],
        ],
        api: proposalApi(accepted),
      });
      return {
        record: accepted,
        auditData: { signer_name: signature.name, signer_email: signature.email, executed_file_id: fileId },
      };
    },
  });
}

// ---- declining -----------------------------------------------------------------------------

/** Declines with an optional reason: rejected, the audit row, proposal_declined and the office's alert. */
export function declineProposal(
  database: Database,
  mail: Pick<MailTransport, 'fromAddress'>,
  proposal: Proposal,
  reason: string,
  who: Visitor,
): Promise<AnswerResult<Proposal>> {
  return declineDocument(database, proposalKind, proposal, reason, who, {
    text: { name: 'reason', max: DECLINE_REASON_MAX },
    write: async (trx, p, text, at) => {
      const rejected = await trx
        .updateTable('proposals')
        .set({ status: 'rejected', rejected_at: at, decline_reason: text, updated_at: at })
        .where('id', '=', p.id)
        .where('status', 'in', ['sent', 'viewed'])
        .returningAll()
        .executeTakeFirst();
      if (!rejected) return undefined;
      const status = await jobStatus(trx, rejected.job_id);
      await recordProposalEvent(trx, {
        type: 'proposal_declined',
        proposal: rejected,
        actorUserId: null,
        jobStatus: { previous: status, current: status },
      });
      await queueCustomerAlert(trx, mail, {
        action: 'proposal_declined',
        firmId: rejected.firm_id,
        jobId: rejected.job_id,
        ref: `proposal:${rejected.id}`,
        did: `declined ${proposalName(rejected)}`,
        at,
        said: text,
        facts: [
          ['Title', rejected.title],
          ['Total', formatMoney(rejected.total_cents)],
          ['Reason', text === null ? 'None given' : null],
        ],
        api: proposalApi(rejected),
      });
      return rejected;
    },
  });
}
