// /v1/client-accounts: customers (document 2, Syncing rules, Required fields of create calls;
// docs/api-decisions.md, Customers and sites).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { advanceClock } from '#platform/time.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function create(w: Workspace, body: BodyOf<'/v1/client-accounts', 'post'>) {
  const res = await w.api.post('/v1/client-accounts', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.created).toBe(true);
  return res.body.data as Record<string, any>;
}

describe('POST /v1/client-accounts (create and upsert)', () => {
  it('creates a customer: 201, created true, the full customer object with Z timestamps', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/client-accounts', {
      name: 'Acme Property Group',
      external_ref: 'crm-1',
      email: 'ap@acme.test',
      phone: '(555) 555-0100',
      address: '1 Main St',
      notes: 'Net 30',
    });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    const a = res.body.data;
    expect(a).toEqual({
      id: expect.any(Number),
      name: 'Acme Property Group',
      external_ref: 'crm-1',
      email: 'ap@acme.test',
      phone: '(555) 555-0100',
      address: '1 Main St',
      notes: 'Net 30',
      custom_fields: {},
      skip_automatic_follow_ups: false,
      archived_at: null,
      created_at: expect.stringMatching(Z),
      updated_at: expect.stringMatching(Z),
    });
    const read = await w.api.get(`/v1/client-accounts/${a.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(a);
  });

  it('same external_ref: 200 created false, fills only blank fields and leaves filled ones unchanged', async () => {
    const w = await t.workspace();
    const first = await create(w, { name: 'Birch Co', external_ref: 'ref-b', email: 'old@birch.test' });
    const again = await w.api.post('/v1/client-accounts', {
      name: 'Birch Company Renamed',
      external_ref: 'ref-b',
      email: 'new@birch.test',
      phone: '(555) 555-0199',
      notes: 'Gate code 12',
    });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data.id).toBe(first.id);
    expect(again.body.data.name).toBe('Birch Co');
    expect(again.body.data.email).toBe('old@birch.test');
    expect(again.body.data.phone).toBe('(555) 555-0199');
    expect(again.body.data.notes).toBe('Gate code 12');
    expect(again.body.data.address).toBeNull();
    const read = await w.api.get(`/v1/client-accounts/${first.id}`);
    expect(read.body.data).toMatchObject({
      name: 'Birch Co',
      email: 'old@birch.test',
      phone: '(555) 555-0199',
      notes: 'Gate code 12',
    });
    const list = await w.api.get('/v1/client-accounts');
    expect(list.body.pagination.total).toBe(1);
  });

  it('a repeat with nothing new changes nothing (same record, same updated_at)', async () => {
    const w = await t.workspace();
    const first = await create(w, { name: 'Cedar LLC', external_ref: 'c-1', email: 'c@cedar.test' });
    const again = await w.api.post('/v1/client-accounts', {
      name: 'Cedar LLC',
      external_ref: 'c-1',
      email: 'c@cedar.test',
    });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data).toEqual(first);
  });

  it('restores an archived match (by external_ref)', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Dogwood HOA', external_ref: 'dw' });
    const archived = await w.api.patch(`/v1/client-accounts/${a.id}`, { archived: true });
    expect(archived.status).toBe(200);
    expect(archived.body.data.archived_at).toMatch(Z);
    expect((await w.api.get('/v1/client-accounts')).body.data).toEqual([]);

    const again = await w.api.post('/v1/client-accounts', { name: 'Dogwood HOA', external_ref: 'dw' });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data.id).toBe(a.id);
    expect(again.body.data.archived_at).toBeNull();
    const list = await w.api.get('/v1/client-accounts');
    expect(list.body.data.map((r: any) => r.id)).toEqual([a.id]);
  });

  it('restores an archived match (by name)', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Elm Street Church' });
    await w.api.patch(`/v1/client-accounts/${a.id}`, { archived: true });
    const again = await w.api.post('/v1/client-accounts', { name: 'elm street church' });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data.id).toBe(a.id);
    expect(again.body.data.archived_at).toBeNull();
  });

  it('without a ref, matches by name ignoring case and spacing', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Fir  Tree   Apartments' });
    for (const name of ['fir tree apartments', '  FIR TREE APARTMENTS ', 'Fir\tTree Apartments']) {
      const res = await w.api.post('/v1/client-accounts', { name });
      expect(res.status, name).toBe(200);
      expect(res.body.created).toBe(false);
      expect(res.body.data.id).toBe(a.id);
    }
    const other = await w.api.post('/v1/client-accounts', { name: 'Fir Tree Apartment' });
    expect(other.status).toBe(201);
    expect(other.body.data.id).not.toBe(a.id);
  });

  it('a name match without a ref takes the sent external_ref (a blank field is filled)', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Gum Tree Dental' });
    const res = await w.api.post('/v1/client-accounts', { name: 'GUM TREE DENTAL', external_ref: 'g-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(a.id);
    expect(res.body.data.external_ref).toBe('g-1');
  });

  it('same name but a different external_ref is a new customer', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Hickory Plaza', external_ref: 'h-1' });
    const res = await w.api.post('/v1/client-accounts', { name: 'Hickory Plaza', external_ref: 'h-2' });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data.id).not.toBe(a.id);
    expect(res.body.data.external_ref).toBe('h-2');
    const list = await w.api.get('/v1/client-accounts?q=hickory');
    expect(list.body.pagination.total).toBe(2);
  });

  it('name is required (400) and nothing is created', async () => {
    const w = await t.workspace();
    const missing = await w.api.raw.post('/v1/client-accounts', { email: 'x@y.test' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/name/);
    const empty = await w.api.post('/v1/client-accounts', { name: '' });
    expect(empty.status).toBe(400);
    const wrongType = await w.api.raw.post('/v1/client-accounts', { name: 42 });
    expect(wrongType.status).toBe(400);
    expect((await w.api.get('/v1/client-accounts?include_archived=true')).body.pagination.total).toBe(0);
  });

  it('a whitespace-only name counts as missing: 400, nothing created', async () => {
    const w = await t.workspace();
    const blank = await w.api.post('/v1/client-accounts', { name: '   ' });
    expect(blank.status).toBe(400);
    expect((await w.api.get('/v1/client-accounts?include_archived=true')).body.pagination.total).toBe(0);
  });

  it('an unknown body field is a 400 naming it', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/client-accounts', { name: 'Ivy Co', website: 'ivy.test', color: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_fields');
    expect(res.body.fields).toEqual(expect.arrayContaining(['website', 'color']));
    expect(res.body.error).toContain('website');
    expect((await w.api.get('/v1/client-accounts')).body.pagination.total).toBe(0);
  });
});

describe('GET /v1/client-accounts', () => {
  it('lists oldest first by id, in the list envelope', async () => {
    const w = await t.workspace();
    const ids = [];
    for (const name of ['Zeta', 'Alpha', 'Mu']) ids.push((await create(w, { name })).id);
    const res = await w.api.get('/v1/client-accounts');
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => r.id)).toEqual(ids);
    expect(res.body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    const page = await w.api.get('/v1/client-accounts?limit=1&offset=1');
    expect(page.body.data.map((r: any) => r.id)).toEqual([ids[1]]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 1, offset: 1 });
  });

  it('archived customers drop out unless include_archived=true', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Live One' });
    const b = await create(w, { name: 'Gone One' });
    await w.api.patch(`/v1/client-accounts/${b.id}`, { archived: true });
    const live = await w.api.get('/v1/client-accounts');
    expect(live.body.data.map((r: any) => r.id)).toEqual([a.id]);
    expect(live.body.pagination.total).toBe(1);
    const all = await w.api.get('/v1/client-accounts?include_archived=true');
    expect(all.body.data.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect(all.body.data[1].archived_at).toMatch(Z);
    const restored = await w.api.patch(`/v1/client-accounts/${b.id}`, { archived: false });
    expect(restored.body.data.archived_at).toBeNull();
    expect((await w.api.get('/v1/client-accounts')).body.pagination.total).toBe(2);
  });

  it('external_ref looks up 0 or 1 row', async () => {
    const w = await t.workspace();
    await create(w, { name: 'One', external_ref: 'X-1' });
    const two = await create(w, { name: 'Two', external_ref: 'X-2' });
    const hit = await w.api.get('/v1/client-accounts?external_ref=X-2');
    expect(hit.body.data.map((r: any) => r.id)).toEqual([two.id]);
    expect(hit.body.pagination.total).toBe(1);
    const miss = await w.api.get('/v1/client-accounts?external_ref=X-3');
    expect(miss.body.data).toEqual([]);
    expect(miss.body.pagination.total).toBe(0);
  });

  it('q searches names case-insensitively, wildcards literal', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Northside Storage' });
    await create(w, { name: 'Southgate Mall' });
    const c = await create(w, { name: '100% North Co' });
    const res = await w.api.get('/v1/client-accounts?q=NORTH');
    expect(res.body.data.map((r: any) => r.id)).toEqual([a.id, c.id]);
    const pct = await w.api.get(`/v1/client-accounts?q=${encodeURIComponent('%')}`);
    expect(pct.body.data.map((r: any) => r.id)).toEqual([c.id]);
    const accented = await create(w, { name: 'ÉCOLE Saint-Jean' });
    const folded = await w.api.get(`/v1/client-accounts?q=${encodeURIComponent('école')}`);
    expect(folded.body.data.map((r: any) => r.id)).toEqual([accented.id]);
    const none = await w.api.get('/v1/client-accounts?q=zzz');
    expect(none.body.data).toEqual([]);
  });

  it('limit above 200 is a 400', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/client-accounts?limit=201');
    expect(res.status).toBe(400);
  });
});

describe('GET /v1/client-accounts/{id}', () => {
  it('returns archived customers too', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Archived Inc' });
    await w.api.patch(`/v1/client-accounts/${a.id}`, { archived: true });
    const res = await w.api.get(`/v1/client-accounts/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(a.id);
    expect(res.body.data.archived_at).toMatch(Z);
  });

  it("404 Client account not found for a missing id and for another workspace's id", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await create(other, { name: 'Theirs' });
    const missing = await w.api.get('/v1/client-accounts/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Client account not found');
    const foreign = await w.api.get(`/v1/client-accounts/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const patch = await w.api.patch(`/v1/client-accounts/${theirs.id}`, { name: 'Mine now' });
    expect(patch.status).toBe(404);
    expect(patch.body.error).toBe('Client account not found');
    expect((await other.api.get(`/v1/client-accounts/${theirs.id}`)).body.data.name).toBe('Theirs');
  });

  it('a non-numeric id names no record (404)', async () => {
    const w = await t.workspace();
    const res = await w.api.get('/v1/client-accounts/abc');
    expect(res.status).toBe(404);
  });
});

describe('PATCH /v1/client-accounts/{id}', () => {
  it('changes the sent fields only and moves updated_at', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Juniper', email: 'j@j.test', phone: '(555) 555-0111' });
    // Past the next whole second (updated_at is to the second), by the test clock rather than a real wait.
    advanceClock(1100);
    const res = await w.api.patch(`/v1/client-accounts/${a.id}`, {
      name: 'Juniper Holdings',
      phone: null,
      notes: 'VIP',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: a.id,
      name: 'Juniper Holdings',
      email: 'j@j.test',
      phone: null,
      notes: 'VIP',
    });
    expect(res.body.data.created_at).toBe(a.created_at);
    expect(res.body.data.updated_at).toMatch(Z);
    expect(res.body.data.updated_at > a.updated_at).toBe(true);
    expect((await w.api.get(`/v1/client-accounts/${a.id}`)).body.data).toEqual(res.body.data);
    // The new name is what upserts now match.
    const match = await w.api.post('/v1/client-accounts', { name: 'juniper holdings' });
    expect(match.status).toBe(200);
    expect(match.body.data.id).toBe(a.id);
  });

  it('external_ref held by another customer is 409 naming the holder, and nothing changes', async () => {
    const w = await t.workspace();
    const holder = await create(w, { name: 'Holder', external_ref: 'HELD' });
    const a = await create(w, { name: 'Taker', external_ref: 'MINE' });
    const res = await w.api.patch(`/v1/client-accounts/${a.id}`, { external_ref: 'HELD', name: 'Taker Renamed' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('external_ref already used');
    expect(res.body.holder).toEqual({ type: 'client_account', id: holder.id, name: 'Holder' });
    const read = await w.api.get(`/v1/client-accounts/${a.id}`);
    expect(read.body.data).toMatchObject({ name: 'Taker', external_ref: 'MINE' });
    // Re-sending its own ref is fine.
    const same = await w.api.patch(`/v1/client-accounts/${a.id}`, { external_ref: 'MINE' });
    expect(same.status).toBe(200);
    // Clearing the ref is allowed.
    const cleared = await w.api.patch(`/v1/client-accounts/${a.id}`, { external_ref: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.external_ref).toBeNull();
  });

  it('bad input: unknown field 400, empty name 400, over-long external_ref 400', async () => {
    const w = await t.workspace();
    const a = await create(w, { name: 'Kapok' });
    const unknown = await w.api.raw.patch(`/v1/client-accounts/${a.id}`, { nickname: 'K' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual(['nickname']);
    expect((await w.api.patch(`/v1/client-accounts/${a.id}`, { name: '' })).status).toBe(400);
    expect((await w.api.patch(`/v1/client-accounts/${a.id}`, { name: '   ' })).status).toBe(400);
    expect((await w.api.patch(`/v1/client-accounts/${a.id}`, { external_ref: 'x'.repeat(256) })).status).toBe(400);
    expect((await w.api.get(`/v1/client-accounts/${a.id}`)).body.data).toEqual(a);
  });

  it('404 for a missing id', async () => {
    const w = await t.workspace();
    const res = await w.api.patch('/v1/client-accounts/424242', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Client account not found');
  });
});
