// The errors of the three merges and their previews (document 2, Errors): 400 merge into itself
// and unknown choice fields, 403 office user / delete permission / deletion lock, 404 for records
// of another workspace. A refused merge changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account as customer, job, ok, site } from '#test/helpers/records.ts';
import { contact, lockDeletion, row } from './fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

type Kind = 'client-accounts' | 'contacts' | 'locations';
const INTO: Record<Kind, string> = {
  'client-accounts': 'into_client_account_id',
  contacts: 'into_contact_id',
  locations: 'into_location_id',
};
const NOT_FOUND: Record<Kind, string> = {
  'client-accounts': 'Client account not found',
  contacts: 'Contact not found',
  locations: 'Location not found',
};
const KINDS: Kind[] = ['client-accounts', 'contacts', 'locations'];

/** Two records of `kind` in `w`: [merged-away, kept]. */
async function two(w: Workspace, kind: Kind): Promise<[number, number]> {
  if (kind === 'client-accounts') return [(await customer(w.api, 'Away Co')).id, (await customer(w.api, 'Kept Co')).id];
  if (kind === 'locations')
    return [(await site(w.api, { address: '1 Away St' })).id, (await site(w.api, { address: '2 Kept St' })).id];
  return [
    await contact(t.database, w.firmId, { name: 'Away Person' }),
    await contact(t.database, w.firmId, { name: 'Kept Person' }),
  ];
}

async function stillThere(w: Workspace, kind: Kind, id: number): Promise<void> {
  const table = kind === 'client-accounts' ? 'client_accounts' : kind;
  const r = await row(t.database, table, id);
  expect(r).toBeDefined();
  if (kind === 'locations') expect(r.archived_at).toBeNull();
  expect(w.firmId).toBe(r.firm_id);
}

describe.each(KINDS)('%s merge errors', (kind) => {
  it('400 for a merge into itself', async () => {
    const w = await t.workspace();
    const [away] = await two(w, kind);
    const res = await w.api.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: away });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'merge_into_self' });
    expect(res.body.error).toMatch(/into itself/);
    const preview = await w.api.get(`/v1/${kind}/${away}/merge-preview?into=${away}`);
    expect(preview.status).toBe(400);
    await stillThere(w, kind, away);
  });

  it('400 naming unknown fields in choices; nothing changes', async () => {
    const w = await t.workspace();
    const [away, kept] = await two(w, kind);
    const res = await w.api.raw.post(`/v1/${kind}/${away}/merge`, {
      [INTO[kind]]: kept,
      choices: { name: 'keep', colour: 'drop', 'custom:nope': 'keep' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'Unknown fields in choices',
      code: 'unknown_choice_fields',
      fields: ['colour', 'custom:nope'],
    });
    await stillThere(w, kind, away);
  });

  it('404 for a record of another workspace, in the URL or as the one to keep', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const [mine] = await two(w, kind);
    const [theirs] = await two(other, kind);
    const a = await w.api.raw.post(`/v1/${kind}/${theirs}/merge`, { [INTO[kind]]: mine });
    expect(a.status).toBe(404);
    expect(a.body.error).toBe(NOT_FOUND[kind]);
    const b = await w.api.raw.post(`/v1/${kind}/${mine}/merge`, { [INTO[kind]]: theirs });
    expect(b.status).toBe(404);
    expect(b.body).toMatchObject({ error: NOT_FOUND[kind], field: INTO[kind] });
    expect((await w.api.get(`/v1/${kind}/${theirs}/merge-preview?into=${mine}`)).status).toBe(404);
    expect((await w.api.get(`/v1/${kind}/${mine}/merge-preview?into=${theirs}`)).status).toBe(404);
    await stillThere(w, kind, mine);
    await stillThere(other, kind, theirs);
  });

  it('403 for a user who is not an office user; the preview lists it as a blocker', async () => {
    const w = await t.workspace();
    const [away, kept] = await two(w, kind);
    const crew = await t.user(w.firmId, { role: 'member', office_user: false, can_delete_jobs: true });
    const res = await crew.api.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: kept });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Office user required', code: 'office_user_required' });
    const preview = (await ok(crew.api.get(`/v1/${kind}/${away}/merge-preview?into=${kept}`))).data;
    expect(preview.blockers.map((b: any) => b.code)).toEqual(['office_user_required']);
    await stillThere(w, kind, away);
  });

  it('403 with deletion_locked when the workspace locks deletion, even for the owner', async () => {
    const w = await t.workspace();
    const [away, kept] = await two(w, kind);
    await lockDeletion(t.admin, w.firmId);
    const res = await w.api.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: kept });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'Deletion locked', deletion_locked: true });
    const preview = (await ok(w.api.get(`/v1/${kind}/${away}/merge-preview?into=${kept}`))).data;
    expect(preview.blockers.map((b: any) => b.code)).toEqual(['deletion_locked']);
    await stillThere(w, kind, away);
  });

  it('403 for a key without delete_records or write_jobs; the preview needs only read_jobs', async () => {
    const w = await t.workspace();
    const [away, kept] = await two(w, kind);
    const noDelete = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs', 'write_jobs']));
    const res = await noDelete.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: kept });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('API key lacks delete permission');
    const noWrite = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs', 'delete_records']));
    expect((await noWrite.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: kept })).body.error).toBe(
      'API key lacks job write permission',
    );
    const readOnly = t.as(await t.key(w.firmId, w.ownerId, ['read_jobs']));
    const preview = (await ok(readOnly.get(`/v1/${kind}/${away}/merge-preview?into=${kept}`))).data;
    expect(preview.blockers.map((b: any) => b.code)).toEqual(['missing_permission', 'missing_permission']);
    const noRead = t.as(await t.key(w.firmId, w.ownerId, ['write_jobs']));
    expect((await noRead.get(`/v1/${kind}/${away}/merge-preview?into=${kept}`)).status).toBe(403);
    await stillThere(w, kind, away);
  });

  it('400 for a bad body: missing target, unknown body field, bad choice value', async () => {
    const w = await t.workspace();
    const [away, kept] = await two(w, kind);
    expect((await w.api.raw.post(`/v1/${kind}/${away}/merge`, {})).status).toBe(400);
    const extra = await w.api.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: kept, into_job_id: 1 });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body)).toContain('into_job_id');
    expect(
      (await w.api.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: kept, choices: { name: 'merge' } })).status,
    ).toBe(400);
    expect((await w.api.raw.post(`/v1/${kind}/${away}/merge`, { [INTO[kind]]: 'seven' })).status).toBe(400);
    expect((await w.api.get(`/v1/${kind}/${away}/merge-preview`)).status).toBe(400);
    await stillThere(w, kind, away);
  });
});

