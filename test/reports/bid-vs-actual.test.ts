// GET /v1/reports/bid-vs-actual (docs/reports.md, "Bid vs actual"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in June) with crews on; the won jobs decided in June 2026:
//
// | job | salesperson | bid (pre-tax)          | est. cost | entered costs         | labor           | invoiced (pre-tax)    | decided (local)     |
// | A   | owner       | 455 (award snapshot)   | 350       | 180 + 50 - 30 = 200   | 4 h x $25 = 100 | 400 (+ tax 40)        | 2026-06-10 09:00    |
// | B   | Sam         | 2,000 (typed value)    | —         | 500                   | 0               | 0                     | 2026-06-30 23:30 in |
// | C   | owner       | lost: not counted      |           |                       |                 |                       | 2026-06-12          |
// | D   | owner       | won 1 July 00:30 local: out of June                                                                             |
//
// A: the estimate's line is 1,000 SF with Sealer 30 GAL x $5 = 150 and Crew 5 HR x $40 = 200: cost
// 350, price 350 x 1.3 = 455. After it was marked won its stored totals are changed by hand: the
// award snapshot (455 / 350) is what was sold. A draft (1,000) and a void (200) invoice never count.
// A: est. margin 455 - 350 = 105 (105 / 455 = 0.2308); actual 300; actual margin 400 - 300 = 100
// (0.25); variance 300 - 350 = -50 (-50 / 350 = -0.1429).
// B: no estimated cost, so no estimated margin or variance; actual margin 0 - 500 = -500, % null.
// Total: bid 2,455; est. cost 350 and est. margin 105 over A alone; actual 800; invoiced 400; actual
// margin -400 (-400 / 400 = -1); variance over A alone -50.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { OPERATIONS_SETTINGS } from '#test/helpers/scenarios/operations.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string; api: Workspace['api'] };
const ids: Record<string, number> = {};

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };

async function job(name: string, o: { owner?: number; status: string; value?: number; decided?: string }) {
  const made = await ok(
    w.api.post('/v1/jobs', {
      name,
      estimated_value: o.value ?? 100,
      ...(o.owner ? { assigned_to_user_id: o.owner } : {}),
    }),
  );
  ids[name] = made.data.id;
  return made.data.id as number;
}

async function decide(id: number, status: string, decided: string) {
  await ok(w.api.patch(`/v1/jobs/${id}`, { status }));
  await t.database.db.updateTable('jobs').set({ decided_at: decided }).where('id', '=', id).execute();
}

async function invoice(jobId: number, status: 'draft' | 'sent' | 'void', line: number, tax?: number) {
  const made = await ok(
    w.api.post('/v1/invoices', {
      job_id: jobId,
      line_items: [{ description: 'Work', amount: line }],
      ...(tax ? { tax } : {}),
      ...REMIT,
    }),
  );
  if (status !== 'draft') await ok(w.api.post(`/v1/invoices/${made.data.id}/mark-sent`));
  if (status === 'void') await ok(w.api.post(`/v1/invoices/${made.data.id}/void`));
}

