// The customer's side of a change-order link (its page is src/pages/change-order.ts; document 3,
// Change order state table): which change order a token opens, counting the customer's opens,
// and the two answers: approve with a typed name, the consent to sign electronically and an
// optional drawn signature (approved, approval_source customer, signature_name, signed_at), or
// decline with an optional comment. The audit trail is the proposals': opened, consented, signed
// and declined rows with UTC time, IP and user agent. No API key: the token is the credential.
//
// Approving signs the exact document the page showed: the page sends the hash it rendered, and the
// document is built again inside the approval's transaction (a priced change order's figures
// follow its estimate, which may have changed); a different one is refused ("review it again").
// Every answer is a conditional UPDATE on the status it leaves (moves.ts), so a second answer (two
// tabs, the office deciding meanwhile) finds the first one standing.
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import { canonicalJson, documentHash } from '#estimating/index.ts';
import { inFirmTransaction, inTransaction } from '#platform/context.ts';
import {
  BAD_SIGNATURE_MESSAGE,
  CONSENT_VERSION,
  consentText,
  auditStep,
  pngDataUrl,
  sameText,
  signaturePng,
  signerNameProblem,
  type Visitor,
} from '#platform/e-sign.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import { now } from '#platform/time.ts';
import { settingsOf } from '#platform/workspace.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import type { ChangeOrderAuditEvent } from '#db/tables.ts';
import { approveIn, declineIn } from './moves.ts';
import { type ChangeOrderRow, changeOrderById, changeOrderByTokenHash } from './repo.ts';
import { COMMENT_MAX } from './schemas.ts';
import { figuresOf } from './serialize.ts';
import { revisedOf } from './service.ts';
import { changeOrderStages, firstStage } from './stages.ts';

export interface Sender {
  firmId: number;
  firmName: string;
}

export type ChangeOrderVisit =
  | { state: 'unknown' }
  | { state: 'gone'; why: RetiredReason }
  | { state: 'void'; sender: Sender }
  | { state: 'open'; changeOrder: ChangeOrderRow; sender: Sender };

export async function visitChangeOrder(database: Database, token: string): Promise<ChangeOrderVisit> {
  const hash = linkTokenHash(token);
  if (hash === null) return { state: 'unknown' };
  const co = await changeOrderByTokenHash(database.db, hash);
  if (!co) return deadLinkVisit(database.db, 'change_order', token);
  const firm = await database.db
    .selectFrom('firms')
    .select('name')
    .where('id', '=', co.firm_id)
    .executeTakeFirstOrThrow();
  const sender = { firmId: co.firm_id, firmName: firm.name };
  if (co.status === 'void') return { state: 'void', sender };
  return { state: 'open', changeOrder: co, sender };
}

/** What the customer reads and signs: the change order's terms as they stand now. */
export interface ChangeOrderDocument {
  firm: string;
  number: number;
  title: string;
  description: string;
  job: string;
  customer_name: string | null;
  amount_delta_cents: number;
  tax_delta_cents: number;
  days_delta: number;
  /** The job's contract value with this change order, when the job has one. */
  revised_contract_cents: number | null;
  consent_text: string;
  consent_version: string;
}

export async function changeOrderDocument(
  db: Executor,
  co: ChangeOrderRow,
  firmName: string,
): Promise<ChangeOrderDocument> {
  const f = figuresOf(co);
  const revised = await revisedOf(db, co);
  return {
    firm: firmName,
    number: co.co_number,
    title: co.title,
    description: co.description,
    job: co.job_name,
    customer_name: co.customer_name,
    amount_delta_cents: f.amount_cents,
    tax_delta_cents: f.tax_cents,
    days_delta: co.days_delta,
    revised_contract_cents: revised?.contract_cents ?? null,
    consent_text: consentText('change order'),
    consent_version: CONSENT_VERSION,
  };
}

function auditRow(co: ChangeOrderRow, kind: ChangeOrderAuditEvent['kind'], at: string, who: Visitor, data?: object) {
  return { firm_id: co.firm_id, change_order_id: co.id, ...auditStep(kind, at, who, data) };
}

/** A customer's open: counts it and appends `opened`. Answers the change order as it now is. */
export async function recordOpen(database: Database, co: ChangeOrderRow, who: Visitor): Promise<ChangeOrderRow> {
  return inTransaction(database, async (trx) => {
    const t = now();
    await trx
      .updateTable('change_orders')
      .set((eb) => ({
        view_count: eb('view_count', '+', 1),
        last_viewed_at: t,
        first_viewed_at: eb.fn.coalesce('first_viewed_at', eb.val(t)),
      }))
      .where('id', '=', co.id)
      .execute();
    await trx
      .insertInto('change_order_audit_events')
      .values(auditRow(co, 'opened', t, who))
      .execute();
    return changeOrderById(trx, co.id);
  });
}

