// PATCH /v1/jobs/{id} and POST /v1/jobs/{id}/move: update rules, site relinking, and the events a
// write records (document 1, Events; document 2, Jobs; docs/api-decisions.md, Jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

async function make(w: Workspace, body: Record<string, unknown>): Promise<any> {
  const res = await w.api.post('/v1/jobs', body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A workspace with an excluded stage and a completed (won-type) stage after the built-in ones. */
async function pipelineWorkspace(): Promise<Workspace> {
  const w = await t.workspace();
  const dead = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
    key: 'dead',
    label: 'Dead',
    type: 'excluded',
  });
  expect(dead.status).toBe(201);
  const done = await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
    key: 'done',
    label: 'Done',
    type: 'won',
    completed: true,
  });
  expect(done.status).toBe(201);
  return w;
}

const feed = (events: Awaited<ReturnType<typeof eventsOf>>) => events.filter((e) => e.in_feed === 1);
const webhook = (events: Awaited<ReturnType<typeof eventsOf>>) => events.filter((e) => e.in_feed === 0);
const types = (events: Awaited<ReturnType<typeof eventsOf>>) => events.map((e) => e.event_type);

async function eventsSince(jobId: number, count: number) {
  return (await eventsOf(t.database, jobId)).slice(count);
}

describe('PATCH /v1/jobs/{id}', () => {
  it('changes only the sent fields', async () => {
    const w = await t.workspace();
    const job = await make(w, {
      name: 'Patch Me',
      company: 'Patch Co',
      contact_name: 'Pat',
      contact_email: 'pat@example.com',
      contact_phone: '(555) 555-0155',
      address: '1 Patch Rd',
      description: 'd',
      notes: 'n',
      job_type: 'Sealcoating',
      priority: 'high',
      source: 'Referral',
      estimated_value: 999.99,
      probability: 30,
      start_date: '2026-05-01',
      end_date: '2026-05-02',
      next_follow_up: '2026-04-20',
      external_ref: 'P-1',
      bill_to_name: 'Bill',
      bill_to_email: 'bill@example.com',
    });
    const res = await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'new notes', probability: 55 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const { notes, probability, updated_at, ...rest } = res.body.data;
    const { notes: _n, probability: _p, updated_at: oldUpdated, ...before } = job;
    expect(notes).toBe('new notes');
    expect(probability).toBe(55);
    expect(rest).toEqual(before);
    expect(updated_at > oldUpdated).toBe(true);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data).toEqual(res.body.data);
  });

  it('null clears nullable fields', async () => {
    const w = await t.workspace();
    const job = await make(w, {
      name: 'Clear Me',
      contact_name: 'C',
      contact_email: 'c@example.com',
      contact_phone: '(555) 555-0111',
      bill_to_name: 'B',
      bill_to_email: 'b@example.com',
      description: 'd',
      notes: 'n',
      job_type: 'Patching',
      source: 'x',
      estimated_value: 5,
      probability: 5,
      start_date: '2026-01-01',
      end_date: '2026-01-02',
      next_follow_up: '2026-01-03',
      external_ref: 'CLR-1',
      address: '8 Clear St',
    });
    expect(job.location_id).toBeTypeOf('number');
    const cleared = [
      'contact_name',
      'contact_email',
      'contact_phone',
      'bill_to_name',
      'bill_to_email',
      'description',
      'notes',
      'job_type',
      'source',
      'estimated_value',
      'probability',
      'start_date',
      'end_date',
      'next_follow_up',
      'external_ref',
      'address',
    ] as const;
    const res = await w.api.patch(`/v1/jobs/${job.id}`, Object.fromEntries(cleared.map((k) => [k, null])));
    expect(res.status).toBe(200);
    for (const k of cleared) expect(res.body.data[k], k).toBeNull();
    expect(res.body.data.job_types).toEqual([]);
    expect(res.body.data.location_id).toBeNull();
    expect(res.body.data.site_id).toBeNull();
    expect(res.body.data.name).toBe('Clear Me');
    expect((await w.api.get('/v1/jobs?external_ref=CLR-1')).body.pagination.total).toBe(0);
  });

  it('name cannot be null or blank; status and priority cannot be null', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Keep Name' });
    for (const body of [
      { name: null },
      { name: '  ' },
      { status: null },
      { priority: null },
      { priority: 'meh' },
      { probability: 101 },
      { start_date: '2026-02-31' },
      { job_type: 'Nope' },
      { bogus: 1 },
    ]) {
      const res = await w.api.raw.patch(`/v1/jobs/${job.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const read = await w.api.get(`/v1/jobs/${job.id}`);
    expect(read.body.data).toEqual(job);
  });

  it('updated_at moves on a change and not on a no-op PATCH; a no-op records no event', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Stamp', notes: 'same', job_type: 'Sealcoating', estimated_value: 10 });
    const before = (await eventsOf(t.database, job.id)).length;
    const noop = await w.api.patch(`/v1/jobs/${job.id}`, {
      notes: 'same',
      name: 'Stamp',
      job_type: 'sealcoating',
      estimated_value: 10,
    });
    expect(noop.status).toBe(200);
    expect(noop.body.data.updated_at).toBe(job.updated_at);
    const empty = await w.api.patch(`/v1/jobs/${job.id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.body.data.updated_at).toBe(job.updated_at);
    expect((await eventsOf(t.database, job.id)).length).toBe(before);

    const changed = await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'different' });
    expect(changed.body.data.updated_at > job.updated_at).toBe(true);
    expect(changed.body.data.created_at).toBe(job.created_at);
  });

  it('an external_ref another job holds is 409 naming the holder', async () => {
    const w = await t.workspace();
    const holder = await make(w, { name: 'Holder', external_ref: 'HELD-1' });
    const job = await make(w, { name: 'Wants Ref' });
    const res = await w.api.patch(`/v1/jobs/${job.id}`, { external_ref: 'HELD-1', notes: 'x' });
    expect(res.status).toBe(409);
    expect(res.body.holder).toEqual({ type: 'job', id: holder.id, name: 'Holder' });
    const read = await w.api.get(`/v1/jobs/${job.id}`);
    expect(read.body.data.external_ref).toBeNull();
    expect(read.body.data.notes).toBeNull();
    // Its own ref again is fine.
    const self = await w.api.patch(`/v1/jobs/${holder.id}`, { external_ref: 'HELD-1' });
    expect(self.status).toBe(200);
  });

  it('an address change relinks the site', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Mover', address: '10 First Ave' });
    const other = await make(w, { name: 'Other Site', address: '20 Second Ave' });
    const res = await w.api.patch(`/v1/jobs/${job.id}`, { address: '20 second ave.' });
    expect(res.status).toBe(200);
    expect(res.body.data.address).toBe('20 second ave.');
    expect(res.body.data.location_id).toBe(other.location_id);
    const fresh = await w.api.patch(`/v1/jobs/${job.id}`, { address: '30 Third Ave' });
    expect(fresh.body.data.location_id).toBeTypeOf('number');
    expect(fresh.body.data.location_id).not.toBe(other.location_id);
    expect(fresh.body.data.location_id).not.toBe(job.location_id);
    expect(fresh.body.data.site_id).toBe(String(fresh.body.data.location_id));
    const sites = await w.api.get('/v1/locations');
    expect(sites.body.pagination.total).toBe(3);
  });

  it('a job without a customer takes the customer of the site its new address links', async () => {
    const w = await t.workspace();
    const cust = await w.api.post('/v1/client-accounts', { name: 'Site Co', external_ref: 'SCO' });
    const site = await w.api.post('/v1/locations', { address: '70 Site Ave', client_account_id: cust.body.data.id });
    const job = await make(w, { name: 'Loose Job' });
    expect(job.client_account_id).toBeNull();
    const res = await w.api.patch(`/v1/jobs/${job.id}`, { address: '70 SITE AVE.' });
    expect(res.status).toBe(200);
    expect(res.body.data.location_id).toBe(site.body.data.id);
    expect(res.body.data.client_account_id).toBe(cust.body.data.id);
    expect(res.body.data.client_account_external_ref).toBe('SCO');
    expect(res.body.data.company).toBe('Site Co');
  });

  it('company and client_account_id relink the customer', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Switch', company: 'First Co' });
    const second = await w.api.post('/v1/client-accounts', { name: 'Second Co' });
    const byId = await w.api.patch(`/v1/jobs/${job.id}`, { client_account_id: second.body.data.id });
    expect(byId.status).toBe(200);
    expect(byId.body.data.client_account_id).toBe(second.body.data.id);
    const byName = await w.api.patch(`/v1/jobs/${job.id}`, { company: 'first co' });
    expect(byName.body.data.client_account_id).toBe(job.client_account_id);
    const bad = await w.api.patch(`/v1/jobs/${job.id}`, { client_account_id: 999999 });
    expect(bad.status).toBe(404);
    expect(bad.body.error).toBe('client_account_id not found in this workspace');
  });

  it('a foreign or missing job is 404; a read-only key is 403', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const foreign = await make(other, { name: 'Theirs' });
    const res = await w.api.patch(`/v1/jobs/${foreign.id}`, { notes: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    expect((await w.api.patch('/v1/jobs/999999', { notes: 'x' })).status).toBe(404);
    const mine = await make(w, { name: 'Mine' });
    const key = await t.key(w.firmId, w.ownerId, ['read_jobs']);
    expect((await t.as(key).patch(`/v1/jobs/${mine.id}`, { notes: 'x' })).status).toBe(403);
    expect((await t.as(key).post(`/v1/jobs/${mine.id}/move`, { status: 'won' })).status).toBe(403);
    expect((await other.api.get(`/v1/jobs/${foreign.id}`)).body.data.notes).toBeNull();
  });

  it('assigned_to_user_id must be an active user of the workspace (404)', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const member = await t.user(w.firmId, { role: 'member' });
    const job = await make(w, { name: 'Reassign' });
    for (const id of [other.ownerId, 999999]) {
      const res = await w.api.patch(`/v1/jobs/${job.id}`, { assigned_to_user_id: id });
      expect(res.status).toBe(404);
    }
    const ok = await w.api.patch(`/v1/jobs/${job.id}`, { assigned_to_user_id: member.id });
    expect(ok.status).toBe(200);
    expect(ok.body.data.assigned_to.id).toBe(member.id);
  });

  it('an end_date before start_date is a 400, on create, on update and on an upsert; nothing changes', async () => {
    const w = await t.workspace();
    const inverted = await w.api.post('/v1/jobs', {
      name: 'Backwards',
      start_date: '2026-05-02',
      end_date: '2026-05-01',
    });
    expect(inverted.status).toBe(400);
    expect(inverted.body).toMatchObject({ error: 'end_date cannot be before start_date', field: 'end_date' });
    expect((await w.api.get('/v1/jobs')).body.pagination.total).toBe(0);

    const job = await make(w, {
      name: 'Forwards',
      start_date: '2026-05-01',
      end_date: '2026-05-03',
      external_ref: 'F-1',
    });
    const sameDay = await w.api.patch(`/v1/jobs/${job.id}`, { end_date: '2026-05-01' });
    expect(sameDay.status).toBe(200);
    // Each alone would invert the dates already stored.
    for (const body of [
      { end_date: '2026-04-30' },
      { start_date: '2026-05-02' },
      { start_date: '2026-06-01', end_date: '2026-05-31' },
    ]) {
      const res = await w.api.patch(`/v1/jobs/${job.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe('end_date');
    }
    const upsert = await w.api.post('/v1/jobs', { name: 'Forwards', external_ref: 'F-1', start_date: '2026-07-01' });
    expect(upsert.status).toBe(400);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data).toMatchObject({
      start_date: '2026-05-01',
      end_date: '2026-05-01',
    });
    // Clearing one date, or moving both together, is fine.
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { start_date: '2026-08-01', end_date: '2026-08-02' })).status).toBe(
      200,
    );
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { end_date: null })).status).toBe(200);
    expect((await w.api.patch(`/v1/jobs/${job.id}`, { start_date: '2026-09-01' })).body.data).toMatchObject({
      start_date: '2026-09-01',
      end_date: null,
    });
  });

  it('a merge does not take a date that would end the kept job before it starts', async () => {
    const w = await t.workspace();
    const kept = await make(w, { name: 'Kept', start_date: '2026-05-10' });
    const away = await make(w, { name: 'Away', end_date: '2026-05-01', next_follow_up: '2026-05-05' });
    const res = await w.api.post(`/v1/jobs/${away.id}/merge`, { into_job_id: kept.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ start_date: '2026-05-10', end_date: null, next_follow_up: '2026-05-05' });
  });

  it('an over-long name is cut on update too', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Short' });
    const res = await w.api.patch(`/v1/jobs/${job.id}`, {
      name: 'Q'.repeat(230),
      contact_email: `${'m'.repeat(115)}@x.example`,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Q'.repeat(200));
    expect(res.body.data.contact_email).toBe('m'.repeat(115) + '@x.ex');
  });
});

describe('events of creates and plain changes', () => {
  it('creation records a feed job_created {status} and a webhook-only job_created', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Created Event' });
    const events = await eventsOf(t.database, job.id);
    expect(types(events)).toEqual(['job_created', 'job_created']);
    const [raw, hook] = events;
    expect(raw.in_feed).toBe(1);
    expect(raw.data).toEqual({ status: 'lead' });
    expect(hook.in_feed).toBe(0);
    expect(raw.event_id).toMatch(UUID);
    expect(hook.event_id).toMatch(UUID);
    expect(hook.event_id).not.toBe(raw.event_id);
    expect(raw.firm_id).toBe(w.firmId);
    expect(raw.entity_type).toBe('job');
    expect(raw.entity_id).toBe(job.id);
  });

  it('a plain field change records only a webhook-only job_updated', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Plain Change' });
    const n = (await eventsOf(t.database, job.id)).length;
    await w.api.patch(`/v1/jobs/${job.id}`, { notes: 'changed', priority: 'urgent' });
    const added = await eventsSince(job.id, n);
    expect(types(added)).toEqual(['job_updated']);
    expect(added[0].in_feed).toBe(0);
    expect(added[0].event_id).toMatch(UUID);
    expect(added[0].data.changed_fields).toEqual(expect.arrayContaining(['notes', 'priority']));
  });

  it('job_updated names the changed fields as the API spells them', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Wire Names' });
    const n = (await eventsOf(t.database, job.id)).length;
    await w.api.patch(`/v1/jobs/${job.id}`, { estimated_value: 250.75, contact_email: 'x@example.com' });
    const [updated] = await eventsSince(job.id, n);
    expect(updated.event_type).toBe('job_updated');
    expect([...(updated.data.changed_fields as string[])].sort()).toEqual(['contact_email', 'estimated_value']);
  });

  it('adding a tag does not move updated_at nor record job_updated', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Tagged' });
    const n = (await eventsOf(t.database, job.id)).length;
    const tag = await w.api.post('/v1/job-tags', { name: 'Priority' });
    expect((await w.api.post(`/v1/jobs/${job.id}/tags`, { tag_ids: [tag.body.data.id] })).status).toBe(200);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data.updated_at).toBe(job.updated_at);
    expect((await eventsOf(t.database, job.id)).length).toBe(n);
  });

  it('an upsert that changes fields records job_updated, not job_created', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Upserted', external_ref: 'UP-1' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.post('/v1/jobs', { external_ref: 'UP-1', notes: 'via upsert' });
    expect(res.status).toBe(200);
    expect(types(await eventsSince(job.id, n))).toEqual(['job_updated']);
  });
});

describe('stage changes', () => {
  it('a move records feed and webhook job_status_changed, not job_updated', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Moving' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('active');
    expect(res.body.data.status_label).toBe('Active');
    expect(res.body.data.updated_at > job.updated_at).toBe(true);
    const added = await eventsSince(job.id, n);
    expect(types(added)).toEqual(['job_status_changed', 'job_status_changed']);
    expect(feed(added)).toHaveLength(1);
    expect(feed(added)[0].data).toEqual({ from_status: 'lead', to_status: 'active' });
    expect(webhook(added)).toHaveLength(1);
    expect(added[0].event_id).toMatch(UUID);
    expect(added[1].event_id).toMatch(UUID);
  });

  it('a PATCH with status and other fields records job_status_changed only', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Patch Status' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.patch(`/v1/jobs/${job.id}`, { status: 'active', notes: 'and notes' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('active');
    expect(res.body.data.notes).toBe('and notes');
    const added = await eventsSince(job.id, n);
    expect(types(added)).toEqual(['job_status_changed', 'job_status_changed']);
    expect(types(added)).not.toContain('job_updated');
  });

  it('lead → won fires job_won derived from the status change', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Winner' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' });
    expect(res.status).toBe(200);
    expect(res.body.data.status_label).toBe('Won');
    const added = await eventsSince(job.id, n);
    const change = feed(added).find((e) => e.event_type === 'job_status_changed')!;
    const won = added.filter((e) => e.event_type === 'job_won');
    expect(won).toHaveLength(1);
    expect(won[0].in_feed).toBe(1);
    expect(won[0].occurred_at).toBe(change.occurred_at);
    expect(won[0].id).toBeGreaterThan(change.id);
    expect(won[0].event_id).toMatch(UUID);
    expect(won[0].event_id).not.toBe(change.event_id);
    expect(won[0].entity_type).toBe('job');
    expect(won[0].entity_id).toBe(job.id);
    expect(won[0].data).toEqual({ from_status: 'lead', to_status: 'won', source_event_id: change.event_id });
    expect(types(added)).not.toContain('job_updated');
  });

  it('a PATCH into won fires job_won as a move does', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Patch Winner' });
    await w.api.patch(`/v1/jobs/${job.id}`, { status: 'won' });
    const events = await eventsOf(t.database, job.id);
    const change = feed(events).find((e) => e.event_type === 'job_status_changed')!;
    const won = events.find((e) => e.event_type === 'job_won')!;
    expect(won.data).toEqual({ from_status: 'lead', to_status: 'won', source_event_id: change.event_id });
  });

  it('open → lost fires job_lost; won → lost fires job_cancelled', async () => {
    const w = await t.workspace();
    const a = await make(w, { name: 'Lost From Active', status: 'active' });
    let n = (await eventsOf(t.database, a.id)).length;
    await w.api.post(`/v1/jobs/${a.id}/move`, { status: 'lost' });
    let added = await eventsSince(a.id, n);
    const change = feed(added).find((e) => e.event_type === 'job_status_changed')!;
    expect(feed(added).map((e) => e.event_type)).toEqual(['job_status_changed', 'job_lost']);
    expect(added.find((e) => e.event_type === 'job_lost')!.data).toEqual({
      from_status: 'active',
      to_status: 'lost',
      source_event_id: change.event_id,
    });

    const b = await make(w, { name: 'Cancelled' });
    await w.api.post(`/v1/jobs/${b.id}/move`, { status: 'won' });
    n = (await eventsOf(t.database, b.id)).length;
    await w.api.post(`/v1/jobs/${b.id}/move`, { status: 'lost' });
    added = await eventsSince(b.id, n);
    const change2 = feed(added).find((e) => e.event_type === 'job_status_changed')!;
    expect(feed(added).map((e) => e.event_type)).toEqual(['job_status_changed', 'job_cancelled']);
    const cancelled = added.find((e) => e.event_type === 'job_cancelled')!;
    expect(cancelled.data).toEqual({ from_status: 'won', to_status: 'lost', source_event_id: change2.event_id });
    expect(cancelled.occurred_at).toBe(change2.occurred_at);
  });

  it('an excluded stage counts as lost: open → excluded is job_lost, won → excluded job_cancelled', async () => {
    const w = await pipelineWorkspace();
    const a = await make(w, { name: 'Excluded Open' });
    await w.api.post(`/v1/jobs/${a.id}/move`, { status: 'dead' });
    expect(types(feed(await eventsOf(t.database, a.id)))).toEqual(['job_created', 'job_status_changed', 'job_lost']);
    const b = await make(w, { name: 'Excluded Won', status: 'won' });
    const n = (await eventsOf(t.database, b.id)).length;
    const moved = await w.api.post(`/v1/jobs/${b.id}/move`, { status: 'dead' });
    expect(moved.body.data.status_label).toBe('Dead');
    expect(types(feed(await eventsSince(b.id, n)))).toEqual(['job_status_changed', 'job_cancelled']);
  });

  it('lost → open → won fires job_won again; leaving lost for an open stage fires nothing derived', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Comeback', status: 'lost' });
    const n = (await eventsOf(t.database, job.id)).length;
    await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'active' });
    expect(types(feed(await eventsSince(job.id, n)))).toEqual(['job_status_changed']);
    await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' });
    expect(types(feed(await eventsSince(job.id, n)))).toEqual(['job_status_changed', 'job_status_changed', 'job_won']);
  });

  it('entering the completed stage fires job_completed; from won it is not a second job_won', async () => {
    const w = await pipelineWorkspace();
    const job = await make(w, { name: 'Finisher' });
    await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'done' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('done');
    expect(res.body.data.status_label).toBe('Done');
    const added = await eventsSince(job.id, n);
    expect(types(feed(added))).toEqual(['job_status_changed', 'job_completed']);
    const change = feed(added)[0];
    const completed = feed(added)[1];
    expect(completed.data).toEqual({ from_status: 'won', to_status: 'done', source_event_id: change.event_id });
    expect(completed.occurred_at).toBe(change.occurred_at);
    expect(completed.id).toBeGreaterThan(change.id);
    const all = await eventsOf(t.database, job.id);
    expect(all.filter((e) => e.event_type === 'job_won')).toHaveLength(1);
  });

  it('lead → completed (won-type) stage fires job_won and job_completed from the same change', async () => {
    const w = await pipelineWorkspace();
    const job = await make(w, { name: 'Straight To Done' });
    const n = (await eventsOf(t.database, job.id)).length;
    await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'done' });
    const added = feed(await eventsSince(job.id, n));
    expect(added.map((e) => e.event_type).sort()).toEqual(['job_completed', 'job_status_changed', 'job_won']);
    const change = added.find((e) => e.event_type === 'job_status_changed')!;
    for (const e of added.filter((x) => x !== change)) {
      expect(e.data.source_event_id).toBe(change.event_id);
      expect(e.occurred_at).toBe(change.occurred_at);
      expect(e.id).toBeGreaterThan(change.id);
    }
  });

  it('an open completed stage fires job_completed only', async () => {
    const w = await t.workspace();
    await t.admin.post(`/admin/v1/workspaces/${w.firmId}/job-stages`, {
      key: 'finished',
      label: 'Finished',
      type: 'open',
      completed: true,
    });
    const job = await make(w, { name: 'Open Done', status: 'active' });
    const n = (await eventsOf(t.database, job.id)).length;
    await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'finished' });
    expect(types(feed(await eventsSince(job.id, n)))).toEqual(['job_status_changed', 'job_completed']);
  });

  it('creating directly as won fires job_won sourced from job_created', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Born Won', status: 'won' });
    const events = await eventsOf(t.database, job.id);
    const created = events.find((e) => e.event_type === 'job_created' && e.in_feed === 1)!;
    expect(created.data).toEqual({ status: 'won' });
    const won = events.filter((e) => e.event_type === 'job_won');
    expect(won).toHaveLength(1);
    expect(won[0].in_feed).toBe(1);
    expect(won[0].data).toEqual({ from_status: null, to_status: 'won', source_event_id: created.event_id });
    expect(won[0].occurred_at).toBe(created.occurred_at);
    expect(won[0].id).toBeGreaterThan(created.id);
    expect(types(events)).not.toContain('job_status_changed');
  });

  it('creating directly as lost fires job_lost; in a lead stage fires nothing derived', async () => {
    const w = await t.workspace();
    const lost = await make(w, { name: 'Born Lost', status: 'lost' });
    expect(types(feed(await eventsOf(t.database, lost.id)))).toEqual(['job_created', 'job_lost']);
    const lead = await make(w, { name: 'Born Lead' });
    expect(types(await eventsOf(t.database, lead.id))).toEqual(['job_created', 'job_created']);
  });

  it('moving to the current stage is a no-op: 200, no event, updated_at kept', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Stay Put', status: 'won' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('won');
    expect(res.body.data.updated_at).toBe(job.updated_at);
    const patch = await w.api.patch(`/v1/jobs/${job.id}`, { status: 'won' });
    expect(patch.status).toBe(200);
    expect((await eventsOf(t.database, job.id)).length).toBe(n);
  });

  it('an unknown stage is 400 and changes nothing', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Bad Move' });
    const n = (await eventsOf(t.database, job.id)).length;
    const res = await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'heaven' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^status must be one of/);
    const patch = await w.api.patch(`/v1/jobs/${job.id}`, { status: 'heaven' });
    expect(patch.status).toBe(400);
    const read = await w.api.get(`/v1/jobs/${job.id}`);
    expect(read.body.data.status).toBe('lead');
    expect(read.body.data.updated_at).toBe(job.updated_at);
    expect((await eventsOf(t.database, job.id)).length).toBe(n);
  });

  it('a move body without status is 400; unknown fields are 400', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'No Status' });
    const res = await w.api.raw.post(`/v1/jobs/${job.id}/move`, {});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('status is required');
    const extra = await w.api.raw.post(`/v1/jobs/${job.id}/move`, { status: 'won', notes: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.fields).toEqual(['notes']);
    expect((await w.api.get(`/v1/jobs/${job.id}`)).body.data.status).toBe('lead');
  });

  it('confirm_schedule_completion is accepted', async () => {
    const w = await t.workspace();
    const job = await make(w, { name: 'Confirmed' });
    const res = await w.api.post(`/v1/jobs/${job.id}/move`, { status: 'won', confirm_schedule_completion: true });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('won');
  });

  it('a move of a missing or foreign job is 404', async () => {
    const w = await t.workspace();
    const other = await t.workspace();
    const foreign = await make(other, { name: 'Far Away' });
    const res = await w.api.post(`/v1/jobs/${foreign.id}/move`, { status: 'won' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Job not found');
    expect((await other.api.get(`/v1/jobs/${foreign.id}`)).body.data.status).toBe('lead');
    expect((await w.api.post('/v1/jobs/999999/move', { status: 'won' })).status).toBe(404);
  });
});
