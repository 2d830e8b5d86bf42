// GET /v1/reports/data-dump (docs/reports.md, "Data dump"), worked by hand. A Chicago workspace
// (CDT, UTC-5 in June); created, bid and decided instants placed by hand:
//
// | job     | created (local)            | customer | types                | estimate          | invoices                                 | other                        |
// | Alpha   | 2026-06-01 00:30 (in June) | Acme     | Paving, Sealcoating  | 10 EA x 12.50 = 125 price, 0 cost, 125 margin | 108 (100 + 8 tax) paid; 50 sent; 999 draft | bid 3 June          |
// | Bravo   | 2026-05-31 23:30 (May)     |          |                      |                   |                                          | not in June                  |
// | Charlie | 2026-06-15                 | company Church of Hope | Paving | none: value 3,000 typed | none                            | Sam's; won, decided 19 June 23:00 local |
//
// June by created: Alpha, Charlie (by job number). Value 125 + 3,000 = 3,125; invoiced 108 + 50 =
// 158 (the draft is not billed); collected 108.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; api: Workspace['api'] };
const ids: Record<string, number> = {};
const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };

async function invoice(jobId: number, status: 'draft' | 'sent' | 'paid', line: number, tax?: number) {
  const made = await ok(
    w.api.post('/v1/invoices', {
      job_id: jobId,
      line_items: [{ description: 'Work', amount: line }],
      ...(tax ? { tax } : {}),
      ...REMIT,
    }),
  );
  if (status !== 'draft') await ok(w.api.post(`/v1/invoices/${made.data.id}/mark-sent`));
  if (status === 'paid') await ok(w.api.post(`/v1/invoices/${made.data.id}/mark-paid`));
}

const place = (id: number, at: Record<string, string>) =>
  t.database.db.updateTable('jobs').set(at).where('id', '=', id).execute();

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago', job_types: ['Paving', 'Sealcoating'] });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  const acme = (await ok(w.api.post('/v1/client-accounts', { name: 'Acme Storage' }))).data.id;
  ids.Alpha = (
    await ok(
      w.api.post('/v1/jobs', {
        name: 'Alpha',
        client_account_id: acme,
        job_type: 'Paving, Sealcoating',
        address: '12 Elm St, Columbus, OH 43215',
      }),
    )
  ).data.id;
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: ids.Alpha }))).data;
  await ok(
    w.api.post(`/v1/estimates/${estimate.id}/line-items`, {
      name: 'Stripe',
      unit: 'EA',
      quantity: 10,
      unit_price: 12.5,
    }),
  );
  await invoice(ids.Alpha, 'paid', 100, 8);
  await invoice(ids.Alpha, 'sent', 50);
  await invoice(ids.Alpha, 'draft', 999);
  // 1 June 00:30 CDT is 05:30 UTC: June locally.
  await place(ids.Alpha, { created_at: '2026-06-01T05:30:00.000000', bid_at: '2026-06-03T15:00:00.000000' });
  ids.Bravo = (await ok(w.api.post('/v1/jobs', { name: 'Bravo', estimated_value: 500 }))).data.id;
  // 31 May 23:30 CDT is 1 June 04:30 UTC: May locally.
  await place(ids.Bravo, { created_at: '2026-06-01T04:30:00.000000' });
  ids.Charlie = (
    await ok(
      w.api.post('/v1/jobs', {
        name: 'Charlie',
        company: 'Church of Hope',
        job_type: 'Paving',
        estimated_value: 3000,
        assigned_to_user_id: sam.id,
      }),
    )
  ).data.id;
  await ok(w.api.patch(`/v1/jobs/${ids.Charlie}`, { status: 'won' }));
  await place(ids.Charlie, { created_at: '2026-06-15T15:00:00.000000', decided_at: '2026-06-20T04:00:00.000000' });
});
afterAll(() => t.close());

const JUNE = 'start=2026-06-01&end=2026-06-30';
const run = async (query: string): Promise<any> => ok(w.api.get(`/v1/reports/data-dump?${query}`));

