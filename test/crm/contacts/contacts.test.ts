// Contacts: create, read, update, list, archive, delete and restore (document 2, Contact and the
// Contacts endpoints; Errors rows for contacts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact, startApp, type TestApp } from '#test/helpers/harness.ts';
import { advanceClock } from '#platform/time.ts';
import { contactVia as contact, job } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const ZTS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('POST /v1/contacts', () => {
  it('answers 201 with the full contact: fields, channels, links and jobs', async () => {
    const w = await t.workspace();
    const res = await w.api.post('/v1/contacts', {
      name: 'Dana Reyes',
      title: 'Facilities Manager',
      contact_type: 'Property manager',
      company: 'Acme Properties',
      email: 'Dana@Acme.com',
      phone: '555 123 4567',
      notes: 'Prefers mornings',
      preferred_channel: 'Email',
      do_not_contact: true,
      do_not_contact_reason: 'Asked us to stop',
      birthday: '1980-04-02',
      tags: ['vip', ' VIP ', 'board', ''],
    });
    expect(res.status).toBe(201);
    const c = res.body.data;
    expect(c).toMatchObject({
      name: 'Dana Reyes',
      display_name: 'Dana Reyes',
      title: 'Facilities Manager',
      contact_type: 'Property manager',
      company: 'Acme Properties',
      client_account: { id: c.client_account_id, name: 'Acme Properties' },
      email: 'Dana@Acme.com',
      phone: '(555) 123-4567',
      notes: 'Prefers mornings',
      assigned_user_id: null,
      preferred_channel: 'email',
      do_not_contact: true,
      do_not_contact_reason: 'Asked us to stop',
      birthday: '1980-04-02',
      tags: ['vip', 'board'],
      custom_fields: {},
      archived_at: null,
      jobs: [],
    });
    expect(c.created_at).toMatch(ZTS);
    expect(c.updated_at).toMatch(ZTS);
    expect(c.channels).toEqual([
      {
        id: expect.any(Number),
        ref: expect.any(String),
        kind: 'phone',
        label: 'mobile',
        value: '(555) 123-4567',
        is_primary: true,
        do_not_contact: false,
      },
      {
        id: expect.any(Number),
        ref: expect.any(String),
        kind: 'email',
        label: 'work',
        value: 'Dana@Acme.com',
        is_primary: true,
        do_not_contact: false,
      },
    ]);
    expect(c.channels[0].ref).toBe(String(c.channels[0].id));
    expect(c.links).toEqual([
      {
        kind: 'company',
        id: c.client_account_id,
        name: 'Acme Properties',
        roles: [],
        is_primary: true,
        current: true,
        started_on: null,
        ended_on: null,
      },
    ]);
  });

  it('company links an existing customer by name (any case) or creates one', async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'Lakeside HOA' })).body.data;
    const a = await contact(w, { name: 'A', company: 'lakeside  hoa' });
    expect(a.client_account_id).toBe(acct.id);
    expect(a.company).toBe('Lakeside HOA');
    const b = await contact(w, { name: 'B', company: 'Brand New Co' });
    expect(b.client_account_id).not.toBe(acct.id);
    const read = await w.api.get(`/v1/client-accounts/${b.client_account_id}`);
    expect(read.body.data.name).toBe('Brand New Co');
  });

  it('client_account_id wins over company; display_name falls back to the company', async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'Winner Inc' })).body.data;
    const c = await contact(w, { client_account_id: acct.id, company: 'Loser LLC' });
    expect(c).toMatchObject({
      name: null,
      display_name: 'Winner Inc',
      company: 'Winner Inc',
      client_account_id: acct.id,
    });
    const list = await w.api.get('/v1/client-accounts?q=Loser');
    expect(list.body.data).toEqual([]);
  });

  it('400 Add at least a name, company, email, or phone number.', async () => {
    const w = await t.workspace();
    for (const body of [{}, { title: 'Only a title' }, { name: '  ', email: '' }]) {
      const res = await w.api.post('/v1/contacts', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Add at least a name, company, email, or phone number.');
    }
    expect((await w.api.post('/v1/contacts', { phone: '5551234567' })).status).toBe(201);
  });

  it('400 email does not look like an email address; 400 Pick call, text or email.', async () => {
    const w = await t.workspace();
    const bad = await w.api.post('/v1/contacts', { name: 'X', email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('email does not look like an email address');
    const pick = await w.api.post('/v1/contacts', { name: 'X', preferred_channel: 'fax' });
    expect(pick.status).toBe(400);
    expect(pick.body.error).toBe('Pick call, text or email.');
    expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(0);
  });

  it('400 unknown fields, over-long contact_type, bad birthday', async () => {
    const w = await t.workspace();
    const unknown = await w.api.raw.post('/v1/contacts', { name: 'X', nickname: 'Y' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_fields', fields: ['nickname'] });
    expect((await w.api.post('/v1/contacts', { name: 'X', contact_type: 'x'.repeat(81) })).status).toBe(400);
    expect((await w.api.post('/v1/contacts', { name: 'X', birthday: '1980-02-30' })).status).toBe(400);
  });

  it("404 client_account_id not found in this workspace (another workspace's customer)", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = (await other.api.post('/v1/client-accounts', { name: 'Theirs' })).body.data;
    const res = await w.api.post('/v1/contacts', { name: 'X', client_account_id: theirs.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('client_account_id not found in this workspace');
  });

  it('assigned_user_id must be an office user of the workspace (404 messages)', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const crew = await t.user(w.firmId, { role: 'crew' });
    const member = await t.user(w.firmId, { role: 'member' });
    const foreign = await w.api.post('/v1/contacts', { name: 'X', assigned_user_id: other.ownerId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('assigned_user_id does not match a user in this workspace');
    const notOffice = await w.api.post('/v1/contacts', { name: 'X', assigned_user_id: crew.id });
    expect(notOffice.status).toBe(404);
    expect(notOffice.body.error).toBe('user is not an office teammate');
    const ok = await contact(w, { name: 'X', assigned_user_id: member.id });
    expect(ok.assigned_user_id).toBe(member.id);
  });

  it('custom_fields are validated against contact definitions; nothing is saved on error', async () => {
    const w = await t.workspace();
    await t.database.db
      .insertInto('custom_field_definitions')
      .values({
        firm_id: w.firmId,
        entity_type: 'contact',
        key: 'shirt_size',
        label: 'Shirt size',
        label_key: 'shirt size',
        field_type: 'select',
        options: JSON.stringify(['Small', 'Large']),
        required: 0,
        filterable: 0,
        show_as_flag: 0,
        section: 'contact_identity',
        position: 1,
        archived_at: null,
        created_at: '2026-01-01T00:00:00.000000',
        updated_at: '2026-01-01T00:00:00.000000',
      })
      .execute();
    const ok = await contact(w, { name: 'Sized', custom_fields: { shirt_size: 'large' } });
    expect(ok.custom_fields).toEqual({ shirt_size: 'Large' });
    const unknown = await w.api.post('/v1/contacts', {
      name: 'Nope',
      company: 'Should Not Exist',
      custom_fields: { shoe: 1 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_custom_fields', fields: ['shoe'] });
    const invalid = await w.api.post('/v1/contacts', { name: 'Nope', custom_fields: { shirt_size: 'Medium' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 'invalid_custom_field', field: 'shirt_size' });
    expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(1);
    expect((await w.api.get('/v1/client-accounts?q=Should')).body.data).toEqual([]);
    const patched = await w.api.patch(`/v1/contacts/${ok.id}`, { custom_fields: { shirt_size: null } });
    expect(patched.body.data.custom_fields).toEqual({});
  });

  it('403 with a read-only key', async () => {
    const w = await t.workspace();
    const reader = await t.user(w.firmId, { role: 'member' }, ['read_jobs']);
    const res = await reader.api.post('/v1/contacts', { name: 'X' });
    expect(res.status).toBe(403);
  });
});

describe('GET /v1/contacts/{id}', () => {
  it('404 Contact not found for missing and foreign people; archived are included', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await contact(other, { name: 'Theirs' });
    for (const id of [theirs.id, 999999]) {
      const res = await w.api.get(`/v1/contacts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Contact not found' });
    }
    const mine = await contact(w, { name: 'Mine' });
    await w.api.delete(`/v1/contacts/${mine.id}`);
    const res = await w.api.get(`/v1/contacts/${mine.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.archived_at).toMatch(ZTS);
  });

  it('an email and phone stored only on the contact show as v-<kind>-0 entries, and the v- ref edits them', async () => {
    const w = await t.workspace();
    const id = await insertContact(t.database, w.firmId, {
      name: 'Legacy',
      email: 'old@legacy.com',
      phone: '(555) 000-1111',
    });
    const read = await w.api.get(`/v1/contacts/${id}`);
    expect(read.body.data.channels).toEqual([
      {
        id: null,
        ref: 'v-phone-0',
        kind: 'phone',
        label: 'mobile',
        value: '(555) 000-1111',
        is_primary: true,
        do_not_contact: false,
      },
      {
        id: null,
        ref: 'v-email-0',
        kind: 'email',
        label: 'work',
        value: 'old@legacy.com',
        is_primary: true,
        do_not_contact: false,
      },
    ]);
    const edit = await w.api.patch(`/v1/contacts/${id}/channels/v-email-0`, { value: 'new@legacy.com', label: 'home' });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({
      id: expect.any(Number),
      kind: 'email',
      label: 'home',
      value: 'new@legacy.com',
      is_primary: true,
    });
    const after = (await w.api.get(`/v1/contacts/${id}`)).body.data;
    expect(after.email).toBe('new@legacy.com');
    expect(after.channels.every((c: any) => typeof c.id === 'number')).toBe(true);
  });
});

describe('PATCH /v1/contacts/{id}', () => {
  it('changes only sent fields and keeps the primary channels in step with email and phone', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Sam', email: 'sam@one.com', phone: '5551112222', notes: 'keep me' });
    await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'sam@two.com' });
    const res = await w.api.patch(`/v1/contacts/${c.id}`, {
      email: 'SAM@ONE-NEW.com',
      phone: '+1 555 333 4444',
      title: 'Boss',
    });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      name: 'Sam',
      notes: 'keep me',
      title: 'Boss',
      email: 'SAM@ONE-NEW.com',
      phone: '+1 (555) 333-4444',
    });
    expect(d.channels.filter((ch: any) => ch.kind === 'email').map((ch: any) => [ch.value, ch.is_primary])).toEqual([
      ['SAM@ONE-NEW.com', true],
      ['sam@two.com', false],
    ]);
    expect(d.updated_at >= c.updated_at).toBe(true);
  });

  it('an email already on file becomes the primary; null removes the primary and the next takes over', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Kim', email: 'kim@a.com' });
    await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'kim@b.com' });
    const swap = (await w.api.patch(`/v1/contacts/${c.id}`, { email: 'KIM@B.com' })).body.data;
    expect(swap.email).toBe('kim@b.com');
    expect(swap.channels.filter((ch: any) => ch.kind === 'email')).toHaveLength(2);
    const cleared = (await w.api.patch(`/v1/contacts/${c.id}`, { email: null })).body.data;
    expect(cleared.email).toBe('kim@a.com');
    expect(cleared.channels.filter((ch: any) => ch.kind === 'email').map((ch: any) => ch.value)).toEqual(['kim@a.com']);
  });

  it('client_account_id null removes the primary company; a new company becomes primary', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Pat', company: 'First Co' });
    const moved = (await w.api.patch(`/v1/contacts/${c.id}`, { company: 'Second Co' })).body.data;
    expect(moved.company).toBe('Second Co');
    expect(moved.links.map((l: any) => [l.name, l.is_primary, l.current])).toEqual([
      ['Second Co', true, true],
      ['First Co', false, true],
    ]);
    const removed = (await w.api.patch(`/v1/contacts/${c.id}`, { client_account_id: null })).body.data;
    expect(removed).toMatchObject({
      company: null,
      client_account_id: null,
      client_account: null,
      display_name: 'Pat',
    });
    expect(removed.links.map((l: any) => l.name)).toEqual(['First Co']);
  });

  it('400 when nothing identifying would be left; other contact errors as on create; 404 foreign', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const c = await contact(w, { name: 'Only name' });
    const empty = await w.api.patch(`/v1/contacts/${c.id}`, { name: null });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('Add at least a name, company, email, or phone number.');
    expect((await w.api.patch(`/v1/contacts/${c.id}`, { email: 'bad@' })).body.error).toBe(
      'email does not look like an email address',
    );
    expect((await w.api.patch(`/v1/contacts/${c.id}`, { preferred_channel: 'pigeon' })).body.error).toBe(
      'Pick call, text or email.',
    );
    expect((await w.api.raw.patch(`/v1/contacts/${c.id}`, { color: 'red' })).body.code).toBe('unknown_fields');
    const foreign = await other.api.patch(`/v1/contacts/${c.id}`, { name: 'Hijack' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Contact not found');
    expect((await w.api.get(`/v1/contacts/${c.id}`)).body.data.name).toBe('Only name');
  });

  it('assigned_user_id and client_account_id are checked on update too; null clears the salesperson', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const crew = await t.user(w.firmId, { role: 'crew' });
    const theirAcct = (await other.api.post('/v1/client-accounts', { name: 'Not yours' })).body.data;
    const c = await contact(w, { name: 'Assignee', assigned_user_id: w.ownerId });
    expect((await w.api.patch(`/v1/contacts/${c.id}`, { assigned_user_id: crew.id })).body.error).toBe(
      'user is not an office teammate',
    );
    expect((await w.api.patch(`/v1/contacts/${c.id}`, { assigned_user_id: other.ownerId })).body.error).toBe(
      'assigned_user_id does not match a user in this workspace',
    );
    const acct = await w.api.patch(`/v1/contacts/${c.id}`, { client_account_id: theirAcct.id });
    expect(acct.status).toBe(404);
    expect(acct.body.error).toBe('client_account_id not found in this workspace');
    const cleared = await w.api.patch(`/v1/contacts/${c.id}`, { assigned_user_id: null });
    expect(cleared.body.data.assigned_user_id).toBeNull();
  });

  it('writes with a read-only key are 403 and change nothing', async () => {
    const w = await t.workspace();
    const reader = await t.user(w.firmId, { role: 'member' }, ['read_jobs']);
    const c = await contact(w, { name: 'Read only', email: 'ro@x.com' });
    expect((await reader.api.patch(`/v1/contacts/${c.id}`, { name: 'Changed' })).status).toBe(403);
    expect((await reader.api.post(`/v1/contacts/${c.id}/restore`)).status).toBe(403);
    expect((await reader.api.delete(`/v1/contacts/${c.id}/channels/${c.channels[0].ref}`)).status).toBe(403);
    expect((await reader.api.post(`/v1/contacts/${c.id}/links`, { client_account_id: 1 })).status).toBe(403);
    expect((await reader.api.get(`/v1/contacts/${c.id}`)).body.data).toMatchObject({
      name: 'Read only',
      email: 'ro@x.com',
    });
  });

  it('turning do_not_contact off clears the reason', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Quiet', do_not_contact: true, do_not_contact_reason: 'Lawyer said so' });
    const off = (await w.api.patch(`/v1/contacts/${c.id}`, { do_not_contact: false })).body.data;
    expect(off).toMatchObject({ do_not_contact: false, do_not_contact_reason: null });
  });
});

