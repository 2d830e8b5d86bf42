// The 20,000-job cap (document 1, Limits: "report queries truncate above 20,000 jobs"; docs/reports.md,
// "The cap"), on a workspace of 20,001 jobs written straight into its database (the API would take
// minutes): job J0 created 2025-01-01, J1..J20000 on 2026-01-01, ordered by id after it.
//
// - A job report (work-type, date basis created, over 2025-2026) counts the 20,000 latest: J0 is
//   left out, `truncated` is true and the table's note says so.
// - A period report (week-glance) is not capped: an invoice of 700.00 on J0 issued Tuesday
//   2026-06-16 (UTC workspace) is that Tuesday's invoiced figure, and `truncated` is false.
// - A report that lists jobs by dates of its own (completed-work) caps the jobs it lists: J0's work
//   order completed 2026-06-16 lists J0 for June, not truncated.
// - A report summing records of its own per job (completed-work in August 2026, a work order of
//   every job completed 2026-08-10) sums those of the 20,000 latest jobs: J0's is neither counted
//   nor listed, and the summary, the list's count and its total agree.
// - A report over records of its own on the jobs (estimate-totals: every job has an estimate of
//   $10.00 made 2026-02-01, J0's of $9,999.00 made 2026-03-01, the newest) counts those on the
//   20,000 latest jobs: J0's is neither summed nor listed, though it is the newest estimate.
// - On other date bases (set after the tests above): decided dates spread over 28 days of March
//   2026 put the cutoff inside a day (the cap sums whole days and numbers only the cutoff's), and
//   bid dates missing on J0 and J15001..J20000 put it among the undated jobs, which come last on
//   both engines (PostgreSQL sorts nulls first when descending unless told).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let oldest: number;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
  await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { timezone: 'UTC', settings: { week_start: 'monday' } }));
  const { db } = t.database;
  const engine = t.database.dialect.engine;
  const series =
    engine === 'sqlite'
      ? sql`with recursive s(n) as (select 0 union all select n + 1 from s where n + 1 < 20001)`
      : sql`with s(n) as (select generate_series(0, 20000))`;
  await sql`${series}
    insert into jobs (firm_id, name, name_key, address, job_type, status, source, priority, estimated_value_cents,
      probability, measurement_count, custom_fields, assigned_to_user_id, job_number, description_customer_visible,
      created_at, updated_at)
    select ${w.firmId}, 'Capped ' || n, 'capped ' || n, '1 Main St', 'Paving', 'lead', 'api', 'normal', 100000, 50, 0,
      '{}', ${w.ownerId}, 100000 + n, 0,
      case when n = 0 then '2025-01-01T12:00:00.000000' else '2026-01-01T12:00:00.000000' end,
      '2026-01-01T12:00:00.000000'
    from s`.execute(db);
  oldest = Number(
    (
      await db
        .selectFrom('jobs')
        .select('id')
        .where('firm_id', '=', w.firmId)
        .where('job_number', '=', 100000)
        .executeTakeFirstOrThrow()
    ).id,
  );
  await sql`insert into invoices (firm_id, job_id, invoice_number, status, payment_method, billing_type, currency,
      line_items, subtotal_cents, discount_cents, tax_cents, amount_cents, due_days, due_date, issued_at, created_at,
      updated_at)
    values (${w.firmId}, ${oldest}, 'CAP-1', 'sent', 'check', 'standard', 'usd', '[]', 70000, 0, 0, 70000, 30,
      '2026-07-16', '2026-06-16T15:00:00.000000', '2026-06-16T15:00:00.000000', '2026-06-16T15:00:00.000000')`.execute(
    db,
  );
  await sql`insert into work_orders (firm_id, job_id, title, status, is_hold, published, estimated_days, scheduled_date,
      end_date, completed_at, job_is_placeholder, created_at, updated_at)
    values (${w.firmId}, ${oldest}, 'Overlay', 'completed', 0, 1, 1, '2026-06-16', '2026-06-16',
      '2026-06-16T20:00:00.000000', 0, '2026-06-01T12:00:00.000000', '2026-06-16T20:00:00.000000')`.execute(db);
  await sql`insert into estimates (firm_id, job_id, name, status, is_change_order, priced, revision, price_cents,
      subtotal_cents, tax_cents, cost_cents, created_by_user_id, created_at, updated_at)
    select firm_id, id, 'Estimate ' || name, 'estimate', 0, 1, 1,
      case when id = ${oldest} then 999900 else 1000 end, case when id = ${oldest} then 999900 else 1000 end, 0, 600,
      ${w.ownerId},
      case when id = ${oldest} then '2026-03-01T12:00:00.000000' else '2026-02-01T12:00:00.000000' end,
      '2026-02-01T12:00:00.000000'
    from jobs where firm_id = ${w.firmId} order by id`.execute(db);
  await sql`insert into work_orders (firm_id, job_id, title, status, is_hold, published, estimated_days, scheduled_date,
      end_date, completed_at, job_is_placeholder, created_at, updated_at)
    select firm_id, id, 'Sealcoat', 'completed', 0, 1, 1, '2026-08-10', '2026-08-10', '2026-08-10T20:00:00.000000', 0,
      '2026-08-01T12:00:00.000000', '2026-08-10T20:00:00.000000'
    from jobs where firm_id = ${w.firmId} order by id`.execute(db);
  // 60,000 rows written at once, as autovacuum would see them within a minute: PostgreSQL, without
  // statistics, planned the estimates as a handful of rows (a nested loop of 20,000 × 20,000).
  if (engine === 'postgres') await sql`analyze`.execute(db);
}, 120_000);
afterAll(() => t.close());

