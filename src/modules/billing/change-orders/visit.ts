// The customer's side of a change-order link (its page is page.ts beside it; document 3,
// Change order state table): which change order a token opens, counting the customer's opens,
// and the two answers: approve with a typed name, the consent to sign electronically and an
// optional drawn signature (approved, approval_source customer, signature_name, signed_at), or
// decline with an optional comment. The audit trail is the proposals': opened, consented, signed
// and declined rows with UTC time, IP and user agent. No API key: the token is the credential.
//
// The answers go through the signing kit (platform/signing/answer.ts): under the workspace lock,
// the exact document the page showed (built again under the lock: a priced change order's figures
// follow its estimate, which may have changed), and conditional updates on the status they leave
// (moves.ts), so a second answer (two tabs, the office deciding meanwhile) finds the first standing.
// Either answer alerts the office (crm's customer alerts) by mail queued in its transaction.
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import { queueCustomerAlert } from '#crm/index.ts';
import { deadLinkVisit, type RetiredReason } from '#platform/customer-links.ts';
import type { Deps } from '#platform/deps.ts';
import { linkTokenHash } from '#platform/link-tokens.ts';
import type { MailTransport } from '#platform/mail/transport.ts';
import { formatCents } from '#platform/money.ts';
import {
  type AnswerResult,
  declineDocument,
  recordOpen as recordDocumentOpen,
  signedKind,
  type SignForm,
  signDocument,
} from '#platform/signing/answer.ts';
import type { Visitor } from '#platform/signing/audit.ts';
import { CONSENT_VERSION, consentText, pngDataUrl } from '#platform/signing/e-sign.ts';
import { settingsOf } from '#platform/workspace.ts';
import { signedMoney } from './figures.ts';
import { approveIn, declineIn } from './moves.ts';
import { type ChangeOrderRow, changeOrderById, changeOrderByTokenHash } from './repo.ts';
import { COMMENT_MAX } from './schemas.ts';
import { figuresOf } from './serialize.ts';
import { revisedOf } from './service.ts';
import { changeOrderStages, firstStage } from './stages.ts';

