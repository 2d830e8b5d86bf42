// POST /v1/exports (workspace_data), GET /v1/exports/files/{id}, the keyless download link and
// the background task that builds the file (document 3, Bulk data export; docs/api-decisions.md,
// Bulk export). The task is driven here by calling its sweep() with a manual clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertJobs } from '../../../bench/seed.ts';
import { workspaceExportTask } from '#integrations/exports/workspace-file.ts';
import { storedAt } from '#platform/time.ts';
import { ManualClock } from '#platform/clock.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { Z, jsonLines, rawGet, unzip } from '#test/helpers/downloads.ts';
import { EXPORT_DATASETS } from '#test/helpers/datasets.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const LEASE_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

function task(clock = new ManualClock(), dataDir = t.dataDir) {
  return workspaceExportTask(t.database, { dataDir, clock, leaseMs: LEASE_MS });
}

/** Runs the task until nothing is due (other test's exports may be queued too). */
async function drain(clock = new ManualClock()) {
  const worker = task(clock);
  while ((await worker.sweep()) > 0) {
    /* keep going */
  }
}

async function populated() {
  const w = await t.workspace();
  const customer = (await w.api.post('/v1/client-accounts', { name: 'Acme HOA' })).body.data;
  await w.api.post('/v1/locations', { address: '12 Main St', client_account_id: customer.id });
  const job = (await w.api.post('/v1/jobs', { name: 'Sealcoat', client_account_id: customer.id })).body.data;
  await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' });
  return { w, job };
}

async function requestFile(w: Workspace | { api: Workspace['api'] }) {
  const res = await w.api.post('/v1/exports', { kind: 'workspace_data' });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data as Record<string, any>;
}

function linkPath(downloadUrl: string): string {
  return new URL(downloadUrl).pathname;
}

function zipFiles(dir = t.dataDir): string[] {
  try {
    return fs.readdirSync(path.join(dir, 'exports'));
  } catch {
    return [];
  }
}

