// History from work (docs/decisions/operations-rebids.md): a completed work order puts its work on
// its job's site's re-bid history (source work_order) for the cycle its work names (rules.ts,
// matchCycle). Called by the work-order completion inside its transaction, so the record commits
// with the completion; a second call for the same work order records nothing more.
import type { Transaction } from 'kysely';
import type { DB, WorkOrder } from '#db/tables.ts';
import { now } from '#platform/time.ts';
import { storedToLocal } from '#platform/time-zone.ts';
import { listCycles } from './repo.ts';
import { matchCycle } from './rules.ts';

/**
 * Records the completed work order's work on its site. Returns the history record's id, or null
 * when nothing is recorded: the job has no site, no cycle's service is named by the work, or the
 * work order is recorded already.
 */
export async function recordCompletedWork(trx: Transaction<DB>, workOrder: WorkOrder): Promise<number | null> {
  const firmId = workOrder.firm_id;
  const job = await trx
    .selectFrom('jobs')
    .innerJoin('firms', 'firms.id', 'jobs.firm_id')
    .select(['jobs.location_id', 'firms.timezone'])
    .where('jobs.firm_id', '=', firmId)
    .where('jobs.id', '=', workOrder.job_id)
    .executeTakeFirst();
  if (!job || job.location_id === null) return null;
  const already = await trx
    .selectFrom('rebid_history')
    .select('id')
    .where('firm_id', '=', firmId)
    .where('work_order_id', '=', workOrder.id)
    .executeTakeFirst();
  if (already) return null;
  const line =
    workOrder.estimate_service_id === null
      ? undefined
      : await trx
          .selectFrom('estimate_lines')
          .select(['name', 'service_type'])
          .where('firm_id', '=', firmId)
          .where('id', '=', workOrder.estimate_service_id)
          .executeTakeFirst();
  const cycle = matchCycle(await listCycles(trx, firmId), {
    lineName: line?.name,
    lineServiceType: line?.service_type,
    title: workOrder.title,
    phase: workOrder.phase,
  });
  if (!cycle) return null;
  const at = now();
  // The day the work was done: the completion's day in the workspace's time zone.
  const doneOn = storedToLocal(workOrder.completed_at ?? at, job.timezone).date;
  const { id } = await trx
    .insertInto('rebid_history')
    .values({
      firm_id: firmId,
      location_id: job.location_id,
      cycle_id: cycle.id,
      done_on: doneOn,
      amount_cents: null,
      note: workOrder.title,
      source: 'work_order',
      work_order_id: workOrder.id,
      created_by_user_id: null,
      created_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
