import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { onVisibleJob } from '#crm/jobs/access.ts';
import { syncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';
import type { ActivityRow } from './serialize.ts';

function withUser(db: Executor) {
  return db
    .selectFrom('activities')
    .leftJoin('users as u', 'u.id', 'activities.user_id')
    .selectAll('activities')
    .select('u.name as user_name');
}

export async function findActivity(db: Executor, firmId: number, id: number): Promise<ActivityRow | undefined> {
  return withUser(db).where('activities.firm_id', '=', firmId).where('activities.id', '=', id).executeTakeFirst();
}

export async function findActivityByRef(
  db: Executor,
  firmId: number,
  source: string,
  externalId: string,
): Promise<ActivityRow | undefined> {
  return withUser(db)
    .where('activities.firm_id', '=', firmId)
    .where('activities.source', '=', source)
    .where('activities.external_id', '=', externalId)
    .executeTakeFirst();
}

export interface ActivityFilter {
  jobId?: number;
  clientAccountId?: number;
  contactId?: number;
  leadId?: number;
  type?: string;
  source?: string;
  externalId?: string;
  updatedAfter?: SyncWindow;
}

/** Newest occurred first; with updatedAfter, oldest updated first. Only activities on jobs the user sees (or on none). */
export async function listActivities(
  db: Executor,
  firmId: number,
  user: User,
  f: ActivityFilter,
  limit: number,
  offset: number,
) {
  const filter = <QB extends { where: (...args: any[]) => QB }>(qb: QB, rest?: GroupRest): QB => {
    qb = qb.where('activities.firm_id', '=', firmId);
    if (f.jobId !== undefined) qb = qb.where('activities.job_id', '=', f.jobId);
    if (f.clientAccountId !== undefined) qb = qb.where('activities.client_account_id', '=', f.clientAccountId);
    if (f.contactId !== undefined) qb = qb.where('activities.contact_id', '=', f.contactId);
    if (f.leadId !== undefined) qb = qb.where('activities.lead_id', '=', f.leadId);
    if (f.type !== undefined) qb = qb.where('activities.type', '=', f.type);
    if (f.source !== undefined) qb = qb.where('activities.source', '=', f.source);
    if (f.externalId !== undefined) qb = qb.where('activities.external_id', '=', f.externalId);
    if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'activities', f.updatedAfter, rest);
    return qb;
  };
  const rows = (rest?: GroupRest) => onVisibleJob(filter(withUser(db), rest), 'activities.job_id', firmId, user);
  const count = onVisibleJob(
    filter(db.selectFrom('activities').select((eb) => eb.fn.countAll<number>().as('n'))),
    'activities.job_id',
    firmId,
    user,
  );
  const window = f.updatedAfter;
  const data =
    window !== undefined
      ? syncPage(window, { limit, offset }, (rest) => {
          const sorted = rows(rest).orderBy('activities.updated_at', 'asc').orderBy('activities.id', 'asc');
          return (rest ? sorted : sorted.limit(limit).offset(offset)).execute() as Promise<ActivityRow[]>;
        })
      : rows()
          .orderBy('activities.occurred_at', 'desc')
          .orderBy('activities.id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute();
  const [page, n] = await Promise.all([data, count.executeTakeFirstOrThrow()]);
  return { rows: page as ActivityRow[], total: Number(n.n) };
}
