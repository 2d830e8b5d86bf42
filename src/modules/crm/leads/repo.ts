// Lead queries, scoped to the workspace and, for a user who sees only their own jobs, to the
// leads assigned to them.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';
import type { DB, Lead, User } from '#db/tables.ts';
import { containsText } from '#db/text-search.ts';
import { can } from '#platform/permissions.ts';
import type { Page } from '#platform/pagination.ts';
import { newestOrSyncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';
import { OPEN_STATUSES, type LeadStatus } from './rules.ts';
import type { LeadRow } from './serialize.ts';

function withAssignee(db: Executor) {
  return db
    .selectFrom('leads')
    .leftJoin('users as au', 'au.id', 'leads.assigned_to_user_id')
    .selectAll('leads')
    .select('au.name as assignee_name');
}

/** The lead as `user` may see it (null: as written, whoever it is assigned to). */
export function findLeadRow(db: Executor, firmId: number, id: number, user: User | null): Promise<LeadRow | undefined> {
  let q = withAssignee(db).where('leads.firm_id', '=', firmId).where('leads.id', '=', id);
  if (user && can(user, 'sees_own_jobs_only')) q = q.where('leads.assigned_to_user_id', '=', user.id);
  return q.executeTakeFirst();
}

export function findLead(db: Executor, firmId: number, id: number): Promise<Lead | undefined> {
  return db.selectFrom('leads').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}

export interface LeadFilter {
  status: 'all' | 'open' | LeadStatus;
  assignedToUserId?: number;
  sourceKind?: string;
  q?: string;
  updatedAfter?: SyncWindow;
  engine: Engine;
}

export async function listLeadRows(db: Executor, firmId: number, user: User, f: LeadFilter, page: Page) {
  const conditions = (eb: ExpressionBuilder<DB, 'leads'>) => {
    const all: Expression<SqlBool>[] = [eb('leads.firm_id', '=', firmId)];
    if (can(user, 'sees_own_jobs_only')) all.push(eb('leads.assigned_to_user_id', '=', user.id));
    if (f.status === 'open') all.push(eb('leads.status', 'in', [...OPEN_STATUSES]));
    else if (f.status !== 'all') all.push(eb('leads.status', '=', f.status));
    if (f.assignedToUserId !== undefined) all.push(eb('leads.assigned_to_user_id', '=', f.assignedToUserId));
    if (f.sourceKind !== undefined) all.push(eb('leads.source_kind', '=', f.sourceKind as Lead['source_kind']));
    if (f.q)
      all.push(
        containsText(['leads.name', 'leads.email', 'leads.phone', 'leads.company', 'leads.address'], f.q, f.engine),
      );
    return eb.and(all);
  };
  const window = f.updatedAfter;
  const rows = (rest?: GroupRest) => {
    const q = withAssignee(db).where(conditions);
    return window ? whereInWindow(q, 'leads', window, rest) : q;
  };
  const countQuery = db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(conditions);
  const count = window ? whereInWindow(countQuery, 'leads', window) : countQuery;
  const [data, n] = await Promise.all([
    newestOrSyncPage(rows, 'leads', window, page, 'created_at'),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: data as LeadRow[], total: Number(n.n) };
}

/** Open leads waiting on one of these records, for the implicit transitions. */
export function leadsWaitingOn(
  db: Executor,
  firmId: number,
  links: { leadId?: number | null; contactId?: number | null; jobId?: number | null; clientAccountId?: number | null },
  statuses: readonly LeadStatus[],
): Promise<Lead[]> {
  if (Object.values(links).every((v) => v == null)) return Promise.resolve([]);
  return db
    .selectFrom('leads')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('status', 'in', [...statuses])
    .where((eb) => {
      const ors = [];
      if (links.leadId != null) ors.push(eb('id', '=', links.leadId));
      if (links.contactId != null) ors.push(eb('contact_id', '=', links.contactId));
      if (links.jobId != null) ors.push(eb('job_id', '=', links.jobId));
      if (links.clientAccountId != null) ors.push(eb('client_account_id', '=', links.clientAccountId));
      return eb.or(ors);
    })
    .orderBy('id')
    .execute();
}
