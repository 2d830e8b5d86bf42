// GET /v1/reports/vendor-utilization (docs/reports.md, "Vendor utilization"), worked by hand over
// the won-spend scenario (test/helpers/scenarios/won-spend.ts). June 2026, won jobs A and B:
//
// | vendor          | kind      | job | spend | share of 3,380       |
// | HMA Surface     | material  | A   | 1,600 | 47.34% (0.473372...) |
// | Tri-axle        | trucking  | B   |   760 | 22.49% (0.224852...) |
// | Paver           | equipment | B   |   600 | 17.75% (0.177514...) |
// | County Landfill | dump site | B   |   300 |  8.88% (0.088757...) |
// | Quarry Pit      | dump site | A   |   120 |  3.55% (0.035502..., typed on the dump-fee line) |
// Subcontractors are not vendors. By kind: dump site 2 vendors 2 jobs 420 (12.43%), equipment 600,
// material 1,600, trucking 760.
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
const run = async (query: string): Promise<any> => ok(s.w.api.get(`/v1/reports/vendor-utilization?${query}`));

describe('GET /v1/reports/vendor-utilization', () => {
  it('estimated spend by vendor and by kind on the won jobs', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'vendor-utilization', section: 'Job cost', date_basis: 'decided' });
    const [vendors, kinds] = d.tables;
    expect(vendors.rows.map((r: any) => [r.vendor, r.kind, r.jobs, r.cost_lines, r.estimated_spend, r.share])).toEqual([
      ['HMA Surface', 'Material', 1, 1, 1600, 0.4734],
      ['Tri-axle', 'Trucking', 1, 1, 760, 0.2249],
      ['Paver', 'Equipment', 1, 1, 600, 0.1775],
      ['County Landfill', 'Dump site', 1, 1, 300, 0.0888],
      ['Quarry Pit', 'Dump site', 1, 1, 120, 0.0355],
    ]);
    expect(vendors.total).toMatchObject({ cost_lines: 5, estimated_spend: 3380, share: 1 });
    expect(kinds.rows).toEqual([
      { kind: 'Dump site', vendors: 2, jobs: 2, estimated_spend: 420, share: 0.1243 },
      { kind: 'Equipment', vendors: 1, jobs: 1, estimated_spend: 600, share: 0.1775 },
      { kind: 'Material', vendors: 1, jobs: 1, estimated_spend: 1600, share: 0.4734 },
      { kind: 'Trucking', vendors: 1, jobs: 1, estimated_spend: 760, share: 0.2249 },
    ]);
    expect(d.summary.slice(0, 2)).toEqual([
      { label: 'Vendors', value: '5' },
      { label: 'Estimated vendor spend', value: '$3,380.00' },
    ]);
  });

  it('local midnight: a range ending 29 June leaves B (decided 30 June 23:30 CDT) out', async () => {
    const d = (await run('start=2026-06-01&end=2026-06-29')).data;
    expect(d.tables[0].rows.map((r: any) => r.vendor)).toEqual(['HMA Surface', 'Quarry Pit']);
    expect(d.tables[0].total.estimated_spend).toBe(1720);
  });

  it('filters, q and a bad parameter', async () => {
    const sams = (await run(`${JUNE}&salesperson_ids=${s.sam.id}`)).data;
    expect(sams.tables[0].total.estimated_spend).toBe(760 + 600 + 300);
    const q = (await run(`${JUNE}&q=dump`)).data;
    expect(q.tables[0].rows.map((r: any) => r.vendor)).toEqual(['County Landfill', 'Quarry Pit']);
    const bad = await s.w.api.get(`/v1/reports/vendor-utilization?${JUNE}&customer_ids=x`);
    expect(bad.status).toBe(400);
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const own = await t.user(s.w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    const d = (await ok(own.api.get(`/v1/reports/vendor-utilization?${JUNE}`))).data;
    expect(d.tables[0].rows).toEqual([]);
    expect(d.summary[1]).toEqual({ label: 'Estimated vendor spend', value: '$0.00' });
  });
});
