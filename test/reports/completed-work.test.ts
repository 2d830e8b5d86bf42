// GET /v1/reports/completed-work (docs/reports.md, "Completed work"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in June); work orders completed through the API, their completed_at then
// placed by hand:
//
// | job (type, salesperson, division, value) | work order | completed (local)          | quantity |
// | J1 (Paving, owner, paving, 10,000)       | WO1        | 2026-06-05 10:00           | 1,000 SF |
// |                                          | WO2        | 2026-06-30 23:30 (in June) |   500 SF |
// | J2 (Sealcoating, Sam, none, 2,000)       | WO3        | 2026-06-10                 |    20 TON|
// |                                          | WO4        | 2026-06-12                 |   300 SF |
// |                                          | WO5        | 2026-07-01 00:30 (July)    |   100 SF |
// | J3 (Paving, owner, paving, 5,000)        | WO6        | cancelled                  |          |
// |                                          | WO7        | 2026-05-31 (May)           |          |
//
// June: J1 2 work orders, last 30 June, 1,500 SF; J2 2 work orders, last 12 June, TON and SF mixed
// so no quantity; J3 nothing. Total 4 work orders, 2 jobs, value 12,000.
// By work type: Paving 1 job / 2 WOs / 10,000; Sealcoating 1 / 2 / 2,000.
// By division: (no division) J2 1 / 2 / 2,000; Paving J1 1 / 2 / 10,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; api: Workspace['api'] };
const ids: Record<string, number> = {};

async function job(name: string, o: { type: string; value: number; owner?: number }) {
  ids[name] = (
    await ok(
      w.api.post('/v1/jobs', {
        name,
        job_type: o.type,
        estimated_value: o.value,
        ...(o.owner ? { assigned_to_user_id: o.owner } : {}),
      }),
    )
  ).data.id;
}