/** Only a sent change order takes the customer's answer (a draft is still being prepared). */
export const awaitsAnswer = (co: Pick<ChangeOrderRow, 'status'>) => co.status === 'sent';
const decided = (co: Pick<ChangeOrderRow, 'status'>) => co.status === 'approved' || co.status === 'declined';

export interface ApproveForm {
  signatureName: string;
  consent: boolean;
  /** The drawn signature as posted (a PNG data URL), or '' for none. */
  signature: string;
  /** The document hash the page was rendered with. */
  documentHash: string;
}

export type AnswerResult =
  | { result: 'answered' }
  | { result: 'decided' }
  | { problem: 'invalid'; message: string }
  | { problem: 'not_open' }
  | { problem: 'changed' };

async function stageFor(db: Executor, firmId: number, meaning: 'approved' | 'declined'): Promise<string> {
  const firm = await db.selectFrom('firms').select('settings').where('id', '=', firmId).executeTakeFirstOrThrow();
  return firstStage(changeOrderStages(settingsOf(firm)), meaning);
}

export async function approveByCustomer(
  database: Database,
  sender: Sender,
  co: ChangeOrderRow,
  form: ApproveForm,
  who: Visitor,
): Promise<AnswerResult> {
  if (decided(co)) return { result: 'decided' };
  if (!awaitsAnswer(co)) return { problem: 'not_open' };
  const nameProblem = signerNameProblem(form.signatureName);
  if (nameProblem) return { problem: 'invalid', message: nameProblem };
  if (!form.consent) return { problem: 'invalid', message: 'Tick the box to agree to sign electronically.' };
  const png = await signaturePng(form.signature);
  if (png === 'bad') return { problem: 'invalid', message: BAD_SIGNATURE_MESSAGE };
  const name = form.signatureName.trim();
  return inFirmTransaction(database, co.firm_id, async (trx) => {
    const fresh = await changeOrderById(trx, co.id);
    if (decided(fresh)) return { result: 'decided' as const };
    if (!awaitsAnswer(fresh)) return { problem: 'not_open' as const };
    const document = await changeOrderDocument(trx, fresh, sender.firmName);
    const sha256 = documentHash(document);
    if (!sameText(form.documentHash, sha256)) return { problem: 'changed' as const };
    const approved = await approveIn(trx, fresh, await stageFor(trx, fresh.firm_id, 'approved'), {
      source: 'customer',
      signatureName: name,
      consentVersion: CONSENT_VERSION,
      signatureImage: png === null ? null : pngDataUrl(png),
      signedDocument: canonicalJson(document),
      documentSha256: sha256,
    });
    if (!approved) return { result: 'decided' as const };
    const t = approved.signed_at!;
    await trx
      .insertInto('change_order_audit_events')
      .values([
        auditRow(fresh, 'consented', t, who, { consent_version: CONSENT_VERSION }),
        auditRow(fresh, 'signed', t, who, {
          signature_name: name,
          document_sha256: sha256,
          drawn_signature: png !== null,
        }),
      ])
      .execute();
    return { result: 'answered' as const };
  });
}

export async function declineByCustomer(
  database: Database,
  co: ChangeOrderRow,
  commentText: string,
  who: Visitor,
): Promise<AnswerResult> {
  if (decided(co)) return { result: 'decided' };
  if (!awaitsAnswer(co)) return { problem: 'not_open' };
  const comment = commentText.trim();
  if (Array.from(comment).length > COMMENT_MAX)
    return {
      problem: 'invalid',
      message: `The comment can be at most ${COMMENT_MAX.toLocaleString('en-US')} characters.`,
    };
  return inFirmTransaction(database, co.firm_id, async (trx) => {
    const fresh = await changeOrderById(trx, co.id);
    if (decided(fresh)) return { result: 'decided' as const };
    if (!awaitsAnswer(fresh)) return { problem: 'not_open' as const };
    const declined = await declineIn(trx, fresh, await stageFor(trx, fresh.firm_id, 'declined'), {
      source: 'customer',
      comment: comment === '' ? null : comment,
    });
    if (!declined) return { result: 'decided' as const };
    await trx
      .insertInto('change_order_audit_events')
      .values(auditRow(fresh, 'declined', declined.declined_at!, who, { comment: comment === '' ? null : comment }))
      .execute();
    return { result: 'answered' as const };
  });
}
