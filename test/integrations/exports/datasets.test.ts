// GET /v1/exports and GET /v1/exports/{dataset}.jsonl[.gz] (document 3, Bulk data export and
// Export dataset rows; document 1, Limits; docs/api-decisions.md, Bulk export).
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJobs } from '../../../bench/seed.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { MICRO, Z, jsonLines, rawGet } from '#test/helpers/downloads.ts';
import { EXPORT_DATASETS } from '#test/helpers/datasets.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function exportOf(w: Workspace | { key: string }, dataset: string, query = '') {
  const res = await rawGet(t, `/v1/exports/${dataset}.jsonl${query}`, w.key);
  expect(res.status, res.bytes.toString()).toBe(200);
  return jsonLines(res.bytes);
}

/** A workspace with one of each record: an archived customer, a site, a job with custom fields, an estimate and an invoice, feed events. */
async function populated() {
  const w = await t.workspace({ settings: { operations_enabled: true, crew_scheduling_enabled: true } });
  const customer = (
    await w.api.post('/v1/client-accounts', { name: 'Acme HOA', external_ref: 'crm-1', email: 'a@acme.test' })
  ).body.data;
  await w.api.patch(`/v1/client-accounts/${customer.id}`, { archived: true });
  const site = (
    await w.api.post('/v1/locations', { address: '12 Main St', name: 'Main lot', client_account_id: customer.id })
  ).body.data;
  const job = (
    await w.api.post('/v1/jobs', { name: 'Sealcoat Main lot', address: '12 Main St', client_account_id: customer.id })
  ).body.data;
  await t.database.db
    .updateTable('jobs')
    .set({ custom_fields: JSON.stringify({ gate_code: '1234', lots: 2 }) })
    .where('id', '=', job.id)
    .execute();
  expect((await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' })).status).toBe(200);
  const estimate = (await w.api.post('/v1/estimates', { job_id: job.id })).body.data;
  const line = await w.api.post(`/v1/estimates/${estimate.id}/line-items`, {
    name: 'Sealcoat',
    unit: 'SY',
    quantity: 900,
    unit_cost: 0.6,
  });
  expect(line.status).toBe(201);
  expect(
    (
      await w.api.post('/v1/invoices', {
        job_id: job.id,
        line_items: [{ description: 'Sealcoat', amount: 540 }],
        remit_to_address: '1 Yard Rd',
      })
    ).status,
  ).toBe(201);
  expect(
    (await w.api.post('/v1/change-orders', { job_id: job.id, title: 'Extra crack fill', amount_delta: 75 })).status,
  ).toBe(201);
  expect(
    (
      await w.api.post('/v1/work-orders', {
        job_id: job.id,
        title: 'Sealcoat',
        scheduled_date: '2027-05-03',
        estimate_service_id: line.body.line_item_id,
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await w.api.post('/v1/crew/time-entries', {
        job_id: job.id,
        clock_in: '2026-05-03T12:00:00Z',
        clock_out: '2026-05-03T16:00:00Z',
      })
    ).status,
  ).toBe(201);
  expect(
    (await w.api.post(`/v1/jobs/${job.id}/costs`, { cost_type: 'material', amount: 120, date: '2026-05-03' })).status,
  ).toBe(201);
  return { w, customer, site, job };
}

describe('GET /v1/exports', () => {
  it('lists every dataset with its description, changed-since fields and stream url', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/exports');
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { dataset: string }) => d.dataset)).toEqual(EXPORT_DATASETS);
    for (const d of res.body.data) {
      expect(Object.keys(d).sort()).toEqual(['changed_since_fields', 'dataset', 'description', 'url']);
      expect(d.url).toBe(`/v1/exports/${d.dataset}.jsonl`);
      expect(d.description).toEqual(expect.any(String));
    }
    const fields = Object.fromEntries(res.body.data.map((d: any) => [d.dataset, d.changed_since_fields]));
    expect(fields).toEqual({
      customers: ['updated_at'],
      properties: ['updated_at'],
      jobs: ['updated_at'],
      estimates: ['updated_at'],
      estimate_lines: ['estimate_updated_at'],
      invoices: ['updated_at'],
      change_orders: ['updated_at'],
      job_costs: ['created_at', 'reviewed_at', 'reconciled_at'],
      work_orders: ['updated_at'],
      time_entries: ['clock_in', 'clock_out', 'approved_at', 'voided_at', 'updated_at'],
      allocations: ['updated_at'],
      events: ['occurred_at'],
    });
  });

  it('needs a key (401) with job read permission (403)', async () => {
    const w = await t.workspace();
    expect((await t.anon.get('/v1/exports')).status).toBe(401);
    expect((await t.anon.get('/v1/exports/jobs.jsonl')).status).toBe(401);
    const key = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    for (const path of ['/v1/exports', '/v1/exports/jobs.jsonl', '/v1/exports/jobs.jsonl.gz']) {
      const res = await t.as(key).get(path);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        error: 'API key lacks job read permission',
        code: 'missing_permission',
        permission: 'read_jobs',
      });
    }
  });
});

