// Job queries. Every read joins what the job object shows (owner, stage label, customer and site
// refs) in one statement, and every query is scoped to the workspace and, for users who see only
// their own jobs, to those.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Engine, Executor } from '#db/dialect.ts';
import type { DB, Job, User } from '#db/tables.ts';
import { can } from '#platform/permissions.ts';
import { compiledOnce } from '#db/compiled-once.ts';
import { batchedRead, paddedKeys } from '#db/batched-read.ts';
import { containsText } from '#db/text-search.ts';
import { syncPage, whereInWindow, type GroupRest, type SyncWindow } from '#platform/sync.ts';
import { ownedBy, visibleTo } from './access.ts';

/** The job columns the job object shows (details live in job-details and read the whole row). */
const JOB_OBJECT_COLUMNS = [
  'id',
  'name',
  'company',
  'contact_name',
  'contact_email',
  'contact_phone',
  'bill_to_name',
  'bill_to_email',
  'address',
  'description',
  'notes',
  'job_type',
  'status',
  'source',
  'priority',
  'estimated_value_cents',
  'probability',
  'start_date',
  'end_date',
  'next_follow_up',
  'measurement_count',
  'firm_id',
  'team_id',
  'client_account_id',
  'location_id',
  'external_ref',
  'crm_deal_id',
  'crm_contact_id',
  'crm_company_id',
  'custom_fields',
  'accounting_sync_error',
  'assigned_to_user_id',
  'estimate_id',
  'estimate_number',
  'estimate_total_cents',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Job)[];

export type JobRow = Pick<Job, (typeof JOB_OBJECT_COLUMNS)[number]> & {
  au_name: string;
  au_username: string | null;
  au_email: string;
  au_role: User['role'];
  au_job_title: string | null;
  au_phone_number: string | null;
  au_headshot_url: string | null;
  au_created_at: string;
  stage_label: string | null;
  ca_external_ref: string | null;
  lo_external_ref: string | null;
};

function joined(db: Executor) {
  return db
    .selectFrom('jobs')
    .innerJoin('users as au', 'au.id', 'jobs.assigned_to_user_id')
    .leftJoin('job_stages as st', (j) => j.onRef('st.firm_id', '=', 'jobs.firm_id').onRef('st.key', '=', 'jobs.status'))
    .leftJoin('client_accounts as ca', 'ca.id', 'jobs.client_account_id')
    .leftJoin('locations as lo', 'lo.id', 'jobs.location_id')
    .select(JOB_OBJECT_COLUMNS.map((c) => `jobs.${c}` as const))
    .select([
      'au.name as au_name',
      'au.username as au_username',
      'au.email as au_email',
      'au.role as au_role',
      'au.job_title as au_job_title',
      'au.phone_number as au_phone_number',
      'au.headshot_url as au_headshot_url',
      'au.created_at as au_created_at',
      'st.label as stage_label',
      'ca.external_ref as ca_external_ref',
      'lo.external_ref as lo_external_ref',
    ]);
}

// The single-job read is the hottest query of the API: compiled once (db/compiled-once.ts).
const jobRowById = compiledOnce((db, firmId: number, id: number) =>
  joined(db).where('jobs.firm_id', '=', firmId).where('jobs.id', '=', id),
);
/** Jobs by (workspace, id) pairs: one statement per padded count of pairs, each compiled once. */
const jobRowsByPairs = new Map<number, (db: Executor, ...pairs: number[]) => Promise<unknown[]>>();
function jobRowsByKeys(db: Executor, keys: { firmId: number; id: number }[]): Promise<unknown[]> {
  const padded = paddedKeys(keys);
  let read = jobRowsByPairs.get(padded.length);
  if (!read) {
    read = compiledOnce((db, ...pairs: number[]) =>
      joined(db).where(
        sql<boolean>`(jobs.firm_id, jobs.id) in (${sql.join(padded.map((_, k) => sql`(${pairs[2 * k]}, ${pairs[2 * k + 1]})`))})`,
      ),
    );
    jobRowsByPairs.set(padded.length, read);
  }
  return read(db, ...padded.flatMap((k) => [k.firmId, k.id]));
}
// A job by id outside a transaction (GET /v1/jobs/{id}, the answer after a write): on PostgreSQL
// the reads of one event-loop turn share a statement (db/batched-read.ts).
const jobRowByKey = batchedRead<{ firmId: number; id: number }, JobRow>({
  one: async (db, k) => (await jobRowById(db, k.firmId, k.id))[0] as JobRow | undefined,
  many: async (db, keys) => (await jobRowsByKeys(db, keys)) as JobRow[],
  keyOf: (k) => `${k.firmId}:${k.id}`,
  rowKey: (row) => `${row.firm_id}:${row.id}`,
});
/** How many job reads went into how many shared statements (PostgreSQL; the tests and benchmarks). */
export const jobReadCounts = () => ({ ...jobRowByKey.counts });

