// The office hears when a customer acts (docs/api-decisions.md, "Customer alerts"; crm/customer-
// alerts): accepting or declining a proposal, paying an invoice online, signing or declining a
// change order, a portal message, a map comment and a review each queue one mail to the job's
// assignee (else the workspace's owners), in the action's own transaction, never to the customer.
// Each is driven through its customer page over HTTP; the mail is read from the queue and, once the
// worker sent it, from the outbox's .eml files.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox, readOutboxMessage } from '#platform/mail/outbox.ts';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { pageVisitor } from '#test/helpers/page-visitor.ts';
import { account, job, ok } from '#test/helpers/records.ts';
import { changeOrder, wonJob } from '#test/helpers/scenarios/change-order.ts';
import { documentHashIn, proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

let t: TestApp;
let w: Workspace;
let estimator: { id: number; key: string };

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    name: 'Blacktop Brothers',
    timezone: 'America/Chicago',
    settings: { online_payments_connected: true, operations_enabled: true, customer_portal_enabled: true },
  });
  estimator = await t.user(w.firmId, { name: 'Jamie Estimator', email: 'jamie@blacktop.test' });
});
afterAll(() => t?.close());

const { getPage, post } = pageVisitor(() => t, 'Mozilla/5.0 (customer-alerts test)');

/** The queued mail about one record, oldest first. */
const mailsAbout = (ref: string) =>
  t.database.db.selectFrom('outgoing_mail').selectAll().where('ref', '=', ref).orderBy('id').execute();

const assignTo = (jobId: number, userId: number) =>
  ok(w.api.patch(`/v1/jobs/${jobId}`, { assigned_to_user_id: userId }));

/** Sends what is queued and answers the parsed .eml files of the outbox sent to `to`. */
async function sentTo(to: string) {
  await t.sendQueuedMail();
  const parsed = await Promise.all(
    (await listOutbox(t.dataDir)).map(async (m) => simpleParser((await readOutboxMessage(t.dataDir, m.name))!)),
  );
  return parsed.filter((m) => m.to && !Array.isArray(m.to) && m.to.value.some((a) => a.address === to));
}

describe('proposals', () => {
  it('accepting alerts the assignee with the total, deposit and signer; a second answer alerts nobody', async () => {
    const m = await proposalOnJob(w, { patch: { deposit_percent: 25 } });
    await assignTo(m.job.id, estimator.id);
    const page = (await getPage(m.path)).text;
    const form = {
      document_hash: documentHashIn(page),
      signer_name: 'Robin Vega',
      signer_email: 'robin.signer@example.com',
      consent: 'yes',
      signature: '',
    };
    expect((await post(`${m.path}/accept`, form)).status).toBe(303);
    expect((await post(`${m.path}/accept`, form)).status).toBe(409);

    const queued = await mailsAbout(`proposal:${m.proposal.id}`);
    expect(queued.map((q) => [q.kind, q.to_address, q.reply_to])).toEqual([
      ['proposal_accepted_alert', 'jamie@blacktop.test', null],
    ]);
    const number = m.proposal.doc_number;
    expect(queued[0].subject).toBe(`${m.job.company} accepted proposal ${number}`);
    const total = m.proposal.totals.total.toLocaleString('en-US', { minimumFractionDigits: 2 });
    const deposit = (await ok(w.api.get(`/v1/proposals/${m.proposal.id}`))).data.totals.deposit!.toLocaleString(
      'en-US',
      { minimumFractionDigits: 2 },
    );
    const text = queued[0].text_body;
    expect(text).toContain('Hi Jamie Estimator,');
    expect(text).toMatch(new RegExp(`${m.job.company} accepted proposal ${number} on job \\d+, ${m.job.name}\\.`));
    expect(text).toContain(`Total: $${total}`);
    expect(text).toContain(`Deposit due: $${deposit}`);
    expect(text).toContain('Signed by: Robin Vega (robin.signer@example.com)');
    expect(text).toContain('Job stage: lead → won');
    expect(text).toMatch(/When: \w{3}, \w{3} \d+, \d{4} at \d+:\d{2} [AP]M \(America\/Chicago\)/);
    expect(text).toContain(`In the API: GET /v1/proposals/${m.proposal.id} · GET /v1/proposals/${m.proposal.id}/pdf`);

    // The worker sends it: From the workspace, to the assignee only.
    const [sent] = (await sentTo('jamie@blacktop.test')).filter((s) => s.subject?.includes('accepted proposal'));
    expect(sent?.from?.value[0]?.name).toBe('Blacktop Brothers');
    expect(sent?.text).toContain(`Total: $${total}`);
    expect(sent?.html).toContain('Robin Vega (robin.signer@example.com)');
    expect(await sentTo('robin.signer@example.com')).toEqual([]);
    expect((await sentTo(m.job.contact_email!)).filter((s) => s.subject?.includes('accepted'))).toEqual([]);
  });

  it('declining alerts the assignee with the total and the reason quoted', async () => {
    const m = await proposalOnJob(w);
    await assignTo(m.job.id, estimator.id);
    await getPage(m.path);
    expect((await post(`${m.path}/decline`, { reason: 'Went with a cheaper bid' })).status).toBe(303);
    const [alert, ...more] = await mailsAbout(`proposal:${m.proposal.id}`);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'proposal_declined_alert',
      to_address: 'jamie@blacktop.test',
      subject: `${m.job.company} declined proposal ${m.proposal.doc_number}`,
    });
    expect(alert!.text_body).toContain('“Went with a cheaper bid”');
    expect(alert!.text_body).toContain(
      `Total: $${m.proposal.totals.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
  });
});

describe('invoices', () => {
  it('an online payment alerts the assignee with the amount paid, once per payment', async () => {
    const m = await proposalOnJob(w);
    await assignTo(m.job.id, estimator.id);
    const { invoice, payment_url } = (
      await ok(w.api.post(`/v1/estimates/${m.proposal.estimate_id}/request-payment`, { kind: 'full' }))
    ).data;
    const path = new URL(payment_url).pathname;
    const form = (await getPage(`${path}/pay`)).text;
    const attempt = /name="attempt" value="([0-9a-f]{32})"/.exec(form)![1]!;
    const card = { attempt, number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Robin Vega' };
    expect((await post(`${path}/pay`, card)).status).toBe(303);
    expect((await post(`${path}/pay`, card)).status).toBe(303);

    const queued = await mailsAbout(`invoice:${invoice.id}`);
    const amount = `$${invoice.amount.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(queued.map((q) => [q.kind, q.to_address, q.subject])).toEqual([
      ['invoice_paid_alert', 'jamie@blacktop.test', `${m.job.company} paid invoice ${invoice.doc_number} (${amount})`],
    ]);
    expect(queued[0]!.text_body).toContain(`Amount paid: ${amount} USD`);
    expect(queued[0]!.text_body).toContain('Paid online with: Test mode (no money moved)');
    expect(queued[0]!.text_body).toContain(`GET /v1/invoices/${invoice.id}`);
  });
});

