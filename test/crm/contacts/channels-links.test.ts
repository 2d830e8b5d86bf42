// A person's channels (phones and emails) and links (companies and sites with roles): document 2,
// Contacts endpoints and the Errors rows for channels and links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { created, contactVia as contact } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const addChannel = (w: Workspace, id: number, body: Record<string, unknown>) =>
  created(w, `/v1/contacts/${id}/channels`, body);

const read = async (w: Workspace, id: number) =>
  (await w.api.get(`/v1/contacts/${id}`)).body.data as Record<string, any>;

describe('POST /v1/contacts/{id}/channels', () => {
  it('formats phones: US 10 digits, 11 starting with 1, international with + kept readable', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Phones' });
    const cases: [string, string][] = [
      ['555.123.4567', '(555) 123-4567'],
      ['1-555-222-3333', '+1 (555) 222-3333'],
      ['+1 555 444 5555', '+1 (555) 444-5555'],
      ['+44  20 7946   0958', '+44 20 7946 0958'],
      ['+353 1 234 5678', '+353 1 234 5678'],
    ];
    for (const [typed, stored] of cases) {
      const ch = await addChannel(w, c.id, { kind: 'phone', value: typed });
      expect(ch.value).toBe(stored);
    }
  });

  it('answers {data: channel}; the first of each kind is primary; labels default by kind', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'First' });
    const phone = await addChannel(w, c.id, { kind: 'phone', value: '5551230000' });
    expect(phone).toEqual({
      id: expect.any(Number),
      ref: String(phone.id),
      kind: 'phone',
      label: 'mobile',
      value: '(555) 123-0000',
      is_primary: true,
      do_not_contact: false,
    });
    const email = await addChannel(w, c.id, { kind: 'email', value: 'first@x.com' });
    expect(email).toMatchObject({ kind: 'email', label: 'work', is_primary: true });
    const second = await addChannel(w, c.id, { kind: 'phone', value: '5551230001', label: 'Office' });
    expect(second).toMatchObject({ label: 'office', is_primary: false });
    const after = await read(w, c.id);
    expect(after).toMatchObject({ phone: '(555) 123-0000', email: 'first@x.com' });
    expect(after.updated_at >= c.updated_at).toBe(true);
  });

  it('is_primary true takes over the primary and the contact mirrors it', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Swap', email: 'old@x.com' });
    const ch = await addChannel(w, c.id, { kind: 'email', value: 'new@x.com', is_primary: true });
    expect(ch.is_primary).toBe(true);
    const after = await read(w, c.id);
    expect(after.email).toBe('new@x.com');
    expect(after.channels.filter((x: any) => x.kind === 'email').map((x: any) => [x.value, x.is_primary])).toEqual([
      ['new@x.com', true],
      ['old@x.com', false],
    ]);
  });

  it('400 kind must be phone or email (missing or wrong)', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'K' });
    for (const body of [{ value: '5551234567' }, { kind: 'fax', value: '5551234567' }]) {
      const res = await w.api.post(`/v1/contacts/${c.id}/channels`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('kind must be phone or email');
    }
  });

  it("400 That email doesn't look right.; 400 Type the whole phone number.; value required; bad label", async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'V' });
    const email = await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'nope@' });
    expect(email.status).toBe(400);
    expect(email.body.error).toBe("That email doesn't look right.");
    for (const value of ['555-1234', '+44 1234']) {
      const phone = await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'phone', value });
      expect(phone.status).toBe(400);
      expect(phone.body.error).toBe('Type the whole phone number.');
    }
    expect((await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'phone' })).body.error).toBe('value is required');
    const label = await w.api.post(`/v1/contacts/${c.id}/channels`, {
      kind: 'phone',
      value: '5551234567',
      label: 'pager',
    });
    expect(label.status).toBe(400);
    expect(label.body.error).toBe('label must be one of mobile, work, office, home, fax, other');
    expect((await read(w, c.id)).channels).toEqual([]);
  });

  it('409 That one is already on file. for the same email (any case) or the same phone digits', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Dup', email: 'dup@x.com', phone: '5550001111' });
    const email = await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: ' DUP@X.com ' });
    expect(email.status).toBe(409);
    expect(email.body).toMatchObject({ error: 'That one is already on file.', channel: { value: 'dup@x.com' } });
    const phone = await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'phone', value: '(555) 000-1111' });
    expect(phone.status).toBe(409);
    expect(phone.body.error).toBe('That one is already on file.');
    // Another person may share it.
    const other = await contact(w, { name: 'Other' });
    expect((await w.api.post(`/v1/contacts/${other.id}/channels`, { kind: 'email', value: 'dup@x.com' })).status).toBe(
      201,
    );
  });

  it("404 Contact not found for another workspace's person; 403 read-only key", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const c = await contact(w, { name: 'Mine' });
    const res = await other.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'x@y.com' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Contact not found');
    const reader = await t.user(w.firmId, { role: 'member' }, ['read_jobs']);
    expect((await reader.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'x@y.com' })).status).toBe(
      403,
    );
  });
});

