// POST /v1/proposals/{id}/send against a real SMTP server on loopback (test/helpers/smtp.ts):
// the customer's email (link, footer, Reply-To the sender), draft → sent with one proposal_sent,
// re-sends without a second event, the alternate recipient, 422 without an address, 502 with
// nothing recorded when the server refuses, the send-approval limit (send and share-link) and the owner's approval, and
// the follow-up sequence a send starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { startSmtpPeer, type SmtpPeer } from '#test/helpers/smtp.ts';

let peer: SmtpPeer;
let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await startApp({ mail: peer.transport('proposals@groundwork.test', 5_000) });
  w = await t.workspace({ name: 'Acme Paving' });
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

let serial = 0;
async function draft(api = w.api, email: string | null = 'customer@example.com') {
  const n = ++serial;
  const job = (
    await api.post('/v1/jobs', {
      name: `Send job ${n}`,
      contact_name: 'Dana Customer',
      ...(email ? { contact_email: email } : {}),
    })
  ).body.data;
  const e = (await api.post('/v1/estimates', { job_id: job.id })).body.data;
  await api.post(`/v1/estimates/${e.id}/line-items`, {
    name: 'Sealcoat',
    unit: 'SF',
    quantity: 10_000,
    unit_cost: 0.25,
  });
  const p = await api.post(`/v1/estimates/${e.id}/proposal`);
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  return { job, proposal: p.body.data };
}

const proposalEvents = async (jobId: number) =>
  (await eventsOf(t.database, jobId)).filter((e) => e.event_type.startsWith('proposal_'));

