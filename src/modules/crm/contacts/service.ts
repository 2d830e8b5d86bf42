// Contacts (document 2, Contact and the Contacts endpoints): list, read, create, update, archive,
// delete and restore. Channels, links and people on jobs live in their own files and share the
// write steps of write.ts.
import type { Contact } from '#db/tables.ts';
import type { Executor } from '#db/dialect.ts';
import type { ServiceContext } from '#platform/context.ts';
import { inWorkspaceTransaction } from '#platform/context.ts';
import { badRequest, notFound } from '#platform/errors.ts';
import { alreadyArchived } from '#platform/records.ts';
import { assertDeletionAllowed, assertOfficeUser } from '#platform/guards.ts';
import { can } from '#platform/permissions.ts';
import { removeObjects } from '#platform/storage/cleanup.ts';
import { now } from '#platform/time.ts';
import { objectsGoingWith } from '#src/area.ts';
import { findClientAccount } from '#crm/client-accounts/repo.ts';
import { upsertClientAccountIn } from '#crm/client-accounts/service.ts';
import { applyCustomFieldValues } from '#crm/custom-fields/values.ts';
import { saveJobChanges } from '#crm/jobs/service.ts';
import { findActiveUser } from '#workspace/index.ts';
import {
  channelRows,
  findContact,
  findContactRow,
  jobsOfContact,
  linkRows,
  listContactRows,
  type ContactFilter,
} from './repo.ts';
import { emailField, emailKey, phoneField } from '#platform/email-phone.ts';
import { PREFERRED_CHANNELS, sortKeyOf } from './rules.ts';
import { channelObject, contactJobObject, contactObject, linkObject, type ChannelView } from './serialize.ts';
import {
  contactNotFound,
  insertChannel,
  materializeChannels,
  putPrimaryValue,
  primaryValues,
  saveContact,
  setPrimaryCompany,
  type Trx,
} from './write.ts';
import type { ContactInput } from './schemas.ts';

const AT_LEAST_ONE = 'Add at least a name, company, email, or phone number.';

/** Trimmed text, with blank meaning none. */
const text = (v: string | null | undefined): string | null | undefined =>
  v === undefined ? undefined : v === null ? null : v.trim() || null;

// ---- reads ---------------------------------------------------------------------------------

/** A person's channels; an email or phone carried only on the contact shows as a v-<kind>-0 entry. */
function channelsFor(contact: Contact, rows: Awaited<ReturnType<typeof channelRows>>): ChannelView[] {
  const out: ChannelView[] = [];
  for (const kind of ['phone', 'email'] as const) {
    const ofKind = rows.filter((r) => r.kind === kind);
    if (ofKind.length > 0) out.push(...ofKind.map(channelObject));
    else if (contact[kind]) {
      out.push({
        id: null,
        ref: `v-${kind}-0`,
        kind,
        label: kind === 'phone' ? 'mobile' : 'work',
        value: contact[kind]!,
        is_primary: true,
        do_not_contact: false,
      });
    }
  }
  return out;
}

/** The full contact: the record with channels, links and the jobs the key's user may see. */
export async function fullContact(ctx: ServiceContext, db: Executor, id: number) {
  const row = await findContactRow(db, ctx.auth.firm.id, id);
  if (!row) throw contactNotFound();
  const [channels, links, jobs] = await Promise.all([
    channelRows(db, id),
    linkRows(db, id),
    jobsOfContact(db, ctx.auth.firm.id, ctx.auth.user, id),
  ]);
  return {
    ...contactObject(row),
    channels: channelsFor(row, channels),
    links: links.map(linkObject),
    jobs: jobs.map(contactJobObject),
  };
}

export function getContact(ctx: ServiceContext, id: number) {
  return fullContact(ctx, ctx.database.db, id);
}

export async function listContacts(
  ctx: ServiceContext,
  filter: Omit<ContactFilter, 'engine'>,
  limit: number,
  offset: number,
) {
  const { rows, total } = await listContactRows(
    ctx.database.db,
    ctx.auth.firm.id,
    ctx.auth.user,
    { ...filter, engine: ctx.database.dialect.engine },
    limit,
    offset,
  );
  return { data: rows.map(contactObject), total };
}

// ---- shared validation ---------------------------------------------------------------------

function cleanPreferredChannel(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v;
  const c = v.trim().toLowerCase();
  if (!(PREFERRED_CHANNELS as readonly string[]).includes(c))
    throw badRequest('Pick call, text or email.', { field: 'preferred_channel' });
  return c;
}