async function workOrder(jobName: string, completedAt: string | 'cancel', qty?: number, unit?: string) {
  const wo = (await ok(w.api.post('/v1/work-orders', { job_id: ids[jobName]!, title: `Work on ${jobName}` }))).data;
  if (completedAt === 'cancel') {
    await ok(w.api.post(`/v1/work-orders/${wo.id}/cancel`, {}));
    return;
  }
  await ok(
    w.api.post(`/v1/work-orders/${wo.id}/complete`, {
      ...(qty !== undefined ? { completed_qty: qty, completed_unit: unit } : {}),
    }),
  );
  await t.database.db.updateTable('work_orders').set({ completed_at: completedAt }).where('id', '=', wo.id).execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    timezone: 'America/Chicago',
    settings: OPERATIONS_SETTINGS,
    job_types: ['Paving', 'Sealcoating'],
    divisions: [{ key: 'paving', name: 'Paving' }],
  });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  await job('J1', { type: 'Paving', value: 10000 });
  await job('J2', { type: 'Sealcoating', value: 2000, owner: sam.id });
  await job('J3', { type: 'Paving', value: 5000 });
  await t.database.db
    .updateTable('jobs')
    .set({ operations_division: 'paving' })
    .where('id', 'in', [ids.J1!, ids.J3!])
    .execute();
  await workOrder('J1', '2026-06-05T15:00:00.000000', 1000, 'SF');
  // 30 June 23:30 CDT is 1 July 04:30 UTC: June locally.
  await workOrder('J1', '2026-07-01T04:30:00.000000', 500, 'SF');
  await workOrder('J2', '2026-06-10T15:00:00.000000', 20, 'TON');
  await workOrder('J2', '2026-06-12T15:00:00.000000', 300, 'SF');
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally.
  await workOrder('J2', '2026-07-01T05:30:00.000000', 100, 'SF');
  await workOrder('J3', 'cancel');
  await workOrder('J3', '2026-05-31T15:00:00.000000');
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/completed-work?${query}`));

describe('GET /v1/reports/completed-work', () => {
  it('view job: the jobs with work completed in the range, newest completion first', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'completed-work', section: 'Operations', date_basis: 'all' });
    expect(d.summary).toEqual([
      { label: 'Work orders completed', value: '4' },
      { label: 'Jobs', value: '2' },
      { label: 'Job value', value: '$12,000.00' },
    ]);
    const jobs = d.tables[0];
    expect(jobs.key).toBe('jobs');
    expect(jobs.rows).toEqual([
      expect.objectContaining({
        job_id: ids.J1,
        job_name: 'J1',
        work_orders: 2,
        last_completed: '2026-06-30',
        completed_quantity: 1500,
        completed_unit: 'SF',
        value: 10000,
      }),
      expect.objectContaining({
        job_id: ids.J2,
        work_orders: 2,
        last_completed: '2026-06-12',
        completed_quantity: null,
        completed_unit: null,
        value: 2000,
      }),
    ]);
    expect(jobs.total).toMatchObject({ job_name: 'Total', work_orders: 4, value: 12000 });
  });

  it('view job pages in the database: rows_limit cuts the rows, q finds by name or unit; totals follow q', async () => {
    const cut = (await run(`${JUNE}&rows_limit=1`)).data;
    expect(cut.truncated).toBe(true);
    expect(cut.tables[0]).toMatchObject({ rows_total: 2, total: { work_orders: 4, value: 12000 } });
    expect(cut.tables[0].rows.map((r: any) => r.job_name)).toEqual(['J1']);
    // The unit column is text: "sf" finds J1 (every work order in SF), not J2 (SF and TON: no unit).
    const bySf = (await run(`${JUNE}&q=sf`)).data;
    expect(bySf.tables[0].rows.map((r: any) => r.job_name)).toEqual(['J1']);
    expect(bySf.tables[0]).toMatchObject({ rows_total: 1, total: { work_orders: 2, value: 10000 } });
    // The summary stays the range's.
    expect(bySf.summary[0]).toEqual({ label: 'Work orders completed', value: '4' });
    const none = (await run(`${JUNE}&q=nothing-like-this`)).data.tables[0];
    expect(none).toMatchObject({ rows: [], rows_total: 0, total: { work_orders: 0, value: 0 } });
  });

  it('views worktype, division and salesperson group the same jobs; totals match', async () => {
    const byType = (await run(`${JUNE}&view=worktype`)).data.tables[0];
    expect(byType.rows).toEqual([
      { work_type: 'Paving', jobs: 1, work_orders: 2, value: 10000 },
      { work_type: 'Sealcoating', jobs: 1, work_orders: 2, value: 2000 },
    ]);
    const byDivision = (await run(`${JUNE}&view=division`)).data.tables[0];
    expect(byDivision.rows).toEqual([
      { division: '(no division)', jobs: 1, work_orders: 2, value: 2000 },
      { division: 'Paving', jobs: 1, work_orders: 2, value: 10000 },
    ]);
    const bySeller = (await run(`${JUNE}&view=salesperson`)).data;
    expect(bySeller.tables[0].rows.map((r: any) => [r.salesperson, r.work_orders])).toEqual([
      ['Owner 1', 2],
      ['Sam Seller', 2],
    ]);
    for (const x of [byType, byDivision, bySeller.tables[0]])
      expect(x.total).toMatchObject({ jobs: 2, work_orders: 4, value: 12000 });
    expect(bySeller.summary[1]).toEqual({ label: 'Jobs', value: '2' });
  });

  it('July and May hold their own work; job filters narrow the jobs', async () => {
    const july = (await run('start=2026-07-01&end=2026-07-31')).data.tables[0];
    expect(july.rows.map((r: any) => [r.job_name, r.work_orders, r.completed_quantity])).toEqual([['J2', 1, 100]]);
    const may = (await run('start=2026-05-01&end=2026-05-31')).data.tables[0];
    expect(may.rows.map((r: any) => [r.job_name, r.completed_quantity])).toEqual([['J3', null]]);
    const paving = (await run(`${JUNE}&work_types=Paving`)).data.tables[0];
    expect(paving.rows.map((r: any) => r.job_name)).toEqual(['J1']);
  });

  it('a member who sees only their own jobs; a bad view is 400', async () => {
    const d: any = (await ok(sam.api.get(`/v1/reports/completed-work?${JUNE}`))).data;
    expect(d.tables[0].rows.map((r: any) => r.job_name)).toEqual(['J2']);
    const bad = await w.api.get(`/v1/reports/completed-work?${JUNE}&view=crew`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('view must be one of job, worktype, division, salesperson');
    const unused = await w.api.get(`/v1/reports/completed-work?${JUNE}&group_by=city`);
    expect(unused.status).toBe(400);
  });
});
