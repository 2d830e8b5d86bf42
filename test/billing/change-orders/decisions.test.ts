// Sending, deciding, stages and void over HTTP (document 3: Change order state table; send
// EMAILS CUSTOMER, against a real SMTP server on loopback; approval posts to the job's contract
// and budget and fires change_order_approved with document 1's data fields).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { job, ok } from '#test/helpers/records.ts';
import { startSmtpPeer, type SmtpPeer } from '#test/helpers/smtp.ts';
import {
  addLine,
  changeOrder,
  feedOf,
  jobWithContact,
  operationsWorkspace,
  wonJob,
} from '#test/helpers/scenarios/change-order.ts';

let peer: SmtpPeer;
let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  peer = await startSmtpPeer();
  t = await startApp({ mail: peer.transport('office@groundwork.test', 5_000) });
  w = await operationsWorkspace(t, { name: 'Acme Paving' });
});
afterAll(async () => {
  await t.close();
  await peer.close();
});

const cents = (n: number) => Math.round(n * 100);

describe('POST /v1/change-orders/{id}/send', () => {
  it('emails the customer the review-and-sign link: draft → sent in the sent stage; a re-send keeps the link', async () => {
    const j = await jobWithContact(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Extra patching', amount_delta: 1250, days_delta: 2 });
    const before = peer.received.length;
    const res = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
    expect(res).toMatchObject({
      emailed: true,
      message: null,
      data: { status: 'sent', stage: 'sent', stage_label: 'Sent' },
    });
    expect(res.url).toMatch(/\/share\/change-orders\/[A-Za-z0-9_-]{43}$/);
    expect(res.data.share_url).toBe(res.url);
    expect(res.data.sent_at).not.toBeNull();
    const [mail] = (await peer.waitFor(before + 1)).slice(before);
    expect(mail.envelopeTo).toEqual([j.contact_email]);
    expect(mail.parsed.subject).toBe('Acme Paving: change order #1 — Extra patching');
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Acme Paving', address: 'office@groundwork.test' });
    expect(mail.parsed.text).toContain(res.url);
    expect(mail.parsed.text).toContain('Price change: +$1,250.00');
    expect(mail.parsed.text).toContain('Schedule change: +2 days');
    expect(mail.parsed.html).toContain(res.url);

    const again = await ok(w.api.post(`/v1/change-orders/${co.id}/send`, {}));
    expect(again).toMatchObject({ url: res.url, emailed: true, data: { status: 'sent', sent_at: res.data.sent_at } });
    expect((await peer.waitFor(before + 2))[before + 1].envelopeTo).toEqual([j.contact_email]);
  });

  it('with no customer email: 200 emailed false, the link made and the change order sent', async () => {
    const j = await job(w);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'No email' });
    expect(co.customer_email).toBeNull();
    const before = peer.received.length;
    const res = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
    expect(res).toMatchObject({ emailed: false, data: { status: 'sent', share_url: res.url } });
    expect(res.message).toContain('customer_email');
    expect(peer.received.length).toBe(before);
  });

  it('502 when the mail server refuses: the change order stays a draft', async () => {
    const j = await jobWithContact(w.api, { contact_email: 'bounce-co@example.com' });
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Bounce' });
    peer.refuse.add('bounce-co@example.com');
    try {
      const res = await w.api.post(`/v1/change-orders/${co.id}/send`);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        error: 'Change order email not delivered',
        code: 'mail_not_delivered',
        retryable: false,
      });
      expect((await ok(w.api.get(`/v1/change-orders/${co.id}`))).data).toMatchObject({
        status: 'draft',
        stage: 'estimating',
        sent_at: null,
      });
    } finally {
      peer.refuse.delete('bounce-co@example.com');
    }
  });

  it('a decided change order is 400; a void one is 400', async () => {
    const j = await job(w);
    const approved = await changeOrder(w.api, { job_id: j.id, title: 'A' });
    await ok(w.api.post(`/v1/change-orders/${approved.id}/approve`));
    const res = await w.api.post(`/v1/change-orders/${approved.id}/send`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'change order already decided',
      code: 'change_order_decided',
      status: 'approved',
    });
    const voided = await changeOrder(w.api, { job_id: j.id, title: 'V' });
    await ok(w.api.post(`/v1/change-orders/${voided.id}/void`));
    expect((await w.api.post(`/v1/change-orders/${voided.id}/send`)).body.code).toBe('change_order_void');
  });
});