export interface Sender {
  firmId: number;
  firmName: string;
  /** The workspace's time zone: the page shows times in it. */
  timezone: string;
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
    .select(['name', 'timezone'])
    .where('id', '=', co.firm_id)
    .executeTakeFirstOrThrow();
  const sender = { firmId: co.firm_id, firmName: firm.name, timezone: firm.timezone };
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
  /** The job's signed contract with this change order (job-contracts/revised.ts); null: none signed yet. */
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

/**
 * What the page shows: once the customer signed, the very document they signed (the record keeps
 * its canonical text), so the figures they read then are the ones they read afterwards; until then
 * the terms as they stand.
 */
export async function shownDocument(db: Executor, co: ChangeOrderRow, firmName: string): Promise<ChangeOrderDocument> {
  if (co.signed_document !== null) return JSON.parse(co.signed_document) as ChangeOrderDocument;
  return changeOrderDocument(db, co, firmName);
}

/** How the signing kit reads, answers and audits a change order. */
const changeOrderKind = signedKind({
  document: 'change order',
  table: 'change_orders',
  openTouchesRecord: false,
  reread: changeOrderById,
  // Only a sent change order takes the customer's answer (a draft is still being prepared).
  answersFrom: ['sent'],
  answered: ['approved', 'declined'],
  trail: {
    table: 'change_order_audit_events',
    owner: (co: ChangeOrderRow) => ({ firm_id: co.firm_id, change_order_id: co.id }),
  },
});

export const awaitsAnswer = changeOrderKind.awaitsAnswer;

/** A customer's open: counts it and appends `opened`. Answers the change order as it now is. */
export const recordOpen = (database: Database, co: ChangeOrderRow, who: Visitor): Promise<ChangeOrderRow> =>
  recordDocumentOpen(database, changeOrderKind, co, who);

async function stageFor(db: Executor, firmId: number, meaning: 'approved' | 'declined'): Promise<string> {
  const firm = await db.selectFrom('firms').select('settings').where('id', '=', firmId).executeTakeFirstOrThrow();
  return firstStage(changeOrderStages(settingsOf(firm)), meaning);
}

/** The figures an alert about a change order gives: its change and what it does to the job. */
function alertFacts(co: ChangeOrderRow): [string, string | null][] {
  const f = figuresOf(co);
  return [
    ['Change order', `#${co.co_number} ${co.title}`],
    [
      'Price change',
      `${signedMoney(f.amount_cents)}${f.tax_cents !== 0 ? ` (tax ${signedMoney(f.tax_cents)} included)` : ''}`,
    ],
    ['Schedule change', co.days_delta === 0 ? null : `${co.days_delta > 0 ? '+' : ''}${co.days_delta} days`],
  ];
}

const changeOrderApi = (co: ChangeOrderRow) => [`GET /v1/change-orders/${co.id}`];

/**
 * Approves with the customer's signature: approved, approval_source customer, signature_name and
 * signed_at, through the same approveIn as the office's approval.
 */
export function approveByCustomer(
  database: Database,
  deps: Pick<Deps, 'storage' | 'mail'>,
  sender: Sender,
  co: ChangeOrderRow,
  form: SignForm,
  who: Visitor,
): Promise<AnswerResult<ChangeOrderRow>> {
  return signDocument(database, deps.storage, changeOrderKind, co, form, who, {
    document: (db, row) => changeOrderDocument(db, row, sender.firmName),
    write: async (trx, row, signature) => {
      const approved = await approveIn(trx, row, await stageFor(trx, row.firm_id, 'approved'), {
        source: 'customer',
        signatureName: signature.name,
        signedAt: signature.signedAt,
        consentVersion: signature.consentVersion,
        signatureImage: signature.png === null ? null : pngDataUrl(signature.png),
        signedDocument: signature.signedDocument,
        documentSha256: signature.documentSha256,
      });
      if (!approved) return undefined;
      const record = await changeOrderById(trx, row.id);
      const revised = await revisedOf(trx, record);
      await queueCustomerAlert(trx, deps.mail, {
        action: 'change_order_approved',
        firmId: record.firm_id,
        jobId: record.job_id,
        ref: `change_order:${record.id}`,
        did: `signed change order ${record.co_number}`,
        at: signature.signedAt,
        facts: [
          ...alertFacts(record),
          [
            'New contract total',
            revised && revised.contract_cents !== null ? formatCents(revised.contract_cents) : null,
          ],
          ['Signed by', signature.name],
        ],
        api: changeOrderApi(record),
      });
      return { record, auditData: { signature_name: signature.name } };
    },
  });
}

/** Declines with an optional comment (decision_comment), through the office's declineIn. */
export function declineByCustomer(
  database: Database,
  mail: Pick<MailTransport, 'fromAddress'>,
  co: ChangeOrderRow,
  comment: string,
  who: Visitor,
): Promise<AnswerResult<ChangeOrderRow>> {
  return declineDocument(database, changeOrderKind, co, comment, who, {
    text: { name: 'comment', max: COMMENT_MAX },
    write: async (trx, row, text, at) => {
      const declined = await declineIn(
        trx,
        row,
        await stageFor(trx, row.firm_id, 'declined'),
        { source: 'customer', comment: text },
        at,
      );
      if (!declined) return undefined;
      const record = await changeOrderById(trx, row.id);
      await queueCustomerAlert(trx, mail, {
        action: 'change_order_declined',
        firmId: record.firm_id,
        jobId: record.job_id,
        ref: `change_order:${record.id}`,
        did: `declined change order ${record.co_number}`,
        at,
        said: text,
        facts: [...alertFacts(record), ['Comment', text === null ? 'None given' : null]],
        api: changeOrderApi(record),
      });
      return record;
    },
  });
}
