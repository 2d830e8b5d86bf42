// The Lead state table (document 2) through its endpoints: contacted, assign, convert, dismiss
// (and spam), restore, with every listed error; and the reads (GET /v1/leads with its filters,
// GET /v1/leads/{id}).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseClock, resumeClock, advanceClock } from '#platform/time.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { account, created, ok } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

async function newLead(w: Workspace, body: Record<string, unknown> = {}) {
  return (await created(w, '/v1/leads', {
    name: 'Pat Jones',
    email: `pat${Math.random().toString(36).slice(2, 8)}@example.com`,
    notify: false,
    ...body,
  })) as Record<string, any>;
}
const act = (w: Workspace, id: number, action: string, body: Record<string, unknown> = {}) =>
  w.api.post(`/v1/leads/${id}/${action}`, body);
const mailTo = (ref: string) =>
  t.database.db.selectFrom('outgoing_mail').selectAll().where('ref', '=', ref).orderBy('id').execute();

describe('GET /v1/leads/{id}', () => {
  it("404 Lead not found for a missing lead or another workspace's", async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const l = await newLead(other);
    for (const id of [l.id, 999999]) {
      const res = await w.api.get(`/v1/leads/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Lead not found');
    }
  });

  it('a user who sees only their own jobs sees only the leads assigned to them', async () => {
    const w = await t.workspace();
    const own = await t.user(w.firmId, { role: 'member', sees_own_jobs_only: true });
    const mine = await newLead(w);
    await ok(act(w, mine.id, 'assign', { user_id: own.id }));
    const theirs = await newLead(w);
    expect((await own.api.get(`/v1/leads/${mine.id}`)).status).toBe(200);
    expect((await own.api.get(`/v1/leads/${theirs.id}`)).status).toBe(404);
    expect((await own.api.get('/v1/leads')).body.data.map((l: any) => l.id)).toEqual([mine.id]);
  });
});

describe('GET /v1/leads', () => {
  it('filters by status, assignee, source_kind and q; newest first; updated_after oldest change first', async () => {
    const w = await t.workspace();
    const teammate = await t.user(w.firmId, { role: 'member' });
    const a = await newLead(w, { name: 'Alice Green', company: 'Green Acres', phone: '6145550001' });
    const b = await newLead(w, { name: 'Bob Stone', address: '4 Quarry Rd, Marion, OH 43302' });
    const c = await newLead(w, { name: 'Cara Wu' });
    await ok(act(w, b.id, 'contacted'));
    await ok(act(w, c.id, 'dismiss'));
    const ids = async (q: string) => (await ok(w.api.get(`/v1/leads${q}`))).data.map((l: any) => l.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?status=all')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?status=open')).toEqual([b.id, a.id]);
    expect(await ids('?status=new')).toEqual([a.id]);
    expect(await ids('?status=contacted')).toEqual([b.id]);
    expect(await ids('?status=dismissed')).toEqual([c.id]);
    expect(await ids('?status=spam')).toEqual([]);
    expect(await ids('?status=converted')).toEqual([]);
    expect(await ids('?source_kind=api')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?source_kind=form')).toEqual([]);
    expect(await ids('?q=green')).toEqual([a.id]);
    expect(await ids('?q=QUARRY')).toEqual([b.id]);
    expect(await ids('?q=555-0001')).toEqual([a.id]);
    expect(await ids(`?q=${encodeURIComponent(a.email)}`)).toEqual([a.id]);
    await ok(act(w, a.id, 'assign', { user_id: teammate.id }));
    // Round-robin gave b to the teammate; a now too, by hand.
    expect(await ids(`?assigned_to_user_id=${teammate.id}`)).toEqual([b.id, a.id]);
    expect(await ids(`?assigned_to_user_id=${w.ownerId}`)).toEqual([c.id]);
    const res = await ok(w.api.get('/v1/leads?limit=2&offset=1'));
    expect(res.pagination).toEqual({ total: 3, limit: 2, offset: 1 });
    expect(res.data.map((l: any) => l.id)).toEqual([b.id, a.id]);
    expect((await w.api.get('/v1/leads?limit=201')).status).toBe(400);
    expect((await w.api.get('/v1/leads?status=closed')).status).toBe(400);
    const bad = await w.api.get('/v1/leads?updated_after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('updated_after must be an ISO 8601 timestamp');
  });

  it('updated_after: changes after the instant, oldest change first', async () => {
    const w = await t.workspace();
    const a = await newLead(w, { name: 'First' });
    const b = await newLead(w, { name: 'Second' });
    advanceClock(2000);
    const mark = new Date(Date.now() + 1000).toISOString();
    pauseClock();
    advanceClock(1500);
    try {
      await ok(act(w, b.id, 'contacted'));
      await ok(act(w, a.id, 'contacted'));
    } finally {
      resumeClock();
    }
    advanceClock(3000);
    const res = await ok(w.api.get(`/v1/leads?updated_after=${encodeURIComponent(mark)}`));
    expect(res.data.map((l: any) => l.id)).toEqual([b.id, a.id]);
  });
});

describe('POST /v1/leads/{id}/contacted', () => {
  it('new -> contacted: first_contacted_* recorded, the follow-up closes, the outreach is noted on the person', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    const res = await act(w, l.id, 'contacted', { how: 'text', note: 'Sent our availability' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'contacted',
      status_label: 'Contacted',
      first_contact_kind: 'text',
      first_contacted_by_user_id: w.ownerId,
    });
    expect(res.body.data.first_contacted_at).not.toBeNull();
    expect((await ok(w.api.get(`/v1/account-tasks/${l.follow_up_task_id}`))).data.status).toBe('done');
    const notes = (await ok(w.api.get(`/v1/contacts/${l.contact_id}/notes`))).data;
    expect(notes.map((n: any) => [n.type, n.content])).toEqual([['note', 'Text: Sent our availability']]);
    // Again: it stays as it was.
    const again = await act(w, l.id, 'contacted', { how: 'call' });
    expect(again.status).toBe(200);
    expect(again.body.data.first_contact_kind).toBe('text');
  });

  it('how defaults to other (kind marked); a call is logged as a call on the person', async () => {
    const w = await t.workspace();
    const a = await newLead(w);
    expect((await act(w, a.id, 'contacted')).body.data.first_contact_kind).toBe('marked');
    const b = await newLead(w);
    await ok(act(w, b.id, 'contacted', { how: 'call' }));
    const notes = (await ok(w.api.get(`/v1/contacts/${b.contact_id}/notes`))).data;
    expect(notes.map((n: any) => [n.type, n.content])).toEqual([['call', 'Called about their request.']]);
    expect((await act(w, b.id, 'contacted', { how: 'smoke' })).status).toBe(400);
    expect((await act(w, b.id, 'contacted', { extra: 1 })).status).toBe(400);
  });

  it('409 Restore this lead first. on a dismissed or spam lead; 409 lead_closed when converted; 404', async () => {
    const w = await t.workspace();
    for (const spam of [false, true]) {
      const l = await newLead(w);
      await ok(act(w, l.id, 'dismiss', { spam }));
      const res = await act(w, l.id, 'contacted');
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'Restore this lead first.', code: 'lead_dismissed' });
    }
    const l = await newLead(w);
    await ok(act(w, l.id, 'convert'));
    const res = await act(w, l.id, 'contacted');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('lead_closed');
    expect((await act(w, 999999, 'contacted')).body.error).toBe('Lead not found');
  });
});

describe('POST /v1/leads/{id}/assign', () => {
  it('hands the lead, its follow-up and its job to an office teammate and emails them while nobody reached out', async () => {
    const w = await t.workspace();
    const mate = await t.user(w.firmId, { role: 'member', name: 'Jamie Fox', email: 'jamie@example.com' });
    const l = await newLead(w);
    const res = await act(w, l.id, 'assign', { user_id: mate.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      assigned_to_user_id: mate.id,
      assigned_to: { id: mate.id, name: 'Jamie Fox' },
    });
    expect(res.body.data.assignment_reason).toMatch(/^Assigned by Owner \d+$/);
    expect((await ok(w.api.get(`/v1/account-tasks/${l.follow_up_task_id}`))).data.assigned_to_user_id).toBe(mate.id);
    expect((await ok(w.api.get(`/v1/jobs/${l.job_id}`))).data.assigned_to_user_id).toBe(mate.id);
    const mails = await mailTo(`lead:${l.id}`);
    expect(mails.map((m) => [m.kind, m.to_address])).toEqual([['lead_alert', 'jamie@example.com']]);
    expect(mails[0]!.text_body).toContain('Hi Jamie,');
  });

  it('a contacted lead changes hands without an email', async () => {
    const w = await t.workspace();
    const mate = await t.user(w.firmId, { role: 'member' });
    const l = await newLead(w);
    await ok(act(w, l.id, 'contacted'));
    await ok(act(w, l.id, 'assign', { user_id: mate.id }));
    expect(await mailTo(`lead:${l.id}`)).toHaveLength(0);
  });

  it('400 user_id is required; 404 for a crew login or an unknown user; 409 on a dismissed lead', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const crew = await t.user(w.firmId, { role: 'crew' });
    const l = await newLead(w);
    const missing = await act(w, l.id, 'assign', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('user_id is required');
    const noBody = await w.api.request('POST', `/v1/leads/${l.id}/assign`);
    expect(noBody.status).toBe(400);
    const res = await act(w, l.id, 'assign', { user_id: crew.id });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('user is not an office teammate');
    const foreign = await act(w, l.id, 'assign', { user_id: other.ownerId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.field).toBe('user_id');
    await ok(act(w, l.id, 'dismiss'));
    const dismissed = await act(w, l.id, 'assign', { user_id: w.ownerId });
    expect(dismissed.status).toBe(409);
    expect(dismissed.body.error).toBe('Restore this lead first.');
  });
});

describe('POST /v1/leads/{id}/convert', () => {
  it('moves the job to the next open stage after the entry stage by default: {data: lead, job}', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    const res = await act(w, l.id, 'convert');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'converted', status_label: 'Moving forward' });
    expect(res.body.job).toMatchObject({ id: l.job_id, status: 'active' });
    const events = await t.database.db
      .selectFrom('events')
      .select(['event_type', 'data'])
      .where('job_id', '=', l.job_id)
      .where('event_type', '=', 'job_status_changed')
      .where('in_feed', '=', 1)
      .execute();
    expect(events.map((e) => JSON.parse(e.data))).toEqual([{ from_status: 'lead', to_status: 'active' }]);
  });

  it('a won stage may be chosen; lost, excluded and unknown stages are 400; no later open stage is 400', async () => {
    const w = await t.workspace();
    const won = await newLead(w);
    const res = await act(w, won.id, 'convert', { status: 'won', confirm_schedule_completion: true });
    expect(res.body.job.status).toBe('won');
    const l = await newLead(w);
    const lost = await act(w, l.id, 'convert', { status: 'lost' });
    expect(lost.status).toBe(400);
    expect(lost.body.code).toBe('invalid_status');
    const unknown = await act(w, l.id, 'convert', { status: 'nowhere' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_status');
    // With only one open stage ('active' turned into the entry stage), nothing lies after it.
    const w2 = await t.workspace();
    const l2 = await newLead(w2);
    await t.database.db
      .updateTable('job_stages')
      .set({ type: 'excluded' })
      .where('firm_id', '=', w2.firmId)
      .where('key', '=', 'active')
      .execute();
    const none = await act(w2, l2.id, 'convert');
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('No later open stage');
    expect((await ok(w2.api.get(`/v1/leads/${l2.id}`))).data.status).toBe('new');
  });

  it('409 lead_closed when converted, Restore this lead first. when dismissed; 403 status_locked', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    await ok(act(w, l.id, 'convert'));
    const again = await act(w, l.id, 'convert');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('lead_closed');
    const d = await newLead(w);
    await ok(act(w, d.id, 'dismiss', { spam: true }));
    expect((await act(w, d.id, 'convert')).body.error).toBe('Restore this lead first.');

    const locked = await t.workspace();
    const ll = await newLead(locked);
    await ok(
      t.admin.patch(`/admin/v1/workspaces/${locked.firmId}`, { settings: { jobs_from_connected_system: true } }),
    );
    const res = await act(locked, ll.id, 'convert');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('status_locked');
    expect((await ok(locked.api.get(`/v1/jobs/${ll.job_id}`))).data.status).toBe('lead');
  });
});

describe('POST /v1/leads/{id}/dismiss and /restore', () => {
  it('dismiss: leaves the inbox, the follow-up closes; restore brings it back as new with the follow-up open', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    const res = await act(w, l.id, 'dismiss');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      data: { status: 'dismissed' },
      message: 'Lead dismissed: it has left the inbox.',
    });
    expect((await ok(w.api.get('/v1/leads?status=open'))).data).toEqual([]);
    expect((await ok(w.api.get(`/v1/account-tasks/${l.follow_up_task_id}`))).data.status).toBe('done');
    const again = await act(w, l.id, 'dismiss');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('lead_closed');
    const back = await act(w, l.id, 'restore');
    expect(back.status).toBe(200);
    expect(back.body.data.status).toBe('new');
    expect((await ok(w.api.get(`/v1/account-tasks/${l.follow_up_task_id}`))).data.status).toBe('open');
    const notDismissed = await act(w, l.id, 'restore');
    expect(notDismissed.status).toBe(409);
    expect(notDismissed.body.code).toBe('invalid_status');
  });

  it('restore returns a lead someone had reached out to as contacted', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    await ok(act(w, l.id, 'contacted', { how: 'email' }));
    await ok(act(w, l.id, 'dismiss'));
    expect((await ok(act(w, l.id, 'restore'))).data).toMatchObject({
      status: 'contacted',
      first_contact_kind: 'email',
    });
  });

  it('spam archives the contact and company the lead created when nothing else uses them; restore brings them back', async () => {
    const w = await t.workspace();
    const l = await newLead(w, { company: 'Spammy LLC' });
    const res = await act(w, l.id, 'dismiss', { spam: true });
    expect(res.body).toMatchObject({
      data: { status: 'spam', status_label: 'Spam' },
      message: 'Lead marked as spam; the contact and company it created were archived.',
    });
    expect((await ok(w.api.get(`/v1/contacts/${l.contact_id}`))).data.archived_at).not.toBeNull();
    expect((await w.api.get('/v1/client-accounts')).body.data.map((c: any) => c.id)).not.toContain(l.client_account_id);
    await ok(act(w, l.id, 'restore'));
    expect((await ok(w.api.get(`/v1/contacts/${l.contact_id}`))).data.archived_at).toBeNull();
    expect((await w.api.get('/v1/client-accounts')).body.data.map((c: any) => c.id)).toContain(l.client_account_id);
  });

  it('spam leaves records something else uses, and records it only matched', async () => {
    const w = await t.workspace();
    const ca = await account(w, 'Real Customer');
    const person = await created(w, '/v1/contacts', {
      name: 'Known',
      email: 'known@example.com',
      client_account_id: ca.id,
    });
    const matched = await newLead(w, { email: 'known@example.com' });
    const res = await act(w, matched.id, 'dismiss', { spam: true });
    expect(res.body.message).toBe(
      'Lead marked as spam; nothing it created was archived (nothing it made, or something else uses it).',
    );
    expect((await ok(w.api.get(`/v1/contacts/${person.id}`))).data.archived_at).toBeNull();
    // A created person who has since been called about another job stays.
    const fresh = await newLead(w, { company: 'Fresh Co' });
    await ok(w.api.post(`/v1/jobs`, { name: 'Other work', client_account_id: fresh.client_account_id }));
    await ok(w.api.post(`/v1/contacts/${fresh.contact_id}/notes`, { content: 'Met at the expo', type: 'note' }));
    const res2 = await act(w, fresh.id, 'dismiss', { spam: true });
    expect(res2.body.message).toContain('nothing it created was archived');
  });
});

describe('the Lead state table, implicit transitions', () => {
  it('a call, email or meeting logged on the person, the job or the company moves new to contacted; a plain note does not', async () => {
    const w = await t.workspace();
    const onContact = await newLead(w);
    await ok(w.api.post(`/v1/contacts/${onContact.contact_id}/notes`, { content: 'Just a note' }));
    expect((await ok(w.api.get(`/v1/leads/${onContact.id}`))).data.status).toBe('new');
    await ok(w.api.post(`/v1/contacts/${onContact.contact_id}/notes`, { content: 'Left a voicemail', type: 'call' }));
    expect((await ok(w.api.get(`/v1/leads/${onContact.id}`))).data).toMatchObject({
      status: 'contacted',
      first_contact_kind: 'call',
      first_contacted_by_user_id: w.ownerId,
    });
    expect((await ok(w.api.get(`/v1/account-tasks/${onContact.follow_up_task_id}`))).data.status).toBe('done');

    const onJob = await newLead(w);
    await ok(w.api.post(`/v1/jobs/${onJob.job_id}/notes`, { content: 'Sent the brochure', type: 'email' }));
    expect((await ok(w.api.get(`/v1/leads/${onJob.id}`))).data.first_contact_kind).toBe('email');

    const onCompany = await newLead(w, { company: 'Meeting Co' });
    await ok(
      w.api.post(`/v1/client-accounts/${onCompany.client_account_id}/notes`, {
        content: 'Walked the lot',
        type: 'meeting',
      }),
    );
    expect((await ok(w.api.get(`/v1/leads/${onCompany.id}`))).data.first_contact_kind).toBe('meeting');
  });

  it("POST /v1/activities with lead_id or the lead's contact moves new to contacted; a text does not", async () => {
    const w = await t.workspace();
    const byLead = await newLead(w);
    const text = await w.api.post('/v1/activities', { type: 'text', body: 'hi', associations: { lead_id: byLead.id } });
    expect(text.status).toBe(201);
    expect(text.body.data.associations.lead_id).toBe(byLead.id);
    expect((await ok(w.api.get(`/v1/leads/${byLead.id}`))).data.status).toBe('new');
    await ok(
      w.api.post('/v1/activities', { type: 'call', outcome: 'connected', associations: { lead_id: byLead.id } }),
    );
    expect((await ok(w.api.get(`/v1/leads/${byLead.id}`))).data.first_contact_kind).toBe('call');
    const byContact = await newLead(w);
    await ok(
      w.api.post('/v1/activities', {
        type: 'email',
        subject: 'Quote',
        associations: { contact_id: byContact.contact_id },
      }),
    );
    expect((await ok(w.api.get(`/v1/leads/${byContact.id}`))).data.status).toBe('contacted');
    const other = await t.workspace();
    const foreign = await other.api.post('/v1/activities', {
      type: 'call',
      body: 'x',
      associations: { lead_id: byContact.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Lead not found');
  });

  it('completing the Call new lead follow-up moves new to contacted (kind task)', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    await ok(w.api.patch(`/v1/account-tasks/${l.follow_up_task_id}`, { status: 'done' }));
    expect((await ok(w.api.get(`/v1/leads/${l.id}`))).data).toMatchObject({
      status: 'contacted',
      first_contact_kind: 'task',
    });
  });

  it('the job leaving its first stage for an open or won stage converts the lead; lost leaves it', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    await ok(w.api.post(`/v1/jobs/${l.job_id}/move`, { status: 'active' }));
    expect((await ok(w.api.get(`/v1/leads/${l.id}`))).data.status).toBe('converted');
    const viaPatch = await newLead(w);
    await ok(w.api.patch(`/v1/jobs/${viaPatch.job_id}`, { status: 'won' }));
    expect((await ok(w.api.get(`/v1/leads/${viaPatch.id}`))).data.status).toBe('converted');
    const lost = await newLead(w);
    await ok(w.api.post(`/v1/jobs/${lost.job_id}/move`, { status: 'lost' }));
    expect((await ok(w.api.get(`/v1/leads/${lost.id}`))).data.status).toBe('new');
    // A dismissed lead's job moving does not bring the lead back.
    const dismissed = await newLead(w);
    await ok(act(w, dismissed.id, 'dismiss'));
    await ok(w.api.post(`/v1/jobs/${dismissed.job_id}/move`, { status: 'active' }));
    expect((await ok(w.api.get(`/v1/leads/${dismissed.id}`))).data.status).toBe('dismissed');
  });

  it('a dismissed lead is not contacted by a logged call', async () => {
    const w = await t.workspace();
    const l = await newLead(w);
    await ok(act(w, l.id, 'dismiss'));
    await ok(w.api.post(`/v1/contacts/${l.contact_id}/notes`, { content: 'Called', type: 'call' }));
    expect((await ok(w.api.get(`/v1/leads/${l.id}`))).data).toMatchObject({
      status: 'dismissed',
      first_contacted_at: null,
    });
  });
});

describe('merges carry leads', () => {
  it('a merged-away person, company or job hands its leads to the kept one (the preview counts them)', async () => {
    const w = await t.workspace();
    const l = await newLead(w, { company: 'Twin Co', address: '1 Twin Rd, Columbus, OH 43215' });
    const keptPerson = await created(w, '/v1/contacts', { name: 'Kept Person' });
    const preview = await ok(w.api.get(`/v1/contacts/${l.contact_id}/merge-preview?into=${keptPerson.id}`));
    expect(JSON.stringify(preview)).toContain('leads');
    await ok(w.api.post(`/v1/contacts/${l.contact_id}/merge`, { into_contact_id: keptPerson.id }));
    const keptCompany = await account(w, 'Kept Co');
    await ok(
      w.api.post(`/v1/client-accounts/${l.client_account_id}/merge`, { into_client_account_id: keptCompany.id }),
    );
    const keptJob = await created(w, '/v1/jobs', { name: 'Kept job' });
    await ok(w.api.post(`/v1/jobs/${l.job_id}/merge`, { into_job_id: keptJob.id }));
    expect((await ok(w.api.get(`/v1/leads/${l.id}`))).data).toMatchObject({
      contact_id: keptPerson.id,
      client_account_id: keptCompany.id,
      job_id: keptJob.id,
    });
  });
});