describe('approve and decline', () => {
  it("approval posts to the job's contract and budget and fires change_order_approved once", async () => {
    const { job: j, estimate } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Extra lot', amount_delta: 1000.5, days_delta: 3 });
    expect(co.revised_contract).toBe((cents(estimate.totals!.price) + 100050) / 100);
    const res = await ok(w.api.post(`/v1/change-orders/${co.id}/approve`, { comment: 'Agreed on site' }));
    expect(res.data).toMatchObject({
      status: 'approved',
      stage: 'approved',
      approval_source: 'office',
      decision_comment: 'Agreed on site',
      signature_name: null,
      signed_at: null,
      revised_contract: (cents(estimate.totals!.price) + 100050) / 100,
      revised_budget: estimate.totals!.cost,
    });
    expect(res.data.approved_at).not.toBeNull();
    const events = (await feedOf(w, 'change_order_approved')).filter((e) => e.entity.id === co.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity: { type: 'change_order', id: co.id },
      data: {
        change_order_id: co.id,
        number: 1,
        title: 'Extra lot',
        amount_delta: 1000.5,
        tax_delta: 0,
        days_delta: 3,
        kind: 'quick',
      },
    });
    const posted = await t.database.db
      .selectFrom('job_contracts')
      .selectAll()
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(posted).toMatchObject({ approved_amount_cents: 100050, approved_days: 3, approved_count: 1 });

    // The next change order's revised contract starts from the posted one.
    const next = await changeOrder(w.api, { job_id: j.id, title: 'Then', amount_delta: 10 });
    expect(next.revised_contract).toBe((cents(estimate.totals!.price) + 100050 + 1000) / 100);

    const twice = await w.api.post(`/v1/change-orders/${co.id}/approve`);
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('change_order_decided');
    expect((await w.api.post(`/v1/change-orders/${co.id}/decline`)).body.code).toBe('change_order_decided');
    expect((await feedOf(w, 'change_order_approved')).filter((e) => e.entity.id === co.id)).toHaveLength(1);
  });

  it('a priced approval freezes the estimate figures; later estimate edits change nothing', async () => {
    const { job: j } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, kind: 'tm', title: 'T&M', days_delta: 1 });
    await addLine(w.api, co.ep_estimate_id!, {
      name: 'Labor',
      quantity: 10,
      unit: 'HR',
      unit_cost: 60,
      cost_code: '01-000',
    });
    const priced = (await ok(w.api.get(`/v1/estimates/${co.ep_estimate_id}`))) as any;
    const approved = (await ok(w.api.post(`/v1/change-orders/${co.id}/approve`))).data;
    expect(approved).toMatchObject({ amount_delta: priced.totals.price, cost_delta: priced.totals.cost });
    const event = (await feedOf(w, 'change_order_approved')).find((e) => e.entity.id === co.id);
    expect(event.data).toMatchObject({ amount_delta: priced.totals.price, tax_delta: priced.totals.tax, kind: 'tm' });
    await addLine(w.api, co.ep_estimate_id!, {
      name: 'More labor',
      quantity: 10,
      unit: 'HR',
      unit_cost: 60,
      cost_code: '01-000',
    });
    const later = (await ok(w.api.get(`/v1/change-orders/${co.id}`))).data;
    expect(later).toEqual(approved);
  });

  it('decline records the office decision with its comment; a declined one cannot be approved', async () => {
    const j = await job(w);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Maybe' });
    await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
    const res = await ok(w.api.post(`/v1/change-orders/${co.id}/decline`, { comment: 'Over budget' }));
    expect(res.data).toMatchObject({
      status: 'declined',
      stage: 'declined',
      decision_comment: 'Over budget',
      revised_contract: null,
      approval_source: null,
    });
    expect(res.data.declined_at).not.toBeNull();
    expect((await w.api.post(`/v1/change-orders/${co.id}/approve`)).status).toBe(400);
    expect((await w.api.raw.post(`/v1/change-orders/${co.id}/decline`, { reason: 'x' })).status).toBe(400);
    expect(await feedOf(w, 'change_order_approved')).not.toContainEqual(
      expect.objectContaining({ entity: { type: 'change_order', id: co.id } }),
    );
  });

  it('two approvals at once: one approves, the other is 400, one event', async () => {
    const j = await job(w);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Race', amount_delta: 5 });
    const answers = await Promise.all([
      w.api.post(`/v1/change-orders/${co.id}/approve`),
      w.api.post(`/v1/change-orders/${co.id}/approve`),
      w.api.post(`/v1/change-orders/${co.id}/decline`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    // The one that won decides; an approval is recorded exactly once, a decline never.
    const winner = answers.find((a) => a.status === 200)!.body.data;
    const events = (await feedOf(w, 'change_order_approved')).filter((e) => e.entity.id === co.id);
    expect(events).toHaveLength(winner.status === 'approved' ? 1 : 0);
    expect((await ok(w.api.get(`/v1/change-orders/${co.id}`))).data.status).toBe(winner.status);
  });
});

describe('POST /v1/change-orders/{id}/stage', () => {
  it('moves through the stages: the meaning sets the status; sent makes the link without an email', async () => {
    const j = await jobWithContact(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Staged', amount_delta: 20 });
    expect((await ok(w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'review' }))).data).toMatchObject({
      stage: 'review',
      stage_label: 'Review',
      status: 'draft',
    });
    const before = peer.received.length;
    const sent = (await ok(w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'sent' }))).data;
    expect(sent).toMatchObject({ stage: 'sent', status: 'sent' });
    expect(sent.share_url).toMatch(/\/share\/change-orders\//);
    expect(sent.sent_at).not.toBeNull();
    expect(peer.received.length).toBe(before);
    const back = (await ok(w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'ready_to_send' }))).data;
    expect(back).toMatchObject({ stage: 'ready_to_send', status: 'draft', share_url: sent.share_url });
    const approved = (await ok(w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'approved' }))).data;
    expect(approved).toMatchObject({ status: 'approved', approval_source: 'office' });
    expect((await feedOf(w, 'change_order_approved')).some((e) => e.entity.id === co.id)).toBe(true);
    const closed = await w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'review' });
    expect(closed.status).toBe(400);
    expect(closed.body.code).toBe('change_order_decided');

    const other = await changeOrder(w.api, { job_id: j.id, title: 'Declined by stage' });
    expect((await ok(w.api.post(`/v1/change-orders/${other.id}/stage`, { stage: 'declined' }))).data).toMatchObject({
      status: 'declined',
      stage: 'declined',
    });
  });

  it('an unknown stage key is 400 naming the keys; a missing or extra field is 400', async () => {
    const co = await changeOrder(w.api, { job_id: (await job(w)).id, title: 'S' });
    const res = await w.api.post(`/v1/change-orders/${co.id}/stage`, { stage: 'paid' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'unknown stage key', code: 'unknown_stage', field: 'stage' });
    expect(res.body.stages).toContain('ready_to_send');
    expect((await w.api.raw.post(`/v1/change-orders/${co.id}/stage`, {})).status).toBe(400);
    expect((await w.api.raw.post(`/v1/change-orders/${co.id}/stage`, { stage: 'review', note: 'x' })).status).toBe(400);
  });
});