describe('dataset rows', () => {
  it('customers: the customer object (archived ones included, with archived_at)', async () => {
    const { w, customer } = await populated();
    const rows = await exportOf(w, 'customers');
    const read = (await w.api.get(`/v1/client-accounts/${customer.id}`)).body.data;
    expect(rows).toEqual([read]);
    expect(Object.keys(rows[0]).sort()).toEqual([
      'address',
      'archived_at',
      'created_at',
      'custom_fields',
      'email',
      'external_ref',
      'id',
      'name',
      'notes',
      'phone',
      'skip_automatic_follow_ups',
      'updated_at',
    ]);
    expect(rows[0].archived_at).toMatch(Z);
  });

  it('properties: the spec row, with latitude, longitude, property_type and pci null until they are stored', async () => {
    const { w, site, customer } = await populated();
    const rows = await exportOf(w, 'properties');
    expect(rows).toEqual([
      {
        id: site.id,
        name: 'Main lot',
        address: '12 Main St',
        external_ref: null,
        client_account_id: customer.id,
        latitude: null,
        longitude: null,
        property_type: null,
        pci: null,
        archived_at: null,
        created_at: site.created_at,
        updated_at: expect.stringMatching(Z),
      },
    ]);
    expect(Object.keys(rows[0])).toEqual([
      'id',
      'name',
      'address',
      'external_ref',
      'client_account_id',
      'latitude',
      'longitude',
      'property_type',
      'pci',
      'archived_at',
      'created_at',
      'updated_at',
    ]);
  });

  it('jobs: the job object of GET /v1/jobs/{id}, custom_fields included', async () => {
    const { w, job } = await populated();
    const rows = await exportOf(w, 'jobs');
    const read = (await w.api.get(`/v1/jobs/${job.id}`)).body.data;
    expect(rows).toEqual([read]);
    expect(rows[0].custom_fields).toEqual({ gate_code: '1234', lots: 2 });
    expect(rows[0].updated_at).toMatch(MICRO);
    expect(rows[0]).not.toHaveProperty('assignees');
  });

  it('events: the feed events only, entity flat, occurred_at in Z form, data as an object', async () => {
    const { w, job } = await populated();
    const rows = await exportOf(w, 'events');
    const feed = await t.database.db
      .selectFrom('events')
      .selectAll()
      .where('firm_id', '=', w.firmId)
      .where('in_feed', '=', 1)
      .orderBy('id')
      .execute();
    expect(feed.length).toBeGreaterThanOrEqual(3);
    expect(rows.map((r) => r.id)).toEqual(feed.map((e) => e.id));
    for (const [i, r] of rows.entries()) {
      expect(Object.keys(r)).toEqual([
        'id',
        'event_id',
        'event_type',
        'occurred_at',
        'entity_type',
        'entity_id',
        'job_id',
        'data',
      ]);
      expect(r).toEqual({
        id: feed[i].id,
        event_id: feed[i].event_id,
        event_type: feed[i].event_type,
        occurred_at: feed[i].occurred_at.slice(0, 19) + 'Z',
        entity_type: feed[i].entity_type,
        entity_id: feed[i].entity_id,
        job_id: feed[i].job_id,
        data: JSON.parse(feed[i].data),
      });
    }
    expect(rows.map((r) => r.event_type)).toEqual(
      expect.arrayContaining(['job_created', 'job_status_changed', 'job_won']),
    );
    expect(rows.every((r) => r.job_id === job.id)).toBe(true);
    // Webhook-only events (in_feed = 0) stay out.
    const webhookOnly = await t.database.db
      .selectFrom('events')
      .select('id')
      .where('firm_id', '=', w.firmId)
      .where('in_feed', '=', 0)
      .execute();
    expect(webhookOnly.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).not.toEqual(expect.arrayContaining([webhookOnly[0].id]));
  });

  it('an empty dataset is 200 with an empty body', async () => {
    const w = await t.workspace();
    for (const d of EXPORT_DATASETS) {
      const res = await rawGet(t, `/v1/exports/${d}.jsonl`, w.key);
      expect(res.status).toBe(200);
      expect(res.bytes.length).toBe(0);
      const gz = await rawGet(t, `/v1/exports/${d}.jsonl.gz`, w.key);
      expect(gz.status).toBe(200);
      expect(gunzipSync(gz.bytes).length).toBe(0);
    }
  });
});