describe('PATCH and DELETE /v1/contacts/{id}/channels/{ref}', () => {
  it('changes value, label, do_not_contact and is_primary; the contact mirrors the primary', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Edit', phone: '5551000000' });
    const second = await addChannel(w, c.id, { kind: 'phone', value: '5552000000' });
    const res = await w.api.patch(`/v1/contacts/${c.id}/channels/${second.ref}`, {
      value: '555 300 0000',
      label: 'home',
      do_not_contact: true,
      is_primary: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: second.id,
      ref: second.ref,
      kind: 'phone',
      label: 'home',
      value: '(555) 300-0000',
      is_primary: true,
      do_not_contact: true,
    });
    const after = await read(w, c.id);
    expect(after.phone).toBe('(555) 300-0000');
    expect(after.channels.map((x: any) => [x.value, x.is_primary])).toEqual([
      ['(555) 300-0000', true],
      ['(555) 100-0000', false],
    ]);
  });

  it('accepts v-<kind>-<n> refs (n-th of the kind, primary first)', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Refs', email: 'a@x.com' });
    await addChannel(w, c.id, { kind: 'email', value: 'b@x.com' });
    const res = await w.api.patch(`/v1/contacts/${c.id}/channels/v-email-1`, { label: 'home' });
    expect(res.body.data).toMatchObject({ value: 'b@x.com', label: 'home' });
    expect((await w.api.patch(`/v1/contacts/${c.id}/channels/v-email-5`, { label: 'home' })).status).toBe(404);
    expect((await w.api.patch(`/v1/contacts/${c.id}/channels/whatever`, { label: 'home' })).body.error).toBe(
      'Channel not found',
    );
  });

  it('is_primary false on the primary hands it to the next; a lone entry stays primary', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Hand over', phone: '5554440000' });
    const lone = await w.api.patch(`/v1/contacts/${c.id}/channels/${c.channels[0].ref}`, { is_primary: false });
    expect(lone.body.data.is_primary).toBe(true);
    const next = await addChannel(w, c.id, { kind: 'phone', value: '5554440001' });
    const res = await w.api.patch(`/v1/contacts/${c.id}/channels/${c.channels[0].ref}`, { is_primary: false });
    expect(res.body.data.is_primary).toBe(false);
    const after = await read(w, c.id);
    expect(after.phone).toBe(next.value);
  });

  it('a changed value is re-checked: bad email 400, duplicate 409', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Check', email: 'a@x.com' });
    const b = await addChannel(w, c.id, { kind: 'email', value: 'b@x.com' });
    expect((await w.api.patch(`/v1/contacts/${c.id}/channels/${b.ref}`, { value: 'bad' })).body.error).toBe(
      "That email doesn't look right.",
    );
    const dup = await w.api.patch(`/v1/contacts/${c.id}/channels/${b.ref}`, { value: 'A@X.COM' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('That one is already on file.');
    expect((await w.api.raw.patch(`/v1/contacts/${c.id}/channels/${b.ref}`, { kind: 'phone' })).body.code).toBe(
      'unknown_fields',
    );
  });

  it('delete answers 204 and the next of that kind becomes primary; the last one leaves the field null', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Del', email: 'one@x.com' });
    const two = await addChannel(w, c.id, { kind: 'email', value: 'two@x.com' });
    await addChannel(w, c.id, { kind: 'email', value: 'three@x.com' });
    const first = (await read(w, c.id)).channels.find((x: any) => x.value === 'one@x.com');
    expect((await w.api.delete(`/v1/contacts/${c.id}/channels/${first.ref}`)).status).toBe(204);
    let after = await read(w, c.id);
    expect(after.email).toBe('two@x.com');
    expect(after.channels.find((x: any) => x.id === two.id).is_primary).toBe(true);
    for (const ch of after.channels)
      expect((await w.api.delete(`/v1/contacts/${c.id}/channels/${ch.ref}`)).status).toBe(204);
    after = await read(w, c.id);
    expect(after).toMatchObject({ email: null, channels: [] });
    expect((await w.api.delete(`/v1/contacts/${c.id}/channels/${two.ref}`)).status).toBe(404);
  });

  it('another workspace cannot edit or delete a channel (404)', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const c = await contact(w, { name: 'Safe', email: 'safe@x.com' });
    const ref = c.channels[0].ref;
    expect((await other.api.patch(`/v1/contacts/${c.id}/channels/${ref}`, { label: 'home' })).status).toBe(404);
    expect((await other.api.delete(`/v1/contacts/${c.id}/channels/${ref}`)).status).toBe(404);
    expect((await read(w, c.id)).email).toBe('safe@x.com');
  });
});