describe('GET /v1/contacts', () => {
  it('lists A to Z by display name, without channels, links or jobs, and pages', async () => {
    const w = await t.workspace();
    await contact(w, { name: 'charlie' });
    await contact(w, { company: 'Bravo Paving' });
    await contact(w, { name: 'Alpha' });
    const res = await w.api.get('/v1/contacts?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.display_name)).toEqual(['Alpha', 'Bravo Paving']);
    expect(res.body.pagination).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(res.body.data[0]).not.toHaveProperty('channels');
    expect(res.body.data[0]).not.toHaveProperty('links');
    const page2 = await w.api.get('/v1/contacts?limit=2&offset=2');
    expect(page2.body.data.map((c: any) => c.display_name)).toEqual(['charlie']);
    expect((await w.api.get('/v1/contacts?limit=201')).status).toBe(400);
  });

  it('q searches name, email, phone, company and title in any case', async () => {
    const w = await t.workspace();
    await contact(w, { name: 'Zoë Ångström', title: 'Treasurer' });
    await contact(w, { name: 'Other', email: 'finder@Example.org', phone: '555-987-6543', company: 'Hidden Gem LLC' });
    const names = async (q: string) =>
      (await w.api.get(`/v1/contacts?q=${encodeURIComponent(q)}`)).body.data.map((c: any) => c.name);
    expect(await names('ÅNGSTRÖM')).toEqual(['Zoë Ångström']);
    expect(await names('treas')).toEqual(['Zoë Ångström']);
    expect(await names('FINDER@')).toEqual(['Other']);
    expect(await names('987-65')).toEqual(['Other']);
    expect(await names('5559876')).toEqual(['Other']);
    expect(await names('gem')).toEqual(['Other']);
    expect(await names('100%')).toEqual([]);
  });

  it("email matches any of the person's emails exactly, in any case", async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Two Emails', email: 'first@x.com' });
    await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'Second@X.com' });
    await contact(w, { name: 'Near miss', email: 'second@x.co' });
    const ids = async (email: string) =>
      (await w.api.get(`/v1/contacts?email=${encodeURIComponent(email)}`)).body.data.map((r: any) => r.id);
    expect(await ids('SECOND@x.com')).toEqual([c.id]);
    expect(await ids('first@X.COM')).toEqual([c.id]);
    expect(await ids('second@x')).toEqual([]);
  });

  it('filters by client_account_id, job_id, contact_type and include_archived', async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'Filter Co' })).body.data;
    const primary = await contact(w, { name: 'Primary', client_account_id: acct.id, contact_type: 'Owner' });
    const linked = await contact(w, { name: 'Linked', contact_type: 'owner' });
    await w.api.post(`/v1/contacts/${linked.id}/links`, {
      client_account_id: acct.id,
      roles: ['billing'],
      is_primary: false,
    });
    const ended = await contact(w, { name: 'Ended' });
    await w.api.post(`/v1/contacts/${ended.id}/links`, { client_account_id: acct.id });
    await w.api.delete(`/v1/contacts/${ended.id}/links/company/${acct.id}?end=true`);
    const archived = await contact(w, { name: 'Archived', contact_type: 'Owner' });
    await w.api.delete(`/v1/contacts/${archived.id}`);
    const j = await job(w, { name: 'Filter job' });
    await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: linked.id });

    const names = async (qs: string) => (await w.api.get(`/v1/contacts?${qs}`)).body.data.map((c: any) => c.name);
    expect(await names(`client_account_id=${acct.id}`)).toEqual(['Linked', 'Primary']);
    expect(await names(`job_id=${j.id}`)).toEqual(['Linked']);
    expect(await names('contact_type=OWNER')).toEqual(['Linked', 'Primary']);
    expect(await names('contact_type=owner&include_archived=true')).toEqual(['Archived', 'Linked', 'Primary']);
  });

  it('job_id shows nothing for a job the user cannot see', async () => {
    const w = await t.workspace();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const j = await job(w, { name: 'Not yours' });
    const c = await contact(w, { name: 'On job' });
    await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: c.id });
    expect((await own.api.get(`/v1/contacts?job_id=${j.id}`)).body.data).toEqual([]);
    expect((await own.api.get(`/v1/contacts/${c.id}`)).body.data.jobs).toEqual([]);
    expect((await w.api.get(`/v1/contacts/${c.id}`)).body.data.jobs).toHaveLength(1);
  });

  it('updated_after lists oldest change first; a bad one is 400', async () => {
    const w = await t.workspace();
    const a = await contact(w, { name: 'Aaa' });
    const b = await contact(w, { name: 'Bbb' });
    const c = await contact(w, { name: 'Ccc' });
    const at = (id: number, ts: string) =>
      t.database.db.updateTable('contacts').set({ updated_at: ts }).where('id', '=', id).execute();
    await at(a.id, '2026-03-01T00:00:03.000000');
    await at(b.id, '2026-03-01T00:00:01.000000');
    await at(c.id, '2026-03-01T00:00:02.000000');
    const res = await w.api.get(`/v1/contacts?updated_after=${encodeURIComponent('2026-03-01T00:00:01Z')}`);
    expect(res.body.data.map((r: any) => r.name)).toEqual(['Ccc', 'Aaa']);
    await w.api.patch(`/v1/contacts/${c.id}`, { title: 'Changed' });
    // Rows of the running second are held back from updated_after lists until it ends (platform/sync.ts).
    advanceClock(1000);
    const again = await w.api.get(`/v1/contacts?updated_after=${encodeURIComponent('2026-03-01T00:00:02Z')}`);
    expect(again.body.data.map((r: any) => r.name)).toEqual(['Aaa', 'Ccc']);
    const bad = await w.api.get('/v1/contacts?updated_after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('updated_after must be an ISO 8601 timestamp');
  });

  it("never shows another workspace's people", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    await contact(other, { name: 'Secret', email: 'secret@x.com' });
    expect((await w.api.get('/v1/contacts?q=Secret')).body.data).toEqual([]);
    expect((await w.api.get('/v1/contacts?email=secret@x.com')).body.data).toEqual([]);
  });
});

