// Delivery bodies (document 1, Business event payload; Job and proposal event payload).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '#test/helpers/harness.ts';
import { recordBusinessEvent } from '#events/record.ts';
import { recordProposalEvent } from '#crm/jobs/events.ts';
import {
  MICRO,
  MICRO_Z,
  UUID,
  WEBHOOK_JOB_FIELDS,
  Z,
  addStages,
  deliveryDetail,
  deliveriesOf,
  feedOf,
  move,
  sorted,
  subscribe,
  perTest,
} from './kit.ts';
import { job as makeJob } from '#test/helpers/records.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const { receiver, worker } = perTest(() => t);

const BUSINESS_KEYS = [
  'api_version',
  'created_at',
  'data',
  'entity',
  'event_id',
  'event_type',
  'firm_id',
  'job',
  'occurred_at',
];
const JOB_EVENT_KEYS = [
  'created_at',
  'current_status',
  'event_id',
  'event_type',
  'firm_id',
  'job',
  'previous_status',
  'status_changed',
];

/** The webhook job object as document 1 describes it, from the API's job object. */
function expectedJob(apiJob: Record<string, any>) {
  const out: Record<string, unknown> = {};
  for (const f of WEBHOOK_JOB_FIELDS) out[f] = apiJob[f];
  out.assigned_to = { id: apiJob.assigned_to.id, name: apiJob.assigned_to.name, email: apiJob.assigned_to.email };
  return out;
}

