// GET /v1/reports/receivables (document 2, Owner reports: "aging buckets current, 1-30, 31-60, 61-90,
// over 90; billed and collected"; docs/reports.md, "Receivables"). A workspace in Chicago (CDT,
// UTC-5 in the spring) with invoices placed by hand in each bucket at end 2026-06-30 on net 30, two
// on either side of a bucket edge at local midnight, one paid before the end and one after it, and
// a draft and a void that are never owed. The figures are worked out in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { rawGet, unzip } from '#test/helpers/downloads.ts';

let t: TestApp;
let w: Workspace;
let acme: number;
let birch: number;
let jobA: number;
let jobB: number;

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };

/** An invoice of `amount` on the job, sent, then dated `issuedAt` (UTC) and paid at `paidAt` if given. */
async function invoice(
  jobId: number,
  amount: number,
  issuedAt: string,
  o: { paidAt?: string; status?: 'draft' | 'void' } = {},
) {
  const made = await ok(
    w.api.post('/v1/invoices', { job_id: jobId, line_items: [{ description: 'Work', amount }], ...REMIT }),
  );
  const id = made.data.id;
  if (o.status !== 'draft') await ok(w.api.post(`/v1/invoices/${id}/mark-sent`));
  if (o.status === 'void') await ok(w.api.post(`/v1/invoices/${id}/void`));
  if (o.paidAt) await ok(w.api.post(`/v1/invoices/${id}/mark-paid`));
  await t.database.db
    .updateTable('invoices')
    .set({ issued_at: issuedAt, created_at: issuedAt, ...(o.paidAt ? { paid_at: o.paidAt } : {}) })
    .where('id', '=', id)
    .execute();
  return made.data.invoice_number as string;
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  acme = (await ok(w.api.post('/v1/client-accounts', { name: 'Acme Storage' }))).data.id;
  birch = (await ok(w.api.post('/v1/client-accounts', { name: 'Birch Church' }))).data.id;
  jobA = (await ok(w.api.post('/v1/jobs', { name: 'Acme lot', client_account_id: acme }))).data.id;
  jobB = (await ok(w.api.post('/v1/jobs', { name: 'Birch lot', client_account_id: birch }))).data.id;
  // At end 30 June on net 30 an invoice dated D is due D + 30; days past due = 30 June - due.
  await invoice(jobA, 1000, '2026-06-20T15:00:00.000000'); // due 20 Jul: current
  await invoice(jobA, 2000, '2026-05-15T15:00:00.000000'); // due 14 Jun: 16 days, 1-30
  await invoice(jobA, 300, '2026-04-20T15:00:00.000000'); // due 20 May: 41 days, 31-60
  await invoice(jobA, 40, '2026-06-01T04:30:00.000000'); // 31 May 23:30 CDT, due 30 Jun: 0 days, current
  await invoice(jobA, 50, '2026-05-31T04:30:00.000000'); // 30 May 23:30 CDT, due 29 Jun: 1 day, 1-30
  await invoice(jobB, 400, '2026-03-25T15:00:00.000000'); // due 24 Apr: 67 days, 61-90
  await invoice(jobB, 500, '2026-01-10T15:00:00.000000'); // due 9 Feb: 141 days, over 90
  await invoice(jobB, 800, '2026-05-01T15:00:00.000000', { paidAt: '2026-07-05T15:00:00.000000' }); // paid after the end: owed, due 31 May, 30 days, 1-30
  await invoice(jobB, 700, '2026-05-02T15:00:00.000000', { paidAt: '2026-06-10T15:00:00.000000' }); // paid 10 Jun: not owed, collected
  await invoice(jobB, 900, '2026-06-03T15:00:00.000000', { status: 'draft' }); // never owed, never billed
  await invoice(jobB, 600, '2026-06-04T15:00:00.000000', { status: 'void' }); // never owed, never billed
});
afterAll(() => t.close());

const run = (query: string) => ok(w.api.get(`/v1/reports/receivables?${query}`));