describe('POST /v1/change-orders/{id}/void', () => {
  it('keeps its number; voiding an approved quick one takes back what it posted', async () => {
    const { job: j, estimate } = await wonJob(w.api);
    const draft = await changeOrder(w.api, { job_id: j.id, title: 'Never mind' });
    const voided = (await ok(w.api.post(`/v1/change-orders/${draft.id}/void`))).data;
    expect(voided).toMatchObject({ status: 'void', co_number: 1, revised_contract: null });
    expect(voided.voided_at).not.toBeNull();
    const next = await changeOrder(w.api, { job_id: j.id, title: 'Next', amount_delta: 500 });
    expect(next.co_number).toBe(2);
    await ok(w.api.post(`/v1/change-orders/${next.id}/approve`));
    await ok(w.api.post(`/v1/change-orders/${next.id}/void`));
    const third = await changeOrder(w.api, { job_id: j.id, title: 'Third', amount_delta: 1 });
    expect(third.revised_contract).toBe((cents(estimate.totals!.price) + 100) / 100);
    const posted = await t.database.db
      .selectFrom('job_contracts')
      .selectAll()
      .where('job_id', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(posted).toMatchObject({ approved_amount_cents: 0, approved_count: 0 });

    const again = await w.api.post(`/v1/change-orders/${draft.id}/void`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
  });

  it('an approved priced change order is 409; a declined one can be voided', async () => {
    const { job: j } = await wonJob(w.api);
    const tm = await changeOrder(w.api, { job_id: j.id, kind: 'tm' });
    await ok(w.api.post(`/v1/change-orders/${tm.id}/approve`));
    const res = await w.api.post(`/v1/change-orders/${tm.id}/void`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'An approved priced change order cannot be voided',
      code: 'approved_priced_change_order',
    });
    const declined = await changeOrder(w.api, { job_id: j.id, title: 'D' });
    await ok(w.api.post(`/v1/change-orders/${declined.id}/decline`));
    expect((await ok(w.api.post(`/v1/change-orders/${declined.id}/void`))).data.status).toBe('void');
  });
});
