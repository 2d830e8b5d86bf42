// A NUL character in a customer page's form (src/pages/pages.ts installs the text guard; pages/
// errors.ts answers it): PostgreSQL text cannot hold one and SQLite would store it, so every form a
// customer posts refuses it on both engines with a 400 HTML page, and nothing is stored: no
// message, no status change, no audit row, no alert. One case per form: the portal message and map
// comment, the proposal's accept and decline, the change order's approve and decline, the review.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { pageVisitor, type PageAnswer } from '#test/helpers/page-visitor.ts';
import { account, job, ok } from '#test/helpers/records.ts';
import { changeOrder, wonJob } from '#test/helpers/scenarios/change-order.ts';
import { documentHashIn, proposalOnJob } from '#test/helpers/scenarios/proposal.ts';

const NUL = '\u0000';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await t.workspace({
    name: 'Blacktop Brothers',
    settings: { operations_enabled: true, customer_portal_enabled: true },
  });
});
afterAll(() => t?.close());

const { getPage, post } = pageVisitor(() => t, 'Mozilla/5.0 (NUL form test)');

/** The refusal every form gives: the pages' 400 HTML page saying nothing was saved. */
function refused(r: PageAnswer) {
  expect(r.status).toBe(400);
  expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(r.headers['referrer-policy']).toBe('no-referrer');
  expect(r.text).toContain('<title>The form could not be sent</title>');
  expect(r.text).toContain('a NUL control character');
  expect(r.text).toContain('Nothing was saved.');
}

const mailCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('outgoing_mail')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the proposal page', () => {
  it('accept and decline with NUL in any field: 400, the proposal unanswered, no audit row, no file', async () => {
    const m = await proposalOnJob(w);
    const page = (await getPage(m.path)).text;
    const form = {
      document_hash: documentHashIn(page),
      signer_name: 'Robin Vega',
      signer_email: 'robin@example.com',
      consent: 'yes',
      signature: '',
    };
    const before = (await ok(w.api.get(`/v1/proposals/${m.proposal.id}`))).data;
    const mails = await mailCount();
    refused(await post(`${m.path}/accept`, { ...form, signer_name: `Robin${NUL} Vega` }));
    refused(await post(`${m.path}/accept`, { ...form, signer_email: `robin${NUL}@example.com` }));
    refused(await post(`${m.path}/accept`, { ...form, document_hash: `${form.document_hash}${NUL}` }));
    refused(await post(`${m.path}/decline`, { reason: `Too${NUL} expensive` }));

    const after = (await ok(w.api.get(`/v1/proposals/${m.proposal.id}`))).data;
    expect(after.status).toBe('viewed');
    expect(after.updated_at).toBe(before.updated_at);
    expect(after.signature.envelope.audit_trail).toEqual(before.signature.envelope.audit_trail);
    expect(after.signature.envelope.decline_reason).toBeNull();
    const files = (await ok(w.api.get(`/v1/jobs/${m.job.id}/files`))).data;
    expect(files).toEqual([]);
    expect(await mailCount()).toBe(mails);
    // The same form without the NUL goes through.
    expect((await post(`${m.path}/decline`, { reason: 'Too expensive' })).status).toBe(303);
  });
});

describe('the change-order page', () => {
  it('approve and decline with NUL: 400, still sent, no audit row', async () => {
    const { job: j } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: j.id, title: 'Extra patching', amount_delta: 800 });
    const path = new URL((await ok(w.api.post(`/v1/change-orders/${co.id}/send`))).url).pathname;
    const page = (await getPage(path)).text;
    const hash = /name="document_hash" value="([0-9a-f]{64})"/.exec(page)![1]!;
    const before = (await ok(w.api.get(`/v1/change-orders/${co.id}`))).data;
    const mails = await mailCount();
    refused(
      await post(`${path}/approve`, {
        document_hash: hash,
        signature_name: `Marcus${NUL}`,
        consent: 'yes',
        signature: '',
      }),
    );
    refused(await post(`${path}/decline`, { comment: `Not${NUL} now` }));

    const after = (await ok(w.api.get(`/v1/change-orders/${co.id}`))).data;
    expect(after).toMatchObject({ status: 'sent', decision_comment: null, signature_name: null });
    expect(after.signature.audit_trail).toEqual(before.signature.audit_trail);
    expect(await mailCount()).toBe(mails);
  });
});

describe('the portal page', () => {
  it('a message and a map comment with NUL: 400, no message, no alert', async () => {
    const customer = await account(w, 'Maple Ridge HOA');
    const lot = await job(w, { name: 'Clubhouse lot', client_account_id: customer.id });
    const portal = new URL(
      (await ok(w.api.post(`/v1/client-accounts/${customer.id}/portal-link`, {}))).data.portal_url!,
    ).pathname;
    const mails = await mailCount();
    refused(await post(`${portal}/jobs/${lot.id}/messages`, { body: `Can you start${NUL} at 8?` }));
    refused(
      await post(`${portal}/jobs/${lot.id}/map-comments`, {
        body: 'Pothole here',
        latitude: `39.78${NUL}`,
        longitude: '-89.65',
      }),
    );
    refused(
      await post(`${portal}/jobs/${lot.id}/map-comments`, {
        body: `Pothole${NUL}`,
        latitude: '39.78',
        longitude: '-89.65',
      }),
    );
    expect((await ok(w.api.get(`/v1/jobs/${lot.id}/portal-messages`))).data).toEqual([]);
    expect(await mailCount()).toBe(mails);
  });
});

describe('the review page', () => {
  it('a review with NUL: 400, not submitted', async () => {
    const j = await job(w, { name: 'Oak St lot', contact_name: 'Dana Reyes' });
    const review = (await ok(w.api.post(`/v1/jobs/${j.id}/review-request`, {}))).data;
    const path = new URL(review.review_url).pathname;
    const mails = await mailCount();
    refused(await post(path, { rating: '5', content: `Great${NUL} crew`, is_public: 'yes' }));
    refused(await post(path, { rating: `5${NUL}` }));
    const [listed] = (await ok(w.api.get(`/v1/reviews?job_id=${j.id}`))).data;
    expect(listed).toMatchObject({ submitted: false, rating: null, content: null, submitted_at: null });
    expect(await mailCount()).toBe(mails);
  });
});