describe('GET /v1/reports/data-dump', () => {
  it('every job created in the range as one row, with invoice sums', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'data-dump', section: 'Sales', date_basis: 'created' });
    expect(d.summary).toEqual([
      { label: 'Jobs', value: '2' },
      { label: 'Value', value: '$3,125.00' },
      { label: 'Invoiced', value: '$158.00' },
      { label: 'Collected', value: '$108.00' },
    ]);
    const [alpha, charlie] = d.tables[0].rows;
    expect(alpha).toEqual({
      job_id: ids.Alpha,
      job_number: expect.any(Number),
      job_name: 'Alpha',
      customer: 'Acme Storage',
      status: 'Lead',
      outcome: 'open',
      work_types: 'Paving, Sealcoating',
      salesperson: 'Owner 1',
      estimator: 'Owner 1',
      division: '(no division)',
      source: 'api',
      customer_type: '',
      property_type: '',
      address: '12 Elm St, Columbus, OH 43215',
      city: 'Columbus',
      zip: '43215',
      created: '2026-06-01',
      bid: '2026-06-03',
      decided: null,
      value: 125,
      estimate_price: 125,
      estimate_cost: 0,
      estimate_margin: 125,
      invoiced: 158,
      collected: 108,
    });
    expect(charlie).toMatchObject({
      job_name: 'Charlie',
      customer: 'Church of Hope',
      outcome: 'won',
      salesperson: 'Sam Seller',
      estimator: '',
      created: '2026-06-15',
      bid: null,
      decided: '2026-06-19',
      value: 3000,
      estimate_price: null,
      estimate_cost: null,
      invoiced: 0,
      collected: 0,
    });
    expect(d.tables[0].total).toMatchObject({ job_name: 'Total', value: 3125, invoiced: 158, collected: 108 });
  });

  it('pages in the database: rows_limit cuts the rows, q finds by any text column (a city, a salesperson); the total follows q', async () => {
    const cut = (await run(`${JUNE}&rows_limit=1`)).data;
    expect(cut.truncated).toBe(true);
    expect(cut.tables[0].rows.map((r: any) => r.job_name)).toEqual(['Alpha']);
    expect(cut.tables[0]).toMatchObject({ rows_total: 2, total: { value: 3125, invoiced: 158 } });
    const columbus = (await run(`${JUNE}&q=columbus`)).data;
    expect(columbus.tables[0].rows.map((r: any) => r.job_name)).toEqual(['Alpha']);
    expect(columbus.tables[0]).toMatchObject({
      rows_total: 1,
      total: { value: 125, estimate_price: 125, invoiced: 158, collected: 108 },
    });
    // The summary stays the range's.
    expect(columbus.summary[0]).toEqual({ label: 'Jobs', value: '2' });
    const sams = (await run(`${JUNE}&q=sam%20seller`)).data.tables[0];
    expect(sams).toMatchObject({ rows_total: 1, total: { value: 3000, estimate_price: 0, invoiced: 0 } });
  });

  it('May holds Bravo (created 23:30 on 31 May locally); filters and another date basis', async () => {
    const may = (await run('start=2026-05-01&end=2026-05-31')).data.tables[0];
    expect(may.rows.map((r: any) => r.job_name)).toEqual(['Bravo']);
    const won = (await run(`${JUNE}&outcomes=won`)).data.tables[0];
    expect(won.rows.map((r: any) => r.job_name)).toEqual(['Charlie']);
    const decided = (await run(`${JUNE}&date_basis=decided`)).data;
    expect(decided.date_basis).toBe('decided');
    expect(decided.tables[0].rows.map((r: any) => r.job_name)).toEqual(['Charlie']);
    const cols = (await run(`${JUNE}&columns=job_name,invoiced`)).data.tables[0];
    expect(cols.rows[0]).toEqual({ job_id: ids.Alpha, job_name: 'Alpha', invoiced: 158 });
  });

  it('a member who sees only their own jobs; group_by is 400', async () => {
    const d: any = (await ok(sam.api.get(`/v1/reports/data-dump?${JUNE}`))).data;
    expect(d.tables[0].rows.map((r: any) => r.job_name)).toEqual(['Charlie']);
    const bad = await w.api.get(`/v1/reports/data-dump?${JUNE}&group_by=city`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('The data-dump report does not use group_by');
  });
});
