// Schedule requests on the wire (document 2, Schedule request): the job, line, work order and people
// they name, read for a page of rows at once.
import type { Executor } from '#db/dialect.ts';
import type { ScheduleRequest } from '#db/tables.ts';
import { zWire } from '#platform/time.ts';
import type { ScheduleRequestObject } from './schemas.ts';

export function summaryOf(r: ScheduleRequest, what: string): string {
  if (r.kind === 'date') return `Schedule ${what} on ${r.requested_date}`;
  if (r.kind === 'move') return `Move ${what} to ${r.requested_date}`;
  return `Skip ${r.skip_date} of ${what}`;
}

const wanted = (ids: (number | null)[]) => [...new Set(ids.filter((i): i is number => i !== null))];
const byId = (rows: { id: number; name: string }[]) => new Map(rows.map((r) => [r.id, r.name]));

/** id → name (a work order's title) of the rows named, one query per table. */
async function namesOf(
  db: Executor,
  table: 'jobs' | 'users' | 'work_orders' | 'estimate_lines',
  ids: (number | null)[],
) {
  const list = wanted(ids);
  if (list.length === 0) return new Map<number, string>();
  if (table === 'work_orders')
    return byId(await db.selectFrom('work_orders').select(['id', 'title as name']).where('id', 'in', list).execute());
  return byId(await db.selectFrom(table).select(['id', 'name']).where('id', 'in', list).execute());
}

export async function requestObjects(db: Executor, rows: ScheduleRequest[]): Promise<ScheduleRequestObject[]> {
  const [jobs, users, works, lines] = await Promise.all([
    namesOf(
      db,
      'jobs',
      rows.map((r) => r.job_id),
    ),
    namesOf(
      db,
      'users',
      rows.flatMap((r) => [r.requested_by_user_id, r.decided_by_user_id]),
    ),
    namesOf(
      db,
      'work_orders',
      rows.map((r) => r.work_order_id),
    ),
    namesOf(
      db,
      'estimate_lines',
      rows.map((r) => r.estimate_service_id),
    ),
  ]);
  const person = (id: number | null) => (id === null ? null : { id, name: users.get(id) ?? '' });
  return rows.map((r) => {
    const jobName = jobs.get(r.job_id) ?? '';
    const workTitle = r.work_order_id === null ? null : (works.get(r.work_order_id) ?? null);
    const serviceName = r.estimate_service_id === null ? null : (lines.get(r.estimate_service_id) ?? null);
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      summary: summaryOf(r, workTitle ?? serviceName ?? jobName),
      job_id: r.job_id,
      job: { id: r.job_id, name: jobName },
      requested_date: r.requested_date,
      skip_date: r.skip_date,
      estimate_service_id: r.estimate_service_id,
      service_name: serviceName,
      work_order_id: r.work_order_id,
      work_order_title: workTitle,
      note: r.note,
      requested_by: person(r.requested_by_user_id),
      decided_by: person(r.decided_by_user_id),
      decided_at: zWire(r.decided_at),
      decision_note: r.decision_note,
      created_at: zWire(r.created_at),
    };
  });
}
