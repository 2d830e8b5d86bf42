// People on a job (GET/POST /v1/jobs/{job_id}/contacts), a company's people
// (GET /v1/client-accounts/{id}/contacts), the jobs on a person, and a person's changes reaching
// the jobs they are the main contact of (document 2, Contacts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { created, contactVia as contact, job } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const addPerson = (w: Workspace, jobId: number, body: Record<string, unknown>) =>
  created(w, `/v1/jobs/${jobId}/contacts`, body);

const getJob = async (w: Workspace, id: number) => (await w.api.get(`/v1/jobs/${id}`)).body.data as Record<string, any>;

describe('POST /v1/jobs/{job_id}/contacts', () => {
  it('the first person becomes primary, fills the job contact fields and links the job to their company', async () => {
    const w = await t.workspace();
    const c = await contact(w, {
      name: 'Jo Park',
      email: 'jo@park.com',
      phone: '5557778888',
      company: 'Park HOA',
      title: 'Chair',
    });
    const j = await job(w, { name: 'Lot reseal' });
    const res = await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: c.id, role: 'decision_maker' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      created: true,
      data: {
        contact_id: c.id,
        job_id: j.id,
        role: 'decision_maker',
        is_primary: true,
        bills_separately: false,
        created_at: expect.stringMatching(/Z$/),
        contact: {
          id: c.id,
          name: 'Jo Park',
          display_name: 'Jo Park',
          title: 'Chair',
          contact_type: null,
          email: 'jo@park.com',
          phone: '(555) 777-8888',
          client_account_id: c.client_account_id,
          archived_at: null,
          updated_at: expect.any(String),
        },
      },
    });
    const after = await getJob(w, j.id);
    expect(after).toMatchObject({
      contact_name: 'Jo Park',
      contact_email: 'jo@park.com',
      contact_phone: '(555) 777-8888',
      client_account_id: c.client_account_id,
      company: 'Park HOA',
    });
    expect((await w.api.get(`/v1/jobs/${j.id}/details`)).body.data.linked_contact_id).toBe(c.id);
    const events = await eventsOf(t.database, j.id);
    expect(events.some((e) => e.event_type === 'job_updated')).toBe(true);
    const log = await t.database.db.selectFrom('job_activity').selectAll().where('job_id', '=', j.id).execute();
    expect(log.map((l) => l.kind)).toEqual(['contact_added']);
    expect(JSON.parse(log[0].data)).toMatchObject({ contact_id: c.id, is_primary: true });
  });

  it('a job that has a customer keeps it; the second person is not primary and leaves the job contact alone', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Has customer', company: 'Job Co' });
    const first = await contact(w, { name: 'First', email: 'first@x.com', company: 'Person Co' });
    const second = await contact(w, { name: 'Second', email: 'second@x.com' });
    await addPerson(w, j.id, { contact_id: first.id });
    const entry = await addPerson(w, j.id, { contact_id: second.id, role: 'billing', bills_separately: true });
    expect(entry).toMatchObject({ is_primary: false, role: 'billing', bills_separately: true });
    const after = await getJob(w, j.id);
    expect(after).toMatchObject({ company: 'Job Co', contact_name: 'First', contact_email: 'first@x.com' });
    expect(after.client_account_id).not.toBe(first.client_account_id);
  });

  it('creates a new person from name/email/phone/company (an email already on file is that person)', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'New person job' });
    const created = await addPerson(w, j.id, {
      name: 'Fresh Face',
      email: 'fresh@x.com',
      phone: '5553334444',
      company: 'Fresh Co',
      role: 'onsite',
    });
    expect(created.contact).toMatchObject({ name: 'Fresh Face', email: 'fresh@x.com', phone: '(555) 333-4444' });
    const person = (await w.api.get(`/v1/contacts/${created.contact_id}`)).body.data;
    expect(person).toMatchObject({
      company: 'Fresh Co',
      jobs: [
        {
          job_id: j.id,
          name: 'New person job',
          status: 'lead',
          role: 'onsite',
          is_primary: true,
          bills_separately: false,
        },
      ],
    });
    const j2 = await job(w, { name: 'Second job' });
    const reused = await addPerson(w, j2.id, { name: 'Typo Name', email: 'FRESH@x.com' });
    expect(reused.contact_id).toBe(created.contact_id);
    expect((await w.api.get('/v1/contacts')).body.pagination.total).toBe(1);
  });

  it('adding someone already on the job updates role and flags (200, created false); is_primary moves the primary', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Update job' });
    const a = await contact(w, { name: 'Alpha', email: 'alpha@x.com' });
    const b = await contact(w, { name: 'Beta', email: 'beta@x.com' });
    await addPerson(w, j.id, { contact_id: a.id });
    await addPerson(w, j.id, { contact_id: b.id, role: 'billing' });
    const res = await w.api.post(`/v1/jobs/${j.id}/contacts`, {
      contact_id: b.id,
      role: 'estimator',
      is_primary: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: false, data: { contact_id: b.id, role: 'estimator', is_primary: true } });
    const people = (await w.api.get(`/v1/jobs/${j.id}/contacts`)).body.data;
    expect(people.map((p: any) => [p.contact.name, p.is_primary])).toEqual([
      ['Beta', true],
      ['Alpha', false],
    ]);
    expect(await getJob(w, j.id)).toMatchObject({ contact_name: 'Beta', contact_email: 'beta@x.com' });
    const log = await t.database.db.selectFrom('job_activity').select('kind').where('job_id', '=', j.id).execute();
    expect(log).toHaveLength(2);
  });

  it('is_primary false keeps a first person off the main contact; a job whose primary was deleted takes the next one added', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Typed contact', contact_name: 'Typed Person' });
    const billing = await contact(w, { name: 'Bill Payer', email: 'bill@x.com' });
    const entry = await addPerson(w, j.id, { contact_id: billing.id, role: 'billing', is_primary: false });
    expect(entry.is_primary).toBe(false);
    expect((await getJob(w, j.id)).contact_name).toBe('Typed Person');

    const j2 = await job(w, { name: 'Lost primary' });
    const gone = await contact(w, { name: 'Gone' });
    const stay = await contact(w, { name: 'Stays' });
    await addPerson(w, j2.id, { contact_id: gone.id });
    await addPerson(w, j2.id, { contact_id: stay.id });
    expect((await w.api.delete(`/v1/contacts/${gone.id}?hard=true`)).status).toBe(204);
    expect(
      (await w.api.get(`/v1/jobs/${j2.id}/contacts`)).body.data.map((p: any) => [p.contact.name, p.is_primary]),
    ).toEqual([['Stays', false]]);
    const newcomer = await contact(w, { name: 'Newcomer' });
    expect((await addPerson(w, j2.id, { contact_id: newcomer.id })).is_primary).toBe(true);
    expect((await getJob(w, j2.id)).contact_name).toBe('Newcomer');
  });

  it('400s: no name or email for a new person, contact_id with new-person fields, unknown role, unknown fields', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Errors job' });
    const c = await contact(w, { name: 'Someone' });
    const none = await w.api.post(`/v1/jobs/${j.id}/contacts`, { phone: '5551234567', company: 'Only Co' });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Add at least a name or an email.');
    expect((await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: c.id, name: 'Both' })).status).toBe(400);
    const role = await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: c.id, role: 'janitor' });
    expect(role.status).toBe(400);
    expect(role.body.error).toMatch(/^role must be one of billing, onsite, decision_maker/);
    expect((await w.api.raw.post(`/v1/jobs/${j.id}/contacts`, { contact_id: c.id, notes: 'x' })).body.code).toBe(
      'unknown_fields',
    );
    expect((await w.api.post(`/v1/jobs/${j.id}/contacts`, { name: 'Bad', email: 'bad@' })).body.error).toBe(
      'email does not look like an email address',
    );
    expect((await w.api.get(`/v1/jobs/${j.id}/contacts`)).body.data).toEqual([]);
  });

  it('404 Contact not found for an archived or foreign person; 404 Job not found for a job out of reach', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const j = await job(w, { name: 'Guarded job' });
    const archived = await contact(w, { name: 'Archived' });
    await w.api.delete(`/v1/contacts/${archived.id}`);
    const foreign = await contact(other, { name: 'Foreign' });
    for (const id of [archived.id, foreign.id]) {
      const res = await w.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: id });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Contact not found');
    }
    const mine = await contact(w, { name: 'Mine' });
    const theirJob = await job(other, { name: 'Their job' });
    const res = await w.api.post(`/v1/jobs/${theirJob.id}/contacts`, { contact_id: mine.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const hidden = await own.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: mine.id });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('Job not found');
    const reader = await t.user(w.firmId, { role: 'member' }, ['read_jobs']);
    expect((await reader.api.post(`/v1/jobs/${j.id}/contacts`, { contact_id: mine.id })).status).toBe(403);
  });
});

