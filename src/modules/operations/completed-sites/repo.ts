// Sites with completed work: a completed work order on one of their jobs, or a re-bid history
// record. A site's stamp (updated_at) is the latest of its history records' created_at and its
// completed work orders' completed_at, so a sync by updated_after sees a site again whenever new
// completed work is recorded on it.
import { sql } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { User } from '#db/tables.ts';
import { ownedBy } from '#crm/index.ts';
import { can } from '#platform/permissions.ts';
import type { Page } from '#platform/pagination.ts';
import { type GroupRest, newestOrSyncPage, type SyncWindow, whereInWindow } from '#platform/sync.ts';
import { latestOfPair } from '../rebids/repo.ts';

export interface CompletedSiteRow {
  id: number;
  name: string;
  address: string;
  client_account_id: number | null;
  updated_at: string;
}

/** The workspace's live sites with their stamps (null: no completed work). */
function stamped(db: Executor, firmId: number, user: User) {
  let sites = db
    .selectFrom('locations as l')
    .select(['l.id', 'l.name', 'l.address', 'l.client_account_id'])
    .select((eb) => [
      eb
        .selectFrom('rebid_history as h')
        .select((e) => e.fn.max('h.created_at').as('at'))
        .whereRef('h.location_id', '=', 'l.id')
        .as('history_at'),
      eb
        .selectFrom('work_orders as wo')
        .innerJoin('jobs as j', 'j.id', 'wo.job_id')
        .select((e) => e.fn.max('wo.completed_at').as('at'))
        .whereRef('j.location_id', '=', 'l.id')
        .where('wo.status', '=', 'completed')
        .as('work_at'),
    ])
    .where('l.firm_id', '=', firmId)
    .where('l.merged_into_id', 'is', null);
  if (can(user, 'sees_own_jobs_only'))
    sites = sites.where(
      'l.id',
      'in',
      ownedBy(db.selectFrom('jobs').select('jobs.location_id').where('jobs.firm_id', '=', firmId), user.id),
    );
  const both = db
    .selectFrom(sites.as('a'))
    .select(['a.id', 'a.name', 'a.address', 'a.client_account_id'])
    .select(
      sql<
        string | null
      >`case when a.history_at is null then a.work_at when a.work_at is null then a.history_at when a.history_at > a.work_at then a.history_at else a.work_at end`.as(
        'updated_at',
      ),
    );
  return db.selectFrom(both.as('s')).selectAll('s').where('s.updated_at', 'is not', null);
}

export async function listCompletedSites(
  db: Executor,
  firmId: number,
  user: User,
  window: SyncWindow | undefined,
  page: Page,
): Promise<{ rows: CompletedSiteRow[]; total: number }> {
  const rows = (rest?: GroupRest) => {
    const q = stamped(db, firmId, user);
    return (window ? whereInWindow(q, 's', window, rest) : q) as typeof q;
  };
  const [list, count] = await Promise.all([
    newestOrSyncPage(rows as never, 's', window, page, 'updated_at') as Promise<CompletedSiteRow[]>,
    db
      .selectFrom(rows().as('c'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: list, total: Number(count.n) };
}

/** The latest history record of each cycle on these sites. */
export async function latestServicesOf(db: Executor, firmId: number, siteIds: readonly number[]) {
  if (siteIds.length === 0) return [];
  return db
    .selectFrom('rebid_history as h')
    .innerJoin('rebid_cycles as c', 'c.id', 'h.cycle_id')
    .select(['h.location_id', 'h.cycle_id', 'c.service', 'h.done_on', 'h.source', 'h.work_order_id'])
    .where('h.firm_id', '=', firmId)
    .where('h.location_id', 'in', [...siteIds])
    .where(latestOfPair)
    .orderBy('c.service')
    .orderBy('h.cycle_id')
    .execute();
}

/** The latest completed work order of each of these sites. */
export async function lastWorkOrdersOf(db: Executor, firmId: number, siteIds: readonly number[]) {
  if (siteIds.length === 0) return [];
  return db
    .selectFrom('work_orders as wo')
    .innerJoin('jobs as j', 'j.id', 'wo.job_id')
    .select(['j.location_id', 'wo.id', 'wo.job_id', 'wo.title', 'wo.completed_at'])
    .where('wo.firm_id', '=', firmId)
    .where('wo.status', '=', 'completed')
    .where('j.location_id', 'in', [...siteIds])
    .orderBy('wo.completed_at', 'desc')
    .orderBy('wo.id', 'desc')
    .execute();
}
