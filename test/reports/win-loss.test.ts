// GET /v1/reports/win-loss (docs/reports.md, "Win-loss"), worked by hand. A Chicago workspace
// (CDT, UTC-5 in summer) with two salespeople. Each job is moved to its stage through the API
// (which sets decided_at), then its decided instant is placed by hand:
//
// | job | salesperson | stage (type)         | value  | type        | decided (local)      |
// | A   | owner       | won                  | 10,000 | Paving      | 2026-06-10 09:00     |
// | B   | owner       | lost                 |  5,000 | Paving      | 2026-06-12 09:00     |
// | C   | Sam         | won                  |  2,000 | Sealcoating | 2026-06-30 23:30 (in)|
// | D   | Sam         | lost                 |  3,000 | Sealcoating | 2026-06-20 09:00     |
// | E   | Sam         | withdrawn (excluded) |  4,000 | Paving      | 2026-06-21 09:00     |
// | F   | owner       | active (open)        |  9,000 | Paving      | never                |
// | G   | owner       | won                  |  7,000 | Paving      | 2026-07-01 00:30 (out)|
// | H   | owner       | won                  |  1,000 | Paving      | 2026-04-15 09:00 (out)|
//
// June 2026: owner won 1 (10,000) lost 1 (5,000): win rate 1/2 = 50%, by value 10/15 = 66.67%.
// Sam won 1 (2,000) lost 1 (3,000), excluded 1: 50%, by value 2/5 = 40%.
// All: decided 5, won 2 (12,000), lost 2 (8,000), excluded 1: 50%, by value 12/20 = 60%.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string };
const ids: Record<string, number> = {};

async function job(
  name: string,
  o: { owner?: number; status: string; value: number; type: string; decided?: string; address?: string },
) {
  const made = await ok(
    w.api.post('/v1/jobs', {
      name,
      estimated_value: o.value,
      job_type: o.type,
      address: o.address ?? '12 Elm St, Columbus, OH 43215',
      ...(o.owner ? { assigned_to_user_id: o.owner } : {}),
    }),
  );
  ids[name] = made.data.id;
  await ok(w.api.patch(`/v1/jobs/${made.data.id}`, { status: o.status }));
  if (o.decided)
    await t.database.db.updateTable('jobs').set({ decided_at: o.decided }).where('id', '=', made.data.id).execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    timezone: 'America/Chicago',
    job_types: ['Paving', 'Sealcoating'],
    job_stages: [{ key: 'withdrawn', label: 'Withdrawn', type: 'excluded' }],
  });
  sam = await t.user(w.firmId, { name: 'Sam Seller' });
  await job('A', { status: 'won', value: 10000, type: 'Paving', decided: '2026-06-10T14:00:00.000000' });
  await job('B', { status: 'lost', value: 5000, type: 'Paving', decided: '2026-06-12T14:00:00.000000' });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: still June locally.
  await job('C', {
    owner: sam.id,
    status: 'won',
    value: 2000,
    type: 'Sealcoating',
    decided: '2026-07-01T04:30:00.000000',
    address: '9 Oak Ave, Dublin OH 43017',
  });
  await job('D', {
    owner: sam.id,
    status: 'lost',
    value: 3000,
    type: 'Sealcoating',
    decided: '2026-06-20T14:00:00.000000',
  });
  await job('E', {
    owner: sam.id,
    status: 'withdrawn',
    value: 4000,
    type: 'Paving',
    decided: '2026-06-21T14:00:00.000000',
  });
  await job('F', { status: 'active', value: 9000, type: 'Paving' });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally, out of the range.
  await job('G', { status: 'won', value: 7000, type: 'Paving', decided: '2026-07-01T05:30:00.000000' });
  await job('H', { status: 'won', value: 1000, type: 'Paving', decided: '2026-04-15T14:00:00.000000' });
});
afterAll(() => t.close());

const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/win-loss?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';

