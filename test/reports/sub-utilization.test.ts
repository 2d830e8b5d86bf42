// GET /v1/reports/sub-utilization (docs/reports.md, "Sub-utilization"), worked by hand over the
// won-spend scenario (test/helpers/scenarios/won-spend.ts). June 2026, won jobs A and B:
//
// Estimated by subcontractor: Bolt Concrete 1,500 (B); Ace Striping 1,000 (A; its alternate and
// the lost C and July D left out); Joe Curb Co 500 (A, typed in). Total 3 lines, 3,000.
// Actual subcontract job costs: Concrete / (no description) 1,400 (B); Striping / Ace invoice
// 1,100 (A); A's material cost is not subcontract. Total 2 entries, 2,500.
// By job: A 1,500 estimated, 1,100 actual, -400, 1,100/1,500 = 73.33%;
//         B 1,500, 1,400, -100, 93.33%; total 3,000, 2,500, -500, 83.33%.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { type WonSpend, wonSpendWorkspace } from '#test/helpers/scenarios/won-spend.ts';

let t: TestApp;
let s: WonSpend;
beforeAll(async () => {
  t = await startApp();
  s = await wonSpendWorkspace(t);
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(s.w.api.get(`/v1/reports/sub-utilization?${query}`));
const table = (d: any, key: string) => d.tables.find((x: any) => x.key === key);

describe('GET /v1/reports/sub-utilization', () => {
  it('estimated subcontract cost by subcontractor, actual by cost code, and the two by job', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'sub-utilization', section: 'Job cost', date_basis: 'decided' });
    const subs = table(d, 'subcontractors');
    expect(subs.rows).toEqual([
      { subcontractor: 'Bolt Concrete', jobs: 1, cost_lines: 1, estimated_cost: 1500 },
      { subcontractor: 'Ace Striping', jobs: 1, cost_lines: 1, estimated_cost: 1000 },
      { subcontractor: 'Joe Curb Co', jobs: 1, cost_lines: 1, estimated_cost: 500 },
    ]);
    expect(subs.total).toEqual({ subcontractor: 'Total', jobs: null, cost_lines: 3, estimated_cost: 3000 });
    const actual = table(d, 'actual');
    expect(actual.rows).toEqual([
      { cost_code: 'Concrete', description: '(no description)', jobs: 1, entries: 1, actual_cost: 1400 },
      { cost_code: 'Striping', description: 'Ace invoice', jobs: 1, entries: 1, actual_cost: 1100 },
    ]);
    expect(actual.total).toMatchObject({ entries: 2, actual_cost: 2500 });
    const jobs = table(d, 'jobs');
    expect(jobs.rows.map((r: any) => [r.job_id, r.job_name, r.estimated_cost, r.actual_cost, r.variance])).toEqual([
      [s.jobs.A, 'A', 1500, 1100, -400],
      [s.jobs.B, 'B', 1500, 1400, -100],
    ]);
    expect(jobs.rows.map((r: any) => r.actual_pct_of_estimate)).toEqual([0.7333, 0.9333]);
    expect(jobs.total).toMatchObject({
      estimated_cost: 3000,
      actual_cost: 2500,
      variance: -500,
      actual_pct_of_estimate: 0.8333,
    });
    expect(d.summary).toEqual([
      { label: 'Won jobs with subcontract work', value: '2' },
      { label: 'Estimated subcontract cost', value: '$3,000.00' },
      { label: 'Actual subcontract cost', value: '$2,500.00' },
      { label: 'Variance (actual - estimated)', value: '-$500.00' },
      { label: 'Actual % of estimate', value: '83.33%' },
    ]);
  });

  it('local midnight: B, decided 30 June 23:30 CDT, is out of a range ending 29 June; D (1 July 00:30) is July', async () => {
    const early = (await run('start=2026-06-01&end=2026-06-29')).data;
    expect(table(early, 'jobs').rows.map((r: any) => r.job_name)).toEqual(['A']);
    const july = (await run('start=2026-07-01&end=2026-07-31')).data;
    expect(table(july, 'subcontractors').rows).toEqual([
      { subcontractor: 'Ace Striping', jobs: 1, cost_lines: 1, estimated_cost: 300 },
    ]);
  });

  it('q narrows the job table and its total, rows_limit cuts it; the summary stays whole', async () => {
    const d = (await run(`${JUNE}&q=b&rows_limit=1`)).data;
    const jobs = table(d, 'jobs');
    // q "b" keeps B by its name: neither A's name nor its customer holds a "b".
    expect(jobs.rows.map((r: any) => r.job_name)).toEqual(['B']);
    expect(jobs.rows_total).toBe(1);
    expect(jobs.total).toMatchObject({ estimated_cost: 1500, actual_cost: 1400, variance: -100 });
    expect(d.summary[0]).toEqual({ label: 'Won jobs with subcontract work', value: '2' });
    const cut = (await run(`${JUNE}&rows_limit=1`)).data;
    expect(table(cut, 'jobs').rows.map((r: any) => r.job_name)).toEqual(['A']);
    expect(table(cut, 'jobs').rows_total).toBe(2);
    expect(table(cut, 'jobs').total).toMatchObject({ estimated_cost: 3000, actual_cost: 2500 });
    expect(cut.truncated).toBe(true);
  });

  it('job filters: salesperson keeps B; bad values are 400', async () => {
    const d = (await run(`${JUNE}&salesperson_ids=${s.sam.id}`)).data;
    expect(table(d, 'subcontractors').rows.map((r: any) => r.subcontractor)).toEqual(['Bolt Concrete']);
    expect(table(d, 'jobs').total).toMatchObject({ estimated_cost: 1500, actual_cost: 1400 });
    const bad = await s.w.api.get(`/v1/reports/sub-utilization?${JUNE}&outcomes=won`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('The sub-utilization report does not use outcomes');
    const badBasis = await s.w.api.get(`/v1/reports/sub-utilization?${JUNE}&date_basis=someday`);
    expect(badBasis.status).toBe(400);
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const own = await t.user(s.w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    await ok(s.w.api.patch(`/v1/jobs/${s.jobs.A}`, { assigned_to_user_id: own.id }));
    const d = (await ok(own.api.get(`/v1/reports/sub-utilization?${JUNE}`))).data;
    expect(table(d, 'jobs').rows.map((r: any) => r.job_name)).toEqual(['A']);
    expect(table(d, 'subcontractors').total).toMatchObject({ estimated_cost: 1500 });
    await ok(s.w.api.patch(`/v1/jobs/${s.jobs.A}`, { assigned_to_user_id: s.w.ownerId }));
  });
});
