// GET /v1/reports/top-customers (docs/reports.md, "Top customers"), worked by hand. A Chicago
// workspace (CDT, UTC-5 in summer). Each job's decided instant is placed by hand:
//
// | job | customer          | salesperson | stage  | value  | decided (local)        |
// | A   | Acme Storage      | owner       | won    | 10,000 | 2026-06-10 09:00       |
// | B   | Acme Storage      | owner       | lost   |  5,000 | 2026-06-12 09:00       |
// | C   | Birch Church      | Sam         | won    |  4,000 | 2026-06-30 23:30 (in)  |
// | D   | Dove HOA (*)      | Sam         | won    |  6,000 | 2026-06-15 09:00       |
// | E   | Cedar Clinic      | owner       | lost   |  3,000 | 2026-06-20 09:00       |
// | F   | Birch Church      | owner       | won    |  8,000 | 2026-07-01 00:30 (out) |
// | G   | Cedar Clinic      | owner       | active |  2,000 | never                  |
//
// (*) typed as the job's company: the job's create makes it a client account.
//
// Invoices (issued and paid, local):
// | on | amount | issued                | paid       | June invoiced | June collected |
// | A  |  1,000 | 06-05                 | 06-25      | 1,000         | 1,000          |
// | A  |  2,000 | 05-20                 | 06-02      | -             | 2,000          |
// | F  |    500 | 06-30 23:30 (in)      | -          | 500 (Birch)   | -              |
// | C  |    700 | 07-01 00:30 (out)     | -          | -             | -              |
// | D  |    300 | draft                 | -          | -             | -              |
// | B  |    400 | void                  | -          | -             | -              |
// | G  |    250 | 06-10                 | -          | 250 (Cedar)   | -              |
//
// June, by won value: won 10,000 + 6,000 + 4,000 = 20,000.
// | customer     | decided | won | won value | share | invoiced | collected |
// | Acme Storage | 2       | 1   | 10,000    | 0.5   | 1,000    | 3,000     |
// | Dove HOA     | 1       | 1   |  6,000    | 0.3   | 0        | 0         |
// | Birch Church | 1       | 1   |  4,000    | 0.2   | 500      | 0         |
// | Cedar Clinic | 1       | 0   |      0    | 0     | 250      | 0         |
// | Total        | 5       | 3   | 20,000    | 1     | 1,750    | 3,000     |
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import { salesJob } from '#test/helpers/scenarios/sales-jobs.ts';

let t: TestApp;
let w: Workspace;
let sam: { id: number; key: string; api: Workspace['api'] };
const account: Record<string, number> = {};

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };
const at = (utc: string) => `${utc}.000000`;

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
}

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Chicago' });
  sam = await t.user(w.firmId, { name: 'Sam Seller', sees_own_jobs_only: true, can_view_reports: true });
  for (const name of ['Acme Storage', 'Birch Church', 'Cedar Clinic'])
    account[name] = (await ok(w.api.post('/v1/client-accounts', { name }))).data.id;
  const A = await salesJob(t, w, 'A', {
    client_account_id: account['Acme Storage'],
    status: 'won',
    value: 10000,
    decided: at('2026-06-10T14:00:00'),
  });
  const B = await salesJob(t, w, 'B', {
    client_account_id: account['Acme Storage'],
    status: 'lost',
    value: 5000,
    decided: at('2026-06-12T14:00:00'),
  });
  // 30 June 23:30 CDT is 1 July 04:30 UTC: still June locally.
  const C = await salesJob(t, w, 'C', {
    client_account_id: account['Birch Church'],
    owner: sam.id,
    status: 'won',
    value: 4000,
    decided: at('2026-07-01T04:30:00'),
  });
  const D = await salesJob(t, w, 'D', {
    company: 'Dove HOA',
    owner: sam.id,
    status: 'won',
    value: 6000,
    decided: at('2026-06-15T14:00:00'),
  });
  await salesJob(t, w, 'E', {
    client_account_id: account['Cedar Clinic'],
    status: 'lost',
    value: 3000,
    decided: at('2026-06-20T14:00:00'),
  });
  // 1 July 00:30 CDT is 1 July 05:30 UTC: July locally, out of the range.
  const F = await salesJob(t, w, 'F', {
    client_account_id: account['Birch Church'],
    status: 'won',
    value: 8000,
    decided: at('2026-07-01T05:30:00'),
  });
  const G = await salesJob(t, w, 'G', { client_account_id: account['Cedar Clinic'], status: 'active', value: 2000 });
  await invoice(A, 1000, at('2026-06-05T15:00:00'), { paidAt: at('2026-06-25T15:00:00') });
  await invoice(A, 2000, at('2026-05-20T15:00:00'), { paidAt: at('2026-06-02T15:00:00') });
  await invoice(F, 500, at('2026-07-01T04:30:00'));
  await invoice(C, 700, at('2026-07-01T05:30:00'));
  await invoice(D, 300, at('2026-06-05T15:00:00'), { status: 'draft' });
  await invoice(B, 400, at('2026-06-05T15:00:00'), { status: 'void' });
  await invoice(G, 250, at('2026-06-10T15:00:00'));
});
afterAll(() => t.close());

