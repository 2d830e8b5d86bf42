import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t.close();
});

describe('smoke', () => {
  it('creates a workspace and a job', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/jobs', { name: 'Lot A', company: 'Acme', address: '1 Main St' });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data.client_account_id).toBeTypeOf('number');
    expect(res.body.data.location_id).toBeTypeOf('number');
    const list = await w.api.get('/v1/jobs');
    expect(list.body.pagination).toEqual({ total: 1, limit: 50, offset: 0 });
  });
});
