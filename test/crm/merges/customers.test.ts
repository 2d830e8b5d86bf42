// GET /v1/client-accounts/{id}/merge-preview and POST /v1/client-accounts/{id}/merge: what the
// preview shows, what moves to the kept customer, how fields settle, and the merged one deleted
// (document 2, Search and merge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account as customer, job, ok, site } from '#test/helpers/records.ts';
import { accountTask, activity, contact, customField, link, linksOf, note, row, setCustomValues } from './fixtures.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

/** Two customers: the kept "Acme Paving" and the duplicate "ACME Paving Inc" with its records. */
async function pair(w: Workspace) {
  const kept = await customer(w.api, 'Acme Paving', { email: 'office@acme.test', notes: 'Gate code 1234' });
  const away = await customer(w.api, 'ACME Paving Inc', {
    email: 'billing@acme.test',
    phone: '(555) 555-0100',
    address: '1 Main St',
    external_ref: 'CRM-9',
  });
  return { kept, away };
}

const merge = (w: Workspace, awayId: number, body: BodyOf<'/v1/client-accounts/{id}/merge', 'post'>) =>
  w.api.post(`/v1/client-accounts/${awayId}/merge`, body);

describe('GET /v1/client-accounts/{id}/merge-preview', () => {
  it('lists only the differing fields, with who wins by default', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const res = await w.api.get(`/v1/client-accounts/${away.id}/merge-preview?into=${kept.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.keep).toEqual({ id: kept.id, name: 'Acme Paving', archived: false });
    expect(d.merge_away).toEqual({ id: away.id, name: 'ACME Paving Inc', archived: false });
    const byField = Object.fromEntries(d.fields.map((f: any) => [f.field, f]));
    expect(Object.keys(byField).sort()).toEqual(['address', 'email', 'name', 'notes', 'phone']);
    expect(byField.name).toEqual({
      field: 'name',
      label: 'Name',
      keep_value: 'Acme Paving',
      merge_away_value: 'ACME Paving Inc',
      needs_choice: true,
      default: 'keep',
      can_keep_both: false,
    });
    expect(byField.phone).toMatchObject({
      keep_value: null,
      merge_away_value: '(555) 555-0100',
      needs_choice: false,
      default: 'drop',
    });
    expect(byField.address).toMatchObject({
      keep_value: null,
      merge_away_value: '1 Main St',
      needs_choice: false,
      default: 'drop',
    });
    expect(byField.notes).toMatchObject({
      keep_value: 'Gate code 1234',
      merge_away_value: null,
      needs_choice: false,
      default: 'keep',
    });
    expect(byField.email).toMatchObject({ needs_choice: true, default: 'keep' });
    expect(d.blockers).toEqual([]);
    expect(d.moves).toEqual([]);
    expect(d).not.toHaveProperty('invoiced_job_count');
  });

  it('shows custom fields as custom:<key> with the definition label', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await customField(t.database, w.firmId, 'account', 'po_number', 'PO number');
    await customField(t.database, w.firmId, 'account', 'region', 'Region');
    await setCustomValues(t.database, 'client_accounts', kept.id, { region: 'North' });
    await setCustomValues(t.database, 'client_accounts', away.id, { po_number: 'PO-77', region: 'South' });
    const d = (await ok(w.api.get(`/v1/client-accounts/${away.id}/merge-preview?into=${kept.id}`))).data;
    const custom = d.fields.filter((f: any) => f.field.startsWith('custom:'));
    expect(custom).toEqual([
      {
        field: 'custom:po_number',
        label: 'PO number',
        keep_value: null,
        merge_away_value: 'PO-77',
        needs_choice: false,
        default: 'drop',
        can_keep_both: false,
      },
      {
        field: 'custom:region',
        label: 'Region',
        keep_value: 'North',
        merge_away_value: 'South',
        needs_choice: true,
        default: 'keep',
        can_keep_both: false,
      },
    ]);
  });

  it('counts what would move, and changes nothing', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await job(w.api, { name: 'Lot A', client_account_id: away.id });
    await job(w.api, { name: 'Lot B', client_account_id: away.id, address: '9 Elm St' });
    const person = await contact(t.database, w.firmId, { name: 'Pat', client_account_id: away.id, company: away.name });
    await link(t.database, w.firmId, person, 'company', away.id, { primary: true });
    await note(t.database, w.firmId, { client_account_id: away.id });
    await note(t.database, w.firmId, { client_account_id: away.id });
    await activity(t.database, w.firmId, { client_account_id: away.id }, 'a-1');
    await accountTask(t.database, w.firmId, away.id, w.ownerId);
    const d = (await ok(w.api.get(`/v1/client-accounts/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(d.moves).toEqual([
      { count: 2, label: 'jobs' },
      { count: 1, label: 'sites' },
      { count: 1, label: 'contacts' },
      { count: 1, label: 'contact links' },
      { count: 2, label: 'notes' },
      { count: 1, label: 'activities' },
      { count: 1, label: 'company follow-ups' },
    ]);
    expect((await w.api.get(`/v1/client-accounts/${away.id}`)).status).toBe(200);
    expect((await w.api.get(`/v1/jobs?client_account_id=${away.id}`)).body.pagination.total).toBe(2);
  });
});

