// The worker inside `serve` starts queued work as soon as the request that queued it commits
// (platform/work-queued.ts), not at its next poll: the poll here is an hour, so everything below
// was done because the commit woke the worker. Black-box over HTTP; the worker is started as
// `serve` starts it (worker/index.ts, every background task) on the app's environment. A detect
// run is woken the same way (test/measurement/landscape/detect.test.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { startServeWorker } from '#test/helpers/serve-worker.ts';

const WITHIN = { timeout: 10_000, interval: 20 };

let t: TestApp;
let worker: Awaited<ReturnType<typeof startServeWorker>>;
beforeAll(async () => {
  t = await startApp();
  worker = await startServeWorker(t.env);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

describe('queued work starts at the commit', () => {
  it('a new lead’s alert is sent, not left to the poll', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/leads', { name: 'Woken Wanda', email: 'wanda@example.com' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const mail = () =>
      t.database.db
        .selectFrom('outgoing_mail')
        .select(['kind', 'status'])
        .where('ref', '=', `lead:${res.body.data.id}`)
        .execute();
    await vi.waitFor(async () => expect(await mail()).toEqual([{ kind: 'lead_alert', status: 'sent' }]), WITHIN);
    expect(worker.errors).toEqual([]);
  });

  it('a requested workspace export is built, not left to the poll', async () => {
    const w = await t.workspace();
    await w.api.post('/v1/jobs', { name: 'Sealcoat the lot' });
    const res = await w.api.post('/v1/exports', { kind: 'workspace_data' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await vi.waitFor(async () => expect((await w.api.get(res.body.data.url)).body.data.status).toBe('ready'), WITHIN);
    expect(worker.errors).toEqual([]);
  });
});