describe('GET /v1/reports/receivables', () => {
  it('ages what is owed at the end by customer and invoice; billed and collected over the range', async () => {
    const res = await run('start=2026-06-01&end=2026-06-30');
    const d = res.data;
    expect(d).toMatchObject({
      key: 'receivables',
      title: 'Receivables',
      section: 'Financial',
      start: '2026-06-01',
      end: '2026-06-30',
      date_basis: 'all',
      truncated: false,
    });
    // Owed: Acme 1,000 + 2,000 + 300 + 40 + 50 = 3,390; Birch 400 + 500 + 800 = 1,700; 5,090 in all.
    // Current: 1,000 + 40 = 1,040, so 4,050 past due. Billed in June: the 1,000 alone (the 40 of
    // 1 June 04:30 UTC is 31 May in Chicago); collected in June: the 700 paid 10 June.
    expect(d.summary).toEqual([
      { label: 'Billed 2026-06-01 to 2026-06-30', value: '$1,000.00' },
      { label: 'Collected 2026-06-01 to 2026-06-30', value: '$700.00' },
      { label: 'Owed at 2026-06-30', value: '$5,090.00' },
      { label: 'Past due at 2026-06-30 (net 30)', value: '$4,050.00' },
      { label: 'Open invoices', value: '8' },
    ]);
    const [aging, invoices] = d.tables;
    expect(aging!.key).toBe('aging');
    expect(aging!.columns.map((c) => [c.key, c.kind])).toEqual([
      ['customer', 'text'],
      ['current', 'money'],
      ['days_1_30', 'money'],
      ['days_31_60', 'money'],
      ['days_61_90', 'money'],
      ['over_90', 'money'],
      ['total', 'money'],
      ['invoices', 'int'],
      ['oldest_invoice', 'date'],
    ]);
    // Largest balance first.
    expect(aging!.rows).toEqual([
      {
        customer: 'Acme Storage',
        current: 1040,
        days_1_30: 2050,
        days_31_60: 300,
        days_61_90: 0,
        over_90: 0,
        total: 3390,
        invoices: 5,
        oldest_invoice: '2026-04-20',
      },
      {
        customer: 'Birch Church',
        current: 0,
        days_1_30: 800,
        days_31_60: 0,
        days_61_90: 400,
        over_90: 500,
        total: 1700,
        invoices: 3,
        oldest_invoice: '2026-01-10',
      },
    ]);
    expect(aging!.total).toEqual({
      customer: 'Total',
      current: 1040,
      days_1_30: 2850,
      days_31_60: 300,
      days_61_90: 400,
      over_90: 500,
      total: 5090,
      invoices: 8,
      oldest_invoice: null,
    });
    expect(aging!.rows_total).toBe(2);
    expect(invoices!.key).toBe('invoices');
    // Oldest first, each with its job, the local invoice date, net-30 due date and bucket.
    expect(invoices!.rows.map((r) => [r.job_id, r.issued, r.due, r.days_past_due, r.bucket, r.amount])).toEqual([
      [jobB, '2026-01-10', '2026-02-09', 141, 'Over 90 days', 500],
      [jobB, '2026-03-25', '2026-04-24', 67, '61-90 days', 400],
      [jobA, '2026-04-20', '2026-05-20', 41, '31-60 days', 300],
      [jobB, '2026-05-01', '2026-05-31', 30, '1-30 days', 800],
      [jobA, '2026-05-15', '2026-06-14', 16, '1-30 days', 2000],
      [jobA, '2026-05-30', '2026-06-29', 1, '1-30 days', 50],
      [jobA, '2026-05-31', '2026-06-30', 0, 'Current', 40],
      [jobA, '2026-06-20', '2026-07-20', 0, 'Current', 1000],
    ]);
    expect(invoices!.total).toEqual({ invoice_number: 'Total', amount: 5090 });
  });

  it('net_days moves every invoice’s due date; an earlier end owes what was open then', async () => {
    // Net 0: due on the invoice date, so only an invoice dated 30 June would be current; none is.
    const net0 = await run('end=2026-06-30&net_days=0');
    expect(net0.data.tables[0]!.total).toMatchObject({ current: 0, total: 5090 });
    expect(net0.data.summary[3]).toEqual({ label: 'Past due at 2026-06-30 (net 0)', value: '$5,090.00' });
    // End 9 June: the 700 (paid 10 June) was still owed, and the 40 (31 May local) too; the 1,000 of
    // 20 June was not issued yet.
    const early = await run('start=2026-01-01&end=2026-06-09');
    const owed = early.data.tables[1]!.rows.map((r) => r.amount).sort((a, b) => Number(a) - Number(b));
    expect(owed).toEqual([40, 50, 300, 400, 500, 700, 800, 2000]);
    // Billed 1 Jan - 9 Jun: every sent invoice issued by then: 500 + 400 + 300 + 800 + 700 + 2,000 + 50 + 40.
    expect(early.data.summary[0]).toEqual({ label: 'Billed 2026-01-01 to 2026-06-09', value: '$4,790.00' });
  });

  it('filters: customer_ids, salesperson_ids; q keeps rows holding the text; columns; rows_limit truncates', async () => {
    const birchOnly = await run(`end=2026-06-30&customer_ids=${birch}`);
    expect(birchOnly.data.tables[0]!.rows.map((r) => r.customer)).toEqual(['Birch Church']);
    expect(birchOnly.data.summary[2]).toEqual({ label: 'Owed at 2026-06-30', value: '$1,700.00' });
    const nobody = await run(`end=2026-06-30&salesperson_ids=999999`);
    expect(nobody.data.tables[0]!.rows).toEqual([]);
    expect(nobody.data.tables[0]!.total).toMatchObject({ total: 0, invoices: 0 });
    const q = await run('end=2026-06-30&q=acme');
    expect(q.data.tables[0]!.rows.map((r) => r.customer)).toEqual(['Acme Storage']);
    expect(q.data.tables[0]!.total).toMatchObject({ total: 3390 });
    expect(q.data.tables[1]!.rows_total).toBe(5);
    const cols = await run('end=2026-06-30&columns=customer,total,amount');
    expect(cols.data.tables[0]!.columns.map((c) => c.key)).toEqual(['customer', 'total']);
    expect(cols.data.tables[0]!.rows[0]).toEqual({ customer: 'Acme Storage', total: 3390 });
    // A job row keeps job_id whatever the columns.
    expect(cols.data.tables[1]!.rows[0]).toEqual({ job_id: jobB, customer: 'Birch Church', amount: 500 });
    const cut = await run('end=2026-06-30&rows_limit=3');
    expect(cut.data.truncated).toBe(true);
    expect(cut.data.tables[1]!.rows).toHaveLength(3);
    expect(cut.data.tables[1]!.rows_total).toBe(8);
    // Without q the page is picked before its jobs are read (ListTable.page): the same first rows,
    // oldest invoice first, as the whole list; and a customer's, as the filtered list.
    const whole = (await run('end=2026-06-30')).data.tables[1]!.rows;
    expect(cut.data.tables[1]!.rows).toEqual(whole.slice(0, 3));
    expect(whole.map((r) => r.issued)).toEqual(whole.map((r) => r.issued).sort());
    expect((await run(`end=2026-06-30&customer_ids=${birch}&rows_limit=1`)).data.tables[1]!.rows).toEqual(
      birchOnly.data.tables[1]!.rows.slice(0, 1),
    );
    // The total is over every row, not only those shown.
    expect(cut.data.tables[1]!.total).toEqual({ invoice_number: 'Total', amount: 5090 });
  });

  it('bad input is 400 naming it: a parameter the report does not use, net_days, columns, dates, rows_limit', async () => {
    const bad = async (query: string, field: string) => {
      const res = await w.api.raw.get(`/v1/reports/receivables?${query}`);
      expect(res.status, query).toBe(400);
      if (field) expect(res.body.field, query).toBe(field);
      return res.body;
    };
    expect((await bad('group_by=customer', 'group_by')).error).toBe('The receivables report does not use group_by');
    await bad('weeks=4', 'weeks');
    expect((await bad('net_days=20', 'net_days')).error).toBe('net_days must be one of 0, 15, 30, 45, 60, 90');
    expect((await bad('columns=customer,nope', 'columns')).error).toBe('Unknown columns: nope');
    await bad('start=2026-07-01&end=2026-06-30', 'end');
    await bad('end=0001-01-01', 'end');
    expect((await w.api.raw.get('/v1/reports/receivables?rows_limit=2001')).status).toBe(400);
    expect((await w.api.raw.get('/v1/reports/receivables?customer_ids=1,x')).status).toBe(400);
    expect((await w.api.raw.get('/v1/reports/receivables?unknown=1')).status).toBe(400);
  });

  it('management reports: a user not allowed to view reports is 403; an unknown key is 404; another workspace sees nothing', async () => {
    const member = await t.user(w.firmId, { name: 'Mo Member', role: 'member' });
    const refused = await member.api.raw.get('/v1/reports/receivables');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'Reports not available', code: 'reports_not_available' });
    const allowed = await t.user(w.firmId, { name: 'Al Allowed', role: 'member', can_view_reports: true });
    expect((await allowed.api.raw.get('/v1/reports/receivables?end=2026-06-30')).status).toBe(200);
    const missing = await w.api.raw.get('/v1/reports/no-such-report');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Report not found');
    const other = await t.workspace();
    const theirs = await ok(other.api.get('/v1/reports/receivables?end=2026-06-30'));
    expect(theirs.data.tables[0]!.rows).toEqual([]);
    expect(theirs.data.summary[2]).toEqual({ label: 'Owed at 2026-06-30', value: '$0.00' });
  });

  it('a member who sees only their own jobs is aged on those jobs alone', async () => {
    const own = await t.user(w.firmId, {
      name: 'Sal Sales',
      role: 'member',
      can_view_reports: true,
      sees_own_jobs_only: true,
    });
    await ok(w.api.patch(`/v1/jobs/${jobB}`, { assigned_to_user_id: own.id }));
    const res = await ok(own.api.get('/v1/reports/receivables?end=2026-06-30'));
    expect(res.data.tables[0]!.rows.map((r) => [r.customer, r.total])).toEqual([['Birch Church', 1700]]);
    // The salesperson filter is the job's assignee.
    const bySales = await ok(w.api.get(`/v1/reports/receivables?end=2026-06-30&salesperson_ids=${own.id}`));
    expect(bySales.data.tables[0]!.rows.map((r) => r.customer)).toEqual(['Birch Church']);
    await ok(w.api.patch(`/v1/jobs/${jobB}`, { assigned_to_user_id: w.ownerId }));
  });
});

