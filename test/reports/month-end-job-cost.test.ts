// GET /v1/reports/month-end-job-cost (document 2, Owner reports; docs/reports.md, "Month-end job
// cost"): February 2026 in Chicago (CST, UTC-6), worked by hand in the comments. Revenue is the
// invoices dated in the month in the workspace's time zone without draft and void ones, before tax
// and after discount; direct costs by type with a dump cost code counted as dump, a credit netting
// out and the labor of time entries; to-date figures through the month's end; access and visibility.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '#platform/time-zone.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { wonJob } from '#test/helpers/scenarios/change-order.ts';
import { OPERATIONS_SETTINGS, scheduleJob, scheduleWorkspace } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let jobA: { id: number; job_number: number };
let jobB: { id: number; job_number: number };
let contractA: number;
let customerA: number;

/** The job's number (job details). */
const numbered = async (job: { id: number }) => ({
  id: job.id,
  job_number: (await ok(w.api.get(`/v1/jobs/${job.id}/details`))).data.job_number,
});

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };

/** An invoice on the job, moved to `status` and dated `issuedAt` (stored UTC). */
async function invoice(
  jobId: number,
  status: 'draft' | 'sent' | 'void',
  issuedAt: string,
  money: { line: number; discount?: number; tax?: number },
) {
  const made = await ok(
    w.api.post('/v1/invoices', {
      job_id: jobId,
      line_items: [{ description: 'Work', amount: money.line }],
      ...(money.discount ? { discount: money.discount } : {}),
      ...(money.tax ? { tax: money.tax } : {}),
      ...REMIT,
    }),
  );
  if (status !== 'draft') await ok(w.api.post(`/v1/invoices/${made.data.id}/mark-sent`));
  if (status === 'void') await ok(w.api.post(`/v1/invoices/${made.data.id}/void`));
  await t.database.db
    .updateTable('invoices')
    .set({ issued_at: issuedAt, created_at: issuedAt })
    .where('id', '=', made.data.id)
    .execute();
}

const cost = (jobId: number, cost_type: string, amount: number, date: string, cost_code?: string) =>
  ok(w.api.post(`/v1/jobs/${jobId}/costs`, { cost_type: cost_type as 'other', amount, date, cost_code }));

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', settings: { ...OPERATIONS_SETTINGS } });
  customerA = (await ok(w.api.post('/v1/client-accounts', { name: 'Acme Storage' }))).data.id;
  const won = await wonJob(w.api, { name: 'A: lot repave', client_account_id: customerA });
  jobA = await numbered(won.job);
  contractA = won.contract;
  jobB = await numbered(await scheduleJob(w, 'B: church lot'));
  const jobC = await scheduleJob(w, 'C: January only');
  // Job A's invoices. February in Chicago is [2026-02-01T06:00Z, 2026-03-01T06:00Z).
  await invoice(jobA.id, 'sent', '2026-02-10T15:00:00.000000', { line: 1100, discount: 100 }); // Feb: 1,000
  await invoice(jobA.id, 'draft', '2026-02-11T15:00:00.000000', { line: 5000 }); // draft: never revenue
  await invoice(jobA.id, 'void', '2026-02-12T15:00:00.000000', { line: 4000 }); // void: never revenue
  await invoice(jobA.id, 'sent', '2026-03-01T05:30:00.000000', { line: 500, tax: 50 }); // 28 Feb 23:30 CST: Feb, 500 before tax
  await invoice(jobA.id, 'sent', '2026-02-01T05:30:00.000000', { line: 300 }); // 31 Jan 23:30 CST: to date only
  await invoice(jobA.id, 'sent', '2026-03-15T15:00:00.000000', { line: 700 }); // after the month: nowhere
  // Job A's costs in February: material 400 less a 100 credit, a dump fee entered as other, labor
  // (below); trucking 50 in January (to date only); equipment 80 in March (nowhere).
  await cost(jobA.id, 'material', 400, '2026-02-05');
  await cost(jobA.id, 'material', -100, '2026-02-20', 'Returned stone');
  await cost(jobA.id, 'other', 150, '2026-02-28', 'Dump fees');
  await cost(jobA.id, 'trucking', 50, '2026-01-20');
  await cost(jobA.id, 'equipment', 80, '2026-03-01');
  // Wes ($25) works 40 hours of shop time Monday to Thursday (9-12 February, 08:00-18:00 CST), so
  // his 4 hours on job A on Friday the 13th are all overtime: 4 x 25 x 1.5 = 150.
  const worker = await t.user(w.firmId, { name: 'Wes Worker', role: 'crew', pay_rate: 25 });
  for (const day of [9, 10, 11, 12])
    await ok(
      w.api.post('/v1/crew/time-entries', {
        user_id: worker.id,
        cost_code: 'Shop',
        clock_in: `2026-02-${String(day).padStart(2, '0')}T14:00:00Z`,
        clock_out: `2026-02-${String(day + 1).padStart(2, '0')}T00:00:00Z`,
      }),
    );
  await ok(
    w.api.post('/v1/crew/time-entries', {
      user_id: worker.id,
      job_id: jobA.id,
      clock_in: '2026-02-13T15:00:00Z',
      clock_out: '2026-02-13T19:00:00Z',
    }),
  );
  // Job B: a cost and no revenue (its margin is null). Job C: January only, so not listed.
  await cost(jobB.id, 'equipment', 200, '2026-02-14');
  await cost(jobC.id, 'material', 90, '2026-01-14');
});
afterAll(() => t.close());

