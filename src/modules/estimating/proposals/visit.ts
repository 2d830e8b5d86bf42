// The customer's side of a proposal link (its page is src/pages/proposal.ts; document 3, Proposal
// state table): which proposal a token opens and in what state, counting a customer's open, and
// the two answers a customer can give. No API key: the token is the credential.
//
// - An open by the customer counts (view_count, last_viewed_at, first_viewed_at once) and appends
//   an `opened` row to the audit trail; the first open of a sent proposal moves it to viewed with
//   one proposal_viewed. The office's preview (`?preview=`, a second token) changes nothing.
// - Accepting signs the exact document the page showed: the page sends the hash it rendered, and a
//   document that changed since is refused ("review it again"). The executed PDF is made and stored
//   first (storage is never called inside a transaction), then one transaction records the
//   signature, the audit rows, the job's move and proposal_accepted. A proposal decided meanwhile
//   (two tabs, two signers) keeps the first answer; the second's stored PDF is removed again.
// - Declining records the optional reason, the audit row and proposal_declined.
// Every transition is a conditional UPDATE on the status it leaves, so each event fires exactly once.
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import type { Proposal } from '#db/tables.ts';
import { listStages, moveJobIn } from '#crm/index.ts';
import { storeServiceFile } from '#field/index.ts';
import { actingAs } from '#platform/auth.ts';
import { inTransaction, inWorkspaceTransaction, type ServiceContext } from '#platform/context.ts';
import type { Deps } from '#platform/deps.ts';
import { looksLikeEmail } from '#platform/email-phone.ts';
import {
  BAD_SIGNATURE_MESSAGE,
  CONSENT_VERSION,
  auditStep,
  pngDataUrl,
  sameText,
  signaturePng,
  signerNameProblem,
  type Visitor,
} from '#platform/e-sign.ts';
import { can } from '#platform/permissions.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { now, zWire } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import { canonicalJson, documentHash } from './document.ts';
import { recordProposalEvent } from './events.ts';
import { linkExpired, previewToken } from './link.ts';
import { todayIn } from '#platform/time-zone.ts';
import { loadDocument } from './load.ts';
import { renderLoadedPdf } from './pdf-route.ts';
import { proposalByTokenHash } from './repo.ts';

export const SIGNER_EMAIL_MAX = 254;
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

function auditRow(
  p: Proposal,
  kind: 'opened' | 'consented' | 'signed' | 'declined',
  at: string,
  who: Visitor,
  data?: object,
) {
  return { firm_id: p.firm_id, proposal_id: p.id, ...auditStep(kind, at, who, data) };
}

/**
 * A customer's open: counts it, appends `opened`, and moves a sent proposal to viewed. The status
 * change is its own conditional UPDATE (WHERE status = 'sent'), so of two first opens at once only
 * one moves it and only that one records proposal_viewed. Answers the proposal as it now is.
 */
export async function recordOpen(database: Database, proposal: Proposal, who: Visitor): Promise<Proposal> {
  return inTransaction(database, async (trx) => {
    const t = now();
    await trx
      .updateTable('proposals')
      .set((eb) => ({
        view_count: eb('view_count', '+', 1),
        last_viewed_at: t,
        first_viewed_at: eb.fn.coalesce('first_viewed_at', eb.val(t)),
        updated_at: t,
      }))
      .where('id', '=', proposal.id)
      .execute();
    await trx
      .insertInto('proposal_audit_events')
      .values(auditRow(proposal, 'opened', t, who))
      .execute();
    const viewed = await trx
      .updateTable('proposals')
      .set({ status: 'viewed', updated_at: t })
      .where('id', '=', proposal.id)
      .where('status', '=', 'sent')
      .returningAll()
      .executeTakeFirst();
    if (viewed) {
      const status = await jobStatus(trx, viewed.job_id);
      await recordProposalEvent(trx, {
        type: 'proposal_viewed',
        proposal: viewed,
        actorUserId: null,
        jobStatus: { previous: status, current: status },
      });
      return viewed;
    }
    return trx.selectFrom('proposals').selectAll().where('id', '=', proposal.id).executeTakeFirstOrThrow();
  });
}

/** The states a customer may answer from (document 3: accept and decline only from sent or viewed). */
export const awaitsAnswer = (p: Pick<Proposal, 'status'>) => p.status === 'sent' || p.status === 'viewed';

