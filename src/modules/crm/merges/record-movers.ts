// The CRM area's merge movers for customers, sites and contacts: jobs, sites, contacts, contact
// links, channels, notes, activities and follow-ups. Later areas list theirs in their own
// manifests (src/area.ts, `mergeMovers`).
import type { Transaction } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { ContactChannel, ContactLink, DB, Job } from '#db/tables.ts';
import { nameKey } from '#platform/text.ts';
import { now } from '#platform/time.ts';
import { saveJobChanges } from '#crm/jobs/service.ts';
import type { MergeMover, MergeScope } from '#src/area.ts';

type Trx = Transaction<DB>;

/** Tables whose rows point at a customer or a person through one column, and carry updated_at. */
type PointerTable = 'locations' | 'notes' | 'activities' | 'tasks' | 'account_tasks';
type PointerColumn = 'client_account_id' | 'contact_id';

async function countRows(
  db: Executor,
  table: PointerTable,
  column: PointerColumn,
  firmId: number,
  fromId: number,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where(column, '=', fromId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function pointerMover(label: string, table: PointerTable, column: PointerColumn): MergeMover {
  return {
    label,
    count: (db, fromId, scope) => countRows(db, table, column, scope.firmId, fromId),
    async move(trx, fromId, toId, scope) {
      await trx
        .updateTable(table)
        .set({ [column]: toId, updated_at: now() } as never)
        .where('firm_id', '=', scope.firmId)
        .where(column, '=', fromId)
        .execute();
    },
  };
}

// ---- jobs: through saveJobChanges, so updated_at moves and job_updated is recorded -----------

function jobsWhere(
  db: Executor,
  firmId: number,
  column: 'client_account_id' | 'location_id' | 'linked_contact_id',
  id: number,
): Promise<Job[]> {
  return db.selectFrom('jobs').selectAll().where('firm_id', '=', firmId).where(column, '=', id).orderBy('id').execute();
}

async function countJobs(
  db: Executor,
  firmId: number,
  column: 'client_account_id' | 'location_id',
  id: number,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- contact links: retargeted, twins collapsed (roles combine), one current primary per kind --

function rolesOf(link: ContactLink): string[] {
  try {
    const roles = JSON.parse(link.roles) as unknown;
    return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/**
 * Points `links` at `to` (a new person or a new company/site). A current link whose person
 * already has a current link to the same target is folded into it: roles combine, the earlier
 * start wins, primary if either was. Afterwards each person touched keeps one current primary
 * link per kind, preferring the links they had before the merge.
 */
async function moveLinks(
  trx: Trx,
  links: ContactLink[],
  to: { contact_id?: number; target_id?: number },
): Promise<void> {
  const t = now();
  const moved = new Set(links.map((l) => l.id));
  const touched = new Map<string, { contactId: number; kind: ContactLink['kind'] }>();
  for (const link of links) {
    const contactId = to.contact_id ?? link.contact_id;
    const targetId = to.target_id ?? link.target_id;
    touched.set(`${contactId}:${link.kind}`, { contactId, kind: link.kind });
    const twin =
      link.ended_on !== null
        ? undefined
        : await trx
            .selectFrom('contact_links')
            .selectAll()
            .where('contact_id', '=', contactId)
            .where('kind', '=', link.kind)
            .where('target_id', '=', targetId)
            .where('ended_on', 'is', null)
            .where('id', '!=', link.id)
            .executeTakeFirst();
    if (twin) {
      const roles = [...rolesOf(twin)];
      for (const r of rolesOf(link)) if (!roles.includes(r)) roles.push(r);
      await trx
        .updateTable('contact_links')
        .set({
          roles: JSON.stringify(roles),
          is_primary: twin.is_primary || link.is_primary ? 1 : 0,
          started_on: earlier(twin.started_on, link.started_on),
          updated_at: t,
        })
        .where('id', '=', twin.id)
        .execute();
      await trx.deleteFrom('contact_links').where('id', '=', link.id).execute();
      continue;
    }
    await trx
      .updateTable('contact_links')
      .set({ contact_id: contactId, target_id: targetId, updated_at: t })
      .where('id', '=', link.id)
      .execute();
  }
  for (const { contactId, kind } of touched.values()) {
    const primaries = await trx
      .selectFrom('contact_links')
      .select('id')
      .where('contact_id', '=', contactId)
      .where('kind', '=', kind)
      .where('ended_on', 'is', null)
      .where('is_primary', '=', 1)
      .orderBy('id')
      .execute();
    if (primaries.length < 2) continue;
    const stay = primaries.find((p) => !moved.has(p.id)) ?? primaries[0];
    await trx
      .updateTable('contact_links')
      .set({ is_primary: 0, updated_at: t })
      .where(
        'id',
        'in',
        primaries.filter((p) => p.id !== stay.id).map((p) => p.id),
      )
      .execute();
  }
}

function targetLinks(
  db: Executor,
  firmId: number,
  kind: ContactLink['kind'],
  targetId: number,
): Promise<ContactLink[]> {
  return db
    .selectFrom('contact_links')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute();
}

function linkTargetMover(linkKind: ContactLink['kind']): MergeMover {
  return {
    label: 'contact links',
    count: async (db, fromId, scope) => (await targetLinks(db, scope.firmId, linkKind, fromId)).length,
    move: async (trx, fromId, toId, scope) =>
      moveLinks(trx, await targetLinks(trx, scope.firmId, linkKind, fromId), { target_id: toId }),
  };
}

// ---- customers ---------------------------------------------------------------------------

/** The company text of a row that named the merged-away customer names the kept one. */
function renamedCompany(company: string | null, scope: MergeScope): string | null {
  return company !== null && nameKey(company) === nameKey(scope.awayName) ? scope.keptName : company;
}

const customerJobs: MergeMover = {
  label: 'jobs',
  count: (db, fromId, scope) => countJobs(db, scope.firmId, 'client_account_id', fromId),
  async move(trx, fromId, toId, scope) {
    for (const job of await jobsWhere(trx, scope.firmId, 'client_account_id', fromId)) {
      await saveJobChanges(trx, job, { client_account_id: toId, company: renamedCompany(job.company, scope) });
    }
  },
};
const customerContacts: MergeMover = {
  label: 'contacts',
  async count(db, fromId, scope) {
    const row = await db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('firm_id', '=', scope.firmId)
      .where('client_account_id', '=', fromId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
  async move(trx, fromId, toId, scope) {
    // contacts.company mirrors the primary company's name.
    await trx
      .updateTable('contacts')
      .set({ client_account_id: toId, company: scope.keptName, updated_at: now() })
      .where('firm_id', '=', scope.firmId)
      .where('client_account_id', '=', fromId)
      .execute();
  },
};

/** A customer merge, in preview order. */
export const customerMergeMovers: readonly MergeMover[] = [
  customerJobs,
  pointerMover('sites', 'locations', 'client_account_id'),
  customerContacts,
  linkTargetMover('company'),
  pointerMover('notes', 'notes', 'client_account_id'),
  pointerMover('activities', 'activities', 'client_account_id'),
  pointerMover('company follow-ups', 'account_tasks', 'client_account_id'),
];

// ---- sites -------------------------------------------------------------------------------

const siteJobs: MergeMover = {
  label: 'jobs',
  count: (db, fromId, scope) => countJobs(db, scope.firmId, 'location_id', fromId),
  async move(trx, fromId, toId, scope) {
    // The job keeps its own address; only the site link changes.
    for (const job of await jobsWhere(trx, scope.firmId, 'location_id', fromId)) {
      await saveJobChanges(trx, job, { location_id: toId });
    }
  },
};

/** A site merge, in preview order. */
export const siteMergeMovers: readonly MergeMover[] = [siteJobs, linkTargetMover('location')];

// ---- contacts ----------------------------------------------------------------------------

async function jobIdsOfPerson(db: Executor, firmId: number, contactId: number): Promise<Set<number>> {
  const onJobs = await db
    .selectFrom('job_contacts')
    .innerJoin('jobs', 'jobs.id', 'job_contacts.job_id')
    .select('job_contacts.job_id as id')
    .where('jobs.firm_id', '=', firmId)
    .where('job_contacts.contact_id', '=', contactId)
    .execute();
  const linked = await db
    .selectFrom('jobs')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('linked_contact_id', '=', contactId)
    .execute();
  return new Set([...onJobs, ...linked].map((r) => r.id));
}

const personJobs: MergeMover = {
  label: 'jobs',
  count: async (db, fromId, scope) => (await jobIdsOfPerson(db, scope.firmId, fromId)).size,
  async move(trx, fromId, toId, scope) {
    const rows = await trx
      .selectFrom('job_contacts')
      .innerJoin('jobs', 'jobs.id', 'job_contacts.job_id')
      .selectAll('job_contacts')
      .where('jobs.firm_id', '=', scope.firmId)
      .where('job_contacts.contact_id', '=', fromId)
      .execute();
    for (const row of rows) {
      const twin = await trx
        .selectFrom('job_contacts')
        .selectAll()
        .where('job_id', '=', row.job_id)
        .where('contact_id', '=', toId)
        .executeTakeFirst();
      if (twin) {
        // Already on the job: one row stays, primary or billing separately if either was.
        await trx
          .updateTable('job_contacts')
          .set({
            is_primary: twin.is_primary || row.is_primary ? 1 : 0,
            bills_separately: twin.bills_separately || row.bills_separately ? 1 : 0,
            role: twin.role ?? row.role,
          })
          .where('job_id', '=', row.job_id)
          .where('contact_id', '=', toId)
          .execute();
        await trx
          .deleteFrom('job_contacts')
          .where('job_id', '=', row.job_id)
          .where('contact_id', '=', fromId)
          .execute();
      } else {
        await trx
          .updateTable('job_contacts')
          .set({ contact_id: toId })
          .where('job_id', '=', row.job_id)
          .where('contact_id', '=', fromId)
          .execute();
      }
    }
    for (const job of await jobsWhere(trx, scope.firmId, 'linked_contact_id', fromId)) {
      await saveJobChanges(trx, job, { linked_contact_id: toId });
    }
  },
};

function channelsOf(db: Executor, contactId: number): Promise<ContactChannel[]> {
  return db
    .selectFrom('contact_channels')
    .selectAll()
    .where('contact_id', '=', contactId)
    .orderBy('kind')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

const sameChannel = (a: ContactChannel, b: ContactChannel) => a.kind === b.kind && a.value_key === b.value_key;

const personChannels: MergeMover = {
  label: 'phones and emails',
  async count(db, fromId, scope) {
    const kept = await channelsOf(db, scope.keptId);
    return (await channelsOf(db, fromId)).filter((c) => !kept.some((k) => sameChannel(k, c))).length;
  },
  /**
   * The merged-away person's channels move as extra (non-primary) channels, except one the kept
   * person already has. The primary phone and email follow the field choice: keep leaves the
   * merged-away one behind, drop replaces the kept one (which is removed), both adds it as an
   * extra channel. Each kind keeps exactly one primary when it has any channel.
   */
  async move(trx, fromId, toId, scope) {
    const t = now();
    const kept = await channelsOf(trx, toId);
    const away = await channelsOf(trx, fromId);
    let position = kept.reduce((m, c) => Math.max(m, c.position), 0);
    for (const kind of ['phone', 'email'] as const) {
      const choice = scope.choices[kind];
      let keptPrimary = kept.find((c) => c.kind === kind && c.is_primary === 1);
      const awayPrimary = away.find((c) => c.kind === kind && c.is_primary === 1);
      if (choice === 'drop' && keptPrimary) {
        await trx.deleteFrom('contact_channels').where('id', '=', keptPrimary.id).execute();
        kept.splice(kept.indexOf(keptPrimary), 1);
        keptPrimary = undefined;
      }
      const promote =
        awayPrimary && (choice === 'drop' || (choice === 'both' && !keptPrimary)) ? awayPrimary : undefined;
      for (const ch of away.filter((c) => c.kind === kind)) {
        if (choice === 'keep' && ch === awayPrimary) continue;
        const twin = kept.find((k) => sameChannel(k, ch));
        const target = twin ?? ch;
        if (!twin) {
          await trx
            .updateTable('contact_channels')
            .set({ contact_id: toId, is_primary: 0, position: ++position, updated_at: t })
            .where('id', '=', ch.id)
            .execute();
          kept.push({ ...ch, contact_id: toId, is_primary: 0 });
        }
        if (ch === promote) {
          await trx
            .updateTable('contact_channels')
            .set({ is_primary: 0, updated_at: t })
            .where('contact_id', '=', toId)
            .where('kind', '=', kind)
            .where('id', '!=', target.id)
            .where('is_primary', '=', 1)
            .execute();
          await trx
            .updateTable('contact_channels')
            .set({ is_primary: 1, updated_at: t })
            .where('id', '=', target.id)
            .execute();
        }
      }
      const after = await trx
        .selectFrom('contact_channels')
        .select(['id', 'is_primary'])
        .where('contact_id', '=', toId)
        .where('kind', '=', kind)
        .orderBy('position')
        .orderBy('id')
        .execute();
      if (after.length > 0 && !after.some((c) => c.is_primary === 1)) {
        await trx
          .updateTable('contact_channels')
          .set({ is_primary: 1, updated_at: t })
          .where('id', '=', after[0].id)
          .execute();
      }
    }
  },
};

function personLinks(db: Executor, contactId: number): Promise<ContactLink[]> {
  return db.selectFrom('contact_links').selectAll().where('contact_id', '=', contactId).orderBy('id').execute();
}

/** A contact merge, in preview order. */
export const contactMergeMovers: readonly MergeMover[] = [
  personJobs,
  personChannels,
  {
    label: 'company and site links',
    count: async (db, fromId) => (await personLinks(db, fromId)).length,
    move: async (trx, fromId, toId) => moveLinks(trx, await personLinks(trx, fromId), { contact_id: toId }),
  },
  pointerMover('notes', 'notes', 'contact_id'),
  pointerMover('activities', 'activities', 'contact_id'),
  pointerMover('job follow-ups', 'tasks', 'contact_id'),
  pointerMover('company follow-ups', 'account_tasks', 'contact_id'),
];
