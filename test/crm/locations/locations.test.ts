// /v1/locations: sites (document 2, Syncing rules, Required fields of create calls;
// docs/api-decisions.md, Customers and sites).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function site(w: Workspace, body: BodyOf<'/v1/locations', 'post'>) {
  const res = await w.api.post('/v1/locations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.created).toBe(true);
  return res.body.data as Record<string, any>;
}

async function customer(w: Workspace, body: BodyOf<'/v1/client-accounts', 'post'>) {
  const res = await w.api.post('/v1/client-accounts', body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
}

describe('POST /v1/locations (create and upsert)', () => {
  it('creates a site: 201 created true, full site object, name defaults to the address', async () => {
    const w = await t.workspace();
    const c = await customer(w, { name: 'Acme' });
    const res = await w.api.post('/v1/locations', {
      address: '12 Main St, Springfield',
      external_ref: 'site-1',
      client_account_id: c.id,
      property_reference: 'PID-9',
      notes: 'Back lot',
    });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: '12 Main St, Springfield',
      address: '12 Main St, Springfield',
      external_ref: 'site-1',
      client_account_id: c.id,
      property_reference: 'PID-9',
      notes: 'Back lot',
      custom_fields: {},
      archived_at: null,
      created_at: expect.stringMatching(Z),
      updated_at: expect.stringMatching(Z),
    });
    const named = await site(w, { address: '9 Elm Rd', name: 'Elm Warehouse' });
    expect(named.name).toBe('Elm Warehouse');
    expect(named.client_account_id).toBeNull();
    const read = await w.api.get(`/v1/locations/${res.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(res.body.data);
  });

  it('same external_ref: 200 created false, fills only blank fields', async () => {
    const w = await t.workspace();
    const c = await customer(w, { name: 'Birch' });
    const s = await site(w, { address: '1 Oak Ave', external_ref: 'r-1', notes: 'original' });
    const again = await w.api.post('/v1/locations', {
      address: '999 Different Rd',
      external_ref: 'r-1',
      notes: 'changed',
      property_reference: 'P-2',
      client_account_id: c.id,
    });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data.id).toBe(s.id);
    expect(again.body.data.address).toBe('1 Oak Ave');
    expect(again.body.data.notes).toBe('original');
    expect(again.body.data.property_reference).toBe('P-2');
    expect(again.body.data.client_account_id).toBe(c.id);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(1);
  });

  it('matches by address ignoring case, punctuation and spacing', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '12 Main St., Suite #4' });
    for (const address of ['12 main st suite 4', '12  MAIN ST, SUITE 4', ' 12 Main St; Suite 4 ']) {
      const res = await w.api.post('/v1/locations', { address });
      expect(res.status, address).toBe(200);
      expect(res.body.created).toBe(false);
      expect(res.body.data.id).toBe(s.id);
      expect(res.body.data.address).toBe('12 Main St., Suite #4');
    }
    const other = await w.api.post('/v1/locations', { address: '12 Main St Suite 5' });
    expect(other.status).toBe(201);
  });

  it('an address match fills blanks (including the external_ref) and restores an archived site', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '5 Pine Ct', notes: 'keep' });
    const archived = await w.api.patch(`/v1/locations/${s.id}`, { archived: true });
    expect(archived.status).toBe(200);
    expect(archived.body.data.archived_at).toMatch(Z);
    const res = await w.api.post('/v1/locations', { address: '5 pine ct.', external_ref: 'pine', notes: 'other' });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(false);
    expect(res.body.data).toMatchObject({ id: s.id, external_ref: 'pine', notes: 'keep', archived_at: null });
    expect((await w.api.get('/v1/locations')).body.data.map((r: any) => r.id)).toEqual([s.id]);
  });

  it('restores an archived match found by external_ref', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '6 Pine Ct', external_ref: 'p6' });
    await w.api.patch(`/v1/locations/${s.id}`, { archived: true });
    const res = await w.api.post('/v1/locations', { address: '6 Pine Ct', external_ref: 'p6' });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(s.id);
    expect(res.body.data.archived_at).toBeNull();
  });

  it('same address but a different external_ref is a new site', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '7 Cedar Ln', external_ref: 'a' });
    const res = await w.api.post('/v1/locations', { address: '7 Cedar Ln', external_ref: 'b' });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.data.id).not.toBe(s.id);
  });

  it('address is required (400), blank addresses too, and nothing is created', async () => {
    const w = await t.workspace();
    const missing = await w.api.raw.post('/v1/locations', { name: 'No address' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/address/);
    expect((await w.api.post('/v1/locations', { address: '' })).status).toBe(400);
    expect((await w.api.raw.post('/v1/locations', { address: null })).status).toBe(400);
    expect((await w.api.get('/v1/locations?include_archived=true')).body.pagination.total).toBe(0);
  });

  it('a whitespace-only address counts as missing: 400, nothing created', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/locations', { address: '   ' });
    expect(res.status).toBe(400);
    expect((await w.api.get('/v1/locations?include_archived=true')).body.pagination.total).toBe(0);
  });

  it('an unknown body field is a 400 naming it', async () => {
    const w = await t.workspace();
    const res = await w.api.raw.post('/v1/locations', { address: '1 A St', acreage: 3 });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(['acreage']);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(0);
  });

  it('client_account_id of another workspace or missing: 404 client_account_id not found in this workspace', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await customer(other, { name: 'Theirs' });
    for (const id of [theirs.id, 987654]) {
      const res = await w.api.post('/v1/locations', { address: '1 B St', client_account_id: id });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('client_account_id not found in this workspace');
    }
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(0);
  });

  it('client_account_id beyond 32 bits is a 400 on both engines, on create and update', async () => {
    const w = await t.workspace();
    const kept = await site(w, { address: '5 Range Rd' });
    // Raw JSON: 9007199254740993 is not exactly representable, 1e308 is an "integer" to JSON Schema.
    for (const id of ['2147483648', '9007199254740993', '1e308']) {
      const created = await w.api.raw.post('/v1/locations', `{"address":"6 Range Rd","client_account_id":${id}}`);
      expect(created.status, id).toBe(400);
      expect(created.body, id).toMatchObject({ code: 'invalid_request', field: 'client_account_id' });
      const patched = await w.api.raw.patch(`/v1/locations/${kept.id}`, `{"client_account_id":${id}}`);
      expect(patched.status, id).toBe(400);
      expect(patched.body.field, id).toBe('client_account_id');
    }
    expect((await w.api.get('/v1/locations')).body.data.map((l: { id: number }) => l.id)).toEqual([kept.id]);
  });

  it('client_account_external_ref links the customer; an unknown one is 404', async () => {
    const w = await t.workspace();
    const c = await customer(w, { name: 'Linked', external_ref: 'cust-7' });
    const s = await site(w, { address: '3 C St', client_account_external_ref: 'cust-7' });
    expect(s.client_account_id).toBe(c.id);
    const bad = await w.api.post('/v1/locations', { address: '4 C St', client_account_external_ref: 'nope' });
    expect(bad.status).toBe(404);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(1);
  });
});

describe('require_company_on_sites', () => {
  it('a new site without a customer is 422 company_required with missing_fields', async () => {
    const w = await t.workspace({ settings: { require_company_on_sites: true } });
    const res = await w.api.post('/v1/locations', { address: '10 Required Rd' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('company_required');
    expect(res.body.missing_fields).toEqual(['client_account_id']);
    expect((await w.api.get('/v1/locations')).body.pagination.total).toBe(0);
    const c = await customer(w, { name: 'Co', external_ref: 'co' });
    const ok = await w.api.post('/v1/locations', { address: '10 Required Rd', client_account_id: c.id });
    expect(ok.status).toBe(201);
    const byRef = await w.api.post('/v1/locations', { address: '11 Required Rd', client_account_external_ref: 'co' });
    expect(byRef.status).toBe(201);
    expect(byRef.body.data.client_account_id).toBe(c.id);
  });

  it('a repeat that matches an existing site is 200 even without a customer', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '20 Legacy Way', external_ref: 'leg' });
    const turnedOn = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, {
      settings: { require_company_on_sites: true },
    });
    expect(turnedOn.status).toBe(200);
    expect(turnedOn.body.data.settings.require_company_on_sites).toBe(true);
    const byAddress = await w.api.post('/v1/locations', { address: '20 legacy way' });
    expect(byAddress.status).toBe(200);
    expect(byAddress.body.data.id).toBe(s.id);
    const byRef = await w.api.post('/v1/locations', { address: 'elsewhere', external_ref: 'leg' });
    expect(byRef.status).toBe(200);
    expect(byRef.body.data.id).toBe(s.id);
    const fresh = await w.api.post('/v1/locations', { address: '21 Legacy Way' });
    expect(fresh.status).toBe(422);
    expect(fresh.body.code).toBe('company_required');
  });
});

describe('GET /v1/locations', () => {
  it('lists oldest first, filters by client_account_id and external_ref', async () => {
    const w = await t.workspace();
    const c1 = await customer(w, { name: 'One' });
    const c2 = await customer(w, { name: 'Two' });
    const a = await site(w, { address: '1 First St', client_account_id: c1.id, external_ref: 'A' });
    const b = await site(w, { address: '2 First St', client_account_id: c2.id });
    const c = await site(w, { address: '3 First St', client_account_id: c1.id });
    const all = await w.api.get('/v1/locations');
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: any) => r.id)).toEqual([a.id, b.id, c.id]);
    expect(all.body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    const mine = await w.api.get(`/v1/locations?client_account_id=${c1.id}`);
    expect(mine.body.data.map((r: any) => r.id)).toEqual([a.id, c.id]);
    expect(mine.body.pagination.total).toBe(2);
    const ref = await w.api.get('/v1/locations?external_ref=A');
    expect(ref.body.data.map((r: any) => r.id)).toEqual([a.id]);
    expect((await w.api.get('/v1/locations?external_ref=Z')).body.data).toEqual([]);
    const q = await w.api.get('/v1/locations?q=2%20first');
    expect(q.body.data.map((r: any) => r.id)).toEqual([b.id]);
  });

  it('archived sites drop out unless include_archived=true', async () => {
    const w = await t.workspace();
    const a = await site(w, { address: '1 Keep St' });
    const b = await site(w, { address: '2 Drop St' });
    await w.api.patch(`/v1/locations/${b.id}`, { archived: true });
    expect((await w.api.get('/v1/locations')).body.data.map((r: any) => r.id)).toEqual([a.id]);
    const all = await w.api.get('/v1/locations?include_archived=true');
    expect(all.body.data.map((r: any) => r.id)).toEqual([a.id, b.id]);
    expect(all.body.pagination.total).toBe(2);
  });
});

describe('GET and PATCH /v1/locations/{id}', () => {
  it('GET returns archived sites; 404 Location not found for missing and foreign ids', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const s = await site(w, { address: '1 Read St' });
    await w.api.patch(`/v1/locations/${s.id}`, { archived: true });
    const read = await w.api.get(`/v1/locations/${s.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.archived_at).toMatch(Z);
    const theirs = await site(other, { address: '1 Read St' });
    const foreign = await w.api.get(`/v1/locations/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Location not found');
    const missing = await w.api.get('/v1/locations/77777');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(foreign.body);
    const patch = await w.api.patch(`/v1/locations/${theirs.id}`, { notes: 'x' });
    expect(patch.status).toBe(404);
    expect((await other.api.get(`/v1/locations/${theirs.id}`)).body.data.notes).toBeNull();
  });

  it('PATCH changes sent fields; a new address is what upserts match', async () => {
    const w = await t.workspace();
    const c = await customer(w, { name: 'Co' });
    const s = await site(w, { address: '1 Old Rd', name: 'Depot' });
    const res = await w.api.patch(`/v1/locations/${s.id}`, {
      address: '2 New Rd',
      property_reference: 'PR-1',
      client_account_id: c.id,
      notes: 'n',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: s.id,
      name: 'Depot',
      address: '2 New Rd',
      property_reference: 'PR-1',
      client_account_id: c.id,
      notes: 'n',
    });
    expect(res.body.data.updated_at).toMatch(Z);
    const match = await w.api.post('/v1/locations', { address: '2 new rd.' });
    expect(match.status).toBe(200);
    expect(match.body.data.id).toBe(s.id);
    const old = await w.api.post('/v1/locations', { address: '1 Old Rd' });
    expect(old.status).toBe(201);
  });

  it('PATCH client_account_id of another workspace is 404 and changes nothing', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await customer(other, { name: 'Theirs' });
    const s = await site(w, { address: '1 Guard St' });
    const res = await w.api.patch(`/v1/locations/${s.id}`, { client_account_id: theirs.id, notes: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('client_account_id not found in this workspace');
    expect((await w.api.get(`/v1/locations/${s.id}`)).body.data).toEqual(s);
  });

  it('PATCH external_ref held by another site is 409 naming the holder', async () => {
    const w = await t.workspace();
    const holder = await site(w, { address: '1 Held St', external_ref: 'H' });
    const s = await site(w, { address: '2 Held St' });
    const res = await w.api.patch(`/v1/locations/${s.id}`, { external_ref: 'H' });
    expect(res.status).toBe(409);
    expect(res.body.holder).toMatchObject({ type: 'location', id: holder.id });
    expect((await w.api.get(`/v1/locations/${s.id}`)).body.data.external_ref).toBeNull();
  });

  it('PATCH unknown field or blank address is 400', async () => {
    const w = await t.workspace();
    const s = await site(w, { address: '1 Strict St' });
    const res = await w.api.raw.patch(`/v1/locations/${s.id}`, { zoning: 'C2' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(['zoning']);
    for (const address of ['', '   ', null]) {
      expect((await w.api.raw.patch(`/v1/locations/${s.id}`, { address })).status, JSON.stringify(address)).toBe(400);
    }
    expect((await w.api.get(`/v1/locations/${s.id}`)).body.data).toEqual(s);
  });
});
