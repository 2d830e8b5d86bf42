// GET /v1/locations/{id}/merge-preview and POST /v1/locations/{id}/merge: jobs and contact links
// move, the merged site is archived and its old id (and address, external_ref) resolve to the
// survivor; sites with invoiced jobs need move_invoiced_jobs (document 2, Search and merge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account as customer, job, ok, site } from '#test/helpers/records.ts';
import { contact, customField, link, linksOf, row, setCustomValues } from './fixtures.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

/** A job is invoiced once it carries an invoice (the billing area's counter). */
async function bill(w: Workspace, jobId: number) {
  await ok(
    w.api.post('/v1/invoices', {
      job_id: jobId,
      line_items: [{ description: 'Sealcoat', amount: 500 }],
      remit_to_address: '1 Yard Rd',
    }),
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function pair(w: Workspace) {
  const acme = await customer(w.api, 'Acme Paving');
  const kept = await site(w.api, {
    address: '100 Main Street',
    name: 'HQ lot',
    client_account_id: acme.id,
    property_reference: 'PID-1',
  });
  const away = await site(w.api, { address: '100 Main St, Springfield', external_ref: 'SITE-9', notes: 'Back gate' });
  return { acme, kept, away };
}

const merge = (w: Workspace, awayId: number, body: BodyOf<'/v1/locations/{id}/merge', 'post'>) =>
  w.api.post(`/v1/locations/${awayId}/merge`, body);

describe('GET /v1/locations/{id}/merge-preview', () => {
  it('shows fields, moves, no blockers and invoiced_job_count 0', async () => {
    const w = await t.workspace();
    const { acme, kept, away } = await pair(w);
    await job(w.api, { name: 'Seal', address: away.address });
    await link(t.database, w.firmId, await contact(t.database, w.firmId, { name: 'Sam' }), 'location', away.id);
    const d = (await ok(w.api.get(`/v1/locations/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(d.keep).toEqual({ id: kept.id, name: 'HQ lot', archived: false });
    expect(d.merge_away).toEqual({ id: away.id, name: '100 Main St, Springfield', archived: false });
    const byField = Object.fromEntries(d.fields.map((f: any) => [f.field, f]));
    expect(Object.keys(byField).sort()).toEqual([
      'address',
      'client_account_id',
      'name',
      'notes',
      'property_reference',
    ]);
    expect(byField.client_account_id).toMatchObject({
      label: 'Customer',
      keep_value: acme.id,
      merge_away_value: null,
      default: 'keep',
    });
    expect(byField.notes).toMatchObject({ keep_value: null, merge_away_value: 'Back gate', default: 'drop' });
    expect(byField.address).toMatchObject({ needs_choice: true, default: 'keep', can_keep_both: false });
    expect(d.moves).toEqual([
      { count: 1, label: 'jobs' },
      { count: 1, label: 'contact links' },
    ]);
    expect(d.blockers).toEqual([]);
    expect(d.invoiced_job_count).toBe(0);
  });

  it('names invoiced jobs as a blocker with their count', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const j = await job(w.api, { name: 'Billed', address: away.address });
    await bill(w, j.id);
    const d = (await ok(w.api.get(`/v1/locations/${away.id}/merge-preview?into=${kept.id}`))).data;
    expect(d.invoiced_job_count).toBe(1);
    expect(d.blockers).toEqual([{ code: 'invoiced_jobs', message: expect.stringContaining('move_invoiced_jobs') }]);
  });
});

describe('POST /v1/locations/{id}/merge', () => {
  it('moves jobs to the kept site; each job keeps its own address', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const j = await job(w.api, { name: 'Seal', address: '100 Main St, Springfield' });
    expect(j.location_id).toBe(away.id);
    const res = await merge(w, away.id, { into_location_id: kept.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      kept: { id: kept.id, name: 'HQ lot', archived: false },
      merged_id: away.id,
      merged_name: '100 Main St, Springfield',
    });
    const after = (await ok(w.api.get(`/v1/jobs/${j.id}`))).data;
    expect(after.location_id).toBe(kept.id);
    expect(after.address).toBe('100 Main St, Springfield');
    expect(after.updated_at > j.updated_at).toBe(true);
  });

  it('retargets site links of people, folding a person linked to both', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const both = await contact(t.database, w.firmId, { name: 'Both' });
    const keptLink = await link(t.database, w.firmId, both, 'location', kept.id, { roles: ['site_contact'] });
    await link(t.database, w.firmId, both, 'location', away.id, { roles: ['property_manager'] });
    const only = await contact(t.database, w.firmId, { name: 'Only' });
    const onlyLink = await link(t.database, w.firmId, only, 'location', away.id);
    await ok(merge(w, away.id, { into_location_id: kept.id }));
    const links = await linksOf(t.database, both);
    expect(links.map((l) => [l.id, l.target_id, JSON.parse(l.roles)])).toEqual([
      [keptLink, kept.id, ['site_contact', 'property_manager']],
    ]);
    expect((await row(t.database, 'contact_links', onlyLink)).target_id).toBe(kept.id);
  });

  it('archives the merged site; its old id answers the survivor', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(merge(w, away.id, { into_location_id: kept.id }));
    const stored = await row(t.database, 'locations', away.id);
    expect(stored.archived_at).not.toBeNull();
    expect(stored.merged_into_id).toBe(kept.id);
    const old = await w.api.get(`/v1/locations/${away.id}`);
    expect(old.status).toBe(200);
    expect(old.body.data.id).toBe(kept.id);
    expect(old.body.data.archived_at).toBeNull();
    const list = await ok(w.api.get('/v1/locations'));
    expect(list.data.map((l: any) => l.id)).toEqual([kept.id]);
  });

  it("custom field values sent to a merged-away site's old id land on the survivor", async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(merge(w, away.id, { into_location_id: kept.id }));
    const field = (await ok(w.api.post('/v1/custom-fields', { entity_type: 'location', label: 'Gate code' }))).data;
    const res = await ok(
      w.api.patch(`/v1/locations/${away.id}/custom-fields`, { custom_fields: { [field.key]: '4411' } }),
    );
    expect(res.data).toEqual({
      entity_type: 'location',
      id: kept.id,
      custom_fields: { gate_code: '4411' },
      changed: ['gate_code'],
    });
    expect(JSON.parse((await row(t.database, 'locations', kept.id)).custom_fields)).toEqual({ gate_code: '4411' });
    expect(JSON.parse((await row(t.database, 'locations', away.id)).custom_fields)).toEqual({});
  });

  it('fills blanks, keeps the survivor values, takes over a free external_ref', async () => {
    const w = await t.workspace();
    const { acme, kept, away } = await pair(w);
    await ok(merge(w, away.id, { into_location_id: kept.id }));
    const after = (await ok(w.api.get(`/v1/locations/${kept.id}`))).data;
    expect(after).toMatchObject({
      name: 'HQ lot',
      address: '100 Main Street',
      client_account_id: acme.id,
      property_reference: 'PID-1',
      notes: 'Back gate',
      external_ref: 'SITE-9',
    });
    // The external_ref upsert finds the survivor.
    const again = await ok(w.api.post('/v1/locations', { address: 'anything', external_ref: 'SITE-9' }), [200]);
    expect(again.data.id).toBe(kept.id);
  });

  it('follows choices, custom:<key> included', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await customField(t.database, w.firmId, 'location', 'surface', 'Surface');
    await setCustomValues(t.database, 'locations', kept.id, { surface: 'asphalt' });
    await setCustomValues(t.database, 'locations', away.id, { surface: 'concrete' });
    await ok(
      merge(w, away.id, {
        into_location_id: kept.id,
        choices: { address: 'drop', notes: 'keep', 'custom:surface': 'drop' },
      }),
    );
    const after = (await ok(w.api.get(`/v1/locations/${kept.id}`))).data;
    expect(after).toMatchObject({
      address: '100 Main St, Springfield',
      notes: null,
      custom_fields: { surface: 'concrete' },
    });
  });

  it("a job written with the merged site's address or id links the survivor", async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    await ok(merge(w, away.id, { into_location_id: kept.id }));
    const j = await job(w.api, { name: 'New Job', address: '100 main st springfield' });
    expect(j.location_id).toBe(kept.id);
    const other = await job(w.api, { name: 'Other Job' });
    const put = await ok(w.api.put(`/v1/jobs/${other.id}/location`, { location_id: away.id }));
    expect(put.data.location_id).toBe(kept.id);
    expect((await row(t.database, 'locations', away.id)).archived_at).not.toBeNull();
  });

  it('refuses a site with invoiced jobs (409) unless move_invoiced_jobs is true', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const j = await job(w.api, { name: 'Billed', address: away.address });
    await bill(w, j.id);
    const res = await merge(w, away.id, { into_location_id: kept.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Site has invoiced jobs', code: 'invoiced_jobs', invoiced_job_count: 1 });
    expect(res.body.message).toContain('move_invoiced_jobs');
    expect((await ok(w.api.get(`/v1/jobs/${j.id}`))).data.location_id).toBe(away.id);
    expect((await row(t.database, 'locations', away.id)).archived_at).toBeNull();
    const refused = await merge(w, away.id, { into_location_id: kept.id, move_invoiced_jobs: false });
    expect(refused.status).toBe(409);
    await ok(merge(w, away.id, { into_location_id: kept.id, move_invoiced_jobs: true }));
    expect((await ok(w.api.get(`/v1/jobs/${j.id}`))).data.location_id).toBe(kept.id);
  });

  it('a merge refused after records moved (company required on sites) rolls everything back', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const j = await job(w.api, { name: 'Seal', address: away.address });
    await ok(t.admin.patch(`/admin/v1/workspaces/${w.firmId}`, { settings: { require_company_on_sites: true } }));
    const res = await merge(w, away.id, { into_location_id: kept.id, choices: { client_account_id: 'drop' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('company_required');
    expect((await ok(w.api.get(`/v1/jobs/${j.id}`))).data.location_id).toBe(away.id);
    const stored = await row(t.database, 'locations', away.id);
    expect(stored).toMatchObject({ archived_at: null, merged_into_id: null, external_ref: 'SITE-9' });
  });

  it('a merged-away site cannot be merged again (409, and a preview blocker)', async () => {
    const w = await t.workspace();
    const { kept, away } = await pair(w);
    const third = await site(w.api, { address: '3 Third Ave' });
    await ok(merge(w, away.id, { into_location_id: kept.id }));
    const preview = (await ok(w.api.get(`/v1/locations/${away.id}/merge-preview?into=${third.id}`))).data;
    expect(preview.blockers.map((b: any) => b.code)).toEqual(['already_merged']);
    const res = await merge(w, away.id, { into_location_id: third.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'already_merged', merged_into_id: kept.id });
  });

  it("names the kept site by a merged-away site's old id, and repeated merges point old ids at the last survivor", async () => {
    const w = await t.workspace();
    const a = await site(w.api, { address: '1 A St' });
    const b = await site(w.api, { address: '2 B St' });
    const c = await site(w.api, { address: '3 C St' });
    await ok(merge(w, a.id, { into_location_id: b.id }));
    // c into the old id of a: lands on b.
    const res = (await ok(merge(w, c.id, { into_location_id: a.id }))).data;
    expect(res.kept.id).toBe(b.id);
    // merging a's own survivor into its own old id is a merge into itself.
    const self = await merge(w, b.id, { into_location_id: a.id });
    expect(self.status).toBe(400);
    const d = await site(w.api, { address: '4 D St' });
    await ok(merge(w, b.id, { into_location_id: d.id }));
    for (const old of [a.id, b.id, c.id]) {
      expect((await row(t.database, 'locations', old)).merged_into_id).toBe(d.id);
      expect((await ok(w.api.get(`/v1/locations/${old}`))).data.id).toBe(d.id);
    }
  });
});