const costs = (c: Partial<Record<string, number>>) => ({
  labor: 0,
  material: 0,
  trucking: 0,
  equipment: 0,
  dump: 0,
  subcontract: 0,
  other: 0,
  ...c,
});

describe('GET /v1/reports/month-end-job-cost', () => {
  it('revenue, direct costs by type, gross profit and to-date figures, jobs by job number', async () => {
    const res = await ok(w.api.get('/v1/reports/month-end-job-cost?month=2026-02'));
    // Job A, February: revenue 1,000 + 500 = 1,500; costs labor 150 (overtime), material 400 - 100
    // = 300, dump 150: 600; profit 900, 900 / 1,500 = 0.6. To date: revenue 1,500 + 300 (31 Jan) =
    // 1,800; cost 600 + trucking 50 = 650; profit 1,150, 1,150 / 1,800 = 0.6389.
    expect(res.data).toEqual({
      month: '2026-02',
      start: '2026-02-01',
      end: '2026-02-28',
      cost_types: [
        { key: 'labor', label: 'Labor' },
        { key: 'material', label: 'Material' },
        { key: 'trucking', label: 'Trucking' },
        { key: 'equipment', label: 'Equipment' },
        { key: 'dump', label: 'Dump' },
        { key: 'subcontract', label: 'Subcontract' },
        { key: 'other', label: 'Other' },
      ],
      jobs: [
        {
          job_id: jobA.id,
          job_number: jobA.job_number,
          job_name: 'A: lot repave',
          customer: 'Acme Storage',
          customer_number: customerA,
          contract: contractA,
          revenue: 1500,
          direct_costs: costs({ labor: 150, material: 300, dump: 150 }),
          direct_cost: 600,
          gross_profit: 900,
          gross_profit_pct: 0.6,
          revenue_to_date: 1800,
          cost_to_date: 650,
          gross_profit_to_date: 1150,
          gross_profit_pct_to_date: 0.6389,
        },
        {
          job_id: jobB.id,
          job_number: jobB.job_number,
          job_name: 'B: church lot',
          customer: null,
          customer_number: null,
          contract: null,
          revenue: 0,
          direct_costs: costs({ equipment: 200 }),
          direct_cost: 200,
          gross_profit: -200,
          gross_profit_pct: null,
          revenue_to_date: 0,
          cost_to_date: 200,
          gross_profit_to_date: -200,
          gross_profit_pct_to_date: null,
        },
      ],
      // 1,500 revenue, 600 + 200 = 800 cost: 700 profit, 700 / 1,500 = 0.4667.
      totals: {
        jobs: 2,
        contract: contractA,
        revenue: 1500,
        direct_cost: 800,
        gross_profit: 700,
        gross_profit_pct: 0.4667,
      },
      truncated: false,
    });
    expect(jobA.job_number).toBeLessThan(jobB.job_number);
    // Traceable: the job's cost read shows the same labor, material and dump (all of job A's time is
    // in February; its costs read also has January's trucking and March's equipment).
    const read = await ok(w.api.get(`/v1/jobs/${jobA.id}/costs`));
    expect(read.totals).toMatchObject({ labor: 150, material: 300, dump: 150, trucking: 50, equipment: 80 });
  });

  it('March: the invoice of 1 March 05:30 UTC is February’s, so March has only the 15th’s', async () => {
    const res = await ok(w.api.get('/v1/reports/month-end-job-cost?month=2026-03'));
    expect(res.data.jobs.map((j) => [j.job_id, j.revenue, j.direct_cost, j.revenue_to_date, j.cost_to_date])).toEqual([
      [jobA.id, 700, 80, 2500, 730],
    ]);
    expect(res.data.end).toBe('2026-03-31');
  });

  it('defaults to last month in the workspace’s time zone', async () => {
    const today = todayIn('America/Chicago');
    const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCDate(0);
    const res = await ok(w.api.get('/v1/reports/month-end-job-cost'));
    expect(res.data.month).toBe(d.toISOString().slice(0, 7));
    expect(res.data.start).toBe(`${d.toISOString().slice(0, 7)}-01`);
    expect(res.data.end).toBe(d.toISOString().slice(0, 10));
  });

  it('job visibility applies: a user who sees only their own jobs gets those', async () => {
    const own = await t.user(w.firmId, {
      name: 'Sid Sees-own',
      role: 'member',
      can_see_job_costs: true,
      sees_own_jobs_only: true,
    });
    await ok(w.api.patch(`/v1/jobs/${jobB.id}`, { assigned_to_user_id: own.id }));
    const res = await ok(own.api.get('/v1/reports/month-end-job-cost?month=2026-02'));
    expect(res.data.jobs.map((j) => j.job_id)).toEqual([jobB.id]);
    expect(res.data.totals).toMatchObject({ jobs: 1, revenue: 0, direct_cost: 200, gross_profit_pct: null });
  });

  it('a bad month is 400 with a clear body', async () => {
    for (const month of ['2026-13', '2026-2', 'February', '2026-02-01', '0000-01', '9999-12']) {
      const res = await w.api.raw.get(`/v1/reports/month-end-job-cost?month=${month}`);
      expect(res.status, month).toBe(400);
      expect(JSON.stringify(res.body), month).toContain('month');
    }
    expect((await w.api.raw.get('/v1/reports/month-end-job-cost?start=2026-02-01')).status).toBe(400);
  });

  it('403 for a user who may not see job costs and with crew scheduling off; another workspace sees nothing', async () => {
    const member = await t.user(w.firmId, { name: 'Mo Member', role: 'member' });
    const hidden = await member.api.get('/v1/reports/month-end-job-cost?month=2026-02');
    expect(hidden.status).toBe(403);
    expect(hidden.body).toMatchObject({ error: 'Job costs hidden', code: 'job_costs_hidden' });
    const off = await t.workspace();
    const disabled = await off.api.get('/v1/reports/month-end-job-cost');
    expect(disabled.status).toBe(403);
    expect(disabled.body.code).toBe('crew_scheduling_disabled');
    const other = await scheduleWorkspace(t);
    const res = await ok(other.api.get('/v1/reports/month-end-job-cost?month=2026-02'));
    expect(res.data.jobs).toEqual([]);
    expect(res.data.totals).toEqual({
      jobs: 0,
      contract: 0,
      revenue: 0,
      direct_cost: 0,
      gross_profit: 0,
      gross_profit_pct: null,
    });
  });

  it('shows the first 200 jobs by job number and says it truncated', async () => {
    const big = await scheduleWorkspace(t);
    const ids: number[] = [];
    for (let batch = 0; batch < 201; batch += 25) {
      const made = await Promise.all(
        Array.from({ length: Math.min(25, 201 - batch) }, (_, i) => scheduleJob(big, `Truncation ${batch + i}`)),
      );
      ids.push(...made.map((j) => j.id));
    }
    // One material cost in February on each (entered in one statement: the report only reads them).
    await t.database.db
      .insertInto('job_costs')
      .values(
        ids.map((id) => ({
          firm_id: big.firmId,
          job_id: id,
          cost_type: 'material' as const,
          cost_code: null,
          amount_cents: 1000,
          date: '2026-02-10',
          description: null,
          quantity: null,
          unit: null,
          created_by_user_id: big.ownerId,
          reviewed_at: null,
          reconciled_at: null,
          created_at: '2026-02-10T12:00:00.000000',
          updated_at: '2026-02-10T12:00:00.000000',
        })),
      )
      .execute();
    const res = await ok(big.api.get('/v1/reports/month-end-job-cost?month=2026-02'));
    expect(res.data.truncated).toBe(true);
    expect(res.data.jobs).toHaveLength(200);
    const numbers = res.data.jobs.map((j) => j.job_number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(res.data.totals).toMatchObject({ jobs: 200, direct_cost: 2000 });
  });
});