describe('links: POST /v1/contacts/{id}/links, DELETE .../links/{kind}/{target_id}', () => {
  async function site(w: Workspace, address: string) {
    const res = await w.api.post('/v1/locations', { address });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Record<string, any>;
  }

  it("201 with every link; the first company becomes primary and the contact's company", async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'Link Co' })).body.data;
    const s = await site(w, '12 Elm St');
    const c = await contact(w, { name: 'Linker' });
    const res = await w.api.post(`/v1/contacts/${c.id}/links`, {
      client_account_id: acct.id,
      roles: ['billing', 'decision_maker'],
      started_on: '2025-01-15',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual([
      {
        kind: 'company',
        id: acct.id,
        name: 'Link Co',
        roles: ['decision_maker', 'billing'],
        is_primary: true,
        current: true,
        started_on: '2025-01-15',
        ended_on: null,
      },
    ]);
    const both = await w.api.post(`/v1/contacts/${c.id}/links`, { location_id: s.id, roles: ['site_contact'] });
    expect(both.body.data.map((l: any) => [l.kind, l.id, l.name])).toEqual([
      ['company', acct.id, 'Link Co'],
      ['location', s.id, s.name],
    ]);
    const after = await read(w, c.id);
    expect(after).toMatchObject({
      client_account_id: acct.id,
      company: 'Link Co',
      client_account: { id: acct.id, name: 'Link Co' },
    });
  });

  it('the same target again replaces roles; empty roles means works with them', async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'Again Co' })).body.data;
    const c = await contact(w, { name: 'Again' });
    await w.api.post(`/v1/contacts/${c.id}/links`, { client_account_id: acct.id, roles: ['billing'] });
    const res = await w.api.post(`/v1/contacts/${c.id}/links`, { client_account_id: acct.id, roles: [] });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ roles: [], is_primary: true, current: true });
  });

  it('400 Send exactly one of client_account_id or location_id; 400 naming unknown roles', async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'One Co' })).body.data;
    const s = await site(w, '1 One St');
    const c = await contact(w, { name: 'One' });
    for (const body of [{}, { client_account_id: acct.id, location_id: s.id }, { roles: ['billing'] }]) {
      const res = await w.api.post(`/v1/contacts/${c.id}/links`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Send exactly one of client_account_id or location_id');
    }
    const roles = await w.api.post(`/v1/contacts/${c.id}/links`, {
      client_account_id: acct.id,
      roles: ['billing', 'janitor', 'Boss'],
    });
    expect(roles.status).toBe(400);
    expect(roles.body).toMatchObject({
      error: 'Unknown roles: janitor, boss',
      code: 'unknown_roles',
      roles: ['janitor', 'boss'],
    });
    expect((await read(w, c.id)).links).toEqual([]);
  });

  it("404 for another workspace's customer, site or person", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirAcct = (await other.api.post('/v1/client-accounts', { name: 'Their Co' })).body.data;
    const theirSite = (await other.api.post('/v1/locations', { address: '9 Their St' })).body.data;
    const c = await contact(w, { name: 'Mine' });
    const acct = await w.api.post(`/v1/contacts/${c.id}/links`, { client_account_id: theirAcct.id });
    expect(acct.status).toBe(404);
    expect(acct.body.error).toBe('client_account_id not found in this workspace');
    const loc = await w.api.post(`/v1/contacts/${c.id}/links`, { location_id: theirSite.id });
    expect(loc.status).toBe(404);
    expect(loc.body.error).toBe('location_id not found in this workspace');
    const person = await other.api.post(`/v1/contacts/${c.id}/links`, { client_account_id: theirAcct.id });
    expect(person.status).toBe(404);
    expect(person.body.error).toBe('Contact not found');
    expect((await other.api.delete(`/v1/contacts/${c.id}/links/company/${theirAcct.id}`)).status).toBe(404);
  });

  it('is_primary on another company moves the primary company; the old link stays current', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Mover', company: 'Old Co' });
    const next = (await w.api.post('/v1/client-accounts', { name: 'New Co' })).body.data;
    const res = await w.api.post(`/v1/contacts/${c.id}/links`, {
      client_account_id: next.id,
      is_primary: true,
      roles: ['board_member'],
    });
    expect(res.body.data.map((l: any) => [l.name, l.is_primary])).toEqual([
      ['New Co', true],
      ['Old Co', false],
    ]);
    expect(await read(w, c.id)).toMatchObject({ client_account_id: next.id, company: 'New Co' });
  });

  it('?end=true keeps the link as history ended today; ended_on picks the date; the primary company clears', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Leaver', company: 'Past Co' });
    const s = (await w.api.post('/v1/locations', { address: '5 Past St' })).body.data;
    await w.api.post(`/v1/contacts/${c.id}/links`, { location_id: s.id, started_on: '2024-01-01' });
    const end = await w.api.delete(`/v1/contacts/${c.id}/links/company/${c.client_account_id}?end=true`);
    expect(end.status).toBe(204);
    const before = await w.api.delete(`/v1/contacts/${c.id}/links/location/${s.id}?ended_on=2023-12-31`);
    expect(before.status).toBe(400);
    expect(
      (await w.api.delete(`/v1/contacts/${c.id}/links/location/${s.id}?end=true&ended_on=2025-06-30`)).status,
    ).toBe(204);
    const after = await read(w, c.id);
    const today = new Date().toISOString().slice(0, 10);
    expect(after).toMatchObject({ client_account_id: null, company: null });
    expect(after.links).toEqual([
      {
        kind: 'company',
        id: c.client_account_id,
        name: 'Past Co',
        roles: [],
        is_primary: false,
        current: false,
        started_on: null,
        ended_on: today,
      },
      {
        kind: 'location',
        id: s.id,
        name: s.name,
        roles: [],
        is_primary: false,
        current: false,
        started_on: '2024-01-01',
        ended_on: '2025-06-30',
      },
    ]);
    // Ending again finds no current link; linking again starts a new current one beside the history.
    expect((await w.api.delete(`/v1/contacts/${c.id}/links/company/${c.client_account_id}?end=true`)).status).toBe(404);
    const again = await w.api.post(`/v1/contacts/${c.id}/links`, { client_account_id: c.client_account_id });
    expect(again.body.data.filter((l: any) => l.kind === 'company').map((l: any) => l.current)).toEqual([true, false]);
  });

  it('without end the link is removed (history too); a missing link is 404', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Remover', company: 'Gone Co' });
    expect((await w.api.delete(`/v1/contacts/${c.id}/links/company/${c.client_account_id}`)).status).toBe(204);
    const after = await read(w, c.id);
    expect(after).toMatchObject({ links: [], client_account_id: null, company: null });
    const missing = await w.api.delete(`/v1/contacts/${c.id}/links/company/${c.client_account_id}`);
    expect(missing.status).toBe(404);
    expect((await w.api.delete(`/v1/contacts/${c.id}/links/team/${c.client_account_id}`)).status).toBe(404);
  });
});
