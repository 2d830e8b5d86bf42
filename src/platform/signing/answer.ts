// A customer's answer to a document sent for signature (proposals and change orders; GUIDE
// "Customer pages"): counting an open, signing and declining, as one flow for every kind of signed
// record. The kind says how its rows are read and changed (SignedKind, and the steps each answer
// takes); this file holds what they share:
//
// - Every write runs under the workspace lock (inFirmTransaction): the customer's answer races the
//   office's decisions and a second tab, and the first answer stands. The record is read again
//   under the lock, and the answer is a conditional update from a state that takes one, so each
//   answer's event fires exactly once.
// - Signing signs the exact document the page showed: the page posts the hash it rendered; the
//   document is built again, under the lock too, and a different hash is refused ("review it
//   again"). The record keeps the canonical text and its hash, the consent version and the drawn
//   signature; the audit trail gets `consented` and `signed`.
// - A signed copy the kind keeps (a proposal's executed PDF) is made and stored before the
//   transaction (storage is never called inside one) and recorded in it; when the answer is not
//   written (decided meanwhile, or a failure) the stored copy goes again (recordStored).
import type { InsertObject, Transaction } from 'kysely';
import type { Database } from '#db/database.ts';
import type { Executor } from '#db/dialect.ts';
import type { DB } from '#db/tables.ts';
import { inFirmTransaction } from '#platform/context.ts';
import { looksLikeEmail } from '#platform/email-phone.ts';
import type { Storage } from '#platform/storage/storage.ts';
import { recordStored } from '#platform/storage/store-then-record.ts';
import { now } from '#platform/time.ts';
import { type AuditKind, auditStep, type Visitor } from './audit.ts';
import { canonicalJson, documentHash } from './document-hash.ts';
import {
  BAD_SIGNATURE_MESSAGE,
  CONSENT_VERSION,
  type SignedDocument,
  sameText,
  signaturePng,
  signerNameProblem,
} from './e-sign.ts';

/** The columns every signed record has. */
export interface SignedRecord {
  id: number;
  firm_id: number;
  status: string;
}

/** An audit step as the kind's table takes it (platform/signing/audit.ts). */
export type AuditRow = ReturnType<typeof auditStep<AuditKind>>;

/**
 * Tables of signed records: each counts a customer's opens (view_count, last and first viewed) once
 * the record was sent (sent_at).
 */
export type SignedTable = {
  [T in keyof DB]: DB[T] extends {
    last_viewed_at: string | null;
    first_viewed_at: string | null;
    sent_at: string | null;
    updated_at: string;
  }
    ? 'view_count' extends keyof DB[T]
      ? T
      : never
    : never;
}[keyof DB];

/** Tables of audit trails: a row per step (platform/signing/audit.ts), and the record's columns. */
export type TrailTable = {
  [T in keyof DB]: DB[T] extends { at: string; ip: string | null; user_agent: string | null; data: string | null }
    ? T
    : never;
}[keyof DB];

/** What one kind of signed record is, for the kit. */
export interface SignedKindSpec<R extends SignedRecord, A extends TrailTable> {
  /** The document's name, as the consent and the messages say it: 'proposal', 'change order'. */
  document: SignedDocument;
  /** The record's table, and whether a customer's open changes its updated_at (it shows the counts). */
  table: SignedTable;
  openTouchesRecord: boolean;
  /** The record as it now is. */
  reread(db: Executor, id: number): Promise<R>;
  /** The states a customer may answer from, and the states that are an answer already. */
  answersFrom: readonly R['status'][];
  answered: readonly R['status'][];
  /** The audit trail's table, and the columns that tie a step to its record. */
  trail: { table: A; owner(record: R): Omit<InsertObject<DB, A>, keyof AuditRow> };
}

/** How one kind of record is read, answered and audited. */
export interface SignedKind<R extends SignedRecord> {
  document: SignedDocument;
  reread(db: Executor, id: number): Promise<R>;
  awaitsAnswer(record: R): boolean;
  decided(record: R): boolean;
  /** Appends steps to the record's audit trail. */
  audit(trx: Executor, record: R, steps: readonly AuditRow[]): Promise<void>;
  /**
   * Counts a customer's open on the record's row, once the record was sent; answers whether it
   * counted (an open before the send is the audit trail's only).
   */
  countOpen(trx: Executor, record: R, at: string): Promise<boolean>;
}