describe('send', () => {
  it('emails the customer the link; draft → sent with one proposal_sent; a re-send sends again without another event', async () => {
    const { job, proposal } = await draft();
    const before = peer.received.length;
    const r = await w.api.post(`/v1/proposals/${proposal.id}/send`, { message: 'As we discussed on site.' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ emailed: true, data: { status: 'sent', sent_to: 'customer@example.com' } });
    expect(r.body.data.sent_at).toMatch(/Z$/);
    const [mail] = (await peer.waitFor(before + 1)).slice(before);
    expect(mail.envelopeTo).toEqual(['customer@example.com']);
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Acme Paving', address: 'proposals@groundwork.test' });
    const owner = await t.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', w.ownerId)
      .executeTakeFirstOrThrow();
    expect(mail.parsed.replyTo?.value[0].address).toBe(owner.email);
    expect(mail.parsed.text).toContain(proposal.share_url);
    expect(mail.parsed.text).toContain('As we discussed on site.');
    expect(mail.parsed.html).toContain(proposal.share_url);
    expect(mail.parsed.text).toContain('Acme Paving');
    expect(mail.parsed.messageId).toMatch(/@groundwork\.test>?$/);

    const events = await proposalEvents(job.id);
    expect(events.map((e) => e.event_type)).toEqual(['proposal_sent']);
    expect(events[0].in_feed).toBe(0);
    expect(events[0].data).toMatchObject({
      status_changed: false,
      previous_status: job.status,
      current_status: job.status,
      proposal: {
        id: proposal.id,
        kind: 'estimate_proposal',
        title: proposal.title,
        status: 'sent',
        total: proposal.totals.total,
        sent_at: r.body.data.sent_at,
        actor_user_id: w.ownerId,
      },
    });

    const again = await w.api.post(`/v1/proposals/${proposal.id}/send`, { to: 'boss@example.com' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      status: 'sent',
      sent_at: r.body.data.sent_at,
      sent_to: 'boss@example.com',
    });
    const second = (await peer.waitFor(before + 2))[before + 1];
    expect(second.envelopeTo).toEqual(['boss@example.com']);
    expect((await proposalEvents(job.id)).length).toBe(1);
  });

  it('422 without an address; 400 for a bad alternate; 409 for a void or decided proposal or an inactive link', async () => {
    const { proposal } = await draft(w.api, null);
    const none = await w.api.post(`/v1/proposals/${proposal.id}/send`, {});
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error: 'proposal has no client_email', code: 'no_customer_email' });
    expect((await w.api.post(`/v1/proposals/${proposal.id}/send`, { to: 'nope' })).status).toBe(400);
    await w.api.patch(`/v1/proposals/${proposal.id}/link`, { enabled: false });
    const off = await w.api.post(`/v1/proposals/${proposal.id}/send`, { to: 'x@example.com' });
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('link_invalid');
    await w.api.post(`/v1/proposals/${proposal.id}/void`);
    expect((await w.api.post(`/v1/proposals/${proposal.id}/send`, { to: 'x@example.com' })).body.code).toBe(
      'proposal_void',
    );
    const after = (await w.api.get(`/v1/proposals/${proposal.id}`)).body.data;
    expect(after.sent_at).toBeNull();
  });

  it('502 and nothing recorded when the mail server refuses the recipient', async () => {
    const { job, proposal } = await draft(w.api, 'bounce@example.com');
    peer.refuse.add('bounce@example.com');
    try {
      const r = await w.api.post(`/v1/proposals/${proposal.id}/send`, {});
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({
        error: 'Proposal email not delivered',
        code: 'mail_not_delivered',
        retryable: false,
      });
      const after = (await w.api.get(`/v1/proposals/${proposal.id}`)).body.data;
      expect(after).toMatchObject({ status: 'draft', sent_at: null, sent_to: null, updated_at: proposal.updated_at });
      expect(await proposalEvents(job.id)).toEqual([]);
    } finally {
      peer.refuse.delete('bounce@example.com');
    }
  });

  it('over the sender’s limit: 409 approval_required, pending until an owner approves; then it sends', async () => {
    const rep = await t.user(w.firmId, { name: 'Rep', email: 'rep@example.com', proposal_send_limit: 1000 });
    const { proposal } = await draft(rep.api);
    expect(proposal.totals.total).toBeGreaterThan(1000);
    const r = await rep.api.post(`/v1/proposals/${proposal.id}/send`, {});
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      code: 'approval_required',
      approval_status: 'pending',
      send_limit: 1000,
      total: proposal.totals.total,
    });
    const pending = (await w.api.get(`/v1/proposals/${proposal.id}`)).body.data;
    expect(pending).toMatchObject({
      status: 'draft',
      approval_status: 'pending',
      approval: { requested_by_user_id: rep.id },
    });

    const notOwner = await rep.api.post(`/v1/proposals/${proposal.id}/approval`, { decision: 'approve' });
    expect(notOwner.status).toBe(403);
    const rejected = await w.api.post(`/v1/proposals/${proposal.id}/approval`, {
      decision: 'reject',
      note: 'Price too low',
    });
    expect(rejected.body.data).toMatchObject({
      approval_status: 'rejected',
      approval: { decided_by_user_id: w.ownerId, note: 'Price too low' },
    });
    expect((await w.api.post(`/v1/proposals/${proposal.id}/approval`, { decision: 'approve' })).body.code).toBe(
      'approval_not_pending',
    );
    expect((await rep.api.post(`/v1/proposals/${proposal.id}/send`, {})).status).toBe(409);
    const approved = await w.api.post(`/v1/proposals/${proposal.id}/approval`, { decision: 'approve' });
    expect(approved.body.data.approval_status).toBe('approved');
    const sent = await rep.api.post(`/v1/proposals/${proposal.id}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'sent', approval_status: 'approved' });

    // The owner is never held by a limit.
    const own = await draft();
    expect((await w.api.post(`/v1/proposals/${own.proposal.id}/send`, {})).status).toBe(200);
  });

  it('share-link over the user’s limit: 409 approval_required, the link stays off the customer’s hands until an owner approves', async () => {
    const rep = await t.user(w.firmId, { name: 'Sharer', email: 'sharer@example.com', proposal_send_limit: 1000 });
    const { proposal } = await draft(rep.api);
    const r = await rep.api.post(`/v1/proposals/${proposal.id}/share-link`, { regenerate: true });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'approval_required', approval_status: 'pending', send_limit: 1000 });
    expect(r.body.url).toBeUndefined();
    // Nothing changed but the request for approval: the link was not regenerated.
    const pending = (await w.api.get(`/v1/proposals/${proposal.id}`)).body.data;
    expect(pending).toMatchObject({ status: 'draft', approval_status: 'pending', share_url: proposal.share_url });

    expect((await w.api.post(`/v1/proposals/${proposal.id}/approval`, { decision: 'approve' })).status).toBe(200);
    const shared = await rep.api.post(`/v1/proposals/${proposal.id}/share-link`, {});
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(shared.body.url).toBe(shared.body.data.share_url);
    // Under the limit, or the owner: no approval asked.
    const own = await draft();
    expect((await w.api.post(`/v1/proposals/${own.proposal.id}/share-link`, {})).status).toBe(200);
    const small = await t.user(w.firmId, { name: 'Big', email: 'big@example.com', proposal_send_limit: 1_000_000 });
    const mine = await draft(small.api);
    expect((await small.api.post(`/v1/proposals/${mine.proposal.id}/share-link`, {})).status).toBe(200);
  });

  it('starts the workspace’s follow-up sequence when it is on, unless asked not to', async () => {
    const settings = await w.api.put('/v1/follow-up-sequence-settings', {
      enabled: true,
      steps: [{ day: 3, kind: 'email', subject: 'Any questions?', body: 'Hi {{customer_name}}' }],
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const a = await draft();
    const r = await w.api.post(`/v1/proposals/${a.proposal.id}/send`, {});
    expect(r.body.follow_up_sequence).toEqual({ started: true, reason: null });
    expect((await w.api.get(`/v1/jobs/${a.job.id}/follow-up-sequence`)).body.data.running).toBe(true);
    const b = await draft();
    const r2 = await w.api.post(`/v1/proposals/${b.proposal.id}/send`, { start_follow_up_sequence: false });
    expect(r2.body.follow_up_sequence).toEqual({ started: false, reason: 'not_requested' });
    expect((await w.api.get(`/v1/jobs/${b.job.id}/follow-up-sequence`)).body.data.running).toBe(false);
    await w.api.put('/v1/follow-up-sequence-settings', { enabled: false });
  });
});
