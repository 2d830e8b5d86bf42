// A customer's portal link (docs/api-decisions.md, Customer portal), modelled on the capital plan
// link: one per customer (client account), turned on (201) or answered (200) by POST, turned off
// by …/disable, given a new address by …/rotate; a stopped token's page says why (410). Turning it
// on or rotating needs the workspace's customer_portal_enabled (403 otherwise); turning it off
// always works. The portal shows every job of the customer, so a user who sees only their own jobs
// can neither read nor turn on its link (they may turn it off).
import type { ClientAccount } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import { type ServiceContext, inWorkspaceTransaction } from '#platform/context.ts';
import { forbidden } from '#platform/errors.ts';
import { can } from '#platform/permissions.ts';
import { now } from '#platform/time.ts';
import { retireLink } from '#platform/customer-links.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { clientAccountNotFound } from '#crm/client-accounts/service.ts';
import { findCustomerLink, type PortalLink } from './repo.ts';
import type { PortalLinkObject } from './schemas.ts';

export const PORTAL_LINK_KIND = 'customer_portal';

export const customerPortalDisabled = () =>
  forbidden('Customer portal not enabled', {
    code: 'customer_portal_disabled',
    message:
      "The customer portal is off for this workspace; turn on customer_portal_enabled in the workspace's settings to give customers portal links",
  });

const ownJobsOnly = () =>
  forbidden('User sees only their own jobs', {
    message: "A customer's portal shows every job of the customer, and the key's user sees only their own jobs",
  });

function assertSeesEveryJob(ctx: ServiceContext): void {
  if (can(ctx.auth.user, 'sees_own_jobs_only')) throw ownJobsOnly();
}

/** The customer page of a token: `<origin>/share/portal/<token>`. */
export const portalUrl = (origin: string, token: string) => `${origin}/share/portal/${token}`;

async function linkObject(
  ctx: ServiceContext,
  accountId: number,
  link: PortalLink | undefined,
  origin: string,
): Promise<PortalLinkObject> {
  const on = link !== undefined && link.enabled === 1;
  return {
    client_account_id: accountId,
    enabled: on,
    portal_url: on ? portalUrl(origin, await ctx.deps.links.tokenOf(PORTAL_LINK_KIND, link.token_salt)) : null,
  };
}

async function customer(ctx: ServiceContext, db: Executor, id: number): Promise<ClientAccount> {
  const account = await findClientAccount(db, ctx.auth.firm.id, id);
  if (!account) throw clientAccountNotFound();
  return account;
}

export async function getPortalLink(ctx: ServiceContext, accountId: number, origin: string) {
  const db = ctx.database.db;
  const account = await customer(ctx, db, accountId);
  assertSeesEveryJob(ctx);
  return linkObject(ctx, account.id, await findCustomerLink(db, ctx.auth.firm.id, account.id), origin);
}

async function turnOn(ctx: ServiceContext, accountId: number, origin: string, rotate: boolean) {
  const firmId = ctx.auth.firm.id;
  const token = await ctx.deps.links.issue(PORTAL_LINK_KIND);
  const { account, link, turnedOn } = await inWorkspaceTransaction(ctx, async (trx) => {
    const account = await customer(ctx, trx, accountId);
    if (!ctx.auth.settings.customer_portal_enabled) throw customerPortalDisabled();
    assertSeesEveryJob(ctx);
    const existing = await findCustomerLink(trx, firmId, account.id);
    if (existing?.enabled === 1 && !rotate) return { account, link: existing, turnedOn: false };
    const at = now();
    const fresh = { token_salt: token.salt, token_hash: token.hash, enabled: 1 as const, updated_at: at };
    if (!existing) {
      const link = (await trx
        .insertInto('portal_links')
        .values({
          firm_id: firmId,
          client_account_id: account.id,
          ...fresh,
          post_window_start: null,
          created_by_user_id: ctx.auth.user.id,
          created_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow()) as PortalLink;
      return { account, link, turnedOn: true };
    }
    if (existing.enabled === 1)
      await retireLink(trx, { firmId, kind: PORTAL_LINK_KIND, tokenHash: existing.token_hash, reason: 'rotated' });
    await trx.updateTable('portal_links').set(fresh).where('id', '=', existing.id).execute();
    return { account, link: { ...existing, ...fresh }, turnedOn: existing.enabled !== 1 };
  });
  return { data: await linkObject(ctx, account.id, link, origin), turnedOn };
}

export const enablePortalLink = (ctx: ServiceContext, accountId: number, origin: string) =>
  turnOn(ctx, accountId, origin, false);

export const rotatePortalLink = (ctx: ServiceContext, accountId: number, origin: string) =>
  turnOn(ctx, accountId, origin, true);

export async function disablePortalLink(ctx: ServiceContext, accountId: number, origin: string) {
  const firmId = ctx.auth.firm.id;
  const { account, link } = await inWorkspaceTransaction(ctx, async (trx) => {
    const account = await customer(ctx, trx, accountId);
    const link = await findCustomerLink(trx, firmId, account.id);
    if (!link || link.enabled !== 1) return { account, link };
    await retireLink(trx, { firmId, kind: PORTAL_LINK_KIND, tokenHash: link.token_hash, reason: 'disabled' });
    const changes = { enabled: 0 as const, updated_at: now() };
    await trx.updateTable('portal_links').set(changes).where('id', '=', link.id).execute();
    return { account, link: { ...link, ...changes } };
  });
  return linkObject(ctx, account.id, link, origin);
}
