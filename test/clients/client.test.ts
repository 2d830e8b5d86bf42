// The typed client (clients/typescript) against a real listening server: typed calls, paging,
// typed error bodies and partner keys naming their workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, startApp, type TestApp } from '#test/helpers/harness.ts';
import { createGroundworkClient } from '../../clients/typescript/src/index.ts';
import { listening, typedClient } from './kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('typed calls', () => {
  it('creates a customer and a job for it, then reads both back', async () => {
    const w = await t.workspace();
    const api = await typedClient(t, w.key);

    const customer = await api.POST('/v1/client-accounts', { body: { name: 'Typed Paving Co' } });
    expect(customer.response.status, JSON.stringify(customer.error)).toBe(201);
    const customerId = customer.data!.data.id;

    const created = await api.POST('/v1/jobs', {
      body: { name: 'Typed Lot Reseal', client_account_id: customerId, estimated_value: 1250.5 },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const job = created.data!.data;
    expect(job).toMatchObject({ name: 'Typed Lot Reseal', client_account_id: customerId, estimated_value: 1250.5 });

    const read = await api.GET('/v1/jobs/{id}', { params: { path: { id: job.id } } });
    expect(read.error).toBeUndefined();
    expect(read.data?.data).toMatchObject({ id: job.id, name: 'Typed Lot Reseal', firm_id: w.firmId });

    const back = await api.GET('/v1/client-accounts/{id}', { params: { path: { id: customerId } } });
    expect(back.data?.data).toMatchObject({ id: customerId, name: 'Typed Paving Co' });
  });

  it('pages a list with limit and offset until total is reached', async () => {
    const w = await t.workspace();
    const api = await typedClient(t, w.key);
    const names = ['Page A', 'Page B', 'Page C', 'Page D', 'Page E'];
    for (const name of names) expect((await api.POST('/v1/jobs', { body: { name } })).response.status).toBe(201);

    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const page = await api.GET('/v1/jobs', { params: { query: { limit: 2, offset } } });
      expect(page.error).toBeUndefined();
      const { data, pagination } = page.data!;
      expect(pagination).toEqual({ total: 5, limit: 2, offset });
      seen.push(...data.map((j) => j.name));
      offset += data.length;
      if (data.length === 0 || offset >= pagination.total) break;
    }
    expect(seen.sort()).toEqual(names);
  });
});

describe('typed errors', () => {
  it('a duplicate job name is 409 with duplicate_job_id in the typed error body', async () => {
    const w = await t.workspace();
    const api = await typedClient(t, w.key);
    const first = await api.POST('/v1/jobs', { body: { name: 'Main Street Lot' } });
    expect(first.response.status).toBe(201);

    const dup = await api.POST('/v1/jobs', { body: { name: 'main street lot' } });
    expect(dup.response.status).toBe(409);
    expect(dup.data).toBeUndefined();
    // `error` is typed as the API's error body: error, message?, code?, and the case's fields.
    const error = dup.error!;
    expect(error.error).toBeTypeOf('string');
    expect(error.duplicate_job_id).toBe(first.data!.data.id);
  });

  it('a bad key is 401 with the spec body; a validation failure is 400 naming the field', async () => {
    const w = await t.workspace();
    const bad = createGroundworkClient({ baseUrl: await listening(t), apiKey: 'gw_not_a_key' });
    const denied = await bad.GET('/v1/jobs');
    expect(denied.response.status).toBe(401);
    expect(denied.error?.error).toBeTypeOf('string');

    const api = await typedClient(t, w.key);
    // Cast: the unknown field is the point, and the types rightly refuse it.
    const invalid = await api.POST('/v1/jobs', { body: { name: 'Typo', colour: 'red' } as { name: string } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({ code: 'unknown_fields', fields: ['colour'] });
  });
});

describe('partner keys', () => {
  async function partnerKey(grants: { firm_id: number; user_id: number }[]): Promise<string> {
    const res = await t.admin.post('/admin/v1/partner-keys', { grants, permissions: ALL_PERMISSIONS });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.key;
  }

  it('firmId is sent on every call, writes included, and reaches the named workspace only', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const key = await partnerKey([
      { firm_id: a.firmId, user_id: a.ownerId },
      { firm_id: b.firmId, user_id: b.ownerId },
    ]);
    const forA = await typedClient(t, key, a.firmId);
    const created = await forA.POST('/v1/jobs', { body: { name: 'Partner Job' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expect(created.data!.data.firm_id).toBe(a.firmId);
    const list = await forA.GET('/v1/jobs', { params: { query: { limit: 10 } } });
    expect(list.data!.data.map((j) => j.id)).toEqual([created.data!.data.id]);

    const forB = await typedClient(t, key, b.firmId);
    const other = await forB.GET('/v1/jobs/{id}', { params: { path: { id: created.data!.data.id } } });
    expect(other.response.status).toBe(404);

    const unnamed = await typedClient(t, key);
    const refused = await unnamed.GET('/v1/jobs');
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error).toBe('firm_id is required');
  });
});
