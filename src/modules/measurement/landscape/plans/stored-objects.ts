// The objects of a job's plan takeoffs, for a job deleted outright (src/area.ts, storedObjects):
// each plan's PDF and sheet images, and the PDF of a plan run still pending (its takeoff is not
// made yet). The rows go by cascade; the objects after the delete's commit.
import type { StoredObjectsOf } from '#src/area.ts';
import type { PlanRequest } from './start.ts';

export const jobPlanObjects: StoredObjectsOf = async (trx, firmId, jobId) => {
  const [plans, sheets, pending] = await Promise.all([
    trx
      .selectFrom('landscape_takeoffs')
      .select('plan_key')
      .where('firm_id', '=', firmId)
      .where('job_id', '=', jobId)
      .where('plan_key', 'is not', null)
      .execute(),
    trx
      .selectFrom('landscape_sheets')
      .innerJoin('landscape_takeoffs', 'landscape_takeoffs.id', 'landscape_sheets.takeoff_id')
      .select('landscape_sheets.image_key')
      .where('landscape_takeoffs.firm_id', '=', firmId)
      .where('landscape_takeoffs.job_id', '=', jobId)
      .execute(),
    trx
      .selectFrom('landscape_runs')
      .select('request')
      .where('firm_id', '=', firmId)
      .where('job_id', '=', jobId)
      .where('kind', '=', 'plan')
      .where('status', '=', 'pending')
      .execute(),
  ]);
  return [
    ...plans.map((p) => p.plan_key!),
    ...sheets.map((s) => s.image_key),
    ...pending.map((r) => (JSON.parse(r.request) as PlanRequest).plan_key),
  ];
};
