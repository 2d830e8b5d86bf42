// Time entry queries: one entry, the lists, and the worker-weeks overtime is counted over.
import type { SelectQueryBuilder } from 'kysely';
import type { Executor } from '#db/dialect.ts';
import type { DB, TimeEntry, User } from '#db/tables.ts';
import { can } from '#platform/permissions.ts';
import { ownedBy } from '#crm/index.ts';

/** A time entry with its worker's name. */
export type TimeEntryRow = TimeEntry & { user_name: string };

function withWorker(db: Executor) {
  return db
    .selectFrom('time_entries')
    .innerJoin('users', 'users.id', 'time_entries.user_id')
    .selectAll('time_entries')
    .select('users.name as user_name');
}

/**
 * Time entries the user may read: a user who sees every job sees every entry; a user who sees only
 * their own jobs sees their own entries (shop time, and time on their crew's work) and the time on
 * jobs they see.
 */
export function timeEntriesOf(
  db: Executor,
  firmId: number,
  user: User,
): SelectQueryBuilder<DB, 'time_entries' | 'users', TimeEntryRow> {
  const qb = withWorker(db).where('time_entries.firm_id', '=', firmId) as SelectQueryBuilder<
    DB,
    'time_entries' | 'users',
    TimeEntryRow
  >;
  if (!can(user, 'sees_own_jobs_only')) return qb;
  return qb.where((eb) =>
    eb.or([
      eb('time_entries.user_id', '=', user.id),
      eb(
        'time_entries.job_id',
        'in',
        ownedBy(eb.selectFrom('jobs').select('jobs.id').where('jobs.firm_id', '=', firmId), user.id),
      ),
    ]),
  );
}

export function findTimeEntry(db: Executor, firmId: number, id: number, user: User): Promise<TimeEntryRow | undefined> {
  return timeEntriesOf(db, firmId, user).where('time_entries.id', '=', id).executeTakeFirst();
}

/**
 * Every counted entry (closed, not void) of these workers whose clock_in lies in [from, to): the
 * worker-weeks the overtime rule needs around the entries being shown.
 */
export function countedEntriesOf(
  db: Executor,
  firmId: number,
  userIds: readonly number[],
  from: string,
  to: string,
): Promise<Pick<TimeEntry, 'id' | 'user_id' | 'clock_in' | 'clock_out'>[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('time_entries')
    .select(['id', 'user_id', 'clock_in', 'clock_out'])
    .where('firm_id', '=', firmId)
    .where('user_id', 'in', [...userIds])
    .where('clock_in', '>=', from)
    .where('clock_in', '<', to)
    .where('clock_out', 'is not', null)
    .where('voided_at', 'is', null)
    .execute();
}

/** Another uncancelled entry of the worker that overlaps [from, to) (to null: still open). */
export function overlappingEntry(
  db: Executor,
  firmId: number,
  userId: number,
  from: string,
  to: string | null,
  exceptId?: number,
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('time_entries')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('user_id', '=', userId)
    .where('voided_at', 'is', null)
    .$if(to !== null, (qb) => qb.where('clock_in', '<', to!))
    .where((eb) => eb.or([eb('clock_out', 'is', null), eb('clock_out', '>', from)]))
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
    .orderBy('clock_in')
    .executeTakeFirst();
}
