// Re-bid queries: cycles, history records, the latest work per site and cycle, and the office's
// choices (rebid_states).
import type { Executor } from '#db/dialect.ts';
import type { ExpressionBuilder } from 'kysely';
import type { DB, Location, User } from '#db/tables.ts';
import { ownedBy } from '#crm/index.ts';
import { can } from '#platform/permissions.ts';
import { serviceKey } from './rules.ts';

export async function listCycles(db: Executor, firmId: number) {
  return db
    .selectFrom('rebid_cycles')
    .selectAll()
    .where('firm_id', '=', firmId)
    .orderBy('service')
    .orderBy('id')
    .execute();
}

export async function findCycle(db: Executor, firmId: number, id: number) {
  return db
    .selectFrom('rebid_cycles')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The workspace's cycle for this service (case, spacing and punctuation ignored). */
export async function cycleNamed(db: Executor, firmId: number, service: string) {
  const key = serviceKey(service);
  return (await listCycles(db, firmId)).find((c) => serviceKey(c.service) === key);
}

export async function findHistory(db: Executor, firmId: number, id: number) {
  return db
    .selectFrom('rebid_history')
    .innerJoin('rebid_cycles', 'rebid_cycles.id', 'rebid_history.cycle_id')
    .selectAll('rebid_history')
    .select('rebid_cycles.service')
    .where('rebid_history.firm_id', '=', firmId)
    .where('rebid_history.id', '=', id)
    .executeTakeFirst();
}
export type HistoryRow = NonNullable<Awaited<ReturnType<typeof findHistory>>>;

/**
 * Sites the user acts on: every site, or for a user who sees only their own jobs the sites of the
 * jobs they own or are assigned to (null: no restriction).
 */
export function ownSitesOf(db: Executor, firmId: number, user: User) {
  if (!can(user, 'sees_own_jobs_only')) return null;
  return ownedBy(
    db
      .selectFrom('jobs')
      .select('jobs.location_id')
      .where('jobs.firm_id', '=', firmId)
      .where('jobs.location_id', 'is not', null),
    user.id,
  );
}

export async function isOwnSite(db: Executor, firmId: number, user: User, locationId: number): Promise<boolean> {
  const own = ownSitesOf(db, firmId, user);
  if (own === null) return true;
  return (await own.where('jobs.location_id', '=', locationId).executeTakeFirst()) !== undefined;
}

/** One (site, cycle) pair with its latest work, the shape the re-bid list is made from. */
export interface PairRow {
  location_id: number;
  cycle_id: number;
  last_done_on: string;
  last_amount_cents: number | null;
  service: string;
  every_years: number;
  location_name: string;
  location_address: string;
  client_account_id: number | null;
  state_for_done_on: string | null;
  state_status: 'open' | 'snoozed' | 'not_doing' | null;
  snooze_until: string | null;
  not_doing_reason: string | null;
  not_doing_note: string | null;
  rebid_job_id: number | null;
}

/**
 * Every (site, cycle) pair with work on record, with its latest work (the latest done_on; the
 * newest record of that day), its cycle, site and state. Sites merged away hold no history (the
 * merge moves it), so every pair names a live site.
 */
export async function listPairs(
  db: Executor,
  firmId: number,
  user: User,
  only: { locationId?: number; cycleId?: number } = {},
): Promise<PairRow[]> {
  const own = ownSitesOf(db, firmId, user);
  let q = db
    .selectFrom('rebid_history as h')
    .innerJoin('rebid_cycles as c', 'c.id', 'h.cycle_id')
    .innerJoin('locations as l', 'l.id', 'h.location_id')
    .leftJoin('rebid_states as s', (j) =>
      j.onRef('s.location_id', '=', 'h.location_id').onRef('s.cycle_id', '=', 'h.cycle_id'),
    )
    .select([
      'h.location_id',
      'h.cycle_id',
      'h.done_on as last_done_on',
      'h.amount_cents as last_amount_cents',
      'c.service',
      'c.every_years',
      'l.name as location_name',
      'l.address as location_address',
      'l.client_account_id',
      's.for_done_on as state_for_done_on',
      's.status as state_status',
      's.snooze_until',
      's.not_doing_reason',
      's.not_doing_note',
      's.rebid_job_id',
    ])
    .where('h.firm_id', '=', firmId)
    // The latest record of the pair: no record of it done later, or the same day with a higher id.
    .where(latestOfPair);
  if (only.locationId !== undefined) q = q.where('h.location_id', '=', only.locationId);
  if (only.cycleId !== undefined) q = q.where('h.cycle_id', '=', only.cycleId);
  if (own !== null) q = q.where('h.location_id', 'in', own);
  const rows = await q.execute();
  return rows.map((r) => ({
    ...r,
    last_amount_cents: r.last_amount_cents === null ? null : Number(r.last_amount_cents),
  })) as PairRow[];
}

export async function findState(db: Executor, firmId: number, locationId: number, cycleId: number) {
  return db
    .selectFrom('rebid_states')
    .selectAll()
    .where('firm_id', '=', firmId)
    .where('location_id', '=', locationId)
    .where('cycle_id', '=', cycleId)
    .executeTakeFirst();
}

/** The salesperson of a site: the assignee of its newest job who is still a current user. */
export async function salespersonOf(db: Executor, firmId: number, site: Location): Promise<number | null> {
  const row = await db
    .selectFrom('jobs')
    .innerJoin('users', 'users.id', 'jobs.assigned_to_user_id')
    .select('users.id')
    .where('jobs.firm_id', '=', firmId)
    .where('jobs.location_id', '=', site.id)
    .where('users.removed_at', 'is', null)
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.id', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Keeps a history row (aliased h) only when it is its site and cycle's latest: no record of the
 * pair done later, or the same day with a higher id.
 */
export function latestOfPair({ not, exists, selectFrom }: ExpressionBuilder<DB & { h: DB['rebid_history'] }, 'h'>) {
  return not(
    exists(
      selectFrom('rebid_history as n')
        .select('n.id')
        .whereRef('n.location_id', '=', 'h.location_id')
        .whereRef('n.cycle_id', '=', 'h.cycle_id')
        .where((eb) =>
          eb.or([
            eb('n.done_on', '>', eb.ref('h.done_on')),
            eb.and([eb('n.done_on', '=', eb.ref('h.done_on')), eb('n.id', '>', eb.ref('h.id'))]),
          ]),
        ),
    ),
  );
}