/** Past its valid_until (a date in the workspace's time zone; the offer stands through that day). */
export const offerLapsed = (p: Pick<Proposal, 'valid_until'>, timezone: string) =>
  p.valid_until !== null && p.valid_until < todayIn(timezone);

// ---- accepting -----------------------------------------------------------------------------

export interface AcceptForm {
  signerName: string;
  signerEmail: string;
  consent: boolean;
  /** The drawn signature as posted (a PNG data URL), or '' for none. */
  signature: string;
  /** The document hash the page was rendered with. */
  documentHash: string;
}

export type AcceptProblem =
  | { problem: 'invalid'; message: string }
  | { problem: 'not_open' }
  | { problem: 'lapsed' }
  | { problem: 'changed' };

export type AcceptResult =
  | { result: 'accepted'; proposal: Proposal }
  | { result: 'decided'; proposal: Proposal }
  | AcceptProblem;

/** The form's rules, in the order the customer reads the form. */
function formProblem(form: AcceptForm): string | null {
  const nameProblem = signerNameProblem(form.signerName);
  if (nameProblem) return nameProblem;
  const email = form.signerEmail.trim();
  if (email === '') return 'Enter your email address.';
  if (email.length > SIGNER_EMAIL_MAX || !looksLikeEmail(email))
    return 'Enter a valid email address, like name@example.com.';
  if (!form.consent) return 'Tick the box to agree to sign electronically.';
  return null;
}