describe('POST /v1/exports', () => {
  it('answers 202 with a pending file export to poll', async () => {
    const { w } = await populated();
    const before = Date.now();
    const res = await w.api.post('/v1/exports', { kind: 'workspace_data' });
    expect(res.status).toBe(202);
    const f = res.body.data;
    expect(f).toEqual({
      id: expect.any(Number),
      kind: 'workspace_data',
      status: 'pending',
      url: `/v1/exports/files/${f.id}`,
      download_url: null,
      expires_at: expect.stringMatching(Z),
      size_bytes: null,
      row_counts: null,
      watermark: null,
      error: null,
      created_at: expect.stringMatching(Z),
      completed_at: null,
    });
    expect(res.headers.location).toBe(f.url);
    expect(Date.parse(f.expires_at) - Date.parse(f.created_at)).toBe(DAY_MS);
    expect(Date.parse(f.created_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    const poll = await w.api.get(f.url);
    expect(poll.status).toBe(200);
    expect(poll.body.data).toEqual(f);
  });

  it('refuses other kinds, other fields and missing kind with 400', async () => {
    const w = await t.workspace();
    // job_cost_out is test/operations/job-costs/job-cost-out.test.ts.
    const csv = await w.api.post('/v1/exports', { kind: 'csv' });
    expect(csv.status).toBe(400);
    expect(csv.body).toEqual({
      error: 'kind must be one of workspace_data, job_cost_out',
      message: expect.stringContaining('job_cost_out'),
      code: 'invalid_request',
      field: 'kind',
      kinds: ['workspace_data', 'job_cost_out'],
    });
    const missing = await w.api.raw.post('/v1/exports', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'kind is required', field: 'kind' });
    const notString = await w.api.raw.post('/v1/exports', { kind: 3 });
    expect(notString.status).toBe(400);
    expect(notString.body.error).toBe('kind must be a string');
    const unknown = await w.api.raw.post('/v1/exports', { kind: 'workspace_data', format: 'csv' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown fields: format', code: 'unknown_fields', fields: ['format'] });
    const jobId = await w.api.post('/v1/exports', { kind: 'workspace_data', job_id: 5, to: '2026-01-01' });
    expect(jobId.status).toBe(400);
    expect(jobId.body).toMatchObject({
      error: 'Unknown fields: job_id, to',
      code: 'unknown_fields',
      fields: ['job_id', 'to'],
    });
    const badJson = await w.api.raw.post('/v1/exports', '{"kind":');
    expect(badJson.status).toBe(400);
    const noBody = await t.app.inject({ method: 'POST', url: '/v1/exports', headers: { 'x-api-key': w.key } });
    expect(noBody.statusCode).toBe(400);
  });

  it('needs job read permission (403) and an active subscription (402)', async () => {
    const w = await t.workspace();
    const writeOnly = await t.key(w.firmId, w.ownerId, ['write_jobs']);
    const res = await t.as(writeOnly).post('/v1/exports', { kind: 'workspace_data' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('missing_permission');
    const viewer = await t.user(w.firmId, { role: 'viewer' }, ['read_jobs']);
    expect((await viewer.api.post('/v1/exports', { kind: 'workspace_data' })).status).toBe(202);
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: 'canceled' });
    expect((await w.api.post('/v1/exports', { kind: 'workspace_data' })).status).toBe(402);
  });

  it('allows three builds waiting per workspace, then 429 until one is done', async () => {
    await drain();
    const w = await t.workspace();
    for (let i = 0; i < 3; i++) await requestFile(w);
    const fourth = await w.api.post('/v1/exports', { kind: 'workspace_data' });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({
      error: 'Workspace already has 3 exports being built',
      code: 'exports_in_progress',
    });
    // Another workspace is not held back.
    await requestFile(await t.workspace());
    expect(await task().sweep()).toBe(1);
    await requestFile(w);
    await drain();
  });
});

describe('building, polling and downloading', () => {
  it('the task builds a ZIP of every dataset; the poll carries a keyless link to it', async () => {
    await drain();
    const { w } = await populated();
    await insertJobs(t.database, w.firmId, w.ownerId, 2100);
    const f = await requestFile(w);
    const clock = new ManualClock();
    const worker = task(clock);
    expect(await worker.sweep()).toBe(1);
    expect(await worker.sweep()).toBe(0);

    const poll = (await w.api.get(f.url)).body.data;
    expect(poll).toEqual({
      ...f,
      status: 'ready',
      download_url: expect.stringMatching(/^http:\/\/localhost(:\d+)?\/v1\/export-downloads\/[A-Za-z0-9_-]{43}$/),
      size_bytes: expect.any(Number),
      row_counts: {
        customers: 1,
        properties: 1,
        jobs: 2101,
        estimates: 0,
        estimate_lines: 0,
        invoices: 0,
        change_orders: 0,
        job_costs: 0,
        work_orders: 0,
        time_entries: 0,
        allocations: 0,
        events: expect.any(Number),
      },
      watermark: expect.stringMatching(Z),
      completed_at: expect.stringMatching(Z),
    });
    expect(Date.parse(poll.watermark)).toBeLessThanOrEqual(clock.now() - 60_000);
    expect(Date.parse(poll.watermark)).toBeGreaterThan(clock.now() - 62_000);

    const download = await rawGet(t, linkPath(poll.download_url));
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="workspace_data-${f.id}.zip"`);
    expect(Number(download.headers['content-length'])).toBe(poll.size_bytes);
    expect(download.bytes.length).toBe(poll.size_bytes);

    const entries = await unzip(download.bytes);
    expect([...entries.keys()]).toEqual(EXPORT_DATASETS.map((d) => `${d}.jsonl`));
    for (const d of EXPORT_DATASETS) {
      const stream = await rawGet(t, `/v1/exports/${d}.jsonl`, w.key);
      expect(entries.get(`${d}.jsonl`)!.equals(stream.bytes), d).toBe(true);
      expect(jsonLines(stream.bytes).length).toBe(poll.row_counts[d]);
    }
    // Nothing but the finished file is left in the data directory.
    expect(zipFiles().filter((n) => n.startsWith(`${f.id}-`))).toEqual([
      expect.stringMatching(/^\d+-[0-9a-f]{24}\.zip$/),
    ]);
  });

  it('a ready export has one link, shown on every read (one row, however often it is polled); a made-up one is 404', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    await drain();
    const first = (await w.api.get(f.url)).body.data.download_url;
    const polls = await Promise.all(Array.from({ length: 5 }, () => w.api.get(f.url)));
    for (const poll of polls) expect(poll.body.data.download_url).toBe(first);
    expect((await w.api.get(f.url)).body.data.download_url).toBe(first);
    const a = await rawGet(t, linkPath(first));
    const b = await rawGet(t, linkPath(first));
    expect(a.status).toBe(200);
    expect(b.bytes.equals(a.bytes)).toBe(true);
    const stored = await t.database.db
      .selectFrom('export_file_links')
      .select('token_hash')
      .where('export_file_id', '=', f.id)
      .execute();
    expect(stored.length).toBe(1);
    // Downloads are looked up by the token's hash, never by the token itself.
    expect(first.includes(stored[0]!.token_hash)).toBe(false);

    for (const bad of ['A'.repeat(43), 'nope', `${linkPath(first).split('/').pop()}x`]) {
      const res = await t.anon.get(`/v1/export-downloads/${bad}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Export not found' });
    }
  });

  it("another workspace's export is 404, as is a missing one", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const f = await requestFile(a);
    const res = await b.api.get(f.url);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Export not found' });
    expect((await a.api.get('/v1/exports/files/999999')).status).toBe(404);
    expect((await a.api.get('/v1/exports/files/abc')).status).toBe(404);
    expect((await t.anon.get(f.url)).status).toBe(401);
  });

  it('a user who sees only their own jobs gets a file of their jobs, and polls only their own exports', async () => {
    await drain();
    const { w, job } = await populated();
    const crew = await t.user(w.firmId, { role: 'crew' }, ['read_jobs']);
    const own = (await w.api.post('/v1/jobs', { name: 'Crew job', assigned_to_user_id: crew.id })).body.data;
    const crewFile = await requestFile(crew);
    const ownerFile = await requestFile(w);
    await drain();
    expect((await crew.api.get(ownerFile.url)).status).toBe(404);
    const crewPoll = (await crew.api.get(crewFile.url)).body.data;
    expect(crewPoll.row_counts.jobs).toBe(1);
    const entries = await unzip((await rawGet(t, linkPath(crewPoll.download_url))).bytes);
    expect(jsonLines(entries.get('jobs.jsonl')!).map((j) => j.id)).toEqual([own.id]);
    expect(jsonLines(entries.get('events.jsonl')!).every((e) => e.job_id === own.id)).toBe(true);
    // The owner sees every export of the workspace, and the full data in their own.
    expect((await w.api.get(crewFile.url)).status).toBe(200);
    const ownerPoll = (await w.api.get(ownerFile.url)).body.data;
    const ownerJobs = jsonLines(
      (await unzip((await rawGet(t, linkPath(ownerPoll.download_url))).bytes)).get('jobs.jsonl')!,
    );
    expect(ownerJobs.map((j) => j.id)).toEqual([job.id, own.id]);
  });

  it('partner keys request and poll with firm_id', async () => {
    const { w } = await populated();
    const p = await t.admin.post('/admin/v1/partner-keys', {
      grants: [{ firm_id: w.firmId, user_id: w.ownerId }],
      permissions: ['read_jobs'],
    });
    const partner = t.as(p.body.data.key);
    const res = await partner.raw.post('/v1/exports', { kind: 'workspace_data', firm_id: w.firmId });
    expect(res.status).toBe(202);
    expect((await partner.get(`${res.body.data.url}?firm_id=${w.firmId}`)).status).toBe(200);
    expect((await partner.get(res.body.data.url)).status).toBe(400);
    await drain();
  });
});

describe('link lifetime and billing', () => {
  it('after 24 hours the sweep deletes the file; the link answers 410 and the export reads expired', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    const clock = new ManualClock();
    const worker = task(clock);
    expect(await worker.sweep()).toBe(1);
    const ready = (await w.api.get(f.url)).body.data;
    const fileName = zipFiles().find((n) => n.startsWith(`${f.id}-`))!;
    expect(fileName).toBeDefined();

    clock.advance(DAY_MS - 5 * 60_000);
    expect(await worker.sweep()).toBe(0);
    expect((await rawGet(t, linkPath(ready.download_url))).status).toBe(200);

    clock.advance(10 * 60_000);
    expect(await worker.sweep()).toBeGreaterThanOrEqual(1);
    expect(zipFiles()).not.toContain(fileName);
    const gone = await t.anon.get(linkPath(ready.download_url));
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({
      error: 'Export expired',
      message: expect.stringContaining('24 hours'),
      expired_at: f.expires_at,
    });
    const poll = (await w.api.get(f.url)).body.data;
    expect(poll).toMatchObject({
      status: 'expired',
      download_url: null,
      size_bytes: ready.size_bytes,
      row_counts: ready.row_counts,
    });
  });

  it('is expired at expires_at even before the sweep has run', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    await drain();
    const link = (await w.api.get(f.url)).body.data.download_url;
    await t.database.db
      .updateTable('export_files')
      .set({ expires_at: '2020-01-01T00:00:00.000000' })
      .where('id', '=', f.id)
      .execute();
    expect((await t.anon.get(linkPath(link))).status).toBe(410);
    expect((await w.api.get(f.url)).body.data).toMatchObject({ status: 'expired', download_url: null });
  });

  it('an export not built within its 24 hours expires without being built', async () => {
    await drain();
    const w = await t.workspace();
    const f = await requestFile(w);
    const clock = new ManualClock(Date.now() + DAY_MS + 1000);
    expect(await task(clock).sweep()).toBeGreaterThanOrEqual(1);
    const poll = (await w.api.get(f.url)).body.data;
    expect(poll).toMatchObject({
      status: 'expired',
      download_url: null,
      size_bytes: null,
      error: 'Not built before it expired',
    });
  });

  it('the keyless link is refused with 402 once the workspace is canceled', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    await drain();
    const link = (await w.api.get(f.url)).body.data.download_url;
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: 'canceled' });
    const res = await t.anon.get(linkPath(link));
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: 'Payment required', subscription_status: 'canceled' });
    expect((await w.api.get(f.url)).status).toBe(402);
  });

  it('an export requested before a cancellation is not built: it fails with the reason', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: 'canceled' });
    expect(await task().sweep()).toBe(1);
    await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { subscription_status: 'active' });
    expect((await w.api.get(f.url)).body.data).toMatchObject({
      status: 'failed',
      error: 'Workspace billing is past due or inactive',
      download_url: null,
    });
  });
});

