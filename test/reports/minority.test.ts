// GET /v1/reports/minority (docs/reports.md, "Minority participation"), worked by hand over the
// won-spend scenario (test/helpers/scenarios/won-spend.ts). June 2026, won jobs A and B:
//
// Spend: subcontractors 3,000 (Bolt 1,500, Ace 1,000, Joe Curb Co 500) + vendors 3,380 (HMA 1,600,
// Tri-axle 760, Paver 600, County Landfill 300, Quarry Pit 120) = 6,380.
// Certified: HMA Surface (MBE) 1,600 = 25.08% (0.250783); Ace Striping (DBE, WBE) 1,000 = 15.67%
// (0.156739); County Landfill (SBE) 300 = 4.70% (0.047021). Any certification 2,900 = 45.45%.
// By certification: MBE 1 firm 1 job 1,600; WBE and DBE each Ace's 1,000; SBE 300; VBE none.
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
const run = async (query: string): Promise<any> => ok(s.w.api.get(`/v1/reports/minority?${query}`));

describe('GET /v1/reports/minority', () => {
  it('the share of subcontract and vendor spend going to certified firms', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'minority', section: 'Job cost', date_basis: 'decided' });
    expect(d.summary).toEqual([
      { label: 'Subcontract and vendor spend', value: '$6,380.00' },
      { label: 'Certified firms', value: '3' },
      { label: 'Spend with certified firms', value: '$2,900.00' },
      { label: 'Any certification', value: '45.45%' },
      { label: 'MBE', value: '25.08%' },
      { label: 'WBE', value: '15.67%' },
      { label: 'DBE', value: '15.67%' },
      { label: 'SBE', value: '4.7%' },
      { label: 'VBE', value: '0%' },
    ]);
    const [certs, firms] = d.tables;
    expect(certs.rows.map((r: any) => [r.certification, r.firms, r.jobs, r.spend, r.share])).toEqual([
      ['Minority-owned (MBE)', 1, 1, 1600, 0.2508],
      ['Women-owned (WBE)', 1, 1, 1000, 0.1567],
      ['Disadvantaged (DBE)', 1, 1, 1000, 0.1567],
      ['Small business (SBE)', 1, 1, 300, 0.047],
      ['Veteran-owned (VBE)', 0, 0, 0, 0],
    ]);
    expect(firms.rows).toEqual([
      { firm: 'HMA Surface', kind: 'material', certifications: 'MBE', jobs: 1, spend: 1600, share: 0.2508 },
      { firm: 'Ace Striping', kind: 'subcontractor', certifications: 'WBE, DBE', jobs: 1, spend: 1000, share: 0.1567 },
      { firm: 'County Landfill', kind: 'dump_site', certifications: 'SBE', jobs: 1, spend: 300, share: 0.047 },
    ]);
    expect(firms.total).toMatchObject({ spend: 2900, share: 0.4545 });
  });

  it('catalog attributes take certifications as an array of codes', async () => {
    const item = await ok(
      s.w.api.raw.post('/v1/catalog/items', {
        kind: 'subcontractor',
        name: 'Vet Sweep',
        unit: 'HR',
        unit_cost: 60,
        attributes: { certifications: ['VBE'] },
      }),
    );
    expect(item.data.attributes).toEqual({ certifications: ['VBE'] });
  });

  it('local midnight and a filter: B (decided 30 June 23:30 CDT) alone by its salesperson; out by 29 June', async () => {
    // B: Bolt 1,500 + Tri-axle 760 + Paver 600 + County Landfill 300 = 3,160; certified 300 = 9.49%.
    const sams = (await run(`${JUNE}&salesperson_ids=${s.sam.id}`)).data;
    expect(sams.summary[0]).toEqual({ label: 'Subcontract and vendor spend', value: '$3,160.00' });
    expect(sams.summary[3]).toEqual({ label: 'Any certification', value: '9.49%' });
    const early = (await run('start=2026-06-01&end=2026-06-29')).data;
    // A alone: 1,000 + 500 + 1,600 + 120 = 3,220; certified 2,600 = 80.75%.
    expect(early.summary[0].value).toBe('$3,220.00');
    expect(early.summary[3].value).toBe('80.75%');
    const bad = await s.w.api.get(`/v1/reports/minority?${JUNE}&group_by=zip`);
    expect(bad.status).toBe(400);
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const own = await t.user(s.w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    const d = (await ok(own.api.get(`/v1/reports/minority?${JUNE}`))).data;
    expect(d.summary[0].value).toBe('$0.00');
    expect(d.tables[1].rows).toEqual([]);
  });
});
