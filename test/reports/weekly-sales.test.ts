// GET /v1/reports/weekly-sales (docs/reports.md, "Weekly sales"), worked by hand. A Chicago workspace
// (CDT, UTC-5: local midnight is 05:00 UTC) whose weeks start on Sunday. end 2026-06-03 (a
// Wednesday) covers Sunday 31 May to Saturday 6 June. Each job is moved to its stage through the
// API (which sets decided_at), then its decided instant is placed by hand:
//
// | job | salesperson | stage | value | type        | decided (UTC)      | local             | counted      |
// | A   | owner       | won   | 1,000 | Paving      | 2026-05-31 05:30   | Sun 31 May 00:30  | Sun          |
// | B   | owner       | won   | 2,000 | Paving      | 2026-05-31 04:30   | Sat 30 May 23:30  | out (before) |
// | C   | Sam         | won   | 3,000 | Sealcoating | 2026-06-03 15:00   | Wed 3 Jun         | Wed          |
// | D   | Sam         | won   | 4,000 | Paving      | 2026-06-03 20:00   | Wed 3 Jun         | Wed          |
// | E   | Sam         | lost  | 5,000 | Paving      | 2026-06-04 15:00   | Thu 4 Jun         | not won      |
// | F   | owner       | won   | 6,000 | Paving      | 2026-06-07 04:30   | Sat 6 Jun 23:30   | Sat          |
// | G   | owner       | won   |   500 | Paving      | 2026-06-07 05:30   | Sun 7 Jun 00:30   | out (after)  |
//
// Owner: Sun 1,000 + Sat 6,000 = 7,000, 2 won. Sam: Wed 3,000 + 4,000 = 7,000, 2 won.
// Total: Sun 1,000, Wed 7,000, Sat 6,000; 4 won; 14,000.
// work_types=Sealcoating: C alone: Sam Wed 3,000, 1 won.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let sam: Awaited<ReturnType<TestApp['user']>>;

async function job(name: string, o: { sam?: boolean; status: string; value: number; type?: string; decided: string }) {
  const made = await ok(
    w.api.post('/v1/jobs', {
      name,
      estimated_value: o.value,
      job_type: o.type ?? 'Paving',
      ...(o.sam ? { assigned_to_user_id: sam.id } : {}),
    }),
  );
  await ok(w.api.patch(`/v1/jobs/${made.data.id}`, { status: o.status }));
  await t.database.db
    .updateTable('jobs')
    .set({ decided_at: `${o.decided}.000000` })
    .where('id', '=', made.data.id)
    .execute();
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    timezone: 'America/Chicago',
    job_types: ['Paving', 'Sealcoating'],
    settings: { week_start: 'sunday' },
  });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  await job('A', { status: 'won', value: 1000, decided: '2026-05-31T05:30:00' });
  await job('B', { status: 'won', value: 2000, decided: '2026-05-31T04:30:00' });
  await job('C', { sam: true, status: 'won', value: 3000, type: 'Sealcoating', decided: '2026-06-03T15:00:00' });
  await job('D', { sam: true, status: 'won', value: 4000, decided: '2026-06-03T20:00:00' });
  await job('E', { sam: true, status: 'lost', value: 5000, decided: '2026-06-04T15:00:00' });
  await job('F', { status: 'won', value: 6000, decided: '2026-06-07T04:30:00' });
  await job('G', { status: 'won', value: 500, decided: '2026-06-07T05:30:00' });
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> =>
  (await ok(api.get(`/v1/reports/weekly-sales?${query}`))).data;
const EMPTY_WEEK = { sun: 0, mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 0 };

describe('GET /v1/reports/weekly-sales', () => {
  it('the week holding end: won value per salesperson per local day, across both midnights of the week', async () => {
    const d = await run('end=2026-06-03');
    expect(d).toMatchObject({
      key: 'weekly-sales',
      section: 'Sales',
      date_basis: 'decided',
      start: '2026-05-31',
      end: '2026-06-06',
    });
    expect(d.summary).toEqual([
      { label: 'Week', value: '2026-05-31 to 2026-06-06' },
      { label: 'Won value', value: '$14,000.00' },
      { label: 'Jobs won', value: '4' },
    ]);
    const [table] = d.tables;
    expect(table.columns.map((c: any) => `${c.key}:${c.kind}`)).toEqual([
      'salesperson:text',
      'sun:money',
      'mon:money',
      'tue:money',
      'wed:money',
      'thu:money',
      'fri:money',
      'sat:money',
      'won:int',
      'total:money',
    ]);
    expect(table.columns[1].label).toBe('Sun 05-31');
    const samRow = table.rows.find((r: any) => r.salesperson === 'Sam Seller');
    const owner = table.rows.find((r: any) => r.salesperson !== 'Sam Seller');
    expect(table.rows).toHaveLength(2);
    expect(samRow).toEqual({ salesperson: 'Sam Seller', ...EMPTY_WEEK, wed: 7000, won: 2, total: 7000 });
    expect(owner).toMatchObject({ ...EMPTY_WEEK, sun: 1000, sat: 6000, won: 2, total: 7000 });
    expect(table.total).toEqual({
      salesperson: 'Total',
      ...EMPTY_WEEK,
      sun: 1000,
      wed: 7000,
      sat: 6000,
      won: 4,
      total: 14000,
    });
  });

  it('filters by work type; a member who sees only their own jobs sees only their row', async () => {
    const seal = await run('end=2026-06-03&work_types=Sealcoating');
    expect(seal.tables[0].rows).toEqual([{ salesperson: 'Sam Seller', ...EMPTY_WEEK, wed: 3000, won: 1, total: 3000 }]);
    const own = await run('end=2026-06-03', sam.api);
    expect(own.tables[0].rows).toEqual([{ salesperson: 'Sam Seller', ...EMPTY_WEEK, wed: 7000, won: 2, total: 7000 }]);
    expect(own.summary[1]).toEqual({ label: 'Won value', value: '$7,000.00' });
  });

  it('refuses start and parameters it does not use', async () => {
    for (const [query, error] of [
      ['start=2026-05-31&end=2026-06-06', 'The weekly-sales report does not use start'],
      ['end=2026-06-03&date_basis=created', 'The weekly-sales report does not use date_basis'],
      ['end=2026-06-03&period=month', 'The weekly-sales report does not use period'],
    ]) {
      const res = await w.api.get(`/v1/reports/weekly-sales?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
  });
});