const cost = (jobId: number, cost_type: string, amount: number) =>
  ok(w.api.post(`/v1/jobs/${jobId}/costs`, { cost_type: cost_type as 'other', amount, date: '2026-06-20' }));

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', settings: { ...OPERATIONS_SETTINGS } });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const a = await job('A', { status: 'won' });
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: a }))).data;
  await ok(
    w.api.post(`/v1/estimates/${estimate.id}/line-items`, {
      name: 'Sealcoat',
      unit: 'SF',
      quantity: 1000,
      estimating_mode: 'detailed',
      cost_lines: [
        { type: 'material', name: 'Sealer', unit: 'GAL', unit_cost: 5, manual_quantity: 30 },
        { type: 'crew', name: 'Crew', unit: 'HR', unit_cost: 40, manual_quantity: 5 },
      ],
    }),
  );
  await ok(w.api.post(`/v1/estimates/${estimate.id}/issue`, {}));
  await ok(w.api.post(`/v1/estimates/${estimate.id}/mark-won`, {}));
  await t.database.db
    .updateTable('estimates')
    .set({ subtotal_cents: 999_900, cost_cents: 100 })
    .where('id', '=', estimate.id)
    .execute();
  await decide(a, 'won', '2026-06-10T14:00:00.000000');
  await cost(a, 'material', 180);
  await cost(a, 'other', 50);
  await cost(a, 'material', -30);
  const worker = await t.user(w.firmId, { name: 'Wes Worker', role: 'crew', pay_rate: 25 });
  await ok(
    w.api.post('/v1/crew/time-entries', {
      user_id: worker.id,
      job_id: a,
      clock_in: '2026-06-15T14:00:00Z',
      clock_out: '2026-06-15T18:00:00Z',
    }),
  );
  await invoice(a, 'sent', 400, 40);
  await invoice(a, 'draft', 1000);
  await invoice(a, 'void', 200);
  const b = await job('B', { owner: sam.id, status: 'won', value: 2000 });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: June locally.
  await decide(b, 'won', '2026-07-01T04:30:00.000000');
  await cost(b, 'equipment', 500);
  const c = await job('C', { status: 'lost' });
  await decide(c, 'lost', '2026-06-12T14:00:00.000000');
  const d = await job('D', { status: 'won', value: 7000 });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally.
  await decide(d, 'won', '2026-07-01T05:30:00.000000');
  await cost(d, 'material', 999);
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/bid-vs-actual?${query}`));

describe('GET /v1/reports/bid-vs-actual', () => {
  it('bid, estimated and actual cost, invoiced, margins and variance of the jobs won in the range', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'bid-vs-actual', section: 'Job cost', date_basis: 'decided' });
    expect(d.summary).toEqual([
      { label: 'Jobs won', value: '2' },
      { label: 'Bid', value: '$2,455.00' },
      { label: 'Estimated cost', value: '$350.00' },
      { label: 'Estimated margin', value: '$105.00 (23.08%)' },
      { label: 'Actual cost', value: '$800.00' },
      { label: 'Invoiced', value: '$400.00' },
      { label: 'Actual margin', value: '-$400.00 (-100%)' },
      { label: 'Cost variance', value: '-$50.00 (-14.29%)' },
    ]);
    expect(d.tables.map((x: any) => x.key)).toEqual(['jobs']);
    const jobs = d.tables[0];
    // Newest decided first: B (30 June local), then A.
    expect(jobs.rows).toEqual([
      expect.objectContaining({
        job_id: ids.B,
        job_name: 'B',
        decided_on: '2026-06-30',
        bid: 2000,
        estimated_cost: null,
        estimated_margin: null,
        estimated_margin_pct: null,
        actual_cost: 500,
        invoiced: 0,
        actual_margin: -500,
        actual_margin_pct: null,
        cost_variance: null,
        variance_pct: null,
      }),
      expect.objectContaining({
        job_id: ids.A,
        decided_on: '2026-06-10',
        bid: 455,
        estimated_cost: 350,
        estimated_margin: 105,
        estimated_margin_pct: 0.2308,
        actual_cost: 300,
        invoiced: 400,
        actual_margin: 100,
        actual_margin_pct: 0.25,
        cost_variance: -50,
        variance_pct: -0.1429,
      }),
    ]);
    expect(jobs.total).toMatchObject({
      job_name: 'Total',
      bid: 2455,
      estimated_cost: 350,
      estimated_margin: 105,
      actual_cost: 800,
      invoiced: 400,
      actual_margin: -400,
      actual_margin_pct: -1,
      cost_variance: -50,
    });
  });

  it('group_by adds a table by the keys; q narrows the total to the rows kept', async () => {
    const d = (await run(`${JUNE}&group_by=salesperson`)).data;
    expect(d.tables.map((x: any) => x.key)).toEqual(['groups', 'jobs']);
    const groups = d.tables[0];
    expect(groups.rows.map((r: any) => [r.salesperson, r.jobs, r.bid, r.actual_cost, r.cost_variance])).toEqual([
      ['Owner 1', 1, 455, 300, -50],
      ['Sam Seller', 1, 2000, 500, null],
    ]);
    expect(groups.total).toMatchObject({ salesperson: 'Total', jobs: 2, bid: 2455, actual_cost: 800 });
    const onlyB = (await run(`${JUNE}&q=b`)).data.tables[0];
    expect(onlyB.rows.map((r: any) => r.job_name)).toEqual(['B']);
    expect(onlyB.total).toMatchObject({ bid: 2000, actual_cost: 500, estimated_cost: null });
  });

  it('July holds D (decided 00:30 on 1 July locally); a salesperson filter', async () => {
    const july = (await run('start=2026-07-01&end=2026-07-31')).data;
    expect(july.tables[0].rows.map((r: any) => r.job_name)).toEqual(['D']);
    expect(july.tables[0].rows[0]).toMatchObject({ bid: 7000, actual_cost: 999 });
    const sams = (await run(`${JUNE}&salesperson_ids=${sam.id}`)).data;
    expect(sams.tables[0].rows.map((r: any) => r.job_name)).toEqual(['B']);
  });

  it('a member who sees only their jobs and not job costs: their jobs, without actual costs', async () => {
    const d: any = (await ok(sam.api.get(`/v1/reports/bid-vs-actual?${JUNE}`))).data;
    expect(d.summary.map((s: any) => s.label)).toEqual([
      'Jobs won',
      'Bid',
      'Estimated cost',
      'Estimated margin',
      'Invoiced',
    ]);
    const jobs = d.tables[0];
    expect(jobs.columns.map((c: any) => c.key)).not.toContain('actual_cost');
    expect(jobs.rows).toEqual([expect.objectContaining({ job_name: 'B', bid: 2000, invoiced: 0 })]);
    expect(jobs.rows[0].actual_cost).toBeUndefined();
    expect(jobs.total.actual_cost).toBeUndefined();
    expect(jobs.note).toMatch(/may not see job costs/);
  });

  it('parameters it does not use are 400', async () => {
    const res = await w.api.get(`/v1/reports/bid-vs-actual?${JUNE}&outcomes=won`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The bid-vs-actual report does not use outcomes');
    const basis = await w.api.get(`/v1/reports/bid-vs-actual?${JUNE}&date_basis=created`);
    expect(basis.status).toBe(400);
  });

  // Last: it adds time. Otto works 40 h of shop time Monday to Thursday of 15 June's week (10 h a day,
  // 9:00 to 19:00 CDT), then 4 h on A on Friday: those 4 h are his week's hours 41 to 44, overtime
  // at 1.5 x $20 = $30 an hour, so A's labor grows by $120 (its actual cost 300 -> 420). His 2 h on
  // the lost C count toward no job of the report.
  it("labor is split over the worker's whole week: shop time before makes a job's hours overtime", async () => {
    const otto = await t.user(w.firmId, { name: 'Otto Overtime', role: 'crew', pay_rate: 20 });
    const clock = (job: number | null, day: number, from: number, hours: number) =>
      ok(
        w.api.post('/v1/crew/time-entries', {
          user_id: otto.id,
          // Shop time names no job.
          ...(job === null ? {} : { job_id: job }),
          clock_in: `2026-06-${day}T${String(from).padStart(2, '0')}:00:00Z`,
          clock_out: new Date(Date.UTC(2026, 5, day, from + hours)).toISOString(),
        }),
      );
    for (const day of [15, 16, 17, 18]) await clock(null, day, 14, 10);
    await clock(ids.C!, 19, 12, 2);
    await clock(ids.A!, 19, 14, 4);
    const d = (await run(JUNE)).data;
    const a = d.tables[0].rows.find((r: any) => r.job_id === ids.A);
    expect(a).toMatchObject({ actual_cost: 420, actual_margin: -20, cost_variance: 70 });
    expect(d.tables[0].total).toMatchObject({ actual_cost: 920 });
  });
});