describe('GET /v1/jobs/{job_id}/contacts', () => {
  it('primary first, then by role, then name; archived people still show', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Order job' });
    const p = await contact(w, { name: 'Zed Primary' });
    const billing = await contact(w, { name: 'Yan Billing' });
    const onsiteB = await contact(w, { name: 'Bob Onsite' });
    const onsiteA = await contact(w, { name: 'Amy Onsite' });
    const noRole = await contact(w, { name: 'Al None' });
    await addPerson(w, j.id, { contact_id: p.id, role: 'other' });
    for (const [c, role] of [
      [noRole, undefined],
      [onsiteB, 'onsite'],
      [billing, 'billing'],
      [onsiteA, 'onsite'],
    ] as const) {
      await addPerson(w, j.id, { contact_id: c.id, ...(role ? { role } : {}) });
    }
    await w.api.delete(`/v1/contacts/${onsiteA.id}`);
    const res = await w.api.get(`/v1/jobs/${j.id}/contacts`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: any) => e.contact.name)).toEqual([
      'Zed Primary',
      'Yan Billing',
      'Amy Onsite',
      'Bob Onsite',
      'Al None',
    ]);
    expect(res.body.data[2].contact.archived_at).toMatch(/Z$/);
  });

  it("404 Job not found for another workspace's job or a job the user cannot see", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = await job(other, { name: 'Theirs' });
    expect((await w.api.get(`/v1/jobs/${theirs.id}/contacts`)).body.error).toBe('Job not found');
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const j = await job(w, { name: 'Owner only' });
    const res = await own.api.get(`/v1/jobs/${j.id}/contacts`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
  });

  it('taking a person off (job-details DELETE) shows in the list and on the person', async () => {
    const w = await t.workspace();
    const j = await job(w, { name: 'Off job' });
    const c = await contact(w, { name: 'Leaving' });
    await addPerson(w, j.id, { contact_id: c.id });
    expect((await w.api.delete(`/v1/jobs/${j.id}/contacts/${c.id}`)).status).toBe(204);
    expect((await w.api.get(`/v1/jobs/${j.id}/contacts`)).body.data).toEqual([]);
    expect((await w.api.get(`/v1/contacts/${c.id}`)).body.data.jobs).toEqual([]);
  });
});