export function signedKind<R extends SignedRecord, A extends TrailTable>(spec: SignedKindSpec<R, A>): SignedKind<R> {
  return {
    document: spec.document,
    reread: spec.reread,
    awaitsAnswer: (record) => spec.answersFrom.includes(record.status),
    decided: (record) => spec.answered.includes(record.status),
    audit: async (trx, record, steps) => {
      const owner = spec.trail.owner(record);
      // A step and its owner's columns make the trail's row; TypeScript cannot see that through A.
      await trx
        .insertInto(spec.trail.table)
        .values(steps.map((step) => ({ ...owner, ...step }) as InsertObject<DB, A>))
        .execute();
    },
    countOpen: async (trx, record, at) => {
      const counted = await trx
        .updateTable(spec.table)
        .set((eb) => ({
          view_count: eb('view_count', '+', 1),
          last_viewed_at: at,
          first_viewed_at: eb.fn.coalesce('first_viewed_at', eb.val(at)),
          ...(spec.openTouchesRecord ? { updated_at: at } : {}),
        }))
        .where('id', '=', record.id)
        // Read under the workspace lock, so a send committed meanwhile is seen.
        .where('sent_at', 'is not', null)
        .executeTakeFirst();
      return Number(counted.numUpdatedRows) > 0;
    },
  };
}

/** Why an answer was not taken; the page says so. */
export type AnswerProblem =
  | { problem: 'invalid'; message: string }
  | { problem: 'not_open' }
  | { problem: 'lapsed' }
  | { problem: 'changed' };

export type AnswerResult<R> =
  | { result: 'answered'; record: R }
  /** Answered before (another tab, the office): the record as that answer left it. */
  | { result: 'decided'; record: R }
  | AnswerProblem;

// ---- opening ------------------------------------------------------------------------------------

/**
 * A customer's open: the record's counters, `opened` on the audit trail, and `then`, what a first
 * open does for the kind (a proposal moves from sent to viewed). Answers the record as it now is.
 *
 * The counters are the sent record's: an open before the send (the link of a draft, shared early or
 * opened by a teammate) never sets first_viewed_at, last_viewed_at or view_count, so
 * first_viewed_at is never before sent_at. Such an open is kept in the audit trail alone, as
 * `opened` with `before_send: true` (docs/api-decisions.md, "Customer pages").
 */
export function recordOpen<R extends SignedRecord>(
  database: Database,
  kind: SignedKind<R>,
  record: R,
  who: Visitor,
  then?: (trx: Transaction<DB>, record: R, at: string) => Promise<void>,
): Promise<R> {
  return inFirmTransaction(database, record.firm_id, async (trx) => {
    const at = now();
    const counted = await kind.countOpen(trx, record, at);
    await kind.audit(trx, record, [auditStep('opened', at, who, counted ? undefined : { before_send: true })]);
    await then?.(trx, record, at);
    return kind.reread(trx, record.id);
  });
}

// ---- signing ------------------------------------------------------------------------------------

/** What the signing form posted. */
export interface SignForm {
  /** The typed name: the signature. */
  name: string;
  /** The signer's email, for kinds that ask for it (proposals); undefined for those that do not. */
  email?: string;
  consent: boolean;
  /** The drawn signature as posted (a PNG data URL), or '' for none. */
  signature: string;
  /** The document hash the page was rendered with. */
  documentHash: string;
}

/** The signature as the record keeps it. */
export interface Signature {
  name: string;
  email: string | null;
  /** The drawn signature's PNG, or null for the typed name alone. */
  png: Buffer | null;
  /** Stored-form UTC time. */
  signedAt: string;
  consentVersion: string;
  /** The canonical JSON of the signed document, and its SHA-256. */
  signedDocument: string;
  documentSha256: string;
}

/** A signed copy stored before the answer's transaction. */
export interface StoredCopy {
  key: string;
}

/** What the answer's write made: the record, and what the `signed` audit step adds. */
export interface Signed<R> {
  record: R;
  auditData?: Record<string, unknown>;
}

export interface SignSteps<R extends SignedRecord, D, C extends StoredCopy> {
  /** The document as it stands: what the page showed, what is signed. Built again under the lock. */
  document(db: Executor, record: R): Promise<D>;
  /** A refusal that does not depend on the form (an offer past its date), or null. */
  refuse?(record: R): Promise<AnswerProblem | null>;
  /** Makes and stores the signed copy the kind keeps (no transaction is open). */
  storeCopy?(record: R, document: D, signature: Signature): Promise<C>;
  /**
   * Writes the answer: a conditional update from a state that takes one, with what goes with it
   * (events, the copy's record, a job's move). Undefined when another answer came first.
   */
  write(trx: Transaction<DB>, record: R, signature: Signature, copy: C | null): Promise<Signed<R> | undefined>;
}

export const SIGNER_EMAIL_MAX = 254;