describe('DELETE /v1/contacts/{id} and restore', () => {
  it('archives by default (drops out of the list); restore brings it back', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Temp' });
    const del = await w.api.delete(`/v1/contacts/${c.id}`);
    expect(del.status).toBe(204);
    expect((await w.api.get('/v1/contacts')).body.data).toEqual([]);
    // Document 1, retry rules: a second delete is 404 (treat as done); the person stays archived.
    const again = await w.api.delete(`/v1/contacts/${c.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'Contact not found', code: 'already_archived' });
    expect((await w.api.get(`/v1/contacts/${c.id}`)).body.data.archived_at).not.toBeNull();
    const restored = await w.api.post(`/v1/contacts/${c.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id: c.id, archived_at: null, channels: [], links: [], jobs: [] });
    expect((await w.api.get('/v1/contacts')).body.data.map((r: any) => r.id)).toEqual([c.id]);
    expect((await w.api.delete(`/v1/contacts/${c.id}`)).status).toBe(204);
  });

  it('an archived person can still be deleted for good; a second hard delete is 404', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Archived First' });
    expect((await w.api.delete(`/v1/contacts/${c.id}`)).status).toBe(204);
    expect((await w.api.delete(`/v1/contacts/${c.id}?hard=true`)).status).toBe(204);
    expect((await w.api.get(`/v1/contacts/${c.id}`)).status).toBe(404);
    const again = await w.api.delete(`/v1/contacts/${c.id}?hard=true`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'Contact not found' });
    expect((await w.api.delete(`/v1/contacts/${c.id}`)).status).toBe(404);
  });

  it('hard=true deletes permanently: jobs keep their contact fields, people-on-job rows and notes go', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Gone Soon', email: 'gone@x.com', company: 'Gone Co' });
    const j = await job(w, { name: 'Keeps fields' });
    await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: c.id, role: 'billing' });
    const at = '2026-01-01T00:00:00.000000';
    await t.database.db
      .insertInto('notes')
      .values({
        firm_id: w.firmId,
        job_id: null,
        contact_id: c.id,
        client_account_id: null,
        type: 'note',
        content: 'bye',
        pinned: 0,
        author_user_id: w.ownerId,
        occurred_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await t.database.db
      .insertInto('tasks')
      .values({
        firm_id: w.firmId,
        job_id: j.id,
        contact_id: c.id,
        title: 'Call',
        task_type: 'call',
        notes: null,
        due_at: null,
        status: 'open',
        assigned_to_user_id: w.ownerId,
        created_by_user_id: w.ownerId,
        completed_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();

    const del = await w.api.delete(`/v1/contacts/${c.id}?hard=true`);
    expect(del.status).toBe(204);
    expect((await w.api.get(`/v1/contacts/${c.id}`)).status).toBe(404);
    const after = (await w.api.get(`/v1/jobs/${j.id}`)).body.data;
    expect(after).toMatchObject({ contact_name: 'Gone Soon', contact_email: 'gone@x.com' });
    expect((await w.api.get(`/v1/jobs/${j.id}/details`)).body.data.linked_contact_id).toBeNull();
    expect((await w.api.get(`/v1/jobs/${j.id}/contacts`)).body.data).toEqual([]);
    const notes = await t.database.db.selectFrom('notes').select('id').where('contact_id', '=', c.id).execute();
    expect(notes).toEqual([]);
    const task = await t.database.db
      .selectFrom('tasks')
      .select('contact_id')
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(task.contact_id).toBeNull();
    const channels = await t.database.db
      .selectFrom('contact_channels')
      .select('id')
      .where('contact_id', '=', c.id)
      .execute();
    expect(channels).toEqual([]);
    expect((await w.api.get(`/v1/client-accounts/${c.client_account_id}`)).status).toBe(200);
  });

  it('DELETE, hard or archiving: 403 when the workspace locks deletion; hard: 403 for a crew login', async () => {
    const locked = await t.workspace({ settings: { deletion_locked: true } });
    const c = await contact(locked, { name: 'Locked' });
    const hard = await locked.api.delete(`/v1/contacts/${c.id}?hard=true`);
    expect(hard.status).toBe(403);
    expect(hard.body).toMatchObject({ error: 'Deletion locked', deletion_locked: true });
    // Archiving is a DELETE that needs Delete records too: the lock refuses it (document 1: "403 on deletions").
    const archive = await locked.api.delete(`/v1/contacts/${c.id}`);
    expect(archive.status).toBe(403);
    expect(archive.body).toMatchObject({ error: 'Deletion locked', deletion_locked: true });
    expect((await locked.api.get(`/v1/contacts/${c.id}`)).body.data.archived_at).toBeNull();

    const w = await t.workspace();
    const crew = await t.user(w.firmId, { role: 'crew' });
    const d = await contact(w, { name: 'Crew cannot' });
    const res = await crew.api.delete(`/v1/contacts/${d.id}?hard=true`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Office user required');
    expect((await w.api.get(`/v1/contacts/${d.id}`)).status).toBe(200);
  });

  it("a key without delete_records is 403; another workspace's person is 404", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const writer = await t.user(w.firmId, { role: 'member' }, ['read_jobs', 'write_jobs']);
    const c = await contact(w, { name: 'Guarded' });
    expect((await writer.api.delete(`/v1/contacts/${c.id}`)).status).toBe(403);
    for (const path of [`/v1/contacts/${c.id}`, `/v1/contacts/${c.id}?hard=true`]) {
      const res = await other.api.delete(path);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Contact not found');
    }
    const restore = await other.api.post(`/v1/contacts/${c.id}/restore`);
    expect(restore.status).toBe(404);
  });
});