const ownJobRowById = compiledOnce((db, firmId: number, id: number, userId: number) =>
  ownedBy(joined(db).where('jobs.firm_id', '=', firmId).where('jobs.id', '=', id), userId),
);

/** A job of the workspace with its joined fields; `user` restricts to what they see (null: all). */
export async function findJobRow(
  db: Executor,
  firmId: number,
  id: number,
  user: User | null,
): Promise<JobRow | undefined> {
  if (user && can(user, 'sees_own_jobs_only'))
    return (await ownJobRowById(db, firmId, id, user.id))[0] as JobRow | undefined;
  return jobRowByKey(db, { firmId, id });
}

export function findJobByRef(db: Executor, firmId: number, ref: string): Promise<Job | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('external_ref', '=', ref)
    .executeTakeFirst();
}

export function findJobByName(
  db: Executor,
  firmId: number,
  key: string,
): Promise<Pick<Job, 'id' | 'name'> | undefined> {
  return db
    .selectFrom('jobs')
    .select(['id', 'name'])
    .where('firm_id', '=', firmId)
    .where('name_key', '=', key)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export function findJobByNumber(
  db: Executor,
  firmId: number,
  jobNumber: number,
): Promise<Pick<Job, 'id' | 'name'> | undefined> {
  return db
    .selectFrom('jobs')
    .select(['id', 'name'])
    .where('firm_id', '=', firmId)
    .where('job_number', '=', jobNumber)
    .executeTakeFirst();
}

export interface JobFilter {
  updatedAfter?: SyncWindow;
  externalRef?: string;
  status?: string;
  assignedToUserId?: number;
  q?: string;
  engine: Engine;
}

function applyFilter<O>(
  qb: SelectQueryBuilder<DB, any, O>,
  f: JobFilter,
  rest?: GroupRest,
): SelectQueryBuilder<DB, any, O> {
  if (f.updatedAfter !== undefined) qb = whereInWindow(qb, 'jobs', f.updatedAfter, rest);
  if (f.externalRef !== undefined) qb = qb.where('jobs.external_ref', '=', f.externalRef);
  if (f.status !== undefined) qb = qb.where('jobs.status', '=', f.status);
  if (f.assignedToUserId !== undefined) qb = qb.where('jobs.assigned_to_user_id', '=', f.assignedToUserId);
  if (f.q)
    qb = qb.where(containsText(['jobs.name', 'jobs.company', 'jobs.address', 'jobs.contact_name'], f.q, f.engine));
  return qb;
}

/** The filters a plain page (no sync window, no q) may name, in the order their values are bound. */
const PLAIN_FILTERS = ['externalRef', 'status', 'assignedToUserId'] as const;

type PageQuery = (db: Executor, ...params: (number | string)[]) => Promise<JobRow[]>;
/** Plain pages compiled once per shape: which filters are named, and whether the user sees only their own. */
const plainPages = new Map<string, PageQuery>();

/**
 * A page newest first without a sync window or q (a list's first pages, and every status or
 * assignee view): the same query as the general path, compiled once per shape
 * (db/compiled-once.ts) and run with this call's values, since building and compiling it cost
 * about as much as reading its 100 rows.
 */
function plainPage(
  db: Executor,
  firmId: number,
  user: User,
  f: JobFilter,
  limit: number,
  offset: number,
): Promise<JobRow[]> {
  const own = can(user, 'sees_own_jobs_only');
  const named = PLAIN_FILTERS.filter((k) => f[k] !== undefined);
  const engine = f.engine;
  const shape = `${engine}|${own ? 'own' : 'all'}|${named.join(',')}`;
  let page = plainPages.get(shape);
  if (!page) {
    page = compiledOnce((qdb, ...params: (number | string)[]) => {
      // Bound in the order the call below passes them: the workspace, the user when own, the filters, the page.
      const values = [...params];
      let qb = joined(qdb).where('jobs.firm_id', '=', values.shift() as number);
      if (own) qb = ownedBy(qb, values.shift() as number);
      const filter = { engine, ...Object.fromEntries(named.map((k) => [k, values.shift()])) } as JobFilter;
      const [pageLimit, pageOffset] = values as [number, number];
      return applyFilter(qb, filter).orderBy('jobs.id', 'desc').limit(pageLimit).offset(pageOffset);
    }) as PageQuery;
    plainPages.set(shape, page);
  }
  const values = named.map((k) => f[k] as number | string);
  return page(db, firmId, ...(own ? [user.id] : []), ...values, limit, offset);
}

export async function listJobRows(
  db: Executor,
  firmId: number,
  user: User,
  f: JobFilter,
  limit: number,
  offset: number,
) {
  const rows = (rest?: GroupRest) =>
    applyFilter(visibleTo(joined(db).where('jobs.firm_id', '=', firmId), user), f, rest);
  const window = f.updatedAfter;
  if (window === undefined && !f.q) return plainPage(db, firmId, user, f, limit, offset);
  if (window === undefined)
    return rows().orderBy('jobs.id', 'desc').limit(limit).offset(offset).execute() as Promise<JobRow[]>;
  return syncPage(window, { limit, offset }, (rest) => {
    const sorted = rows(rest).orderBy('jobs.updated_at', 'asc').orderBy('jobs.id', 'asc');
    return (rest ? sorted : sorted.limit(limit).offset(offset)).execute() as Promise<JobRow[]>;
  });
}

/**
 * The total for a job list. Unfiltered lists (the common sync case) read the per-stage counters
 * kept with every job write, so the cost does not grow with the workspace; filtered lists count.
 */
export async function countJobs(db: Executor, firmId: number, user: User, f: JobFilter): Promise<number> {
  const filtered =
    f.updatedAfter !== undefined || f.externalRef !== undefined || f.assignedToUserId !== undefined || !!f.q;
  if (!filtered && !can(user, 'sees_own_jobs_only')) {
    let qb = db
      .selectFrom('job_counts')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('firm_id', '=', firmId);
    if (f.status !== undefined) qb = qb.where('status', '=', f.status);
    const row = await qb.executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  const qb = applyFilter(visibleTo(db.selectFrom('jobs').where('jobs.firm_id', '=', firmId), user), f);
  const row = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves a job between per-stage counters (from null: created; to null: deleted). */
export async function adjustJobCount(db: Executor, firmId: number, status: string, delta: number): Promise<void> {
  await db
    .insertInto('job_counts')
    .values({ firm_id: firmId, status, count: delta })
    .onConflict((oc) =>
      oc.columns(['firm_id', 'status']).doUpdateSet((eb) => ({ count: eb('job_counts.count', '+', delta) })),
    )
    .execute();
}

/** Extra assignees of each job (the owner is always one and is not stored here). */
export async function extraAssignees(db: Executor, jobIds: number[]): Promise<Map<number, User[]>> {
  const out = new Map<number, User[]>();
  if (jobIds.length === 0) return out;
  const rows = await db
    .selectFrom('job_assignees')
    .innerJoin('users', 'users.id', 'job_assignees.user_id')
    .selectAll('users')
    .select('job_assignees.job_id as assignee_job_id')
    .where('job_assignees.job_id', 'in', jobIds)
    .orderBy('users.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.assignee_job_id) ?? [];
    list.push(r);
    out.set(r.assignee_job_id, list);
  }
  return out;
}

/**
 * A keyset page of job rows for bulk export: ids above `afterId` in id order, only jobs the user
 * sees, and with `updatedAfter` only those updated later.
 */
export function jobRowsAfter(
  db: Executor,
  firmId: number,
  user: User,
  afterId: number,
  limit: number,
  updatedAfter?: string,
): Promise<JobRow[]> {
  let qb = visibleTo(joined(db).where('jobs.firm_id', '=', firmId).where('jobs.id', '>', afterId), user);
  if (updatedAfter !== undefined) qb = qb.where('jobs.updated_at', '>', updatedAfter);
  return qb.orderBy('jobs.id').limit(limit).execute() as Promise<JobRow[]>;
}