describe('POST /v1/client-accounts/{id}/merge', () => {
  it('answers the kept customer and deletes the merged one', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const res = await merge(w, away.id, { into_client_account_id: kept.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      kept: { id: kept.id, name: 'Acme Paving', archived: false },
      merged_id: away.id,
      merged_name: 'ACME Paving Inc',
    });
    expect(res.body.data.message).toContain('ACME Paving Inc');
    const gone = await w.api.get(`/v1/client-accounts/${away.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('Client account not found');
    const list = await w.api.get('/v1/client-accounts?include_archived=true');
    expect(list.body.data.map((a: any) => a.id)).toEqual([kept.id]);
    // A second merge of the same id finds nothing.
    expect((await merge(w, away.id, { into_client_account_id: kept.id })).status).toBe(404);
  });

  it('moves jobs through the job write path: company text follows, job_updated is recorded', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const named = await job(w.api, { name: 'Lot A', client_account_id: away.id });
    const other = await job(w.api, { name: 'Lot B', client_account_id: away.id, company: 'Acme Holdings' });
    expect(named.company).toBe('ACME Paving Inc');
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    const a = (await ok(w.api.get(`/v1/jobs/${named.id}`))).data;
    const b = (await ok(w.api.get(`/v1/jobs/${other.id}`))).data;
    expect(a.client_account_id).toBe(kept.id);
    expect(a.company).toBe('Acme Paving');
    expect(b.client_account_id).toBe(kept.id);
    expect(b.company).toBe('Acme Holdings');
    expect(a.updated_at > named.updated_at).toBe(true);
    const updated = (await eventsOf(t.database, named.id)).filter((e) => e.event_type === 'job_updated');
    expect(updated.length).toBe(1);
  });

  it('moves sites (archived ones too) to the kept customer', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const s1 = await site(w.api, { address: '5 Oak Ave', client_account_id: away.id });
    const s2 = await site(w.api, { address: '6 Oak Ave', client_account_id: away.id });
    await ok(w.api.patch(`/v1/locations/${s2.id}`, { archived: true }));
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    expect((await ok(w.api.get(`/v1/locations/${s1.id}`))).data.client_account_id).toBe(kept.id);
    expect((await ok(w.api.get(`/v1/locations/${s2.id}`))).data.client_account_id).toBe(kept.id);
    expect(
      (await ok(w.api.get(`/v1/locations?client_account_id=${kept.id}&include_archived=true`))).pagination.total,
    ).toBe(2);
  });

  it("moves contacts' primary company, with the company text naming the kept customer", async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const person = await contact(t.database, w.firmId, { name: 'Pat', client_account_id: away.id, company: away.name });
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    const after = await row(t.database, 'contacts', person);
    expect(after.client_account_id).toBe(kept.id);
    expect(after.company).toBe('Acme Paving');
  });

  it('retargets company links and folds a person linked to both into one link with both roles', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const both = await contact(t.database, w.firmId, { name: 'Both' });
    const keptLink = await link(t.database, w.firmId, both, 'company', kept.id, {
      roles: ['billing'],
      started_on: '2024-05-01',
    });
    await link(t.database, w.firmId, both, 'company', away.id, {
      roles: ['decision_maker', 'billing'],
      primary: true,
      started_on: '2023-01-01',
    });
    const only = await contact(t.database, w.firmId, { name: 'Only' });
    const onlyLink = await link(t.database, w.firmId, only, 'company', away.id, { roles: ['other'] });
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    const links = await linksOf(t.database, both);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ id: keptLink, target_id: kept.id, is_primary: 1, started_on: '2023-01-01' });
    expect(JSON.parse(links[0].roles)).toEqual(['billing', 'decision_maker']);
    expect((await row(t.database, 'contact_links', onlyLink)).target_id).toBe(kept.id);
  });

  it('moves notes, activities and company follow-ups', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const n = await note(t.database, w.firmId, { client_account_id: away.id });
    const a = await activity(t.database, w.firmId, { client_account_id: away.id }, 'x-1');
    const at = await accountTask(t.database, w.firmId, away.id, w.ownerId);
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    expect((await row(t.database, 'notes', n)).client_account_id).toBe(kept.id);
    expect((await row(t.database, 'activities', a)).client_account_id).toBe(kept.id);
    expect((await row(t.database, 'account_tasks', at)).client_account_id).toBe(kept.id);
  });

  it("keeps the kept customer's values, fills its blanks, and takes over a free external_ref", async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    const after = (await ok(w.api.get(`/v1/client-accounts/${kept.id}`))).data;
    expect(after).toMatchObject({
      name: 'Acme Paving',
      email: 'office@acme.test',
      phone: '(555) 555-0100',
      address: '1 Main St',
      notes: 'Gate code 1234',
      external_ref: 'CRM-9',
    });
    expect(after.updated_at >= kept.updated_at).toBe(true);
    const byRef = await ok(w.api.get('/v1/client-accounts?external_ref=CRM-9'));
    expect(byRef.data.map((a: any) => a.id)).toEqual([kept.id]);
  });

  it('follows choices: drop takes the merged-away value, custom:<key> included', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await customField(t.database, w.firmId, 'account', 'region', 'Region');
    await setCustomValues(t.database, 'client_accounts', kept.id, { region: 'North' });
    await setCustomValues(t.database, 'client_accounts', away.id, { region: 'South' });
    const named = await job(w.api, { name: 'Lot A', client_account_id: away.id });
    await ok(
      merge(w, away.id, {
        into_client_account_id: kept.id,
        choices: { name: 'drop', email: 'keep', phone: 'keep', 'custom:region': 'drop' },
      }),
    );
    const after = (await ok(w.api.get(`/v1/client-accounts/${kept.id}`))).data;
    expect(after).toMatchObject({
      name: 'ACME Paving Inc',
      email: 'office@acme.test',
      phone: null,
      address: '1 Main St',
    });
    expect(after.custom_fields).toEqual({ region: 'South' });
    expect((await ok(w.api.get(`/v1/jobs/${named.id}`))).data.company).toBe('ACME Paving Inc');
    // The kept customer answers its new name on upsert.
    const again = await ok(w.api.post('/v1/client-accounts', { name: 'acme paving inc' }), [200]);
    expect(again.data.id).toBe(kept.id);
  });

  it("leaves the merged customer's external_ref free when the kept one has its own", async () => {
    const w = await t.workspace();
    const kept = await customer(w.api, 'Kept Co', { external_ref: 'K-1' });
    const away = await customer(w.api, 'Away Co', { external_ref: 'A-1' });
    await ok(merge(w, away.id, { into_client_account_id: kept.id }));
    expect((await ok(w.api.get(`/v1/client-accounts/${kept.id}`))).data.external_ref).toBe('K-1');
    const fresh = await w.api.post('/v1/client-accounts', { name: 'Away Co again', external_ref: 'A-1' });
    expect(fresh.status).toBe(201);
  });

  it('a merge into an archived customer keeps it archived and says so', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(w.api.patch(`/v1/client-accounts/${kept.id}`, { archived: true }));
    const preview = (await ok(w.api.get(`/v1/client-accounts/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(preview.keep.archived).toBe(true);
    const res = (await ok(merge(w, away.id, { into_client_account_id: kept.id }))).data;
    expect(res.kept).toEqual({ id: kept.id, name: 'Acme Paving', archived: true });
  });
});
