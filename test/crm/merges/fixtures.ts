// Rows the merge tests need from areas built alongside (contacts, channels, links, notes,
// activities, follow-ups, custom field definitions), inserted directly (schema: 003_people.ts).
import type { Database } from '#db/database.ts';
import type { CustomFieldEntity } from '#db/tables.ts';
import type { Client } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import type { Flag } from '#db/tables.ts';

const T = '2026-01-01T00:00:00.000000';

export interface ContactFields {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  client_account_id?: number | null;
  title?: string | null;
  contact_type?: string | null;
  notes?: string | null;
  assigned_user_id?: number | null;
  preferred_channel?: string | null;
  birthday?: string | null;
  do_not_contact?: Flag;
  do_not_contact_reason?: string | null;
  tags?: string[];
  custom_fields?: Record<string, unknown>;
}

/** A contact with its email and phone as primary channels (as the contacts area keeps them). */
export async function contact(db: Database, firmId: number, f: ContactFields): Promise<number> {
  const { tags, custom_fields, ...cols } = f;
  const row = await db.db
    .insertInto('contacts')
    .values({
      firm_id: firmId,
      name: null,
      email: null,
      phone: null,
      company: null,
      client_account_id: null,
      title: null,
      contact_type: null,
      notes: null,
      assigned_user_id: null,
      preferred_channel: null,
      birthday: null,
      do_not_contact_reason: null,
      archived_at: null,
      created_at: T,
      updated_at: T,
      ...cols,
      tags: JSON.stringify(tags ?? []),
      custom_fields: JSON.stringify(custom_fields ?? {}),
      sort_key: (f.name ?? '').toLowerCase(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (f.phone) await channel(db, firmId, row.id, 'phone', f.phone, { primary: true });
  if (f.email) await channel(db, firmId, row.id, 'email', f.email, { primary: true });
  return row.id;
}

const keyOf = (kind: 'phone' | 'email', value: string) =>
  kind === 'email' ? value.trim().toLowerCase() : value.replace(/\D/g, '');

export async function channel(
  db: Database,
  firmId: number,
  contactId: number,
  kind: 'phone' | 'email',
  value: string,
  o: { primary?: boolean; label?: string } = {},
): Promise<number> {
  const last = await db.db
    .selectFrom('contact_channels')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('contact_id', '=', contactId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  const row = await db.db
    .insertInto('contact_channels')
    .values({
      firm_id: firmId,
      contact_id: contactId,
      kind,
      label: o.label ?? (kind === 'phone' ? 'mobile' : 'work'),
      value,
      value_key: keyOf(kind, value),
      is_primary: o.primary ? 1 : 0,
      do_not_contact: 0,
      position: Number(last?.p ?? -1) + 1,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function link(
  db: Database,
  firmId: number,
  contactId: number,
  kind: 'company' | 'location',
  targetId: number,
  o: { roles?: string[]; primary?: boolean; started_on?: string | null; ended_on?: string | null } = {},
): Promise<number> {
  const row = await db.db
    .insertInto('contact_links')
    .values({
      firm_id: firmId,
      contact_id: contactId,
      kind,
      target_id: targetId,
      roles: JSON.stringify(o.roles ?? []),
      is_primary: o.primary ? 1 : 0,
      started_on: o.started_on ?? null,
      ended_on: o.ended_on ?? null,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function note(
  db: Database,
  firmId: number,
  on: { job_id?: number; contact_id?: number; client_account_id?: number },
  content = 'A note',
): Promise<number> {
  const row = await db.db
    .insertInto('notes')
    .values({
      firm_id: firmId,
      job_id: on.job_id ?? null,
      contact_id: on.contact_id ?? null,
      client_account_id: on.client_account_id ?? null,
      type: 'note',
      content,
      pinned: 0,
      author_user_id: null,
      occurred_at: T,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function activity(
  db: Database,
  firmId: number,
  on: { contact_id?: number; client_account_id?: number },
  externalId: string,
): Promise<number> {
  const row = await db.db
    .insertInto('activities')
    .values({
      firm_id: firmId,
      type: 'call',
      subject: 'Called',
      body: null,
      outcome: null,
      direction: null,
      duration_seconds: null,
      source: 'test',
      external_id: externalId,
      job_id: null,
      client_account_id: on.client_account_id ?? null,
      contact_id: on.contact_id ?? null,
      lead_id: null,
      user_id: null,
      occurred_at: T,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function task(
  db: Database,
  firmId: number,
  jobId: number,
  contactId: number,
  userId: number,
): Promise<number> {
  const row = await db.db
    .insertInto('tasks')
    .values({
      firm_id: firmId,
      job_id: jobId,
      contact_id: contactId,
      title: 'Call back',
      task_type: 'call',
      notes: null,
      due_at: null,
      status: 'open',
      assigned_to_user_id: userId,
      created_by_user_id: null,
      completed_at: null,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function accountTask(
  db: Database,
  firmId: number,
  accountId: number,
  userId: number,
  contactId: number | null = null,
): Promise<number> {
  const row = await db.db
    .insertInto('account_tasks')
    .values({
      firm_id: firmId,
      client_account_id: accountId,
      contact_id: contactId,
      title: 'Check in',
      task_type: 'call',
      notes: null,
      due_at: null,
      repeat: 'none',
      email_me: 'none',
      status: 'open',
      assigned_to_user_id: userId,
      created_by_user_id: null,
      completed_at: null,
      created_at: T,
      updated_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function customField(
  db: Database,
  firmId: number,
  entity: CustomFieldEntity,
  key: string,
  label: string,
): Promise<void> {
  await db.db
    .insertInto('custom_field_definitions')
    .values({
      firm_id: firmId,
      entity_type: entity,
      key,
      label,
      label_key: label.toLowerCase(),
      field_type: 'text',
      options: '[]',
      required: 0,
      filterable: 0,
      show_as_flag: 0,
      section: 'notes',
      position: 0,
      archived_at: null,
      created_at: T,
      updated_at: T,
    })
    .execute();
}

export async function setCustomValues(
  db: Database,
  table: 'client_accounts' | 'locations' | 'contacts',
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  await db.db
    .updateTable(table)
    .set({ custom_fields: JSON.stringify(values) })
    .where('id', '=', id)
    .execute();
}

export function row<
  T extends
    | 'contacts'
    | 'contact_links'
    | 'notes'
    | 'activities'
    | 'tasks'
    | 'account_tasks'
    | 'contact_channels'
    | 'locations'
    | 'client_accounts',
>(db: Database, table: T, id: number) {
  return db.db
    .selectFrom(table as 'contacts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst() as Promise<any>;
}

export function channelsOf(db: Database, contactId: number) {
  return db.db
    .selectFrom('contact_channels')
    .selectAll()
    .where('contact_id', '=', contactId)
    .orderBy('kind')
    .orderBy('position')
    .execute();
}

export function linksOf(db: Database, contactId: number) {
  return db.db.selectFrom('contact_links').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();
}

export async function lockDeletion(admin: Client, firmId: number): Promise<void> {
  await ok(admin.patch(`/admin/v1/workspaces/${firmId}`, { settings: { deletion_locked: true } }));
}
