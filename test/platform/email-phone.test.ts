// One rule per kind of value (platform/email-phone.ts), on every route that takes one: an email
// must look like something@domain.tld, a phone must be a whole number (10 to 15 digits, 8 with a
// leading +) and is stored formatted. Refusals are 400 naming the field; nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
let w: Workspace;
beforeAll(async () => {
  t = await startApp();
  w = await t.workspace();
});
afterAll(() => t.close());

const BAD_EMAILS = ['not an email', 'a@b', 'bad@', '@x.com'];
const BAD_PHONES = [
  ['12', 'Type the whole phone number.'],
  ['555-0100', 'Type the whole phone number.'],
  ['1234567890123456', 'That phone number has too many digits.'],
] as const;

describe('customers', () => {
  it('POST and PATCH /v1/client-accounts refuse a bad email or phone and store phones formatted', async () => {
    const c = (
      await w.api.post('/v1/client-accounts', { name: 'Valid Co', email: ' ap@valid.test ', phone: '555 123 4567' })
    ).body.data;
    expect(c).toMatchObject({ email: 'ap@valid.test', phone: '(555) 123-4567' });
    for (const email of BAD_EMAILS) {
      const patched = await w.api.patch(`/v1/client-accounts/${c.id}`, { email });
      expect(patched.status, email).toBe(400);
      expect(patched.body, email).toMatchObject({
        error: 'email does not look like an email address',
        code: 'invalid_email',
        field: 'email',
      });
      expect((await w.api.post('/v1/client-accounts', { name: `Bad ${email}`, email })).status, email).toBe(400);
    }
    for (const [phone, error] of BAD_PHONES) {
      const patched = await w.api.patch(`/v1/client-accounts/${c.id}`, { phone });
      expect(patched.status, phone).toBe(400);
      expect(patched.body, phone).toMatchObject({ error, code: 'invalid_phone', field: 'phone' });
    }
    expect((await w.api.get(`/v1/client-accounts/${c.id}`)).body.data).toMatchObject({
      email: 'ap@valid.test',
      phone: '(555) 123-4567',
    });
    expect((await w.api.get('/v1/client-accounts')).body.pagination.total).toBe(1);
    // Blank clears, as for every other text field.
    expect((await w.api.patch(`/v1/client-accounts/${c.id}`, { phone: '  ' })).body.data.phone).toBeNull();
  });
});

describe('contacts', () => {
  it('POST /v1/contacts refuses "phone": "12" as adding a channel does', async () => {
    const before = (await w.api.get('/v1/contacts')).body.pagination.total;
    const res = await w.api.post('/v1/contacts', { name: 'Short Phone', phone: '12' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Type the whole phone number.', field: 'phone' });
    expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(before);

    const c = (await w.api.post('/v1/contacts', { name: 'Whole Phone', phone: '5551234567' })).body.data;
    expect(c.phone).toBe('(555) 123-4567');
    const channel = await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'phone', value: '12' });
    expect(channel.body).toMatchObject({ error: 'Type the whole phone number.', field: 'value' });
    const patched = await w.api.patch(`/v1/contacts/${c.id}`, { phone: '12' });
    expect(patched.status).toBe(400);
    expect(patched.body.field).toBe('phone');
    expect((await w.api.get(`/v1/contacts/${c.id}`)).body.data.phone).toBe('(555) 123-4567');
  });

  it('a new person put on a job follows the same rules, even when the email finds a saved person', async () => {
    const job = (await w.api.post('/v1/jobs', { name: 'People job' })).body.data;
    await w.api.post('/v1/contacts', { name: 'Saved', email: 'saved@x.test' });
    for (const body of [
      { name: 'New', phone: '12' },
      { name: 'Saved', email: 'saved@x.test', phone: '12' },
      { name: 'New', email: 'a@b' },
    ]) {
      const res = await w.api.post(`/v1/jobs/${job.id}/contacts`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await w.api.get(`/v1/jobs/${job.id}/contacts`)).body.data).toEqual([]);
  });
});

describe('jobs', () => {
  it("a job's contact_email, bill_to_email and contact_phone follow the same rules", async () => {
    const total = (await w.api.get('/v1/jobs')).body.pagination.total;
    for (const [field, value] of [
      ['contact_email', 'not an email'],
      ['bill_to_email', 'a@b'],
      ['contact_phone', '12'],
    ] as const) {
      const res = await w.api.post('/v1/jobs', { name: `Bad ${field}`, [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body.field, field).toBe(field);
    }
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(total);
    const ok = await w.api.post('/v1/jobs', {
      name: 'Good contact',
      contact_email: 'jo@x.test',
      contact_phone: '+1 555 123 4567',
    });
    expect(ok.body.data).toMatchObject({ contact_email: 'jo@x.test', contact_phone: '+1 (555) 123-4567' });
    const patched = await w.api.patch(`/v1/jobs/${ok.body.data.id}`, { contact_phone: '555-0100' });
    expect(patched.status).toBe(400);
  });
});

describe('admin API users', () => {
  it('a user email follows the same rule and a phone_number the phone rule', async () => {
    const bad = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/users`, { name: 'Ann', email: 'ann@localhost' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('email');
    const phone = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/users`, {
      name: 'Ann',
      email: 'ann@x.test',
      phone_number: '12',
    });
    expect(phone.status).toBe(400);
    expect(phone.body).toMatchObject({ code: 'invalid_phone', field: 'phone_number' });
    const ok = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/users`, {
      name: 'Ann',
      email: 'ann@x.test',
      phone_number: '5559876543',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.phone_number).toBe('(555) 987-6543');
    const patched = await t.admin.patch(`/admin/v1/workspaces/${w.firmId}/users/${ok.body.data.id}`, {
      phone_number: '12',
    });
    expect(patched.status).toBe(400);
  });
});
