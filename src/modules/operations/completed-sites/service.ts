// GET /v1/sites/completed (document 2, Syncing rule 5; docs/decisions/operations-rebids.md): sites
// with completed work, newest completed first, or with updated_after those whose completed work
// was recorded after it, oldest first. A user who sees only their own jobs sees the sites of those.
import type { ServiceContext } from '#platform/context.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { syncWindow } from '#platform/sync.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { zWire } from '#platform/time.ts';
import { lastWorkOrdersOf, latestServicesOf, listCompletedSites } from './repo.ts';
import type { CompletedSiteObject, CompletedSitesFilter } from './schemas.ts';

export async function listSitesCompleted(ctx: ServiceContext, filter: CompletedSitesFilter, page: Page) {
  const db = ctx.database.db;
  const firmId = ctx.auth.firm.id;
  const window = syncWindow(filter.updated_after, 'second');
  const { rows, total } = await listCompletedSites(db, firmId, ctx.auth.user, window, page);
  const ids = rows.map((r) => r.id);
  const [services, workOrders] = await Promise.all([
    latestServicesOf(db, firmId, ids),
    lastWorkOrdersOf(db, firmId, ids),
  ]);
  const data = rows.map((r): CompletedSiteObject => {
    const own = services.filter((s) => s.location_id === r.id);
    const wo = workOrders.find((w) => w.location_id === r.id && w.completed_at !== null);
    const days = [
      ...own.map((s) => s.done_on),
      ...(wo ? [storedToLocal(wo.completed_at!, ctx.auth.firm.timezone).date] : []),
    ].sort();
    return {
      id: r.id,
      name: r.name,
      address: r.address,
      client_account_id: r.client_account_id,
      last_completed_on: days[days.length - 1]!,
      services: own.map((s) => ({
        cycle_id: s.cycle_id,
        service: s.service,
        last_done_on: s.done_on,
        source: s.source,
        work_order_id: s.work_order_id,
      })),
      last_work_order: wo
        ? { id: wo.id, job_id: wo.job_id, title: wo.title, completed_at: zWire(wo.completed_at!) }
        : null,
      updated_at: zWire(r.updated_at),
    };
  });
  return listEnvelope(data, total, page);
}
