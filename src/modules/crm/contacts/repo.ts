// Contact queries. Every read is scoped to the workspace; jobs shown on a person are only those
// the key's user may see.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';
import type { Contact, ContactChannel, DB, Job, JobContactTable, User } from '#db/tables.ts';
import { CASEFOLD_FUNCTION, containsText } from '#db/text-search.ts';
import { onVisibleJob, visibleTo } from '#crm/jobs/access.ts';
import { emailKey } from '#platform/email-phone.ts';
import { syncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';

/** A contact row with its primary company's name (client_account.name). */
export type ContactRow = Contact & { ca_name: string | null };

function withCompany(db: Executor) {
  return db
    .selectFrom('contacts')
    .leftJoin('client_accounts as ca', 'ca.id', 'contacts.client_account_id')
    .selectAll('contacts')
    .select('ca.name as ca_name');
}

export async function findContactRow(db: Executor, firmId: number, id: number): Promise<ContactRow | undefined> {
  return withCompany(db).where('contacts.firm_id', '=', firmId).where('contacts.id', '=', id).executeTakeFirst();
}

export function findContact(db: Executor, firmId: number, id: number): Promise<Contact | undefined> {
  return db.selectFrom('contacts').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
}

export interface ContactFilter {
  q?: string;
  email?: string;
  clientAccountId?: number;
  jobId?: number;
  contactType?: string;
  includeArchived?: boolean;
  updatedAfter?: SyncWindow;
  engine: Engine;
}

const lowered = (column: string, engine: Engine) =>
  engine === 'postgres' ? sql`lower(${sql.ref(column)})` : sql`${sql.raw(CASEFOLD_FUNCTION)}(${sql.ref(column)})`;

function applyFilter<O>(
  qb: SelectQueryBuilder<DB, any, O>,
  firmId: number,
  user: User,
  f: ContactFilter,
  rest?: GroupRest,
): SelectQueryBuilder<DB, any, O> {
  if (!f.includeArchived) qb = qb.where('contacts.archived_at', 'is', null);
  if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'contacts', f.updatedAfter, rest);
  if (f.contactType !== undefined)
    qb = qb.where(lowered('contacts.contact_type', f.engine), '=', f.contactType.trim().toLowerCase());
  if (f.q) {
    const q = f.q;
    const digits = /^[\d\s().+-]+$/.test(q) ? q.replace(/\D/g, '') : '';
    qb = qb.where((eb) =>
      eb.or([
        containsText(
          ['contacts.name', 'contacts.company', 'contacts.title', 'contacts.email', 'contacts.phone'],
          q,
          f.engine,
        ) as any,
        eb.exists(
          eb
            .selectFrom('contact_channels as ch')
            .select('ch.id')
            .whereRef('ch.contact_id', '=', 'contacts.id')
            .where((e2) =>
              digits.length >= 3
                ? e2.or([containsText(['ch.value'], q, f.engine) as any, e2('ch.value_key', 'like', `%${digits}%`)])
                : (containsText(['ch.value'], q, f.engine) as any),
            ),
        ),
      ]),
    );
  }
  if (f.email !== undefined) {
    const key = emailKey(f.email);
    qb = qb.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('contact_channels as ce')
            .select('ce.id')
            .whereRef('ce.contact_id', '=', 'contacts.id')
            .where('ce.kind', '=', 'email')
            .where('ce.value_key', '=', key),
        ),
        // Rows written before channels existed carry only contacts.email.
        eb(lowered('contacts.email', f.engine), '=', key),
      ]),
    );
  }
  if (f.clientAccountId !== undefined) {
    const id = f.clientAccountId;
    qb = qb.where((eb) =>
      eb.or([
        eb('contacts.client_account_id', '=', id),
        eb.exists(
          eb
            .selectFrom('contact_links as cl')
            .select('cl.id')
            .whereRef('cl.contact_id', '=', 'contacts.id')
            .where('cl.kind', '=', 'company')
            .where('cl.target_id', '=', id)
            .where('cl.ended_on', 'is', null),
        ),
      ]),
    );
  }
  if (f.jobId !== undefined) {
    const jobId = f.jobId;
    qb = qb.where((eb) =>
      eb.exists(
        eb
          .selectFrom('job_contacts as jc')
          .select('jc.job_id')
          .whereRef('jc.contact_id', '=', 'contacts.id')
          .where('jc.job_id', '=', jobId)
          .where(
            'jc.job_id',
            'in',
            visibleTo(
              eb.selectFrom('jobs').select('jobs.id').where('jobs.firm_id', '=', firmId).where('jobs.id', '=', jobId),
              user,
            ),
          ),
      ),
    );
  }
  return qb;
}

