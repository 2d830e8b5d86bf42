// Properties of the job reports' shared scope and group_by (issue 29's proof, fast-check), run
// through win-loss over a Phoenix workspace (no daylight saving) and a New York one (with it) of 40
// jobs spread over 2025-2026 in three job types, two salespeople, two divisions, three ZIPs, won,
// lost, excluded and open, their decided instants placed near local midnight:
// - group_by by any one to three keys adds up to the ungrouped total, every job in exactly one group;
// - a filter only removes jobs: the filtered run's jobs are a subset of the whole run's, each with
//   the same figures;
// - two adjacent date ranges add up to the range they make.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
const spaces: { w: Workspace; sam: number }[] = [];
const DAY0 = '2025-01-01';
const DAYS = 700;
const TYPES = ['Paving', 'Sealcoating', 'Striping'];
const ZIPS = ['Columbus, OH 43215', 'Dublin, OH 43017', 'Akron, OH 44301'];
const STAGES = ['won', 'lost', 'withdrawn', 'active'];
const GROUP_KEYS = [
  'work_type',
  'salesperson',
  'estimator',
  'customer',
  'division',
  'status',
  'outcome',
  'month',
  'quarter',
  'year',
  'customer_type',
  'property_type',
  'source',
  'zip',
  'city',
] as const;

async function seed(timezone: string) {
  const w = await t.workspace({
    timezone,
    job_types: TYPES,
    job_stages: [{ key: 'withdrawn', label: 'Withdrawn', type: 'excluded' }],
    divisions: [
      { key: 'paving', name: 'Paving' },
      { key: 'seal', name: 'Sealcoating' },
    ],
    settings: { operations_enabled: true, crew_scheduling_enabled: true },
  });
  const sam = await t.user(w.firmId, { name: 'Sam Seller' });
  const customers: number[] = [];
  for (const name of ['Aspen HOA', 'Bluebird Mall'])
    customers.push((await ok(w.api.post('/v1/client-accounts', { name }))).data.id);
  for (let k = 0; k < 40; k++) {
    const made = await ok(
      w.api.post('/v1/jobs', {
        name: `Job ${k}`,
        job_type: k % 7 === 0 ? `${TYPES[k % 3]}, ${TYPES[(k + 1) % 3]}` : TYPES[k % 3],
        estimated_value: 500 + ((k * 389) % 9000),
        address: `${k} Main St, ${ZIPS[k % 3]}`,
        ...(k % 5 === 0 ? {} : { client_account_id: customers[k % 2] }),
        ...(k % 2 === 0 ? { assigned_to_user_id: sam.id } : {}),
        source: k % 3 === 0 ? 'Referral' : undefined,
      }),
    );
    const id = made.data.id;
    await ok(w.api.patch(`/v1/jobs/${id}/details`, { customer_type: k % 4 === 0 ? 'Commercial' : 'Residential' }));
    if (k % 3 !== 2)
      await ok(w.api.patch(`/v1/jobs/${id}/operations-assignment`, { division: k % 2 === 0 ? 'paving' : 'seal' }));
    const stage = STAGES[k % 4]!;
    await ok(w.api.patch(`/v1/jobs/${id}`, { status: stage }));
    // Decided (and created) near local midnight: 04:00-07:00 UTC, the evening before or just after
    // midnight in both zones.
    const day = addDays(DAY0, (k * 37) % DAYS);
    const at = `${day}T0${4 + (k % 4)}:30:00.000000`;
    await t.database.db
      .updateTable('jobs')
      .set({ created_at: at, ...(stage === 'active' ? {} : { decided_at: at }) })
      .where('id', '=', id)
      .execute();
  }
  spaces.push({ w, sam: sam.id });
}

beforeAll(async () => {
  t = await startApp();
  await seed('America/Phoenix');
  await seed('America/New_York');
});
afterAll(() => t.close());

const run = async (w: Workspace, query: string): Promise<any> =>
  (await ok(w.api.get(`/v1/reports/win-loss?${query}&rows_limit=2000`))).data;
const day = fc.integer({ min: 0, max: DAYS + 30 }).map((n) => addDays(DAY0, n));
const space = fc.integer({ min: 0, max: 1 });
const MEASURES = ['decided', 'won', 'lost', 'excluded', 'won_value', 'lost_value'];
const measuresOf = (row: any) => Object.fromEntries(MEASURES.map((m) => [m, row[m]]));

describe('job reports: group_by, filters and ranges', () => {
  it('any one to three group keys add up to the ungrouped total, each job in one group', async () => {
    await fc.assert(
      fc.asyncProperty(
        space,
        fc.uniqueArray(fc.constantFrom(...GROUP_KEYS), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('created', 'decided'),
        async (s, keys, basis) => {
          const { w } = spaces[s]!;
          const range = `start=2025-01-01&end=2026-12-31&date_basis=${basis}`;
          const whole = await run(w, range);
          const grouped = await run(w, `${range}&group_by=${keys.join(',')}`);
          const table = grouped.tables[0];
          expect(table.columns.slice(0, keys.length).map((c: any) => c.key)).toEqual(keys);
          // The groups are distinct and their rows add up to the whole run's (one group) total.
          const seen = new Set(table.rows.map((r: any) => keys.map((k) => r[k]).join('\u0000')));
          expect(seen.size).toBe(table.rows.length);
          const sum = (m: string) => table.rows.reduce((a: number, r: any) => a + Math.round(r[m] * 100), 0) / 100;
          for (const m of MEASURES) expect(sum(m)).toBe(whole.tables[0].total[m]);
          expect(measuresOf(table.total)).toEqual(measuresOf(whole.tables[0].total));
          expect(whole.tables[1].rows_total).toBe(whole.tables[0].total.decided);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a filter only removes jobs; those it keeps are as the whole run showed them', async () => {
    await fc.assert(
      fc.asyncProperty(
        space,
        fc.constantFrom(
          'outcomes=won',
          'outcomes=lost,excluded',
          'work_types=Paving',
          'work_types=Sealcoating,Striping',
          'division_ids=paving',
          'statuses=won,active',
          'salesperson_ids=SAM',
          'q=job 1',
        ),
        day,
        day,
        async (s, filter, a, b) => {
          const { w, sam } = spaces[s]!;
          const [start, end] = a <= b ? [a, b] : [b, a];
          const range = `start=${start}&end=${end}`;
          const whole = await run(w, range);
          const part = await run(w, `${range}&${filter.replace('SAM', String(sam))}`);
          const byId = new Map(whole.tables[1].rows.map((r: any) => [r.job_id, r]));
          for (const r of part.tables[1].rows) expect(byId.get(r.job_id)).toEqual(r);
          expect(part.tables[1].rows_total).toBeLessThanOrEqual(whole.tables[1].rows_total);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('two adjacent ranges add up to the range they make', async () => {
    await fc.assert(
      fc.asyncProperty(space, day, day, day, async (s, x, y, z) => {
        const { w } = spaces[s]!;
        const [a, b, c] = [x, y, z].sort();
        const whole = await run(w, `start=${a}&end=${c}`);
        const first = await run(w, `start=${a}&end=${b}`);
        if (b === c) return;
        const second = await run(w, `start=${addDays(b!, 1)}&end=${c}`);
        const total = (r: any) => r.tables[0].total;
        for (const m of MEASURES)
          expect(Math.round((total(first)[m] + total(second)[m]) * 100) / 100).toBe(total(whole)[m]);
        const ids = (r: any) => r.tables[1].rows.map((j: any) => j.job_id);
        expect([...ids(second), ...ids(first)]).toEqual(ids(whole));
      }),
      { numRuns: 30 },
    );
  });
});