/** Tags: trimmed, blanks dropped, repeats (any case) once. */
function cleanTags(tags: string[]): string[] {
  const out: string[] = [];
  for (const t of tags.map((s) => s.trim()).filter(Boolean)) {
    if (!out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}

/** The salesperson must be an office user of the workspace. */
async function assertSalesperson(db: Executor, firmId: number, userId: number): Promise<void> {
  const user = await findActiveUser(db, firmId, userId);
  if (!user) throw notFound('assigned_user_id does not match a user in this workspace', { field: 'assigned_user_id' });
  if (!can(user, 'office_user')) {
    throw notFound('user is not an office teammate', {
      field: 'assigned_user_id',
      message: 'The salesperson must be an office user, not a crew login',
    });
  }
}

/** The customer named by client_account_id (wins) or company: undefined when neither is sent. */
async function companyOf(
  trx: Trx,
  firmId: number,
  input: ContactInput,
): Promise<{ id: number; name: string } | null | undefined> {
  if (input.client_account_id !== undefined) {
    if (input.client_account_id === null) return null;
    const account = await findClientAccount(trx, firmId, input.client_account_id);
    if (!account) throw notFound('client_account_id not found in this workspace', { field: 'client_account_id' });
    return account;
  }
  if (input.company === undefined) return undefined;
  const name = text(input.company);
  if (!name) return null;
  return (await upsertClientAccountIn(trx, firmId, { name })).account;
}

/** Field changes of a create or update that need no lookups (validated here). */
function plainColumns(input: ContactInput): Partial<Contact> {
  const cols: Partial<Contact> = {};
  for (const f of ['name', 'title', 'contact_type', 'notes', 'do_not_contact_reason'] as const) {
    if (input[f] !== undefined) cols[f] = text(input[f]) ?? null;
  }
  if (input.preferred_channel !== undefined)
    cols.preferred_channel = cleanPreferredChannel(input.preferred_channel) ?? null;
  if (input.do_not_contact !== undefined) {
    cols.do_not_contact = input.do_not_contact ? 1 : 0;
    // The reason belongs to the flag: turning it off clears a reason not sent with it.
    if (!input.do_not_contact && input.do_not_contact_reason === undefined) cols.do_not_contact_reason = null;
  }
  if (input.birthday !== undefined) cols.birthday = input.birthday;
  if (input.tags !== undefined) cols.tags = JSON.stringify(cleanTags(input.tags));
  if (input.assigned_user_id !== undefined) cols.assigned_user_id = input.assigned_user_id;
  return cols;
}

// ---- create --------------------------------------------------------------------------------

/** Creates a person in `trx` (also used when a new person is added to a job). */
export async function createContactIn(ctx: ServiceContext, trx: Trx, input: ContactInput): Promise<Contact> {
  const firmId = ctx.auth.firm.id;
  const email = emailField(input.email, 'email') ?? null;
  const phone = phoneField(input.phone, 'phone') ?? null;
  const cols = plainColumns(input);
  const hasCompany = (input.client_account_id ?? null) !== null || !!text(input.company);
  if (!cols.name && !hasCompany && !email && !phone) throw badRequest(AT_LEAST_ONE, { code: 'contact_empty' });
  if (cols.assigned_user_id) await assertSalesperson(trx, firmId, cols.assigned_user_id);
  const account = await companyOf(trx, firmId, input);
  const custom = await applyCustomFieldValues(trx, firmId, 'contact', {}, input.custom_fields ?? {});

  const t = now();
  const base = {
    name: cols.name ?? null,
    company: account?.name ?? null,
    email,
    phone,
  };
  const contact = await trx
    .insertInto('contacts')
    .values({
      firm_id: firmId,
      ...base,
      client_account_id: account?.id ?? null,
      title: cols.title ?? null,
      contact_type: cols.contact_type ?? null,
      notes: cols.notes ?? null,
      assigned_user_id: cols.assigned_user_id ?? null,
      preferred_channel: cols.preferred_channel ?? null,
      do_not_contact: cols.do_not_contact ?? 0,
      do_not_contact_reason: cols.do_not_contact_reason ?? null,
      birthday: cols.birthday ?? null,
      tags: cols.tags ?? '[]',
      custom_fields: JSON.stringify(custom.values),
      sort_key: sortKeyOf(base),
      archived_at: null,
      created_at: t,
      updated_at: t,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // A person just made has no channels or links to look up first.
  if (phone) await insertChannel(trx, contact, 'phone', phone, { primary: true, first: true });
  if (email) await insertChannel(trx, contact, 'email', email, { primary: true, first: true });
  if (account) await setPrimaryCompany(trx, contact, account, true);
  return contact;
}

export function createContact(ctx: ServiceContext, input: ContactInput) {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await createContactIn(ctx, trx, input);
    return fullContact(ctx, trx, contact.id);
  });
}

/** A saved, live person with this email (any of their emails, any case), for reuse. */
export async function findContactByEmail(db: Executor, firmId: number, email: string): Promise<Contact | undefined> {
  // Driven from the channel index (firm, kind, value), so the look-up costs the same however many people the workspace has.
  return db
    .selectFrom('contact_channels as ch')
    .innerJoin('contacts', 'contacts.id', 'ch.contact_id')
    .selectAll('contacts')
    .where('ch.firm_id', '=', firmId)
    .where('ch.kind', '=', 'email')
    .where('ch.value_key', '=', emailKey(email))
    .where('contacts.archived_at', 'is', null)
    .orderBy('ch.contact_id')
    .limit(1)
    .executeTakeFirst();
}

// ---- update --------------------------------------------------------------------------------

export function updateContact(ctx: ServiceContext, id: number, input: ContactInput) {
  const firmId = ctx.auth.firm.id;
  return inWorkspaceTransaction(ctx, async (trx) => {
    const existing = await findContact(trx, firmId, id);
    if (!existing) throw contactNotFound();
    const email = emailField(input.email, 'email');
    const phone = phoneField(input.phone, 'phone');
    const cols = plainColumns(input);
    if (cols.assigned_user_id && cols.assigned_user_id !== existing.assigned_user_id)
      await assertSalesperson(trx, firmId, cols.assigned_user_id);
    const account = await companyOf(trx, firmId, input);

    const result = {
      name: cols.name !== undefined ? cols.name : existing.name,
      email: email !== undefined ? email : existing.email,
      phone: phone !== undefined ? phone : existing.phone,
      company: account !== undefined ? account : (existing.client_account_id ?? existing.company),
    };
    if (!result.name && !result.email && !result.phone && !result.company)
      throw badRequest(AT_LEAST_ONE, { code: 'contact_empty' });
    if (input.custom_fields !== undefined) {
      const custom = await applyCustomFieldValues(
        trx,
        firmId,
        'contact',
        JSON.parse(existing.custom_fields),
        input.custom_fields,
      );
      cols.custom_fields = JSON.stringify(custom.values);
    }

    await materializeChannels(trx, existing);
    if (email !== undefined) await putPrimaryValue(trx, existing, 'email', email);
    if (phone !== undefined) await putPrimaryValue(trx, existing, 'phone', phone);
    Object.assign(cols, await primaryValues(trx, id));
    if (account !== undefined) Object.assign(cols, await setPrimaryCompany(trx, existing, account));
    await saveContact(trx, existing, cols);
    return fullContact(ctx, trx, id);
  });
}

// ---- archive, delete, restore --------------------------------------------------------------

/** Archives the person (default), or with `hard` deletes them and what hangs only on them. */
export async function deleteContact(ctx: ServiceContext, id: number, hard: boolean): Promise<void> {
  const firmId = ctx.auth.firm.id;
  const objects = await inWorkspaceTransaction(ctx, async (trx): Promise<string[]> => {
    const contact = await findContact(trx, firmId, id);
    if (!contact) throw contactNotFound();
    // Archiving is a DELETE too (it needs Delete records), so the lock refuses it like a hard delete.
    assertDeletionAllowed(ctx);
    if (!hard) {
      if (contact.archived_at !== null) throw alreadyArchived(contactNotFound());
      await saveContact(trx, contact, { archived_at: now() });
      return [];
    }
    assertOfficeUser(ctx, 'Deleting a person needs an office user; a crew login is refused');
    // Jobs keep their own contact fields; only the link to the person goes.
    const linked = await trx
      .selectFrom('jobs')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('linked_contact_id', '=', id)
      .execute();
    for (const job of linked) await saveJobChanges(trx, job, { linked_contact_id: null });
    await trx.deleteFrom('job_contacts').where('contact_id', '=', id).execute();
    for (const table of ['activities', 'tasks', 'account_tasks'] as const) {
      await trx
        .updateTable(table)
        .set({ contact_id: null })
        .where('firm_id', '=', firmId)
        .where('contact_id', '=', id)
        .execute();
    }
    await trx.deleteFrom('notes').where('firm_id', '=', firmId).where('contact_id', '=', id).execute();
    await trx.deleteFrom('contact_channels').where('contact_id', '=', id).execute();
    await trx.deleteFrom('contact_links').where('contact_id', '=', id).execute();
    // The person's own files go with them (by cascade); their objects after the commit.
    const keys = await objectsGoingWith('contact', trx, firmId, id);
    await trx.deleteFrom('contacts').where('id', '=', id).execute();
    return keys;
  });
  await removeObjects(ctx.deps.storage, objects);
}

export function restoreContact(ctx: ServiceContext, id: number) {
  return inWorkspaceTransaction(ctx, async (trx) => {
    const contact = await findContact(trx, ctx.auth.firm.id, id);
    if (!contact) throw contactNotFound();
    if (contact.archived_at !== null) await saveContact(trx, contact, { archived_at: null });
    return fullContact(ctx, trx, id);
  });
}

export type { ContactInput };