describe('failures and crashes', () => {
  it('a build that fails is retried after a minute, then marked failed after three attempts', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    // A data directory whose exports/ is a file: every build fails to write.
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'groundwork-broken-'));
    fs.writeFileSync(path.join(broken, 'exports'), 'not a directory');
    try {
      const clock = new ManualClock();
      const worker = task(clock, broken);
      await expect(worker.sweep()).rejects.toThrow(`workspace export ${f.id}, attempt 1`);
      expect((await w.api.get(f.url)).body.data).toMatchObject({
        status: 'pending',
        error: 'Building the export failed (attempt 1 of 3); it will be tried again',
        download_url: null,
      });
      expect(await worker.sweep()).toBe(0);
      clock.advance(61_000);
      await expect(worker.sweep()).rejects.toThrow('attempt 2');
      clock.advance(61_000);
      await expect(worker.sweep()).rejects.toThrow('attempt 3');
      const failed = (await w.api.get(f.url)).body.data;
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'Building the export failed 3 times',
        download_url: null,
        completed_at: expect.stringMatching(Z),
      });
      clock.advance(61_000);
      expect(await worker.sweep()).toBe(0);
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });

  it('a build whose worker died (lease run out) is rebuilt from scratch; its .partial is never served', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    // What a killed worker leaves: the export claimed under its lease, and a half-written file.
    const clock = new ManualClock();
    await t.database.db
      .updateTable('export_files')
      .set({
        attempts: 1,
        lease_token: 'dead'.repeat(6),
        locked_until: storedAt(clock.now() + LEASE_MS),
      })
      .where('id', '=', f.id)
      .execute();
    fs.mkdirSync(path.join(t.dataDir, 'exports'), { recursive: true });
    const partial = path.join(t.dataDir, 'exports', `${f.id}-${'dead'.repeat(6)}.zip.partial`);
    fs.writeFileSync(partial, 'PK\u0003\u0004half a zip');

    const worker = task(clock);
    expect(await worker.sweep()).toBe(0);
    expect((await w.api.get(f.url)).body.data).toMatchObject({ status: 'pending', download_url: null });

    clock.advance(LEASE_MS + 1000);
    expect(await worker.sweep()).toBe(1);
    expect(fs.existsSync(partial)).toBe(false);
    const ready = (await w.api.get(f.url)).body.data;
    expect(ready.status).toBe('ready');
    const entries = await unzip((await rawGet(t, linkPath(ready.download_url))).bytes);
    expect([...entries.keys()]).toEqual(EXPORT_DATASETS.map((d) => `${d}.jsonl`));
    const attempts = await t.database.db
      .selectFrom('export_files')
      .select('attempts')
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(attempts.attempts).toBe(2);
  });

  it('three builds that never finish mark the export failed', async () => {
    await drain();
    const w = await t.workspace();
    const f = await requestFile(w);
    const clock = new ManualClock();
    await t.database.db
      .updateTable('export_files')
      .set({ attempts: 3, lease_token: 'x', locked_until: storedAt(clock.now() + LEASE_MS) })
      .where('id', '=', f.id)
      .execute();
    const worker = task(clock);
    expect(await worker.sweep()).toBe(0);
    clock.advance(LEASE_MS + 1);
    expect(await worker.sweep()).toBe(1);
    expect((await w.api.get(f.url)).body.data).toMatchObject({
      status: 'failed',
      error: 'The export build was interrupted 3 times',
    });
  });

  it('a build that loses its lease (stalled past it, taken over) does not mark the export or keep its file', async () => {
    await drain();
    const { w } = await populated();
    await insertJobs(t.database, w.firmId, w.ownerId, 10_000);
    const f = await requestFile(w);
    const clock = new ManualClock();
    const slow = task(clock);
    const leaseToken = async () =>
      (
        await t.database.db
          .selectFrom('export_files')
          .select('lease_token')
          .where('id', '=', f.id)
          .executeTakeFirstOrThrow()
      ).lease_token;
    const until = async (ok: () => Promise<boolean>) => {
      while (!(await ok())) await new Promise((r) => setTimeout(r, 1));
    };
    // The slow build claims the export and stalls (its clock stands still, so it does not renew);
    // another worker, whose clock is past the lease, takes the export over.
    const sweeping = slow.sweep();
    await until(async () => (await leaseToken()) !== null);
    const slowToken = await leaseToken();
    const takingOver = task(new ManualClock(clock.now() + 3 * LEASE_MS)).sweep();
    await until(async () => (await leaseToken()) !== slowToken);
    // The slow build wakes up: its next renewal finds the lease gone, and it gives the export up.
    clock.advance(3 * LEASE_MS);
    expect(await sweeping).toBe(1);
    expect(await takingOver).toBe(1);
    const ready = (await w.api.get(f.url)).body.data;
    expect(ready.status).toBe('ready');
    expect(ready.row_counts.jobs).toBe(10_001);
    const files = zipFiles().filter((n) => n.startsWith(`${f.id}-`));
    expect(files.length).toBe(1);
    // The file served is the takeover's, not the stalled build's.
    const row = await t.database.db
      .selectFrom('export_files')
      .select('file_name')
      .where('id', '=', f.id)
      .executeTakeFirstOrThrow();
    expect(files).toEqual([row.file_name]);
    expect(row.file_name!.startsWith(`${f.id}-${slowToken}`)).toBe(false);
    const entries = await unzip((await rawGet(t, linkPath(ready.download_url))).bytes);
    expect(jsonLines(entries.get('jobs.jsonl')!).length).toBe(10_001);
  });

  it('two workers sweeping at once build one export once', async () => {
    await drain();
    const { w } = await populated();
    const f = await requestFile(w);
    const [a, b] = await Promise.all([task().sweep(), task().sweep()]);
    expect(a + b).toBe(1);
    expect((await w.api.get(f.url)).body.data.status).toBe('ready');
    expect(zipFiles().filter((n) => n.startsWith(`${f.id}-`)).length).toBe(1);
  });
});