describe("a person's changes reach their jobs", () => {
  it('name, email and phone changes update every job they are the main contact of, not others', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Old Name', email: 'old@x.com', phone: '5550000001' });
    const primaryJob = await job(w, { name: 'Primary here' });
    const linkedJob = await job(w, { name: 'Linked here' });
    const sideJob = await job(w, { name: 'Side role', contact_name: 'Someone Else' });
    await addPerson(w, primaryJob.id, { contact_id: c.id });
    await w.api.patch(`/v1/jobs/${linkedJob.id}/details`, { linked_contact_id: c.id });
    const boss = await contact(w, { name: 'Boss' });
    await addPerson(w, sideJob.id, { contact_id: boss.id });
    await addPerson(w, sideJob.id, { contact_id: c.id, role: 'billing' });

    const res = await w.api.patch(`/v1/contacts/${c.id}`, {
      name: 'New Name',
      email: 'new@x.com',
      phone: '5550000002',
    });
    expect(res.status).toBe(200);
    for (const id of [primaryJob.id, linkedJob.id]) {
      expect(await getJob(w, id)).toMatchObject({
        contact_name: 'New Name',
        contact_email: 'new@x.com',
        contact_phone: '(555) 000-0002',
      });
    }
    expect(await getJob(w, sideJob.id)).toMatchObject({ contact_name: 'Boss' });
    const events = await eventsOf(t.database, primaryJob.id);
    const last = events.filter((e) => e.event_type === 'job_updated').at(-1)!;
    expect(last.data.changed_fields).toEqual(
      expect.arrayContaining(['contact_name', 'contact_email', 'contact_phone']),
    );
  });

  it('a channel edit that changes the primary email reaches the job too', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Chan', email: 'chan@one.com' });
    const j = await job(w, { name: 'Channel job' });
    await addPerson(w, j.id, { contact_id: c.id });
    await w.api.post(`/v1/contacts/${c.id}/channels`, { kind: 'email', value: 'chan@two.com', is_primary: true });
    expect((await getJob(w, j.id)).contact_email).toBe('chan@two.com');
  });

  it('a new company links jobs that have no customer and leaves jobs with one alone', async () => {
    const w = await t.workspace();
    const c = await contact(w, { name: 'Co Changer' });
    const bare = await job(w, { name: 'Bare job' });
    const owned = await job(w, { name: 'Owned job', company: 'Keep Co' });
    await addPerson(w, bare.id, { contact_id: c.id });
    await addPerson(w, owned.id, { contact_id: c.id });
    const updated = (await w.api.patch(`/v1/contacts/${c.id}`, { company: 'Arrived Co' })).body.data;
    expect(await getJob(w, bare.id)).toMatchObject({
      company: 'Arrived Co',
      client_account_id: updated.client_account_id,
    });
    expect(await getJob(w, owned.id)).toMatchObject({ company: 'Keep Co' });
  });
});