/** The form's rules, in the order the customer reads the form. */
function formProblem(form: SignForm): string | null {
  const nameProblem = signerNameProblem(form.name);
  if (nameProblem) return nameProblem;
  if (form.email !== undefined) {
    const email = form.email.trim();
    if (email === '') return 'Enter your email address.';
    if (email.length > SIGNER_EMAIL_MAX || !looksLikeEmail(email))
      return 'Enter a valid email address, like name@example.com.';
  }
  if (!form.consent) return 'Tick the box to agree to sign electronically.';
  return null;
}

/** Signs the record's document with the posted form (see the file's comment for the rules). */
export async function signDocument<R extends SignedRecord, D, C extends StoredCopy>(
  database: Database,
  storage: Storage,
  kind: SignedKind<R>,
  record: R,
  form: SignForm,
  who: Visitor,
  steps: SignSteps<R, D, C>,
): Promise<AnswerResult<R>> {
  if (kind.decided(record)) return { result: 'decided', record };
  if (!kind.awaitsAnswer(record)) return { problem: 'not_open' };
  const message = formProblem(form);
  if (message) return { problem: 'invalid', message };
  const png = await signaturePng(form.signature);
  if (png === 'bad') return { problem: 'invalid', message: BAD_SIGNATURE_MESSAGE };
  const refusal = (await steps.refuse?.(record)) ?? null;
  if (refusal) return refusal;

  const document = await steps.document(database.db, record);
  const sha256 = documentHash(document);
  if (!sameText(form.documentHash, sha256)) return { problem: 'changed' };
  const signature: Signature = {
    name: form.name.trim(),
    email: form.email === undefined ? null : form.email.trim(),
    png,
    signedAt: now(),
    consentVersion: CONSENT_VERSION,
    signedDocument: canonicalJson(document),
    documentSha256: sha256,
  };
  const copy = steps.storeCopy ? await steps.storeCopy(record, document, signature) : null;

  return recordStored(
    storage,
    copy ? [copy.key] : [],
    () =>
      inFirmTransaction(database, record.firm_id, async (trx): Promise<AnswerResult<R>> => {
        const fresh = await kind.reread(trx, record.id);
        if (kind.decided(fresh)) return { result: 'decided', record: fresh };
        if (!kind.awaitsAnswer(fresh)) return { problem: 'not_open' };
        // What is signed is what is stored: the document may have changed since the page's check.
        if (documentHash(await steps.document(trx, fresh)) !== sha256) return { problem: 'changed' };
        const signed = await steps.write(trx, fresh, signature, copy);
        if (!signed) return { result: 'decided', record: await kind.reread(trx, record.id) };
        await kind.audit(trx, fresh, [
          auditStep('consented', signature.signedAt, who, { consent_version: signature.consentVersion }),
          auditStep('signed', signature.signedAt, who, {
            ...signed.auditData,
            document_sha256: sha256,
            drawn_signature: png !== null,
          }),
        ]);
        return { result: 'answered', record: signed.record };
      }),
    // The copy is the answer's: any other outcome leaves it recorded nowhere.
    (outcome) => ('result' in outcome && outcome.result === 'answered' && copy ? [copy.key] : []),
  );
}

// ---- declining ----------------------------------------------------------------------------------

export interface DeclineSteps<R extends SignedRecord> {
  /** The optional text's name on the page and in the audit step ('reason', 'comment') and its limit. */
  text: { name: string; max: number };
  /** Writes the refusal at `at`: a conditional update from a state that takes an answer. */
  write(trx: Transaction<DB>, record: R, text: string | null, at: string): Promise<R | undefined>;
}

/** Declines the record with an optional text; the audit trail gets `declined` with it. */
export async function declineDocument<R extends SignedRecord>(
  database: Database,
  kind: SignedKind<R>,
  record: R,
  posted: string,
  who: Visitor,
  steps: DeclineSteps<R>,
): Promise<AnswerResult<R>> {
  if (kind.decided(record)) return { result: 'decided', record };
  if (!kind.awaitsAnswer(record)) return { problem: 'not_open' };
  const trimmed = posted.trim();
  const { name, max } = steps.text;
  if (Array.from(trimmed).length > max)
    return {
      problem: 'invalid',
      message: `The ${name} can be at most ${max.toLocaleString('en-US')} characters.`,
    };
  const text = trimmed === '' ? null : trimmed;
  return inFirmTransaction(database, record.firm_id, async (trx): Promise<AnswerResult<R>> => {
    const fresh = await kind.reread(trx, record.id);
    if (kind.decided(fresh)) return { result: 'decided', record: fresh };
    if (!kind.awaitsAnswer(fresh)) return { problem: 'not_open' };
    const at = now();
    const declined = await steps.write(trx, fresh, text, at);
    if (!declined) return { result: 'decided', record: await kind.reread(trx, record.id) };
    await kind.audit(trx, fresh, [auditStep('declined', at, who, { [name]: text })]);
    return { result: 'answered', record: declined };
  });
}