describe('order and volume', () => {
  it('streams every row in id order across many batches (2,500 jobs, batches of 1,000)', async () => {
    const w = await t.workspace();
    await insertJobs(t.database, w.firmId, w.ownerId, 2500);
    const made = (await w.api.post('/v1/jobs', { name: 'Made through the API' })).body.data;
    const rows = await exportOf(w, 'jobs');
    expect(rows.length).toBe(2501);
    for (let i = 1; i < rows.length; i++) expect(rows[i].id).toBeGreaterThan(rows[i - 1].id);
    expect(rows[rows.length - 1]).toEqual((await w.api.get(`/v1/jobs/${made.id}`)).body.data);
    expect(rows[1234].custom_fields).toEqual({ lot_size: 'large' });
    expect(new Set(rows.map((r) => r.id)).size).toBe(2501);
  });

  it('a dataset of exactly one batch (1,000 rows) ends cleanly', async () => {
    const w = await t.workspace();
    await insertJobs(t.database, w.firmId, w.ownerId, 1000);
    expect((await exportOf(w, 'jobs')).length).toBe(1000);
  });
});

describe('updated_after', () => {
  it('keeps rows whose changed-since field is strictly later; any ISO 8601 form is accepted', async () => {
    const w = await t.workspace();
    const ids: number[] = [];
    for (const name of ['Old', 'Middle', 'New'])
      ids.push((await w.api.post('/v1/client-accounts', { name })).body.data.id);
    const stamps = ['2026-01-01T00:00:00.000000', '2026-02-01T12:00:00.000000', '2026-03-01T00:00:00.000000'];
    for (const [i, id] of ids.entries()) {
      await t.database.db.updateTable('client_accounts').set({ updated_at: stamps[i] }).where('id', '=', id).execute();
    }
    const names = async (q: string) => (await exportOf(w, 'customers', q)).map((r) => r.name);
    expect(await names('?updated_after=2026-02-01T12:00:00Z')).toEqual(['New']);
    expect(await names('?updated_after=2026-02-01T11:59:59Z')).toEqual(['Middle', 'New']);
    expect(await names('?updated_after=2026-02-01')).toEqual(['Middle', 'New']);
    expect(await names('?updated_after=2026-02-01T06:59:59-05:00')).toEqual(['Middle', 'New']);
    expect(await names('?updated_after=2026-02-01T07:00:00-05:00')).toEqual(['New']);
    expect(await names(`?updated_after=${encodeURIComponent('2026-02-01T12:59:59.999+01:00')}`)).toEqual([
      'Middle',
      'New',
    ]);
    expect(await names('?updated_after=2027-01-01T00:00:00Z')).toEqual([]);
    expect(await names('?updated_after=2020-01-01')).toEqual(['Old', 'Middle', 'New']);
  });

  it('jobs: microsecond precision, ids stay in order', async () => {
    const w = await t.workspace();
    const a = (await w.api.post('/v1/jobs', { name: 'A' })).body.data;
    const b = (await w.api.post('/v1/jobs', { name: 'B' })).body.data;
    const c = (await w.api.post('/v1/jobs', { name: 'C' })).body.data;
    const patched = (await w.api.patch(`/v1/jobs/${a.id}`, { notes: 'touched' })).body.data;
    const rows = await exportOf(w, 'jobs', `?updated_after=${encodeURIComponent(c.updated_at)}`);
    expect(rows.map((r) => r.id)).toEqual([a.id]);
    expect(rows[0].updated_at).toBe(patched.updated_at);
    const since = await exportOf(w, 'jobs', `?updated_after=${encodeURIComponent(a.updated_at)}`);
    expect(since.map((r) => r.id)).toEqual([a.id, b.id, c.id]);
  });

  it('properties and events use their own fields (updated_at, occurred_at)', async () => {
    const w = await t.workspace();
    const s1 = (await w.api.post('/v1/locations', { address: '1 Elm St' })).body.data;
    const s2 = (await w.api.post('/v1/locations', { address: '2 Elm St' })).body.data;
    await t.database.db
      .updateTable('locations')
      .set({ updated_at: '2025-06-01T00:00:00.000000' })
      .where('id', '=', s1.id)
      .execute();
    expect((await exportOf(w, 'properties', '?updated_after=2026-01-01')).map((r) => r.id)).toEqual([s2.id]);

    await w.api.post('/v1/jobs', { name: 'Old job' });
    await w.api.post('/v1/jobs', { name: 'New job' });
    const events = await exportOf(w, 'events');
    expect(events.length).toBe(2);
    await t.database.db
      .updateTable('events')
      .set({ occurred_at: '2025-06-01T00:00:00.000000' })
      .where('id', '=', events[0].id)
      .execute();
    expect((await exportOf(w, 'events', '?updated_after=2026-01-01')).map((r) => r.id)).toEqual([events[1].id]);
  });

  it("an invalid updated_after is the list endpoints' 400", async () => {
    const w = await t.workspace();
    for (const bad of ['yesterday', '2026-13-01', '2026-02-30T00:00:00Z']) {
      const res = await w.api.get(`/v1/exports/jobs.jsonl?updated_after=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'updated_after must be an ISO 8601 timestamp',
        code: 'invalid_updated_after',
        field: 'updated_after',
      });
      expect(res.headers['x-service-export-watermark']).toBeUndefined();
    }
  });
});

describe('headers and gzip', () => {
  it('JSON Lines: content type, dataset, watermark one minute before the start, attachment name', async () => {
    const { w } = await populated();
    const before = Date.now();
    const res = await rawGet(t, '/v1/exports/jobs.jsonl', w.key);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['x-service-export-dataset']).toBe('jobs');
    expect(res.headers['content-disposition']).toBe('attachment; filename="jobs.jsonl"');
    expect(res.headers['content-encoding']).toBeUndefined();
    const watermark = String(res.headers['x-service-export-watermark']);
    expect(watermark).toMatch(Z);
    const ms = Date.parse(watermark);
    // Cut to the second, so up to a second earlier than start − 60 s.
    expect(ms).toBeGreaterThanOrEqual(Math.floor((before - 60_000) / 1000) * 1000);
    expect(ms).toBeLessThanOrEqual(after - 60_000);
  });

  it('the watermark, sent back as updated_after, returns what changed since (the sync recipe)', async () => {
    const w = await t.workspace();
    const early = (await w.api.post('/v1/jobs', { name: 'Early' })).body.data;
    await t.database.db
      .updateTable('jobs')
      .set({ updated_at: '2026-01-01T00:00:00.000000' })
      .where('id', '=', early.id)
      .execute();
    const full = await rawGet(t, '/v1/exports/jobs.jsonl', w.key);
    expect(jsonLines(full.bytes).length).toBe(1);
    const later = (await w.api.post('/v1/jobs', { name: 'Later' })).body.data;
    const next = await exportOf(w, 'jobs', `?updated_after=${full.headers['x-service-export-watermark']}`);
    expect(next.map((r) => r.id)).toEqual([later.id]);
  });

  it('.jsonl.gz is the same bytes gzip-compressed, as application/gzip', async () => {
    const { w } = await populated();
    await insertJobs(t.database, w.firmId, w.ownerId, 1500);
    for (const d of EXPORT_DATASETS) {
      const plain = await rawGet(t, `/v1/exports/${d}.jsonl`, w.key);
      const gz = await rawGet(t, `/v1/exports/${d}.jsonl.gz`, w.key);
      expect(gz.status).toBe(200);
      expect(gz.headers['content-type']).toBe('application/gzip');
      expect(gz.headers['content-disposition']).toBe(`attachment; filename="${d}.jsonl.gz"`);
      expect(gz.headers['x-service-export-dataset']).toBe(d);
      expect(gz.headers['x-service-export-watermark']).toMatch(Z);
      expect(gz.headers['content-encoding']).toBeUndefined();
      expect(gz.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
    }
  });
});

describe('errors', () => {
  it('an unknown dataset is 404 Unknown dataset with the list of datasets', async () => {
    const w = await t.workspace();
    for (const path of ['/v1/exports/widgets.jsonl', '/v1/exports/Jobs.jsonl.gz', '/v1/exports/payroll.jsonl']) {
      const res = await w.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: 'Unknown dataset',
        message: expect.any(String),
        code: 'unknown_dataset',
        datasets: EXPORT_DATASETS,
      });
    }
  });

  it("any other name under /v1/exports is 404 with the spec's wording and a message naming our path", async () => {
    const w = await t.workspace();
    for (const path of [
      '/v1/exports/jobs',
      '/v1/exports/jobs.csv',
      '/v1/exports/jobs.json',
      '/v1/exports/jobs.jsonl.zip',
      '/v1/exports/jobs.parquet',
      '/v1/exports/files',
      '/v1/exports/.jsonl',
    ]) {
      const res = await w.api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({
        error: 'Use /api/v1/exports/<dataset>.jsonl or .jsonl.gz',
        message: expect.stringContaining('/v1/exports/<dataset>.jsonl'),
        code: 'invalid_export_path',
        datasets: EXPORT_DATASETS,
      });
    }
    // Deeper paths name no route at all.
    expect((await w.api.get('/v1/exports/jobs/all')).body).toEqual({ error: 'Resource not found' });
  });

  it('is refused with 402 once the subscription is canceled (past due too)', async () => {
    const { w } = await populated();
    for (const status of ['canceled', 'past_due']) {
      expect((await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: status })).status).toBe(
        200,
      );
      for (const path of ['/v1/exports', '/v1/exports/jobs.jsonl', '/v1/exports/customers.jsonl.gz']) {
        const res = await w.api.get(path);
        expect(res.status).toBe(402);
        expect(res.body).toMatchObject({ error: 'Payment required', subscription_status: status });
      }
    }
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: 'active' });
    expect((await w.api.get('/v1/exports/jobs.jsonl')).status).toBe(200);
  });

  it('HEAD is not an export (404, never a streamed body)', async () => {
    const w = await t.workspace();
    const res = await t.app.inject({ method: 'HEAD', url: '/v1/exports/jobs.jsonl', headers: { 'x-api-key': w.key } });
    expect(res.statusCode).toBe(404);
  });
});

describe('scope', () => {
  it("never shows another workspace's rows", async () => {
    const a = await populated();
    const b = await populated();
    await insertJobs(t.database, b.w.firmId, b.w.ownerId, 1200);
    for (const d of EXPORT_DATASETS) {
      const rowsA = await exportOf(a.w, d);
      const rowsB = await exportOf(b.w, d);
      expect(rowsA.length).toBeGreaterThan(0);
      const idsB = new Set(rowsB.map((r) => r.id));
      expect(rowsA.filter((r) => idsB.has(r.id))).toEqual([]);
    }
    expect((await exportOf(a.w, 'jobs')).every((j) => j.firm_id === a.w.firmId)).toBe(true);
    expect((await exportOf(a.w, 'events')).every((e) => e.job_id === a.job.id)).toBe(true);
  });

  it('a user who sees only their own jobs exports only those jobs and their events; customers and sites whole', async () => {
    const { w } = await populated();
    const crew = await t.user(w.firmId, { role: 'crew' }, ['read_jobs', 'write_jobs']);
    const own = (await w.api.post('/v1/jobs', { name: 'Crew job', assigned_to_user_id: crew.id })).body.data;
    const shared = (await w.api.post('/v1/jobs', { name: 'Shared job' })).body.data;
    await t.database.db.insertInto('job_assignees').values({ job_id: shared.id, user_id: crew.id }).execute();
    await w.api.post('/v1/jobs', { name: "Someone else's job" });

    const jobs = await exportOf(crew, 'jobs');
    expect(jobs.map((j) => j.id)).toEqual([own.id, shared.id]);
    const listed = (await crew.api.get('/v1/jobs?limit=100')).body.data.map((j: { id: number }) => j.id);
    expect([...listed].sort((x: number, y: number) => x - y)).toEqual([own.id, shared.id]);
    const events = await exportOf(crew, 'events');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.job_id === own.id || e.job_id === shared.id)).toBe(true);
    expect((await exportOf(w, 'events')).length).toBeGreaterThan(events.length);
    expect(await exportOf(crew, 'customers')).toEqual(await exportOf(w, 'customers'));
    expect(await exportOf(crew, 'properties')).toEqual(await exportOf(w, 'properties'));
  });

  it('partner keys name the workspace with firm_id in the query', async () => {
    const { w, job } = await populated();
    const p = await t.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: w.firmId, user_id: w.ownerId }],
      permissions: ['read_jobs'],
    });
    expect(p.status).toBe(201);
    const partner = { key: p.body.data.key as string };
    const missing = await t.as(partner.key).get('/v1/exports/jobs.jsonl');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('firm_id is required');
    const rows = await exportOf(partner, 'jobs', `?firm_id=${w.firmId}`);
    expect(rows.map((r) => r.id)).toEqual([job.id]);
    const gz = await rawGet(t, `/v1/exports/jobs.jsonl.gz?firm_id=${w.firmId}&updated_after=2020-01-01`, partner.key);
    expect(jsonLines(gunzipSync(gz.bytes)).map((r) => r.id)).toEqual([job.id]);
    const other = await t.workspace();
    expect((await t.as(partner.key).get(`/v1/exports/jobs.jsonl?firm_id=${other.firmId}`)).status).toBe(403);
    expect((await t.as(partner.key).get(`/v1/exports?firm_id=${w.firmId}`)).status).toBe(200);
  });
});

describe('rate limits', () => {
  it("exports do not count toward the key's usage: they keep working while other calls get 429", async () => {
    const r = await startApp({ rateLimit: { max: 2, windowMs: 60_000 } });
    try {
      const res = await r.admin.post('/admin/v1/workspaces', {
        name: 'Limited',
        plan: 'gold',
        subscription_status: 'active',
        owner: { name: 'O', email: 'o@limited.test' },
      });
      const key = await r.key(res.body.data.firm_id, res.body.data.owner_user_id);
      const api = r.as(key);
      expect((await api.get('/v1/jobs')).status).toBe(200);
      expect((await api.get('/v1/jobs')).status).toBe(200);
      expect((await api.get('/v1/jobs')).status).toBe(429);
      for (let i = 0; i < 5; i++) {
        expect((await api.get('/v1/exports')).status).toBe(200);
        expect((await api.get('/v1/exports/jobs.jsonl')).status).toBe(200);
        expect((await api.get('/v1/exports/events.jsonl.gz')).status).toBe(200);
      }
      const file = await api.post('/v1/exports', { kind: 'workspace_data' });
      expect(file.status).toBe(202);
      expect((await api.get(file.body.data.url)).status).toBe(200);
      // Exporting did not use up the window either way: other calls are still refused.
      expect((await api.get('/v1/client-accounts')).status).toBe(429);
    } finally {
      await r.close();
    }
  });
});