describe('choice values', () => {
  it("both is only for a contact's phone and email (400 invalid_choice)", async () => {
    const w = await t.workspace();
    const away = await customer(w.api, 'Away Co', { phone: '(555) 555-0101' });
    const kept = await customer(w.api, 'Kept Co', { phone: '(555) 555-0102' });
    const res = await w.api.post(`/v1/client-accounts/${away.id}/merge`, {
      into_client_account_id: kept.id,
      choices: { phone: 'both' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_choice', fields: ['phone'] });
    const p = await contact(t.database, w.firmId, { name: 'P', phone: '555-0103' });
    const q = await contact(t.database, w.firmId, { name: 'Q', phone: '555-0104' });
    const name = await w.api.post(`/v1/contacts/${p}/merge`, { into_contact_id: q, choices: { name: 'both' } });
    expect(name.status).toBe(400);
    expect(name.body.fields).toEqual(['name']);
  });

  it('a choice on a field that does not differ is accepted and changes nothing', async () => {
    const w = await t.workspace();
    const away = await customer(w.api, 'Away Co', { email: 'same@x.test' });
    const kept = await customer(w.api, 'Kept Co', { email: 'same@x.test' });
    await ok(
      w.api.post(`/v1/client-accounts/${away.id}/merge`, {
        into_client_account_id: kept.id,
        choices: { email: 'drop', address: 'drop' },
      }),
    );
    expect((await ok(w.api.get(`/v1/client-accounts/${kept.id}`))).data).toMatchObject({
      name: 'Kept Co',
      email: 'same@x.test',
      address: null,
    });
  });

  it('a refused merge leaves every moved record where it was', async () => {
    const w = await t.workspace();
    const away = await customer(w.api, 'Away Co');
    const kept = await customer(w.api, 'Kept Co');
    const j = await job(w.api, { name: 'Lot', client_account_id: away.id });
    const res = await w.api.post(`/v1/client-accounts/${away.id}/merge`, {
      into_client_account_id: kept.id,
      choices: { bogus: 'keep' },
    });
    expect(res.status).toBe(400);
    expect((await ok(w.api.get(`/v1/jobs/${j.id}`))).data.client_account_id).toBe(away.id);
  });
});
