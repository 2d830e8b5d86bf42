// Putting a work order (or a hold) on the calendar under the crew-day lock rules
// (schedule/crew-days.ts). Every action that gives a work order days, moves them, changes its crew
// or makes it lock its days calls `place` in its own transaction after writing the row: the check
// reads the crew's days as they stand under the workspace lock, and a refusal rolls the write back.
import type { Executor } from '#db/dialect.ts';
import type { WorkOrder } from '#db/tables.ts';
import type { ServiceContext } from '#platform/context.ts';
import { conflict, forbidden } from '#platform/errors.ts';
import { blockersOf, type CrewDayOccupant, locksBody, locksCrewDays } from '../schedule/crew-days.ts';
import { daysOf } from './days.ts';
import { occupantsOf, writeDays } from './repo.ts';

export const crewDayLocked = (blockers: readonly CrewDayOccupant[]) =>
  conflict('Crew day held or locked', {
    code: 'crew_day_locked',
    message:
      'The crew already has a hold or locked work on these days; pick another day or crew (owners may send override_lock)',
    locks: locksBody(blockers),
  });

/** override_lock is an owner's call (document 2, Holds). */
export function assertOverrideAllowed(ctx: ServiceContext, override: boolean | undefined): boolean {
  if (!override) return false;
  if (ctx.auth.user.role !== 'owner')
    throw forbidden('Only owners can override a crew-day lock', { code: 'not_owner', field: 'override_lock' });
  return true;
}

export function locks(wo: WorkOrder): boolean {
  return locksCrewDays({
    is_hold: wo.is_hold === 1,
    published: wo.published === 1,
    crew_id: wo.crew_id,
    status: wo.status,
  });
}

/**
 * Checks the work order's crew days against the others on them and writes its days. Answers the
 * other work (not holds) on the same crew days: a hold's heads-up (same_day_work_order_ids).
 */
export async function place(db: Executor, wo: WorkOrder, override: boolean): Promise<number[]> {
  const days = daysOf(wo);
  let others: CrewDayOccupant[] = [];
  if (wo.crew_id !== null && days.length > 0) {
    others = await occupantsOf(db, wo.firm_id, wo.crew_id, days, wo.id);
    const blockers = blockersOf({ is_hold: wo.is_hold === 1 }, others);
    if (blockers.length > 0 && !override) throw crewDayLocked(blockers);
  }
  await writeDays(db, wo, days, locks(wo));
  return [...new Set(others.filter((o) => !o.is_hold).map((o) => o.work_order_id))].sort((a, b) => a - b);
}
