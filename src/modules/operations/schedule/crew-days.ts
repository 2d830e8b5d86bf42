// The crew-day lock rules (document 2, Holds: "a hold with a crew locks those crew days"; held or
// locked crew day is 409 with locks). Pure: the service reads who occupies a crew's days and asks
// here who stands in the way. One place, property-tested (test/operations/schedule/), so holds,
// moves, approvals, conversions and publishing all obey the same rule:
//
// - a crew day is held by a hold of that crew on that day, and locked by published work of that
//   crew on that day (both lock it: work_order_days.locks);
// - a hold may only go where the crew day is neither held nor locked;
// - work (draft or published) may not go onto a held crew day; work may share a day with other work;
// - a draft on a day a hold later takes stays a draft (the hold's heads-up names it) and cannot be
//   published while the hold is there.
// So without an owner's override no crew day ever holds two holds, or a hold and locked work.

export interface CrewDayOccupant {
  work_order_id: number;
  job_id: number;
  title: string;
  date: string;
  crew_id: number;
  is_hold: boolean;
  /** The occupant locks the day: a hold, or published work. */
  locks: boolean;
}

/** Whether a work order in this state locks its crew days (it needs a crew to have crew days). */
export function locksCrewDays(wo: { is_hold: boolean; published: boolean; crew_id: number | null; status: string }) {
  return wo.crew_id !== null && wo.status !== 'cancelled' && (wo.is_hold || wo.published);
}

/** The occupants of the candidate's crew days that forbid it being there. */
export function blockersOf(candidate: { is_hold: boolean }, others: readonly CrewDayOccupant[]): CrewDayOccupant[] {
  return others.filter((o) => (candidate.is_hold ? o.locks : o.is_hold));
}

/** A 409's `locks`: one entry per blocked crew day and occupant, in date order. */
export function locksBody(blockers: readonly CrewDayOccupant[]) {
  return [...blockers]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.work_order_id - b.work_order_id))
    .map((b) => ({
      crew_id: b.crew_id,
      date: b.date,
      work_order_id: b.work_order_id,
      job_id: b.job_id,
      title: b.title,
      kind: b.is_hold ? ('hold' as const) : ('locked_work' as const),
    }));
}
