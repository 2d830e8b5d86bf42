// A person's companies and sites with roles (document 2, Contacts: links). Ended links stay as
// history; the primary current company link is the contact's client_account_id.
import type { Contact, ContactLink } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, notFound } from '#platform/errors.ts';
import { now } from '#platform/time.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { findLocation } from '#crm/locations/repo.ts';
import { findContact, linkRows } from './repo.ts';
import { LINK_ROLES } from './rules.ts';
import { linkObject } from './serialize.ts';
import { contactNotFound, materializeCompanyLink, saveContact, type Trx } from './write.ts';
import type { LinkInput } from './schemas.ts';

export type LinkKind = 'company' | 'location';

function cleanRoles(roles: string[] | undefined): string[] | undefined {
  if (roles === undefined) return undefined;
  const wanted = [...new Set(roles.map((r) => r.trim().toLowerCase()))];
  const unknown = wanted.filter((r) => !(LINK_ROLES as readonly string[]).includes(r));
  if (unknown.length > 0) {
    throw badRequest(`Unknown roles: ${unknown.join(', ')}`, {
      code: 'unknown_roles',
      field: 'roles',
      roles: unknown,
      message: `Roles are ${LINK_ROLES.join(', ')}`,
    });
  }
  return LINK_ROLES.filter((r) => wanted.includes(r));
}

/** Today in the workspace's time zone, YYYY-MM-DD. */
function workspaceToday(timezone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
  } catch {
    return now().slice(0, 10);
  }
}

async function target(trx: Trx, firmId: number, kind: LinkKind, id: number): Promise<{ id: number; name: string }> {
  const found = kind === 'company' ? await findClientAccount(trx, firmId, id) : await findLocation(trx, firmId, id);
  if (!found) {
    const field = kind === 'company' ? 'client_account_id' : 'location_id';
    throw notFound(`${field} not found in this workspace`, { field });
  }
  return found;
}

/** Keeps the contact's primary company in step after a company link changed. */
async function mirrorCompany(trx: Trx, contact: Contact): Promise<Partial<Contact>> {
  const primary = await trx
    .selectFrom('contact_links')
    .select('target_id')
    .where('contact_id', '=', contact.id)
    .where('kind', '=', 'company')
    .where('ended_on', 'is', null)
    .where('is_primary', '=', 1)
    .executeTakeFirst();
  if (!primary) return { client_account_id: null, company: null };
  const account = await findClientAccount(trx, contact.firm_id, primary.target_id);
  return { client_account_id: primary.target_id, company: account?.name ?? contact.company };
}

export async function addLink(ctx: ServiceContext, contactId: number, input: LinkInput) {
  const sent = [input.client_account_id, input.location_id].filter((v) => v !== undefined && v !== null);
  if (sent.length !== 1)
    throw badRequest('Send exactly one of client_account_id or location_id', { code: 'invalid_request' });
  const kind: LinkKind = input.client_account_id != null ? 'company' : 'location';
  const roles = cleanRoles(input.roles);
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await findContact(trx, firmId, contactId);
    if (!contact) throw contactNotFound();
    await materializeCompanyLink(trx, contact);
    const to = await target(trx, firmId, kind, (input.client_account_id ?? input.location_id)!);
    const ofKind = await trx
      .selectFrom('contact_links')
      .selectAll()
      .where('contact_id', '=', contactId)
      .where('kind', '=', kind)
      .where('ended_on', 'is', null)
      .execute();
    const current = ofKind.find((l) => l.target_id === to.id);
    const t = now();
    let linkId: number;
    let primary: boolean;
    if (current) {
      // The same target again replaces the roles (and whatever else is sent).
      const changes: Partial<ContactLink> = {};
      if (roles !== undefined) changes.roles = JSON.stringify(roles);
      if (input.started_on !== undefined) changes.started_on = input.started_on;
      primary = input.is_primary ?? current.is_primary === 1;
      changes.is_primary = primary ? 1 : 0;
      await trx
        .updateTable('contact_links')
        .set({ ...changes, updated_at: t })
        .where('id', '=', current.id)
        .execute();
      linkId = current.id;
    } else {
      // A person's first current company (or site) is their primary one unless told otherwise.
      primary = input.is_primary ?? !ofKind.some((l) => l.is_primary === 1);
      const row = await trx
        .insertInto('contact_links')
        .values({
          firm_id: firmId,
          contact_id: contactId,
          kind,
          target_id: to.id,
          roles: JSON.stringify(roles ?? []),
          is_primary: primary ? 1 : 0,
          started_on: input.started_on ?? null,
          ended_on: null,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      linkId = row.id;
    }
    if (primary) {
      await trx
        .updateTable('contact_links')
        .set({ is_primary: 0, updated_at: t })
        .where('contact_id', '=', contactId)
        .where('kind', '=', kind)
        .where('id', '!=', linkId)
        .where('is_primary', '=', 1)
        .execute();
    }
    const changes = kind === 'company' ? await mirrorCompany(trx, contact) : {};
    await saveContact(trx, contact, changes, true);
    return (await linkRows(trx, contactId)).map(linkObject);
  });
}

/**
 * Takes a company or site off the person: removes every link to it, or with `end` keeps the
 * current one as history ended `endedOn` (default today in the workspace's time zone).
 */
export async function removeLink(
  ctx: ServiceContext,
  contactId: number,
  kind: LinkKind,
  targetId: number,
  o: { end: boolean; endedOn?: string },
): Promise<void> {
  const firmId = ctx.auth.firm.id;
  await inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await findContact(trx, firmId, contactId);
    if (!contact) throw contactNotFound();
    await materializeCompanyLink(trx, contact);
    const rows = await trx
      .selectFrom('contact_links')
      .selectAll()
      .where('contact_id', '=', contactId)
      .where('kind', '=', kind)
      .where('target_id', '=', targetId)
      .execute();
    const current = rows.find((l) => l.ended_on === null);
    const linkNotFound = () =>
      notFound('Link not found', { message: `The person has no ${o.end ? 'current ' : ''}link to that ${kind}` });
    if (o.end) {
      if (!current) throw linkNotFound();
      const endedOn = o.endedOn ?? workspaceToday(ctx.auth.firm.timezone);
      if (current.started_on !== null && endedOn < current.started_on) {
        throw badRequest('ended_on cannot be before started_on', { field: 'ended_on' });
      }
      await trx
        .updateTable('contact_links')
        .set({ ended_on: endedOn, is_primary: 0, updated_at: now() })
        .where('id', '=', current.id)
        .execute();
    } else {
      if (rows.length === 0) throw linkNotFound();
      await trx
        .deleteFrom('contact_links')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    await saveContact(trx, contact, kind === 'company' ? await mirrorCompany(trx, contact) : {}, true);
  });
}
