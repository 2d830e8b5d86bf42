// The invoices export dataset (document 3, Export dataset rows: the rows of GET
// /v1/jobs/{id}/invoices; changed-since field updated_at; invoice line items are not exported).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { advanceClock, pauseClock, resumeClock } from '#platform/time.ts';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { jsonLines, rawGet, Z } from '#test/helpers/downloads.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

it('streams the invoices as the job list shows them, in id order, and only those changed since updated_after', async () => {
  const w = await t.workspace({ settings: { remit_to: { name: 'R', address: 'A' } } });
  const other = await t.workspace({ settings: { remit_to: { name: 'R', address: 'A' } } });
  const j = await job(w);
  const line = [{ description: 'Sealcoat', amount: 99.99 }];
  const a = (await ok(w.api.post('/v1/invoices', { job_id: j.id, line_items: line }))).data;
  const b = (await ok(w.api.post('/v1/invoices', { job_id: j.id, line_items: line, tax: 0.01 }))).data;
  await ok(other.api.post('/v1/invoices', { job_id: (await job(other)).id, line_items: line }));

  const res = await rawGet(t, '/v1/exports/invoices.jsonl', w.key);
  expect(res.status).toBe(200);
  expect(res.headers['x-service-export-dataset']).toBe('invoices');
  const rows = jsonLines(res.bytes);
  const listed = (await ok(w.api.get(`/v1/jobs/${j.id}/invoices`))).data;
  expect(rows).toEqual(listed);
  expect(rows.map((r) => r.id)).toEqual([a.id, b.id]);
  expect(rows[1]).toMatchObject({ amount: 100, amount_cents: 10000, tax_cents: 1 });
  expect(rows[0]).not.toHaveProperty('line_items');
  expect(rows[0].updated_at).toMatch(Z);

  // Only what changed after the watermark.
  pauseClock();
  try {
    // A second after both were written: only a later change counts.
    const mark = new Date(Date.parse(b.updated_at) + 1000).toISOString();
    advanceClock(2000);
    await ok(w.api.post(`/v1/invoices/${b.id}/mark-sent`));
    const since = jsonLines((await rawGet(t, `/v1/exports/invoices.jsonl?updated_after=${mark}`, w.key)).bytes);
    expect(since.map((r) => [r.id, r.status])).toEqual([[b.id, 'sent']]);
  } finally {
    resumeClock();
  }
  const catalogue = (await ok(w.api.get('/v1/exports'))).data;
  expect(catalogue.find((d: any) => d.dataset === 'invoices')).toMatchObject({ changed_since_fields: ['updated_at'] });
});
