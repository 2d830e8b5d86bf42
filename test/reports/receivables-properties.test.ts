// Properties of the receivables report (issue 29's proof, fast-check) over a workspace of invoices
// spread over 2025-2026 in three customers, some paid, some draft or void: billed and collected over
// two adjacent ranges add up to the whole; filters (customer_ids, q) only remove rows, and what
// they keep is what the whole run showed for those rows; the buckets add up to what is owed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let t: TestApp;
let w: Workspace;
const customers: number[] = [];
const DAY0 = '2025-01-01';
const DAYS = 700;

const REMIT = { remit_to_name: 'Groundwork Paving', remit_to_address: '1 Yard Rd, Springfield' };
const cents = (display: string) => Math.round(Number(display.replace(/[$,]/g, '')) * 100);

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({ timezone: 'America/Denver' });
  const jobs: number[] = [];
  for (const name of ['Aspen HOA', 'Bluebird Mall', 'Cedar School']) {
    const id = (await ok(w.api.post('/v1/client-accounts', { name }))).data.id;
    customers.push(id);
    jobs.push((await ok(w.api.post('/v1/jobs', { name: `${name} lot`, client_account_id: id }))).data.id);
  }
  // 30 invoices; day k issued at 17:00 UTC (10:00 or 11:00 in Denver), every fourth paid 45 days
  // later, one in ten draft and one in ten void.
  for (let k = 0; k < 30; k++) {
    const made = await ok(
      w.api.post('/v1/invoices', {
        job_id: jobs[k % 3]!,
        line_items: [{ description: 'Work', amount: 100 + ((k * 137) % 900) }],
        ...REMIT,
      }),
    );
    const id = made.data.id;
    const draft = k % 10 === 3;
    if (!draft) await ok(w.api.post(`/v1/invoices/${id}/mark-sent`));
    if (k % 10 === 7) await ok(w.api.post(`/v1/invoices/${id}/void`));
    const paid = !draft && k % 10 !== 7 && k % 4 === 0;
    if (paid) await ok(w.api.post(`/v1/invoices/${id}/mark-paid`));
    const day = addDays(DAY0, (k * 23) % DAYS);
    await t.database.db
      .updateTable('invoices')
      .set({
        issued_at: `${day}T17:00:00.000000`,
        created_at: `${day}T17:00:00.000000`,
        ...(paid ? { paid_at: `${addDays(day, 45)}T17:00:00.000000` } : {}),
      })
      .where('id', '=', id)
      .execute();
  }
});
afterAll(() => t.close());

const run = async (query: string) => (await ok(w.api.get(`/v1/reports/receivables?${query}&rows_limit=2000`))).data;
const day = fc.integer({ min: 0, max: DAYS + 60 }).map((n) => addDays(DAY0, n));

describe('receivables: properties', () => {
  it('billed and collected over two adjacent ranges add up to the whole range', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(day, day, day), async (ds) => {
        const [a, b, c] = [...ds].sort();
        const whole = await run(`start=${a}&end=${c}`);
        const first = await run(`start=${a}&end=${b}`);
        const rest = b < c ? await run(`start=${addDays(b, 1)}&end=${c}`) : null;
        for (const i of [0, 1]) {
          const parts = cents(first.summary[i]!.value) + (rest ? cents(rest.summary[i]!.value) : 0);
          expect(parts, `${whole.summary[i]!.label}`).toBe(cents(whole.summary[i]!.value));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('customer_ids and q only remove rows; the rows kept are as the whole run showed them', async () => {
    await fc.assert(
      fc.asyncProperty(
        day,
        fc.subarray([0, 1, 2], { minLength: 1 }),
        fc.constantFrom(0, 15, 30, 45, 60, 90),
        async (end, picked, net) => {
          const all = await run(`end=${end}&net_days=${net}`);
          const ids = picked.map((i) => customers[i]!);
          const some = await run(`end=${end}&net_days=${net}&customer_ids=${ids.join(',')}`);
          for (const [i, table] of some.tables.entries()) {
            const whole = all.tables[i]!.rows.map((r) => JSON.stringify(r));
            for (const r of table.rows) expect(whole).toContain(JSON.stringify(r));
          }
          const q = await run(`end=${end}&net_days=${net}&q=mall`);
          expect(q.tables[0]!.rows.every((r) => r.customer === 'Bluebird Mall')).toBe(true);
          expect(q.tables[0]!.rows.length).toBeLessThanOrEqual(all.tables[0]!.rows.length);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('the buckets add up to what is owed, per customer and in all, at any end and terms', async () => {
    await fc.assert(
      fc.asyncProperty(day, fc.constantFrom(0, 15, 30, 45, 60, 90), async (end, net) => {
        const d = await run(`end=${end}&net_days=${net}`);
        const [aging, invoices] = d.tables;
        const buckets = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'over_90'];
        for (const r of [...aging!.rows, aging!.total!]) {
          const sum = buckets.reduce((s, b) => s + Math.round(Number(r[b]) * 100), 0);
          expect(sum).toBe(Math.round(Number(r.total) * 100));
        }
        const owed = invoices!.rows.reduce((s, r) => s + Math.round(Number(r.amount) * 100), 0);
        expect(owed).toBe(cents(d.summary[2]!.value));
        expect(Math.round(Number(aging!.total!.total) * 100)).toBe(owed);
        // Each invoice's bucket (the database's, from instants) agrees with its days past due (from
        // local dates).
        for (const r of invoices!.rows) {
          const days = Number(r.days_past_due);
          const expected =
            days === 0
              ? 'Current'
              : days <= 30
                ? '1-30 days'
                : days <= 60
                  ? '31-60 days'
                  : days <= 90
                    ? '61-90 days'
                    : 'Over 90 days';
          expect(r.bucket, JSON.stringify(r)).toBe(expected);
        }
      }),
      { numRuns: 25 },
    );
  });
});