describe('GET /v1/reports/win-loss', () => {
  it('counts jobs decided in the range by salesperson; excluded jobs stay out of the rates', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'win-loss', date_basis: 'decided', start: '2026-06-01', end: '2026-06-30' });
    expect(d.summary).toEqual([
      { label: 'Jobs decided', value: '5' },
      { label: 'Won', value: '2 ($12,000.00)' },
      { label: 'Lost', value: '2 ($8,000.00)' },
      { label: 'Win rate', value: '50%' },
      { label: 'Win rate by value', value: '60%' },
    ]);
    const groups = d.tables.find((x: any) => x.key === 'groups');
    const owner = groups.rows.find((r: any) => r.salesperson !== 'Sam Seller');
    const samRow = groups.rows.find((r: any) => r.salesperson === 'Sam Seller');
    expect(owner).toMatchObject({ decided: 2, won: 1, lost: 1, excluded: 0, win_rate: 0.5, won_value: 10000 });
    expect(owner.value_win_rate).toBe(0.6667);
    expect(samRow).toMatchObject({ decided: 3, won: 1, lost: 1, excluded: 1, win_rate: 0.5, value_win_rate: 0.4 });
    expect(groups.total).toMatchObject({
      decided: 5,
      won: 2,
      lost: 2,
      won_value: 12000,
      lost_value: 8000,
      win_rate: 0.5,
    });
    expect(groups.total.value_win_rate).toBe(0.6);
    const jobs = d.tables.find((x: any) => x.key === 'jobs');
    // Newest decided first; C's local date is 30 June.
    expect(jobs.rows.map((r: any) => r.job_name)).toEqual(['C', 'E', 'D', 'B', 'A']);
    expect(jobs.rows[0]).toMatchObject({ job_id: ids.C, decided_on: '2026-06-30', outcome: 'won', value: 2000 });
    expect(jobs.total.value).toBe(2000 + 4000 + 3000 + 5000 + 10000);
  });

  it('groups by up to three keys; every grouping adds up to the same total', async () => {
    const byType = (await run(`${JUNE}&group_by=work_type,outcome`)).data.tables[0];
    expect(byType.columns.slice(0, 2).map((c: any) => c.key)).toEqual(['work_type', 'outcome']);
    expect(byType.rows.map((r: any) => [r.work_type, r.outcome, r.decided])).toEqual([
      ['Paving', 'excluded', 1],
      ['Paving', 'lost', 1],
      ['Paving', 'won', 1],
      ['Sealcoating', 'lost', 1],
      ['Sealcoating', 'won', 1],
    ]);
    const byCity = (await run(`${JUNE}&group_by=city,zip,month`)).data.tables[0];
    expect(byCity.rows.map((r: any) => [r.city, r.zip, r.month, r.decided])).toEqual([
      ['Columbus', '43215', '2026-06', 4],
      ['Dublin', '43017', '2026-06', 1],
    ]);
    for (const t0 of [byType, byCity]) expect(t0.total).toMatchObject({ decided: 5, won: 2, won_value: 12000 });
    const res = await w.api.get(`/v1/reports/win-loss?${JUNE}&group_by=city,zip,month,year`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('group_by takes at most 3 keys');
    const unknown = await w.api.get(`/v1/reports/win-loss?${JUNE}&group_by=color`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Unknown group_by: color');
  });

  it('filters: salesperson, outcome, work type; unknown values are 400', async () => {
    const sams = (await run(`${JUNE}&salesperson_ids=${sam.id}`)).data;
    expect(sams.summary[0]).toEqual({ label: 'Jobs decided', value: '3' });
    const won = (await run(`${JUNE}&outcomes=won`)).data.tables[1];
    expect(won.rows.map((r: any) => r.job_name)).toEqual(['C', 'A']);
    const seal = (await run(`${JUNE}&work_types=sealcoating`)).data.tables[1];
    expect(seal.rows.map((r: any) => r.job_name)).toEqual(['C', 'D']);
    // q narrows the job list in the database: Sam's three, their total 2,000 + 4,000 + 3,000; a page
    // of two shows two of them and says there were three.
    const samsJobs = (await run(`${JUNE}&q=SAM SELL&rows_limit=2`)).data;
    expect(samsJobs.tables[1]).toMatchObject({ rows_total: 3, total: { job_name: 'Total', value: 9000 } });
    expect(samsJobs.tables[1].rows.map((r: any) => r.job_name)).toEqual(['C', 'E']);
    expect(samsJobs.truncated).toBe(true);
    // A % in q is a percent sign, not a wildcard.
    expect((await run(`${JUNE}&q=%25`)).data.tables[1].rows_total).toBe(0);
    const bad = await w.api.get(`/v1/reports/win-loss?${JUNE}&work_types=Mowing`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Unknown work_types: Mowing');
    const badOutcome = await w.api.get(`/v1/reports/win-loss?${JUNE}&outcomes=maybe`);
    expect(badOutcome.status).toBe(400);
  });

  it('another date basis: created counts the jobs created in the range, whatever their decision date', async () => {
    const d = (await run(`start=2020-01-01&end=2099-12-31&date_basis=created`)).data;
    expect(d.date_basis).toBe('created');
    // Created now, all eight; F is open and counts in no decision column.
    expect(d.tables[0].total).toMatchObject({ decided: 8, won: 4, lost: 2, excluded: 1 });
  });

  it('a member who sees only their own jobs counts only those', async () => {
    const own = await t.user(w.firmId, { name: 'Own Only', sees_own_jobs_only: true, can_view_reports: true });
    const d = (await ok(own.api.get(`/v1/reports/win-loss?${JUNE}`))).data;
    expect(d.summary[0]).toEqual({ label: 'Jobs decided', value: '0' });
  });
});

describe('GET /v1/reports/win-loss-graph', () => {
  // April to July: April H won 1,000; May nothing (filled); June as above; July G won 7,000.
  it('one row per month with no gaps, the month and the running totals (a window sum)', async () => {
    const res: any = await ok(w.api.get('/v1/reports/win-loss-graph?start=2026-04-01&end=2026-07-31'));
    const table = res.data.tables[0];
    expect(table.rows).toEqual([
      {
        month: '2026-04',
        decided: 1,
        won: 1,
        lost: 0,
        win_rate: 1,
        won_value: 1000,
        lost_value: 0,
        cumulative_won_value: 1000,
        cumulative_win_rate: 1,
      },
      {
        month: '2026-05',
        decided: 0,
        won: 0,
        lost: 0,
        win_rate: null,
        won_value: 0,
        lost_value: 0,
        cumulative_won_value: 1000,
        cumulative_win_rate: 1,
      },
      // Running: won 1 + 2 = 3, lost 2: 3/5; won value 1,000 + 12,000.
      {
        month: '2026-06',
        decided: 5,
        won: 2,
        lost: 2,
        win_rate: 0.5,
        won_value: 12000,
        lost_value: 8000,
        cumulative_won_value: 13000,
        cumulative_win_rate: 0.6,
      },
      // Running: won 4, lost 2: 4/6 = 0.6667; 13,000 + 7,000.
      {
        month: '2026-07',
        decided: 1,
        won: 1,
        lost: 0,
        win_rate: 1,
        won_value: 7000,
        lost_value: 0,
        cumulative_won_value: 20000,
        cumulative_win_rate: 0.6667,
      },
    ]);
    expect(table.total).toMatchObject({
      decided: 7,
      won: 4,
      lost: 2,
      win_rate: 0.6667,
      won_value: 20000,
      lost_value: 8000,
    });
    expect(res.data.summary).toEqual([
      { label: 'Months', value: '4' },
      { label: 'Won value', value: '$20,000.00' },
      { label: 'Win rate', value: '66.67%' },
    ]);
  });

  it('an empty range has no months; group_by is not one of its parameters', async () => {
    const res: any = await ok(w.api.get('/v1/reports/win-loss-graph?start=2025-01-01&end=2025-12-31'));
    expect(res.data.tables[0].rows).toEqual([]);
    const bad = await w.api.get('/v1/reports/win-loss-graph?group_by=month');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('The win-loss-graph report does not use group_by');
  });
});