const AUGUST = '/v1/reports/completed-work?start=2026-08-01&end=2026-08-31';

/** August's completed work, three rows shown: capped, the 20,000 jobs counted a work order and $1,000.00 each. */
async function augustCapped() {
  const res = (await ok(w.api.get(`${AUGUST}&rows_limit=3`))).data;
  expect(res.truncated).toBe(true);
  expect(res.summary).toEqual([
    { label: 'Work orders completed', value: '20000' },
    { label: 'Jobs', value: '20000' },
    { label: 'Job value', value: '$20,000,000.00' },
  ]);
  return res;
}

describe('the 20,000-job cap', () => {
  it('a job report counts the 20,000 latest jobs and says so', async () => {
    const res = (await ok(w.api.get('/v1/reports/work-type?start=2025-01-01&end=2026-12-31&date_basis=created'))).data;
    expect(res.truncated).toBe(true);
    const table = res.tables[0];
    expect(table.note).toContain('More than 20,000 jobs matched');
    expect(table.total?.bids).toBe(20_000);
  });

  it('a period report is not capped: the oldest job’s invoice is in its week', async () => {
    const res = (await ok(w.api.get('/v1/reports/week-glance?end=2026-06-16'))).data;
    expect(res.truncated).toBe(false);
    const tuesday = res.tables[0].rows.find((r) => r.date === '2026-06-16');
    expect(tuesday?.invoiced).toBe(700);
    expect(res.tables[0].total?.invoiced).toBe(700);
  });

  it('a report listing jobs by its own dates caps the jobs it lists, not the workspace’s', async () => {
    const res = (await ok(w.api.get('/v1/reports/completed-work?start=2026-06-01&end=2026-06-30'))).data;
    expect(res.truncated).toBe(false);
    expect(res.tables[0].rows.map((r) => r.job_number)).toEqual([100000]);
  });

  it('a report summing its own records per job sums those of the 20,000 latest jobs, and lists only those', async () => {
    const path = AUGUST;
    const res = await augustCapped();
    const list = res.tables[0];
    expect(list.note).toContain('More than 20,000 jobs matched');
    expect(list).toMatchObject({ rows_total: 20_000, total: { work_orders: 20_000, value: 20_000_000 } });
    // All completed the same minute: by job id, the last job's first.
    expect(list.rows.map((r) => r.job_number)).toEqual([120000, 119999, 119998]);
    // The cap's last job (J1) is counted: "Capped 1" is in the names of J1, J10–J19, J100–J199,
    // J1000–J1999 and J10000–J19999. J0, older than all of them, is not, even when q names it.
    const ones = (await ok(w.api.get(`${path}&q=${encodeURIComponent('Capped 1')}`))).data.tables[0];
    expect(ones.rows_total).toBe(1 + 10 + 100 + 1_000 + 10_000);
    const j0 = (await ok(w.api.get(`${path}&q=${encodeURIComponent('Capped 0')}`))).data.tables[0];
    expect(j0).toMatchObject({ rows: [], rows_total: 0 });
  });

  it('a report over the jobs’ own records counts those of the 20,000 latest jobs, and lists only those', async () => {
    const path = '/v1/reports/estimate-totals?start=2025-01-01&end=2026-12-31';
    const res = (await ok(w.api.get(`${path}&rows_limit=5`))).data;
    expect(res.truncated).toBe(true);
    expect(res.summary.slice(0, 2)).toEqual([
      { label: 'Estimates', value: '20000' },
      { label: 'Price', value: '$200,000.00' },
    ]);
    const list = res.tables[1];
    expect(list).toMatchObject({ rows_total: 20_000, total: { price: 200_000 } });
    // Newest first: all made the same minute, so by estimate id, the last job's first.
    expect(list.rows.map((r) => r.job_name)).toEqual([
      'Capped 20000',
      'Capped 19999',
      'Capped 19998',
      'Capped 19997',
      'Capped 19996',
    ]);
    // Found by q (the whole list, not the page), J0's estimate is not in it either.
    const j0 = (await ok(w.api.get(`${path}&q=${encodeURIComponent('Capped 0')}`))).data.tables[1];
    expect(j0).toMatchObject({ rows: [], rows_total: 0 });
  });

  describe('a cutoff inside a day, and one among jobs without a basis date', () => {
    beforeAll(async () => {
      const { db } = t.database;
      // Job Jn is now created on January 1 + (n + 1) % 28, 2026: January 1 holds J27, J55 … J19991,
      // the oldest. J1..J15000 were decided March 1; J0 and J15001..J20000 are undecided. J20000
      // has an invoice of 300.00 issued June 17 (J0's of 700.00 was issued June 16). J27 completed
      // a second work order on August 20, the latest of any.
      const created =
        t.database.dialect.engine === 'sqlite'
          ? sql`strftime('%Y-%m-%dT12:00:00.000000', '2026-01-01', '+' || ((job_number - 99999) % 28) || ' days')`
          : sql`to_char(date '2026-01-01' + ((job_number - 99999) % 28), 'YYYY-MM-DD') || 'T12:00:00.000000'`;
      await sql`update jobs set created_at = ${created},
          decided_at = case when job_number = 100000 or job_number > 115000 then null else '2026-03-01T12:00:00.000000' end
        where firm_id = ${w.firmId}`.execute(db);
      await sql`insert into invoices (firm_id, job_id, invoice_number, status, payment_method, billing_type, currency,
          line_items, subtotal_cents, discount_cents, tax_cents, amount_cents, due_days, due_date, issued_at, created_at,
          updated_at)
        select firm_id, id, 'CAP-2', 'sent', 'check', 'standard', 'usd', '[]', 30000, 0, 0, 30000, 30, '2026-07-17',
          '2026-06-17T15:00:00.000000', '2026-06-17T15:00:00.000000', '2026-06-17T15:00:00.000000'
        from jobs where firm_id = ${w.firmId} and job_number = 120000`.execute(db);
      await sql`insert into work_orders (firm_id, job_id, title, status, is_hold, published, estimated_days,
          scheduled_date, end_date, completed_at, job_is_placeholder, created_at, updated_at)
        select firm_id, id, 'Touch-up', 'completed', 0, 1, 1, '2026-08-20', '2026-08-20', '2026-08-20T20:00:00.000000',
          0, '2026-08-01T12:00:00.000000', '2026-08-20T20:00:00.000000'
        from jobs where firm_id = ${w.firmId} and job_number = 100027`.execute(db);
      if (t.database.dialect.engine === 'postgres') await sql`analyze jobs`.execute(db);
    });

    it('a cutoff inside a day: that day’s jobs from the cutoff on are counted, its oldest is not', async () => {
      const path = AUGUST;
      const res = await augustCapped();
      expect(res.tables[0]).toMatchObject({ rows_total: 20_000, total: { work_orders: 20_000, value: 20_000_000 } });
      // J27's August 20 work order, the latest, is not listed: J27 is past the cap.
      expect(res.tables[0].rows.map((r) => r.job_number)).toEqual([120000, 119999, 119998]);
      const named = async (q: string) =>
        (await ok(w.api.get(`${path}&q=${encodeURIComponent(q)}`))).data.tables[0].rows_total;
      // J27 is the oldest (January 1, the lowest id there): of J27, J270–J279 and J2700–J2799 it alone is out.
      expect(await named('Capped 27')).toBe(1 + 10 + 100 - 1);
      // J55, the cutoff, and J0 (created January 2) are in.
      expect(await named('Capped 55')).toBe(1 + 10 + 100);
      expect(await named('Capped 0')).toBe(1);
    });

    it('jobs without a basis date come after every dated one, on both engines', async () => {
      // Top customers bills the filtered jobs of any decided date, capped by decided date: the
      // 15,000 decided, then the undecided by id from J20000 down to J15001. J0 is left out.
      const res = (await ok(w.api.get('/v1/reports/top-customers?start=2026-03-01&end=2026-06-30'))).data;
      expect(res.tables[0].rows).toMatchObject([{ customer: '(no customer)', decided: 15_000, invoiced: 300 }]);
    });
  });
});