describe('GET /v1/client-accounts/{id}/contacts', () => {
  it('lists current people A to Z with their link (roles, primary); ended and archived drop out', async () => {
    const w = await t.workspace();
    const acct = (await w.api.post('/v1/client-accounts', { name: 'People Co' })).body.data;
    const primary = await contact(w, { name: 'Pia Primary', client_account_id: acct.id });
    const linked = await contact(w, { name: 'Leo Linked', company: 'Elsewhere' });
    await w.api.post(`/v1/contacts/${linked.id}/links`, {
      client_account_id: acct.id,
      roles: ['accounts_payable'],
      started_on: '2025-02-01',
    });
    const ended = await contact(w, { name: 'Ed Ended', client_account_id: acct.id });
    await w.api.delete(`/v1/contacts/${ended.id}/links/company/${acct.id}?end=true`);
    const archived = await contact(w, { name: 'Ann Archived', client_account_id: acct.id });
    await w.api.delete(`/v1/contacts/${archived.id}`);

    const res = await w.api.get(`/v1/client-accounts/${acct.id}/contacts`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 2, limit: 50, offset: 0 });
    expect(res.body.data.map((r: any) => r.name)).toEqual(['Leo Linked', 'Pia Primary']);
    expect(res.body.data[0]).toMatchObject({
      id: linked.id,
      company: 'Elsewhere',
      link: {
        kind: 'company',
        id: acct.id,
        name: 'People Co',
        roles: ['accounts_payable'],
        is_primary: false,
        current: true,
        started_on: '2025-02-01',
        ended_on: null,
      },
    });
    expect(res.body.data[1].link).toMatchObject({ is_primary: true, roles: [] });
    const withArchived = await w.api.get(`/v1/client-accounts/${acct.id}/contacts?include_archived=true`);
    expect(withArchived.body.data.map((r: any) => r.name)).toEqual(['Ann Archived', 'Leo Linked', 'Pia Primary']);
  });

  it("404 Client account not found for another workspace's customer", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const theirs = (await other.api.post('/v1/client-accounts', { name: 'Theirs' })).body.data;
    await contact(other, { name: 'Their person', client_account_id: theirs.id });
    const res = await w.api.get(`/v1/client-accounts/${theirs.id}/contacts`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Client account not found');
  });
});
