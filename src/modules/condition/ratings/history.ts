// GET /v1/locations/{id}/condition-ratings (design; docs/api-decisions.md, "Condition ratings"):
// the ratings made with the site's location_id, newest first, each as it was answered (without
// the returned image's bytes).
import { findLocation, locationNotFound } from '#crm/index.ts';
import type { ServiceContext } from '#platform/context.ts';
import { listEnvelope, type Page } from '#platform/pagination.ts';
import { countOfSite, ratingsOfSite } from './repo.ts';

export async function siteRatings(ctx: ServiceContext, locationId: number, page: Page) {
  const { db } = ctx.database;
  const firmId = ctx.auth.firm.id;
  const site = await findLocation(db, firmId, locationId);
  if (!site) throw locationNotFound();
  const [rows, total] = await Promise.all([
    ratingsOfSite(db, firmId, site.id, page.limit, page.offset),
    countOfSite(db, firmId, site.id),
  ]);
  return listEnvelope(
    rows.map((r) => JSON.parse(r.result)),
    total,
    page,
  );
}