describe('change orders', () => {
  async function sent(title: string, amount: number) {
    const { job: j } = await wonJob(w.api, { company: 'Northgate Plaza' });
    await assignTo(j.id, estimator.id);
    const co = await changeOrder(w.api, { job_id: j.id, title, amount_delta: amount, days_delta: 2 });
    const r = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
    return { job: j, co, path: new URL(r.url).pathname };
  }

  it('signing alerts the assignee with the change and the new contract total', async () => {
    const { co, path } = await sent('Extra patching', 1250);
    const page = (await getPage(path)).text;
    const hash = /name="document_hash" value="([0-9a-f]{64})"/.exec(page)![1]!;
    const signed = await post(`${path}/approve`, {
      document_hash: hash,
      signature_name: 'Marcus Lee',
      consent: 'yes',
      signature: '',
    });
    expect(signed.status).toBe(303);
    const detail = (await ok(w.api.get(`/v1/change-orders/${co.id}`))).data;
    const [alert, ...more] = await mailsAbout(`change_order:${co.id}`);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'change_order_approved_alert',
      to_address: 'jamie@blacktop.test',
      subject: `Northgate Plaza signed change order ${co.co_number}`,
    });
    expect(alert!.text_body).toContain('Price change: +$1,250.00');
    expect(alert!.text_body).toContain('Schedule change: +2 days');
    expect(alert!.text_body).toContain(
      `New contract total: $${detail.revised_contract!.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    expect(alert!.text_body).toContain('Signed by: Marcus Lee');
    expect(alert!.text_body).toContain(`GET /v1/change-orders/${co.id}`);
  });

  it('declining alerts the assignee with the comment', async () => {
    const { co, path } = await sent('Regrade the swale', 900);
    await getPage(path);
    expect((await post(`${path}/decline`, { comment: 'Not this year' })).status).toBe(303);
    const [alert, ...more] = await mailsAbout(`change_order:${co.id}`);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'change_order_declined_alert',
      subject: `Northgate Plaza declined change order ${co.co_number}`,
    });
    expect(alert!.text_body).toContain('“Not this year”');
    expect(alert!.text_body).toContain('Price change: +$900.00');
  });
});

describe('the portal and reviews', () => {
  it('a portal message and a map comment alert the assignee with the text; the office’s own message alerts nobody', async () => {
    const customer = await account(w, 'Maple Ridge HOA');
    const lot = await job(w, { name: 'Clubhouse lot', client_account_id: customer.id });
    await assignTo(lot.id, estimator.id);
    await ok(w.api.post(`/v1/jobs/${lot.id}/portal-messages`, { body: 'We start Monday.' }));
    const portal = new URL(
      (await ok(w.api.post(`/v1/client-accounts/${customer.id}/portal-link`, {}))).data.portal_url!,
    ).pathname;
    expect((await post(`${portal}/jobs/${lot.id}/messages`, { body: 'Can you start at 8?' })).status).toBe(303);
    expect(
      (
        await post(`${portal}/jobs/${lot.id}/map-comments`, {
          body: 'Pothole here',
          latitude: '39.78',
          longitude: '-89.65',
        })
      ).status,
    ).toBe(303);
    const alerts = await t.database.db
      .selectFrom('outgoing_mail')
      .selectAll()
      .where('ref', 'like', 'portal_message:%')
      .where('firm_id', '=', w.firmId)
      .orderBy('id')
      .execute();
    expect(alerts.map((a) => [a.kind, a.to_address, a.subject])).toEqual([
      ['portal_message_alert', 'jamie@blacktop.test', 'Maple Ridge HOA wrote in the portal'],
      ['map_comment_alert', 'jamie@blacktop.test', 'Maple Ridge HOA commented on the site map'],
    ]);
    expect(alerts[0]!.text_body).toContain('“Can you start at 8?”');
    expect(alerts[1]!.text_body).toContain('“Pothole here”');
    expect(alerts[1]!.text_body).toContain('Map point: 39.78, -89.65');
    expect(alerts[1]!.text_body).toContain(`GET /v1/jobs/${lot.id}/portal-messages`);
  });

  it('a review alerts the assignee with the stars and the words', async () => {
    const j = await job(w, { name: 'Oak St lot', company: 'Oak St Church', contact_name: 'Dana Reyes' });
    await assignTo(j.id, estimator.id);
    const review = (await ok(w.api.post(`/v1/jobs/${j.id}/review-request`, {}))).data;
    const path = new URL(review.review_url).pathname;
    expect((await post(path, { rating: '4', content: 'Great crew', is_public: 'yes' })).status).toBe(303);
    const [alert, ...more] = await mailsAbout(`review:${review.id}`);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'review_alert',
      to_address: 'jamie@blacktop.test',
      subject: 'Oak St Church left a 4-star review',
    });
    expect(alert!.text_body).toContain('“Great crew”');
    expect(alert!.text_body).toContain('Rating: ★★★★☆ (4 of 5)');
    expect(alert!.text_body).toContain('May be shown publicly: Yes');
  });
});

describe('who is told', () => {
  it('when the assignee was removed, the workspace’s owners who can be mailed; a removed owner and one without an address are skipped', async () => {
    const ws = await t.workspace({ name: 'Owners Paving' });
    await t.user(ws.firmId, { name: 'Pat Partner', email: 'pat@owners.test', role: 'owner' });
    const gone = await t.user(ws.firmId, { name: 'Gone Owner', email: 'gone@owners.test', role: 'owner' });
    const blank = await t.user(ws.firmId, { name: 'No Mail Owner', email: 'blank@owners.test', role: 'owner' });
    // The API always takes an address; a row imported without one has none.
    await t.database.db.updateTable('users').set({ email: '' }).where('id', '=', blank.id).execute();
    const rep = await t.user(ws.firmId, { name: 'Rep Leaving', email: 'rep@owners.test' });
    const j = await job(ws, { name: 'Pool deck', company: 'Lakeside Club' });
    await ok(ws.api.patch(`/v1/jobs/${j.id}`, { assigned_to_user_id: rep.id }));
    for (const id of [rep.id, gone.id])
      expect((await t.admin.delete(`/admin/v1/workspaces/${ws.firmId}/users/${id}`)).status).toBe(200);
    const review = (await ok(ws.api.post(`/v1/jobs/${j.id}/review-request`, {}))).data;
    expect((await post(new URL(review.review_url).pathname, { rating: '5' })).status).toBe(303);
    const owner = (await ok(t.admin.get(`/admin/v1/workspaces/${ws.firmId}/users`))).data.find(
      (u: any) => u.id === ws.ownerId,
    );
    const alerts = await mailsAbout(`review:${review.id}`);
    expect(alerts.map((a) => a.to_address)).toEqual([owner.email, 'pat@owners.test']);
    expect(alerts.every((a) => a.subject === 'Lakeside Club left a 5-star review')).toBe(true);
  });
});