describe('GET /v1/reports/receivables/csv', () => {
  it('every table as a ZIP of CSVs, or one table as CSV: labels, the rows, the total line', async () => {
    const zip = await rawGet(t, '/v1/reports/receivables/csv?start=2026-06-01&end=2026-06-30', w.key);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe('attachment; filename="receivables-2026-06-01-to-2026-06-30.zip"');
    const files = await unzip(zip.bytes);
    expect([...files.keys()]).toEqual([
      'receivables-2026-06-01-to-2026-06-30-aging.csv',
      'receivables-2026-06-01-to-2026-06-30-invoices.csv',
    ]);
    expect(files.get('receivables-2026-06-01-to-2026-06-30-aging.csv')!.toString('utf8')).toBe(
      [
        'Customer,Current,1-30 days,31-60 days,61-90 days,Over 90 days,Total owed,Invoices,Oldest invoice',
        'Acme Storage,1040.00,2050.00,300.00,0.00,0.00,3390.00,5,2026-04-20',
        'Birch Church,0.00,800.00,0.00,400.00,500.00,1700.00,3,2026-01-10',
        'Total,1040.00,2850.00,300.00,400.00,500.00,5090.00,8,',
        '',
      ].join('\r\n'),
    );
    const one = await rawGet(
      t,
      '/v1/reports/receivables/csv?end=2026-06-30&table=invoices&columns=invoice_number,amount&rows_limit=2',
      w.key,
    );
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = one.bytes.toString('utf8').split('\r\n');
    // The two oldest open invoices, then the total over all eight.
    expect(lines[0]).toBe('Invoice,Amount owed');
    expect(lines.slice(1, 3).map((l) => l.split(',')[1])).toEqual(['500.00', '400.00']);
    expect(lines[3]).toBe('Total,5090.00');
    expect(lines).toHaveLength(5);
  });

  it('a table the report does not have is 400; access as for the run', async () => {
    const bad = await rawGet(t, '/v1/reports/receivables/csv?table=nope', w.key);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: 'The receivables report has no table nope', field: 'table' });
    const member = await t.user(w.firmId, { name: 'Csv Member', role: 'member' });
    expect((await rawGet(t, '/v1/reports/receivables/csv', member.key)).status).toBe(403);
    expect((await rawGet(t, '/v1/reports/nothing/csv', w.key)).status).toBe(404);
  });
});