async function currentJob(w: { api: any }, id: number) {
  const res = await w.api.get(`/v1/jobs/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('business event payload', () => {
  it("job_won: every field, data with source_event_id of the feed's status change, the job object", async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_won' });
    const job = await makeJob(w, { name: 'Won Payload', estimated_value: 1234.5, probability: 80 });
    const moved = await move(w, job.id, 'won');
    await wk.drain();
    expect(r.received).toHaveLength(1);
    const body = r.received[0]!.body;
    expect(Object.keys(body).sort()).toEqual(BUSINESS_KEYS);

    const feed = await feedOf(w);
    const change = feed.find((e) => e.event_type === 'job_status_changed')!;
    const won = feed.find((e) => e.event_type === 'job_won')!;
    expect(change).toBeDefined();
    expect(won).toBeDefined();
    expect(won.id).toBeGreaterThan(change.id);

    expect(body).toEqual({
      event_type: 'job_won',
      event_id: won.event_id,
      api_version: expect.stringMatching(/^\d{4}-(0[1-9]|1[0-2])$/),
      occurred_at: expect.stringMatching(Z),
      created_at: expect.stringMatching(Z),
      firm_id: w.firmId,
      entity: { type: 'job', id: job.id },
      data: { from_status: 'lead', to_status: 'won', source_event_id: change.event_id },
      job: expectedJob(moved),
    });
    expect(body.event_id).toMatch(UUID);
    // Derived events keep the status change's occurred_at; the feed shows the same.
    expect(body.occurred_at).toBe(change.occurred_at);
    expect(body.occurred_at).toBe(won.occurred_at);
    expect(body.data).toEqual(won.data);
    expect(body.created_at >= body.occurred_at).toBe(true);
    expect(body.job.status).toBe('won');
    expect(body.job.status_label).toBe('Won');
    expect(body.job.estimated_value).toBe(1234.5);
    expect(r.received[0]!.headers['x-service-event']).toBe('job_won');
  });

  it('job_lost, job_cancelled and job_completed: data from_status, to_status, source_event_id', async () => {
    const w = await t.workspace();
    await addStages(t, w);
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    const lost = await makeJob(w, { name: 'P Lost', status: 'active' });
    await move(w, lost.id, 'lost');
    const cancelled = await makeJob(w, { name: 'P Cancelled', status: 'won' });
    await move(w, cancelled.id, 'dead');
    const completed = await makeJob(w, { name: 'P Completed', status: 'won' });
    await move(w, completed.id, 'done');
    await wk.drain();

    const feed = await feedOf(w);
    const changeOf = (jobId: number) =>
      feed.filter((e) => e.event_type === 'job_status_changed' && e.job_id === jobId).at(-1)!;
    const byType = (type: string, jobId: number) =>
      r.received.find((x) => x.body.event_type === type && x.body.entity.id === jobId)!.body;

    const l = byType('job_lost', lost.id);
    expect(l.data).toEqual({ from_status: 'active', to_status: 'lost', source_event_id: changeOf(lost.id).event_id });
    expect(l.entity).toEqual({ type: 'job', id: lost.id });
    const c = byType('job_cancelled', cancelled.id);
    expect(c.data).toEqual({ from_status: 'won', to_status: 'dead', source_event_id: changeOf(cancelled.id).event_id });
    const d = byType('job_completed', completed.id);
    expect(d.data).toEqual({ from_status: 'won', to_status: 'done', source_event_id: changeOf(completed.id).event_id });
    for (const body of [l, c, d]) {
      expect(Object.keys(body).sort()).toEqual(BUSINESS_KEYS);
      expect(body.occurred_at).toMatch(Z);
      expect(body.created_at).toMatch(Z);
      const item = feed.find((e) => e.event_id === body.event_id)!;
      expect(item).toBeDefined();
      expect(item.event_type).toBe(body.event_type);
      expect(item.occurred_at).toBe(body.occurred_at);
      expect(item.entity).toEqual(body.entity);
      expect(item.data).toEqual(body.data);
    }
    // Created straight into won: job_won with from_status null and the feed's job_created as its source.
    const wonAtCreation = byType('job_won', cancelled.id);
    const created = feed.find((e) => e.event_type === 'job_created' && e.job_id === cancelled.id)!;
    expect(wonAtCreation.data).toEqual({ from_status: null, to_status: 'won', source_event_id: created.event_id });
  });

  it("event_id of every business delivery equals the feed item's event_id (GET /v1/events)", async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'all' });
    for (let i = 0; i < 3; i++) {
      const job = await makeJob(w, { name: `Feed Match ${i}` });
      await move(w, job.id, i === 1 ? 'lost' : 'won');
    }
    await wk.drain();
    const feed = await feedOf(w);
    const business = feed.filter((e) => e.event_type !== 'job_created' && e.event_type !== 'job_status_changed');
    expect(business).toHaveLength(3);
    expect(sorted(r.received.map((x) => x.body.event_id))).toEqual(sorted(business.map((e) => e.event_id)));
    for (const x of r.received) {
      const item = business.find((e) => e.event_id === x.body.event_id)!;
      expect(x.body.event_type).toBe(item.event_type);
      expect(x.body.occurred_at).toBe(item.occurred_at);
      expect(x.body.entity).toEqual(item.entity);
      expect(x.body.data).toEqual(item.data);
    }
    // The delivery log's event_id is the same value.
    expect(sorted((await deliveriesOf(w)).map((d) => d.event_id))).toEqual(sorted(business.map((e) => e.event_id)));
  });

  it('a business event that belongs to no job has no job field; data is passed as recorded', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'invoice.created' });
    const data = { invoice_id: 41, doc_number: 'INV-0041', amount_cents: 123456, status: 'open' };
    const recorded = await t.database.db.transaction().execute((trx) =>
      recordBusinessEvent(trx, {
        firmId: w.firmId,
        type: 'invoice_created',
        entity: { type: 'invoice', id: 41 },
        data,
      }),
    );
    await wk.drain();
    expect(r.received).toHaveLength(1);
    const body = r.received[0]!.body;
    expect(body).toEqual({
      event_type: 'invoice_created',
      event_id: recorded.eventId,
      api_version: expect.stringMatching(/^\d{4}-\d{2}$/),
      occurred_at: expect.stringMatching(Z),
      created_at: expect.stringMatching(Z),
      firm_id: w.firmId,
      entity: { type: 'invoice', id: 41 },
      data,
    });
    const [item] = await feedOf(w, '&event_type=invoice_created');
    expect(item.event_id).toBe(body.event_id);
    expect(item.job_id).toBeNull();
  });

  it('the job object is built when the delivery is queued: a later rename does not change a queued body', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_won' });
    const job = await makeJob(w, { name: 'Name At Win' });
    await move(w, job.id, 'won');
    await w.api.patch(`/v1/jobs/${job.id}`, { name: 'Renamed Later' });
    await wk.drain();
    expect(r.received[0]!.body.job.name).toBe('Name At Win');
    const [d] = await deliveriesOf(w);
    expect((await deliveryDetail(w, d.id)).payload).toEqual(r.received[0]!.body);
  });
});

describe('job and proposal event payload', () => {
  it('job_status_changed: exactly event_type, event_id, created_at (microseconds, Z), firm_id, status_changed, previous_status, current_status, job', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url });
    const job = await makeJob(w, { name: 'Status Body' });
    const moved = await move(w, job.id, 'active');
    await wk.drain();
    expect(r.received).toHaveLength(1);
    const body = r.received[0]!.body;
    expect(Object.keys(body).sort()).toEqual(JOB_EVENT_KEYS);
    expect(body).toEqual({
      event_type: 'job_status_changed',
      event_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(MICRO_Z),
      firm_id: w.firmId,
      status_changed: true,
      previous_status: 'lead',
      current_status: 'active',
      job: expectedJob(moved),
    });
    // Its own event_id: not the feed's raw job_status_changed.
    const feed = await feedOf(w, '&event_type=job_status_changed');
    expect(feed).toHaveLength(1);
    expect(body.event_id).not.toBe(feed[0].event_id);
    expect(feed.some((e: any) => e.event_id === body.event_id)).toBe(false);
  });

  it('job_created: status_changed false, previous_status null, current_status the stage', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    const job = await makeJob(w, { name: 'Created Body', status: 'active' });
    await wk.drain();
    const body = r.received[0]!.body;
    expect(Object.keys(body).sort()).toEqual(JOB_EVENT_KEYS);
    expect(body).toEqual({
      event_type: 'job_created',
      event_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(MICRO_Z),
      firm_id: w.firmId,
      status_changed: false,
      previous_status: null,
      current_status: 'active',
      job: expectedJob(job),
    });
  });

  it('job_updated: the same top level plus changed_fields (API names)', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_updated' });
    const job = await makeJob(w, { name: 'Before Update' });
    const res = await w.api.patch(`/v1/jobs/${job.id}`, { name: 'After Update', estimated_value: 500 });
    expect(res.status).toBe(200);
    await wk.drain();
    const body = r.received[0]!.body;
    expect(Object.keys(body).sort()).toEqual([...JOB_EVENT_KEYS, 'changed_fields'].sort());
    expect(body).toEqual({
      event_type: 'job_updated',
      event_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(MICRO_Z),
      firm_id: w.firmId,
      status_changed: false,
      previous_status: 'lead',
      current_status: 'lead',
      changed_fields: expect.any(Array),
      job: expectedJob(res.body.data),
    });
    expect(sorted(body.changed_fields)).toEqual(['estimated_value', 'name']);
  });

  it('the job object has exactly the documented fields; assigned_to is {id, name, email}; timestamps as the job API', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    const job = await makeJob(w, {
      name: 'Full Job',
      company: 'Full Co',
      contact_name: 'Fay',
      contact_email: 'fay@example.com',
      contact_phone: '(555) 555-0101',
      description: 'desc',
      notes: 'notes',
      job_type: ['Sealcoating', 'Line Striping'],
      priority: 'high',
      source: 'Referral',
      estimated_value: 2500.25,
      probability: 40,
      start_date: '2026-06-01',
      end_date: '2026-06-03',
      next_follow_up: '2026-05-20',
      external_ref: 'FULL-1',
      bill_to_name: 'Billy',
      bill_to_email: 'billy@example.com',
    });
    await wk.drain();
    const got = r.received[0]!.body.job;
    expect(Object.keys(got).sort()).toEqual([...WEBHOOK_JOB_FIELDS].sort());
    expect(got).toEqual(expectedJob(await currentJob(w, job.id)));
    expect(got.assigned_to).toEqual({ id: w.ownerId, name: expect.any(String), email: expect.any(String) });
    expect(Object.keys(got.assigned_to).sort()).toEqual(['email', 'id', 'name']);
    expect(got.assigned_to_user_id).toBe(w.ownerId);
    expect(got.firm_id).toBe(w.firmId);
    expect(got.created_at).toMatch(MICRO);
    expect(got.updated_at).toMatch(MICRO);
    expect(got.job_type).toBe('Sealcoating, Line Striping');
    expect(got.estimated_value).toBe(2500.25);
    // Fields of the API job that the webhook job object does not carry.
    for (const f of [
      'bill_to_name',
      'bill_to_email',
      'job_types',
      'custom_fields',
      'team_id',
      'accounting_sync_error',
      'assignees',
    ]) {
      expect(got, f).not.toHaveProperty(f);
    }
  });

  it('the four location and customer fields are always present: null when unknown, filled when linked', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    await makeJob(w, { name: 'Bare Job' });
    const cust = await w.api.post('/v1/client-accounts', { name: 'Linked Customer', external_ref: 'CUST-7' });
    expect(cust.status).toBe(201);
    const site = await w.api.post('/v1/locations', {
      address: '12 Linked Way',
      external_ref: 'SITE-7',
      client_account_id: cust.body.data.id,
    });
    expect(site.status).toBe(201);
    const linked = await makeJob(w, { name: 'Linked Job', address: '12 Linked Way' });
    expect(linked.location_id).toBe(site.body.data.id);
    await wk.drain();
    const bare = r.received.find((x) => x.body.job.name === 'Bare Job')!.body.job;
    for (const f of ['location_id', 'location_external_ref', 'client_account_id', 'client_account_external_ref']) {
      expect(bare, f).toHaveProperty(f);
      expect(bare[f], f).toBeNull();
    }
    const full = r.received.find((x) => x.body.job.name === 'Linked Job')!.body.job;
    expect(full).toMatchObject({
      location_id: site.body.data.id,
      location_external_ref: 'SITE-7',
      client_account_id: cust.body.data.id,
      client_account_external_ref: 'CUST-7',
      site_id: String(site.body.data.id),
    });
  });

  it("assigned_to follows the job's owner", async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    const member = await t.user(w.firmId, { name: 'Morgan Member', email: 'morgan@example.com', role: 'member' });
    await subscribe(w, { target_url: r.url, event_type: 'job_created' });
    await makeJob(w, { name: 'Assigned', assigned_to_user_id: member.id });
    await wk.drain();
    expect(r.received[0]!.body.job.assigned_to).toEqual({
      id: member.id,
      name: 'Morgan Member',
      email: 'morgan@example.com',
    });
    expect(r.received[0]!.body.job.assigned_to_user_id).toBe(member.id);
  });

  it('proposal_sent (recordProposalEvent): the job payload plus the proposal object', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: '*' });
    const job = await makeJob(w, { name: 'Proposal Job', status: 'active' });
    await wk.drain();
    r.received.length = 0;
    const proposal = {
      id: 501,
      kind: 'estimate_proposal',
      title: 'Parking lot sealcoat',
      status: 'sent',
      total: 18450.75,
      sent_at: '2026-11-21T10:00:00Z',
      actor_user_id: w.ownerId,
    };
    await t.database.db
      .transaction()
      .execute((trx) => recordProposalEvent(trx, w.firmId, job.id, 'proposal_sent', proposal));
    await wk.drain();
    expect(r.received).toHaveLength(1);
    const { headers, body } = r.received[0]!;
    expect(headers['x-service-event']).toBe('proposal_sent');
    expect(Object.keys(body).sort()).toEqual([...JOB_EVENT_KEYS, 'proposal'].sort());
    expect(body).toEqual({
      event_type: 'proposal_sent',
      event_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(MICRO_Z),
      firm_id: w.firmId,
      status_changed: false,
      previous_status: 'active',
      current_status: 'active',
      job: expectedJob(await currentJob(w, job.id)),
      proposal,
    });
    expect(Object.keys(body.proposal).sort()).toEqual([
      'actor_user_id',
      'id',
      'kind',
      'sent_at',
      'status',
      'title',
      'total',
    ]);
    // Proposal events are webhook only: not in the feed.
    expect((await feedOf(w)).some((e) => e.event_type.startsWith('proposal_'))).toBe(false);
  });

  it('each proposal event reaches its own subscription and *; all never gets them', async () => {
    const w = await t.workspace();
    const star = await receiver('/star');
    const accepted = await receiver('/accepted');
    const all = await receiver('/all');
    await subscribe(w, { target_url: star.url, event_type: '*' });
    await subscribe(w, { target_url: accepted.url, event_type: 'proposal_accepted' });
    await subscribe(w, { target_url: all.url, event_type: 'all' });
    const wk = worker();
    const job = await makeJob(w, { name: 'Proposal Lifecycle' });
    await wk.drain();
    star.received.length = 0;
    const base = { id: 9, kind: 'k', title: null, total: null, sent_at: null, actor_user_id: null };
    for (const [type, status] of [
      ['proposal_sent', 'sent'],
      ['proposal_viewed', 'viewed'],
      ['proposal_accepted', 'accepted'],
      ['proposal_declined', 'declined'],
    ] as const) {
      await t.database.db
        .transaction()
        .execute((trx) => recordProposalEvent(trx, w.firmId, job.id, type, { ...base, status }));
    }
    await wk.drain();
    expect(sorted(star.received.map((x) => x.body.event_type))).toEqual([
      'proposal_accepted',
      'proposal_declined',
      'proposal_sent',
      'proposal_viewed',
    ]);
    expect(accepted.received.map((x) => [x.body.event_type, x.body.proposal.status])).toEqual([
      ['proposal_accepted', 'accepted'],
    ]);
    expect(all.received).toEqual([]);
    for (const x of star.received)
      expect(x.body.proposal).toEqual({ ...base, status: x.body.event_type.slice('proposal_'.length) });
  });

  it('a proposal event rolled back with its transaction queues nothing', async () => {
    const w = await t.workspace();
    const r = await receiver();
    const wk = worker();
    await subscribe(w, { target_url: r.url, event_type: 'proposal_sent' });
    const job = await makeJob(w, { name: 'Rolled Back' });
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordProposalEvent(trx, w.firmId, job.id, 'proposal_sent', {
          id: 1,
          kind: 'k',
          title: 't',
          status: 'sent',
          total: 1,
          sent_at: null,
          actor_user_id: null,
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await wk.drain();
    expect(r.received).toEqual([]);
    expect(await deliveriesOf(w)).toEqual([]);
  });
});