const run = async (query: string, api = w.api): Promise<any> => ok(api.get(`/v1/reports/top-customers?${query}`));
const JUNE = 'start=2026-06-01&end=2026-06-30';

describe('GET /v1/reports/top-customers', () => {
  it('ranks the customers of the jobs decided in the range by won value, with what they were billed and paid', async () => {
    const d = (await run(JUNE)).data;
    expect(d).toMatchObject({ key: 'top-customers', section: 'Sales', date_basis: 'decided' });
    expect(d.summary).toEqual([
      { label: 'Customers', value: '4' },
      { label: 'Won', value: '3 ($20,000.00)' },
      { label: 'Top customer', value: 'Acme Storage (50% of won value)' },
      { label: 'Invoiced', value: '$1,750.00' },
      { label: 'Collected', value: '$3,000.00' },
    ]);
    const [table] = d.tables;
    expect(table.rows).toEqual([
      {
        customer: 'Acme Storage',
        client_account_id: account['Acme Storage'],
        decided: 2,
        won: 1,
        won_value: 10000,
        won_share: 0.5,
        invoiced: 1000,
        collected: 3000,
      },
      {
        customer: 'Dove HOA',
        client_account_id: expect.any(Number),
        decided: 1,
        won: 1,
        won_value: 6000,
        won_share: 0.3,
        invoiced: 0,
        collected: 0,
      },
      {
        customer: 'Birch Church',
        client_account_id: account['Birch Church'],
        decided: 1,
        won: 1,
        won_value: 4000,
        won_share: 0.2,
        invoiced: 500,
        collected: 0,
      },
      {
        customer: 'Cedar Clinic',
        client_account_id: account['Cedar Clinic'],
        decided: 1,
        won: 0,
        won_value: 0,
        won_share: 0,
        invoiced: 250,
        collected: 0,
      },
    ]);
    expect(table.total).toEqual({
      customer: 'Total',
      client_account_id: null,
      decided: 5,
      won: 3,
      won_value: 20000,
      won_share: 1,
      invoiced: 1750,
      collected: 3000,
    });
  });

  it('filters narrow the jobs and the invoices alike', async () => {
    // Sam's jobs: C (Birch, won 4,000) and D (Dove, won 6,000); Birch's 500 is on F, not his.
    const d = (await run(`${JUNE}&salesperson_ids=${sam.id}`)).data;
    expect(d.tables[0].rows.map((r: any) => [r.customer, r.won_value, r.won_share, r.invoiced])).toEqual([
      ['Dove HOA', 6000, 0.6, 0],
      ['Birch Church', 4000, 0.4, 0],
    ]);
    const acme = (await run(`${JUNE}&customer_ids=${account['Acme Storage']}`)).data;
    expect(acme.tables[0].rows).toHaveLength(1);
    expect(acme.summary[3]).toEqual({ label: 'Invoiced', value: '$1,000.00' });
  });

  it('a member who sees only their own jobs sees only those customers and invoices', async () => {
    const d = (await run(JUNE, sam.api)).data;
    expect(d.summary.slice(0, 2)).toEqual([
      { label: 'Customers', value: '2' },
      { label: 'Won', value: '2 ($10,000.00)' },
    ]);
    expect(d.tables[0].total).toMatchObject({ invoiced: 0, collected: 0 });
  });

  it('refuses a parameter it does not use', async () => {
    const res = await w.api.get(`/v1/reports/top-customers?${JUNE}&group_by=customer`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The top-customers report does not use group_by');
  });
});
