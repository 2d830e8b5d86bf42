// A job's estimate lines as the schedule sees them (operations: a work order's estimate_service_id,
// the schedule queue of lines still to schedule). Only lines of the job's own estimates count:
// live (not archived), not change-order estimates, active and not excluded.
import type { Executor } from '#db/dialect.ts';

export interface JobLine {
  id: number;
  estimate_id: number;
  job_id: number;
  name: string;
  service_type: string | null;
  quantity: number;
  unit: string;
}

function jobLines(db: Executor, firmId: number) {
  return db
    .selectFrom('estimate_lines as l')
    .innerJoin('estimates as e', 'e.id', 'l.estimate_id')
    .select(['l.id', 'l.estimate_id', 'e.job_id', 'l.name', 'l.service_type', 'l.quantity', 'l.unit'])
    .where('l.firm_id', '=', firmId)
    .where('e.archived_at', 'is', null)
    .where('e.is_change_order', '=', 0)
    .where('l.active', '=', 1)
    .where('l.excluded', '=', 0);
}

const shaped = (r: {
  id: number;
  estimate_id: number;
  job_id: number | null;
  name: string;
  service_type: string | null;
  quantity: string;
  unit: string;
}): JobLine => ({
  ...r,
  job_id: r.job_id!,
  quantity: Number(r.quantity),
});

/** The line when it is one of the job's estimate lines. */
export async function findJobLine(
  db: Executor,
  firmId: number,
  jobId: number,
  lineId: number,
): Promise<JobLine | undefined> {
  const row = await jobLines(db, firmId).where('e.job_id', '=', jobId).where('l.id', '=', lineId).executeTakeFirst();
  return row ? shaped(row) : undefined;
}

/**
 * The lines of the jobs' awarded estimates (awarded_at set), by job: what a won job has to schedule.
 */
export async function awardedLinesOf(db: Executor, firmId: number, jobIds: readonly number[]): Promise<JobLine[]> {
  if (jobIds.length === 0) return [];
  const rows = await jobLines(db, firmId)
    .where('e.job_id', 'in', [...jobIds])
    .where('e.awarded_at', 'is not', null)
    .orderBy('e.job_id')
    .orderBy('l.estimate_id')
    .orderBy('l.position')
    .orderBy('l.id')
    .execute();
  return rows.map(shaped);
}
