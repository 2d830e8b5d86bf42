// The write steps every contact change shares, so the record's invariants hold whichever
// endpoint made the change:
// - contacts.email / contacts.phone mirror the primary channel of each kind;
// - contacts.client_account_id / company mirror the primary current company link;
// - sort_key is the casefolded display name; updated_at moves with any change, channels and links
//   included;
// - a changed name, email, phone or company reaches every job the person is the main contact of.
import type { Transaction } from 'kysely';
import type { Contact, ContactChannel, DB, Job } from '#db/tables.ts';
import { notFound } from '#platform/errors.ts';
import { isBlank } from '#platform/records.ts';
import { nameKey, truncate } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { saveJobChanges } from '#crm/jobs/service.ts';
import { channelRows, jobsLedBy } from './repo.ts';
import { DEFAULT_LABEL, sortKeyOf, valueKey, type ChannelKind } from './rules.ts';
import type { Flag } from '#db/tables/shared.ts';

export type Trx = Transaction<DB>;

export const contactNotFound = (extra?: Record<string, unknown>) => notFound('Contact not found', extra);

/** The contact row as it now stands, for the answer of a write. */
export async function reload(trx: Trx, id: number): Promise<Contact> {
  return trx.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * Writes `changes` to the contact (only fields that differ), keeps sort_key, bumps updated_at
 * (also when `touch`: a channel or link changed) and carries name, email, phone and company
 * changes to the person's jobs. Returns the contact after the write.
 */
export async function saveContact(
  trx: Trx,
  before: Contact,
  changes: Partial<Contact>,
  touch = false,
): Promise<Contact> {
  const diff: Partial<Contact> = {};
  for (const k of Object.keys(changes) as (keyof Contact)[]) {
    if (changes[k] !== undefined && changes[k] !== before[k]) (diff as Record<string, unknown>)[k] = changes[k];
  }
  if (Object.keys(diff).length === 0 && !touch) return before;
  const after: Contact = { ...before, ...diff };
  after.sort_key = sortKeyOf(after);
  after.updated_at = now();
  await trx
    .updateTable('contacts')
    .set({ ...diff, sort_key: after.sort_key, updated_at: after.updated_at })
    .where('id', '=', before.id)
    .execute();
  await carryToJobs(trx, before, after);
  return after;
}

/**
 * The person's new details on every job they are the main contact of (primary on the job, or
 * the job's linked contact): name, email and phone replace the job's contact fields; a new
 * company links a job that has no customer (and fills a blank company), never replacing one.
 */
async function carryToJobs(trx: Trx, before: Contact, after: Contact): Promise<void> {
  const name = before.name !== after.name;
  const email = before.email !== after.email;
  const phone = before.phone !== after.phone;
  const company = after.client_account_id !== null && before.client_account_id !== after.client_account_id;
  if (!name && !email && !phone && !company) return;
  const jobs = await jobsLedBy(trx, after.firm_id, after.id);
  if (jobs.length === 0) return;
  const account = company ? await findClientAccount(trx, after.firm_id, after.client_account_id!) : undefined;
  for (const job of jobs) {
    const changes: Partial<Job> = {};
    if (name) changes.contact_name = truncate(after.name, 200) ?? null;
    if (email) changes.contact_email = truncate(after.email, 120) ?? null;
    if (phone) changes.contact_phone = after.phone;
    if (account) Object.assign(changes, customerForJob(job, account));
    await saveJobChanges(trx, job, changes);
  }
}

/** Links a job without a customer to `account`, unless the job names a different company. */
export function customerForJob(
  job: Pick<Job, 'client_account_id' | 'company'>,
  account: { id: number; name: string },
): Partial<Job> {
  if (job.client_account_id !== null) return {};
  if (isBlank(job.company)) return { client_account_id: account.id, company: account.name };
  return nameKey(job.company!) === nameKey(account.name) ? { client_account_id: account.id } : {};
}

// ---- channels ------------------------------------------------------------------------------

/**
 * Rows written before channels existed (or by code that sets contacts.email / phone alone) carry
 * their email and phone only on the contact: they become channel rows before any channel edit.
 */
export async function materializeChannels(trx: Trx, contact: Contact): Promise<void> {
  const rows = await channelRows(trx, contact.id);
  for (const kind of ['phone', 'email'] as const) {
    const value = contact[kind];
    if (value && !rows.some((r) => r.kind === kind)) await insertChannel(trx, contact, kind, value, { primary: true });
  }
}

export async function insertChannel(
  trx: Trx,
  contact: Pick<Contact, 'id' | 'firm_id'>,
  kind: ChannelKind,
  value: string,
  o: { primary: boolean; label?: string; doNotContact?: boolean; first?: boolean },
): Promise<ContactChannel> {
  // `first`: the caller knows the person has no channel of this kind yet (a person just made).
  const last = o.first
    ? undefined
    : await trx
        .selectFrom('contact_channels')
        .select((eb) => eb.fn.max('position').as('p'))
        .where('contact_id', '=', contact.id)
        .where('kind', '=', kind)
        .executeTakeFirst();
  const t = now();
  return trx
    .insertInto('contact_channels')
    .values({
      firm_id: contact.firm_id,
      contact_id: contact.id,
      kind,
      label: o.label ?? DEFAULT_LABEL[kind],
      value,
      value_key: valueKey(kind, value),
      is_primary: o.primary ? 1 : 0,
      do_not_contact: o.doNotContact ? 1 : 0,
      position: Number(last?.p ?? -1) + 1,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Makes `channelId` the one primary of its kind. */
export async function makePrimaryChannel(
  trx: Trx,
  contactId: number,
  kind: ChannelKind,
  channelId: number,
): Promise<void> {
  await trx
    .updateTable('contact_channels')
    .set((eb) => ({
      is_primary: eb.case().when('id', '=', channelId).then(eb.lit<Flag>(1)).else(eb.lit<Flag>(0)).end(),
    }))
    .where('contact_id', '=', contactId)
    .where('kind', '=', kind)
    .execute();
}

/**
 * Keeps exactly one primary per kind (the first in order when none is) and returns the primary
 * values the contact mirrors.
 */
export async function primaryValues(
  trx: Trx,
  contactId: number,
): Promise<{ email: string | null; phone: string | null }> {
  const rows = await channelRows(trx, contactId);
  const out = { email: null as string | null, phone: null as string | null };
  for (const kind of ['phone', 'email'] as const) {
    const ofKind = rows.filter((r) => r.kind === kind);
    if (ofKind.length === 0) continue;
    let primary = ofKind.find((r) => r.is_primary === 1);
    if (!primary || ofKind.filter((r) => r.is_primary === 1).length > 1) {
      primary = primary ?? [...ofKind].sort((a, b) => a.position - b.position || a.id - b.id)[0];
      await makePrimaryChannel(trx, contactId, kind, primary.id);
    }
    out[kind] = primary.value;
  }
  return out;
}

/**
 * Sets the primary entry of `kind` as the contact's email or phone field does: null removes the
 * primary (the next becomes primary); a value already on file becomes primary; otherwise the
 * primary's value is replaced, or a first entry is added.
 */
export async function putPrimaryValue(
  trx: Trx,
  contact: Contact,
  kind: ChannelKind,
  value: string | null,
): Promise<void> {
  const rows = (await channelRows(trx, contact.id)).filter((r) => r.kind === kind);
  const primary = rows.find((r) => r.is_primary === 1);
  if (value === null) {
    if (primary) await trx.deleteFrom('contact_channels').where('id', '=', primary.id).execute();
    return;
  }
  const key = valueKey(kind, value);
  const same = rows.find((r) => r.value_key === key);
  if (same && same !== primary) {
    await makePrimaryChannel(trx, contact.id, kind, same.id);
    return;
  }
  if (primary) {
    if (primary.value !== value) {
      await trx
        .updateTable('contact_channels')
        .set({ value, value_key: key, updated_at: now() })
        .where('id', '=', primary.id)
        .execute();
    }
    return;
  }
  await insertChannel(trx, contact, kind, value, { primary: true });
}

// ---- the primary company -------------------------------------------------------------------

/** A primary company set on the contact alone (rows from before links existed) becomes its link. */
export async function materializeCompanyLink(trx: Trx, contact: Contact): Promise<void> {
  if (contact.client_account_id === null) return;
  const link = await trx
    .selectFrom('contact_links')
    .select('id')
    .where('contact_id', '=', contact.id)
    .where('kind', '=', 'company')
    .where('target_id', '=', contact.client_account_id)
    .where('ended_on', 'is', null)
    .executeTakeFirst();
  if (link) return;
  const t = now();
  await trx
    .updateTable('contact_links')
    .set({ is_primary: 0, updated_at: t })
    .where('contact_id', '=', contact.id)
    .where('kind', '=', 'company')
    .where('is_primary', '=', 1)
    .execute();
  await trx
    .insertInto('contact_links')
    .values({
      firm_id: contact.firm_id,
      contact_id: contact.id,
      kind: 'company',
      target_id: contact.client_account_id,
      roles: '[]',
      is_primary: 1,
      started_on: null,
      ended_on: null,
      created_at: t,
      updated_at: t,
    })
    .execute();
}

/**
 * Makes `accountId` the person's primary company (its current link created or marked primary,
 * other company links kept but no longer primary), or with null removes the primary company link.
 * Returns the contact columns that mirror it.
 */
export async function setPrimaryCompany(
  trx: Trx,
  contact: Contact,
  account: { id: number; name: string } | null,
  /** The person was just made, so has no company links yet. */
  isNew = false,
): Promise<Partial<Contact>> {
  const links = isNew
    ? []
    : await trx
        .selectFrom('contact_links')
        .selectAll()
        .where('contact_id', '=', contact.id)
        .where('kind', '=', 'company')
        .where('ended_on', 'is', null)
        .execute();
  if (account === null) {
    const primary = links.filter((l) => l.is_primary === 1 || l.target_id === contact.client_account_id);
    if (primary.length > 0)
      await trx
        .deleteFrom('contact_links')
        .where(
          'id',
          'in',
          primary.map((l) => l.id),
        )
        .execute();
    return { client_account_id: null, company: null };
  }
  const t = now();
  const current = links.find((l) => l.target_id === account.id);
  if (!current) {
    await trx
      .insertInto('contact_links')
      .values({
        firm_id: contact.firm_id,
        contact_id: contact.id,
        kind: 'company',
        target_id: account.id,
        roles: '[]',
        is_primary: 1,
        started_on: null,
        ended_on: null,
        created_at: t,
        updated_at: t,
      })
      .execute();
  }
  for (const l of links) {
    const want = l.target_id === account.id ? 1 : 0;
    if (l.is_primary !== want)
      await trx.updateTable('contact_links').set({ is_primary: want, updated_at: t }).where('id', '=', l.id).execute();
  }
  return { client_account_id: account.id, company: account.name };
}
