// Proposal queries: a proposal a user may see (through its job), lists, the audit trail, and what
// its document is built from (the job, the preparer, the photos).
import type { Executor } from '#db/dialect.ts';
import type { Proposal, ProposalAuditEvent, User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/index.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

export function findProposal(db: Executor, firmId: number, id: number, user: User): Promise<Proposal | undefined> {
  return onVisibleJob(
    db.selectFrom('proposals').selectAll().where('firm_id', '=', firmId).where('id', '=', id),
    'proposals.job_id',
    firmId,
    user,
  ).executeTakeFirst();
}

/** The estimate's own proposal (not a customer copy), if one was made. */
export function proposalOfEstimate(db: Executor, firmId: number, estimateId: number): Promise<Proposal | undefined> {
  return db
    .selectFrom('proposals')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('estimate_id', '=', estimateId)
    .where('is_customer_copy', '=', 0)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export function proposalByTokenHash(db: Executor, tokenHash: string): Promise<Proposal | undefined> {
  return db.selectFrom('proposals').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export interface ProposalFilter {
  estimateId?: number;
  jobId?: number;
  status?: string;
  updatedAfter?: SyncWindow;
}

function filtered(db: Executor, firmId: number, user: User, f: ProposalFilter, rest?: GroupRest) {
  let qb = onVisibleJob(
    db.selectFrom('proposals').where('proposals.firm_id', '=', firmId),
    'proposals.job_id',
    firmId,
    user,
  );
  if (f.estimateId !== undefined) qb = qb.where('proposals.estimate_id', '=', f.estimateId);
  if (f.jobId !== undefined) qb = qb.where('proposals.job_id', '=', f.jobId);
  if (f.status !== undefined) qb = qb.where('proposals.status', '=', f.status as Proposal['status']);
  if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'proposals', f.updatedAfter, rest);
  return qb;
}

/** Most recently changed first; with updated_after oldest first (document 3, Proposals). */
export async function listProposals(
  db: Executor,
  firmId: number,
  user: User,
  f: ProposalFilter,
  limit: number,
  offset: number,
) {
  const page = newestOrSyncPage(
    (rest?: GroupRest) => filtered(db, firmId, user, f, rest).selectAll('proposals'),
    'proposals',
    f.updatedAfter,
    { limit, offset },
    'updated_at',
  );
  const [rows, count] = await Promise.all([
    page,
    filtered(db, firmId, user, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Proposal[], total: Number(count.n) };
}

export function auditTrail(db: Executor, proposalId: number): Promise<ProposalAuditEvent[]> {
  return db
    .selectFrom('proposal_audit_events')
    .selectAll()
    .where('proposal_id', '=', proposalId)
    .orderBy('id')
    .execute();
}

/** The catalog services' proposal texts, for lines that print their service's. */
export async function serviceProposalTexts(db: Executor, firmId: number, serviceIds: number[]) {
  if (serviceIds.length === 0) return new Map<number, string | null>();
  const rows = await db
    .selectFrom('catalog_services')
    .select(['id', 'proposal_text'])
    .where('firm_id', '=', firmId)
    .where('id', 'in', serviceIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r.proposal_text]));
}

/** The photos a proposal shows: the chosen ones in the order chosen, or every photo marked for reports. */
export async function proposalPhotos(db: Executor, jobId: number, photoIds: number[]) {
  let qb = db
    .selectFrom('photos')
    .select(['id', 'title', 'caption', 'taken_at', 'storage_key', 'thumbnail_key', 'content_type'])
    .where('job_id', '=', jobId)
    .where('is_video', '=', 0);
  qb = photoIds.length > 0 ? qb.where('id', 'in', photoIds) : qb.where('include_in_report', '=', 1);
  const rows = await qb.orderBy('sort_order').orderBy('taken_at').orderBy('id').execute();
  if (photoIds.length === 0) return rows;
  const at = new Map(photoIds.map((id, i) => [id, i]));
  return rows.sort((a, b) => (at.get(a.id) ?? 0) - (at.get(b.id) ?? 0));
}