/**
 * Who the executed PDF is stored as: the teammate who sent the proposal, else who made it; when
 * that user was removed, or sees only their own jobs (the job may have been reassigned since, and
 * the customer's signature must not fail on who may see it), the workspace's owner.
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

export async function acceptProposal(
  database: Database,
  deps: Deps,
  proposal: Proposal,
  form: AcceptForm,
  who: Visitor,
): Promise<AcceptResult> {
  if (proposal.status === 'accepted' || proposal.status === 'rejected') return { result: 'decided', proposal };
  if (!awaitsAnswer(proposal)) return { problem: 'not_open' };
  const message = formProblem(form);
  if (message) return { problem: 'invalid', message };
  const png = await signaturePng(form.signature);
  if (png === 'bad') return { problem: 'invalid', message: BAD_SIGNATURE_MESSAGE };
  const db = database.db;
  const firm = await db
    .selectFrom('firms')
    .select('timezone')
    .where('id', '=', proposal.firm_id)
    .executeTakeFirstOrThrow();
  if (offerLapsed(proposal, firm.timezone)) return { problem: 'lapsed' };

  // The document as it is now: what the customer signs, and what the page's hash must match.
  const loaded = await loadDocument(db, proposal);
  const { document } = loaded;
  const sha256 = documentHash(document);
  if (!sameText(form.documentHash, sha256)) return { problem: 'changed' };

  const signedAt = now();
  const signer = { name: form.signerName.trim(), email: form.signerEmail.trim() };
  const pdf = await renderLoadedPdf(deps.storage, loaded, {
    signer_name: signer.name,
    signer_email: signer.email,
    signed_at: zWire(signedAt),
    document_sha256: sha256,
    consent_version: CONSENT_VERSION,
    image_png: png,
  });
  const ctx: ServiceContext = {
    database,
    deps,
    auth: await actingAs(db, proposal.firm_id, await actingUserId(db, proposal)),
  };
  const file = await storeServiceFile(ctx, {
    jobId: proposal.job_id,
    filename: `Proposal ${proposal.doc_number ?? proposal.id} - signed.pdf`,
    contentType: 'application/pdf',
    body: pdf,
    documentType: 'executed_proposal',
    source: 'proposal',
    description: `Signed by ${signer.name} (${signer.email})`,
  });

  let orphan: string | null = null;
  try {
    const outcome = await inWorkspaceTransaction(ctx, async (trx) => {
      const accepted = await trx
        .updateTable('proposals')
        .set({
          status: 'accepted',
          accepted_at: signedAt,
          signer_name: signer.name,
          signer_email: signer.email,
          signed_at: signedAt,
          consent_version: CONSENT_VERSION,
          signature_image: png === null ? null : pngDataUrl(png),
          signed_document: canonicalJson(document),
          document_sha256: sha256,
          executed_file_id: file.id,
          updated_at: signedAt,
        })
        .where('id', '=', proposal.id)
        .where('status', 'in', ['sent', 'viewed'])
        .returningAll()
        .executeTakeFirst();
      if (!accepted) {
        // Decided meanwhile: the first answer stands; this PDF's record goes now, its object after the commit.
        const row = await trx.selectFrom('files').select('storage_key').where('id', '=', file.id).executeTakeFirst();
        await trx.deleteFrom('files').where('id', '=', file.id).execute();
        orphan = row?.storage_key ?? null;
        const current = await trx
          .selectFrom('proposals')
          .selectAll()
          .where('id', '=', proposal.id)
          .executeTakeFirstOrThrow();
        return { result: 'decided' as const, proposal: current };
      }
      await trx
        .insertInto('proposal_audit_events')
        .values([
          auditRow(accepted, 'consented', signedAt, who, { consent_version: CONSENT_VERSION }),
          auditRow(accepted, 'signed', signedAt, who, {
            signer_name: signer.name,
            signer_email: signer.email,
            document_sha256: sha256,
            drawn_signature: png !== null,
            executed_file_id: file.id,
          }),
        ])
        .execute();
      const job = await trx.selectFrom('jobs').selectAll().where('id', '=', accepted.job_id).executeTakeFirstOrThrow();
      const target = await acceptanceStage(ctx, trx);
      if (target !== null && target !== job.status) await moveJobIn(ctx, trx, job, target);
      await recordProposalEvent(trx, {
        type: 'proposal_accepted',
        proposal: accepted,
        actorUserId: null,
        jobStatus: { previous: job.status, current: await jobStatus(trx, job.id) },
      });
      return { result: 'accepted' as const, proposal: accepted };
    });
    if (orphan !== null) await removeObjects(deps.storage, [orphan]);
    return outcome;
  } catch (err) {
    // Nothing was recorded: the stored PDF and its record go again (record first, then object).
    const row = await db.selectFrom('files').select('storage_key').where('id', '=', file.id).executeTakeFirst();
    if (row) {
      await db.deleteFrom('files').where('id', '=', file.id).execute();
      await removeObjects(deps.storage, [row.storage_key]);
    }
    throw err;
  }
}

// ---- declining -----------------------------------------------------------------------------

export type DeclineResult =
  | { result: 'declined'; proposal: Proposal }
  | { result: 'decided'; proposal: Proposal }
  | { problem: 'not_open' }
  | { problem: 'invalid'; message: string };

export async function declineProposal(
  database: Database,
  proposal: Proposal,
  reasonText: string,
  who: Visitor,
): Promise<DeclineResult> {
  if (proposal.status === 'accepted' || proposal.status === 'rejected') return { result: 'decided', proposal };
  if (!awaitsAnswer(proposal)) return { problem: 'not_open' };
  const reason = reasonText.trim();
  if (Array.from(reason).length > DECLINE_REASON_MAX)
    return {
      problem: 'invalid',
      message: `The reason can be at most ${DECLINE_REASON_MAX.toLocaleString('en-US')} characters.`,
    };
  return inTransaction(database, async (trx) => {
    const t = now();
    const rejected = await trx
      .updateTable('proposals')
      .set({ status: 'rejected', rejected_at: t, decline_reason: reason === '' ? null : reason, updated_at: t })
      .where('id', '=', proposal.id)
      .where('status', 'in', ['sent', 'viewed'])
      .returningAll()
      .executeTakeFirst();
    if (!rejected) {
      const current = await trx
        .selectFrom('proposals')
        .selectAll()
        .where('id', '=', proposal.id)
        .executeTakeFirstOrThrow();
      return { result: 'decided' as const, proposal: current };
    }
    await trx
      .insertInto('proposal_audit_events')
      .values(auditRow(rejected, 'declined', t, who, { reason: reason === '' ? null : reason }))
      .execute();
    const status = await jobStatus(trx, rejected.job_id);
    await recordProposalEvent(trx, {
      type: 'proposal_declined',
      proposal: rejected,
      actorUserId: null,
      jobStatus: { previous: status, current: status },
    });
    return { result: 'declined' as const, proposal: rejected };
  });
}
