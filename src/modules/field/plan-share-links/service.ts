// Capital plan links (document 2: POST /v1/locations/{location_id}/plan-share-link, …/disable,
// …/rotate; docs/api-decisions.md, Assessment and capital plan links). A site has at most one.
// Turning it on (or rotating it) needs capital planning on for the workspace (403 otherwise) and
// issues a new token; turning it off or rotating retires the old token, whose page then says why
// (410). Turning a link off always works, so a workspace that switched capital planning off can
// still stop a link it sent. The plan shows the walks of every job at the site, so a user who sees
// only their own jobs can neither read nor turn on its link (they may turn it off).
import { findLocation, locationNotFound } from '#crm/index.ts';
import type { Location } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { forbidden } from '#platform/errors.ts';
import { can } from '#platform/permissions.ts';
import { now } from '#platform/time.ts';
import { retireLink } from '#platform/customer-links.ts';
import { findSiteLink, type PlanShareLink } from './repo.ts';
import type { PlanShareLinkObject } from './schemas.ts';

export const LINK_KIND = 'capital_plan';

export const capitalPlanningDisabled = () =>
  forbidden('Capital planning not enabled', {
    code: 'capital_planning_disabled',
    message:
      "Capital planning is off for this workspace; turn it on in the workspace's settings to share capital plans",
  });

export const ownJobsOnly = () =>
  forbidden('User sees only their own jobs', {
    message:
      "A site's capital plan shows the assessments of every job at the site, and the key's user sees only their own jobs",
  });

function assertSeesEveryJob(ctx: ServiceContext): void {
  if (can(ctx.auth.user, 'sees_own_jobs_only')) throw ownJobsOnly();
}

/** The customer page of a token: `<origin>/share/plans/<token>`. */
export const capitalPlanUrl = (origin: string, token: string) => `${origin}/share/plans/${token}`;

async function linkObject(
  ctx: ServiceContext,
  locationId: number,
  link: PlanShareLink | undefined,
  origin: string,
): Promise<PlanShareLinkObject> {
  const on = link !== undefined && link.enabled === 1;
  return {
    location_id: locationId,
    enabled: on,
    share_url: on ? capitalPlanUrl(origin, await ctx.deps.links.tokenOf(LINK_KIND, link.token_salt)) : null,
  };
}

/** The site (a merged-away site's id answers the site it was merged into), or 404. */
async function site(ctx: ServiceContext, db: Executor, id: number): Promise<Location> {
  const location = await findLocation(db, ctx.auth.firm.id, id);
  if (!location) throw locationNotFound();
  return location;
}

export async function getPlanShareLink(ctx: ServiceContext, locationId: number, origin: string) {
  const db = ctx.database.db;
  const location = await site(ctx, db, locationId);
  assertSeesEveryJob(ctx);
  return linkObject(ctx, location.id, await findSiteLink(db, ctx.auth.firm.id, location.id), origin);
}

/**
 * Turns the link on with a fresh token, or (`rotate`) replaces the token of a link that is on. A
 * link already on is answered as it is unless rotating. `turnedOn` says whether the link was off
 * (or absent) before: the route's 201.
 */
async function turnOn(
  ctx: ServiceContext,
  locationId: number,
  origin: string,
  rotate: boolean,
): Promise<{ data: PlanShareLinkObject; turnedOn: boolean }> {
  const firmId = ctx.auth.firm.id;
  const token = await ctx.deps.links.issue(LINK_KIND);
  const { location, link, turnedOn } = await inWorkspaceTransaction(ctx, async (trx) => {
    const location = await site(ctx, trx, locationId);
    if (!ctx.auth.settings.capital_planning_enabled) throw capitalPlanningDisabled();
    assertSeesEveryJob(ctx);
    const existing = await findSiteLink(trx, firmId, location.id);
    if (existing?.enabled === 1 && !rotate) return { location, link: existing, turnedOn: false };
    const at = now();
    const fresh = { token_salt: token.salt, token_hash: token.hash, enabled: 1, updated_at: at };
    if (!existing) {
      const link = await trx
        .insertInto('plan_share_links')
        .values({
          firm_id: firmId,
          location_id: location.id,
          ...fresh,
          created_by_user_id: ctx.auth.user.id,
          created_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { location, link, turnedOn: true };
    }
    // A link that is off had its token retired when it was turned off.
    if (existing.enabled === 1)
      await retireLink(trx, { firmId, kind: LINK_KIND, tokenHash: existing.token_hash, reason: 'rotated' });
    await trx.updateTable('plan_share_links').set(fresh).where('id', '=', existing.id).execute();
    return { location, link: { ...existing, ...fresh }, turnedOn: existing.enabled !== 1 };
  });
  return { data: await linkObject(ctx, location.id, link, origin), turnedOn };
}

/** POST …/plan-share-link: turns the link on, or answers the one that is on. */
export const enablePlanShareLink = (ctx: ServiceContext, locationId: number, origin: string) =>
  turnOn(ctx, locationId, origin, false);

/** POST …/plan-share-link/rotate: a new token; the old one stops (410 "replaced by a newer one"). */
export const rotatePlanShareLink = (ctx: ServiceContext, locationId: number, origin: string) =>
  turnOn(ctx, locationId, origin, true);

/** POST …/plan-share-link/disable: the link stops (410 "turned off"); off already, nothing changes. */
export async function disablePlanShareLink(
  ctx: ServiceContext,
  locationId: number,
  origin: string,
): Promise<PlanShareLinkObject> {
  const firmId = ctx.auth.firm.id;
  const { location, link } = await inWorkspaceTransaction(ctx, async (trx) => {
    const location = await site(ctx, trx, locationId);
    const link = await findSiteLink(trx, firmId, location.id);
    if (!link || link.enabled !== 1) return { location, link };
    await retireLink(trx, { firmId, kind: LINK_KIND, tokenHash: link.token_hash, reason: 'disabled' });
    const changes = { enabled: 0, updated_at: now() };
    await trx.updateTable('plan_share_links').set(changes).where('id', '=', link.id).execute();
    return { location, link: { ...link, ...changes } };
  });
  return linkObject(ctx, location.id, link, origin);
}