export async function listContactRows(
  db: Executor,
  firmId: number,
  user: User,
  f: ContactFilter,
  limit: number,
  offset: number,
) {
  const rows = (rest?: GroupRest) =>
    applyFilter(withCompany(db).where('contacts.firm_id', '=', firmId), firmId, user, f, rest);
  const count = applyFilter(db.selectFrom('contacts').where('contacts.firm_id', '=', firmId), firmId, user, f).select(
    (eb) => eb.fn.countAll<number>().as('n'),
  );
  const window = f.updatedAfter;
  const data =
    window !== undefined
      ? syncPage(window, { limit, offset }, (rest) => {
          const sorted = rows(rest).orderBy('contacts.updated_at').orderBy('contacts.id');
          return (rest ? sorted : sorted.limit(limit).offset(offset)).execute();
        })
      : rows().orderBy('contacts.sort_key').orderBy('contacts.id').limit(limit).offset(offset).execute();
  const [page, n] = await Promise.all([data, count.executeTakeFirstOrThrow()]);
  return { rows: page as ContactRow[], total: Number(n.n) };
}

// ---- channels ------------------------------------------------------------------------------

/** A person's channels: phones then emails, each kind primary first, then in the order added. */
export function channelRows(db: Executor, contactId: number): Promise<ContactChannel[]> {
  return db
    .selectFrom('contact_channels')
    .selectAll()
    .where('contact_id', '=', contactId)
    .orderBy(sql`case when kind = 'phone' then 0 else 1 end`)
    .orderBy('is_primary', 'desc')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

// ---- links ---------------------------------------------------------------------------------

export type LinkRow = import('#db/tables.ts').ContactLink & { target_name: string | null };

/** Links with their company or site name: current first, companies before sites, primary first. */
export function linkRows(db: Executor, contactId: number): Promise<LinkRow[]> {
  return db
    .selectFrom('contact_links as l')
    .leftJoin('client_accounts as ca', (j) => j.onRef('ca.id', '=', 'l.target_id').on('l.kind', '=', 'company'))
    .leftJoin('locations as lo', (j) => j.onRef('lo.id', '=', 'l.target_id').on('l.kind', '=', 'location'))
    .selectAll('l')
    .select(sql<string | null>`coalesce(ca.name, lo.name)`.as('target_name'))
    .where('l.contact_id', '=', contactId)
    .orderBy(sql`case when l.ended_on is null then 0 else 1 end`)
    .orderBy(sql`case when l.kind = 'company' then 0 else 1 end`)
    .orderBy('l.is_primary', 'desc')
    .orderBy('l.id')
    .execute() as Promise<LinkRow[]>;
}

// ---- jobs ----------------------------------------------------------------------------------

/** The jobs a person is on that `user` may see, newest job first. */
export function jobsOfContact(db: Executor, firmId: number, user: User, contactId: number) {
  const qb = db
    .selectFrom('job_contacts as jc')
    .innerJoin('jobs', 'jobs.id', 'jc.job_id')
    .select(['jc.job_id', 'jobs.name', 'jobs.status', 'jc.role', 'jc.is_primary', 'jc.bills_separately'])
    .where('jc.contact_id', '=', contactId)
    .where('jobs.firm_id', '=', firmId);
  return onVisibleJob(qb, 'jc.job_id', firmId, user).orderBy('jc.job_id', 'desc').execute();
}

/** Every job the person is the main contact of: primary on the job, or the job's linked contact. */
export function jobsLedBy(db: Executor, firmId: number, contactId: number): Promise<Job[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where((eb) =>
      eb.or([
        eb('linked_contact_id', '=', contactId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('job_contacts')
            .select('job_id')
            .where('contact_id', '=', contactId)
            .where('is_primary', '=', 1),
        ),
      ]),
    )
    .orderBy('id')
    .execute();
}

export type PersonOnJob = JobContactTable & {
  c_id: number;
  c_name: string | null;
  c_title: string | null;
  c_contact_type: string | null;
  c_email: string | null;
  c_phone: string | null;
  c_company: string | null;
  c_client_account_id: number | null;
  c_archived_at: string | null;
  c_updated_at: string;
  c_sort_key: string;
};

export function peopleOnJob(db: Executor, jobId: number, contactId?: number): Promise<PersonOnJob[]> {
  let qb = db
    .selectFrom('job_contacts as jc')
    .innerJoin('contacts as c', 'c.id', 'jc.contact_id')
    .selectAll('jc')
    .select([
      'c.id as c_id',
      'c.name as c_name',
      'c.title as c_title',
      'c.contact_type as c_contact_type',
      'c.email as c_email',
      'c.phone as c_phone',
      'c.company as c_company',
      'c.client_account_id as c_client_account_id',
      'c.archived_at as c_archived_at',
      'c.updated_at as c_updated_at',
      'c.sort_key as c_sort_key',
    ])
    .where('jc.job_id', '=', jobId);
  if (contactId !== undefined) qb = qb.where('jc.contact_id', '=', contactId);
  return qb.execute() as Promise<PersonOnJob[]>;
}

// ---- a company's people --------------------------------------------------------------------

/** People with a current link to the company or whose primary company it is, A to Z. */
export async function companyPeople(
  db: Executor,
  firmId: number,
  accountId: number,
  includeArchived: boolean,
  limit: number,
  offset: number,
) {
  const base = (qb: SelectQueryBuilder<DB, 'contacts', {}>) => {
    let out = qb
      .where('contacts.firm_id', '=', firmId)
      .where((eb) =>
        eb.or([
          eb('contacts.client_account_id', '=', accountId),
          eb.exists(
            eb
              .selectFrom('contact_links as cl')
              .select('cl.id')
              .whereRef('cl.contact_id', '=', 'contacts.id')
              .where('cl.kind', '=', 'company')
              .where('cl.target_id', '=', accountId)
              .where('cl.ended_on', 'is', null),
          ),
        ]),
      );
    if (!includeArchived) out = out.where('contacts.archived_at', 'is', null);
    return out;
  };
  const rows = base(db.selectFrom('contacts'))
    .leftJoin('client_accounts as ca', 'ca.id', 'contacts.client_account_id')
    .leftJoin('contact_links as link', (j) =>
      j
        .onRef('link.contact_id', '=', 'contacts.id')
        .on('link.kind', '=', 'company')
        .on('link.target_id', '=', accountId)
        .on('link.ended_on', 'is', null),
    )
    .selectAll('contacts')
    .select([
      'ca.name as ca_name',
      'link.roles as link_roles',
      'link.is_primary as link_is_primary',
      'link.started_on as link_started_on',
    ])
    .orderBy('contacts.sort_key')
    .orderBy('contacts.id')
    .limit(limit)
    .offset(offset);
  const count = base(db.selectFrom('contacts')).select((eb) => eb.fn.countAll<number>().as('n'));
  const [data, n] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
  return {
    rows: data as (ContactRow & {
      link_roles: string | null;
      link_is_primary: number | null;
      link_started_on: string | null;
    })[],
    total: Number(n.n),
  };
}
