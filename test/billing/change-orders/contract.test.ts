// The contract a change order revises (issue 24; docs/api-decisions.md, "Change orders"): the job's
// signed contract, its latest accepted proposal's total plus what approved change orders posted,
// the same figure request-payment bills. Before a proposal is accepted there is no contract: no
// stand-in from a won estimate or the job's estimated_value, null on the API and said plainly on
// the customer's page. What the customer reads when signing is what the record and the page keep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { pageVisitor } from '#test/helpers/page-visitor.ts';
import { ok } from '#test/helpers/records.ts';
import {
  addLine,
  changeOrder,
  jobWithContact,
  operationsWorkspace,
  wonJob,
} from '#test/helpers/scenarios/change-order.ts';

let t: TestApp;
let w: Workspace;

beforeAll(async () => {
  t = await startApp();
  w = await operationsWorkspace(t, {
    name: 'Blacktop Brothers',
    settings: { operations_enabled: true, online_payments_connected: true },
  });
});
afterAll(() => t?.close());

const { getPage, post } = pageVisitor(() => t, 'Mozilla/5.0 (change-order contract test)');

const cents = (n: number) => Math.round(n * 100);
const money = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
const changeOrderOf = async (id: number) => (await ok(w.api.get(`/v1/change-orders/${id}`))).data;

/** A job whose estimate is issued and won, with an estimated_value, but no proposal accepted. */
async function unsignedJob() {
  const job = await jobWithContact(w.api, { estimated_value: 56660.34 });
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
  await addLine(w.api, estimate.id, { cost_code: '02-100' });
  await ok(w.api.post(`/v1/estimates/${estimate.id}/issue`, {}));
  await ok(w.api.post(`/v1/estimates/${estimate.id}/mark-won`, {}));
  return job;
}

async function sent(co: Record<string, any>) {
  const res = await ok(w.api.post(`/v1/change-orders/${co.id}/send`));
  return new URL(res.url).pathname;
}

function approveForm(page: string) {
  const hash = /name="document_hash" value="([0-9a-f]{64})"/.exec(page)?.[1];
  if (!hash) throw new Error('the page has no approve form');
  return { document_hash: hash, signature_name: 'Robin Vega', consent: 'yes', signature: '' };
}

describe('no signed contract yet', () => {
  it('a won estimate or an estimated_value is no contract: revised_contract and revised_budget are null', async () => {
    const job = await unsignedJob();
    const co = await changeOrder(w.api, { job_id: job.id, title: 'Extra patching', amount_delta: 1250 });
    expect(co).toMatchObject({ revised_contract: null, revised_budget: null });
    const approved = (await ok(w.api.post(`/v1/change-orders/${co.id}/approve`))).data;
    expect(approved).toMatchObject({ status: 'approved', revised_contract: null, revised_budget: null });
  });

  it('the page says plainly there is no signed contract and shows the change on its own', async () => {
    const job = await unsignedJob();
    const co = await changeOrder(w.api, { job_id: job.id, title: 'Extra patching', amount_delta: 1250 });
    const page = await getPage(await sent(co));
    expect(page.status).toBe(200);
    expect(page.text).toContain('No signed contract yet');
    expect(page.text).toContain('+$1,250.00');
    expect(page.text).not.toContain('New contract total');
    expect(page.text).not.toContain('$56,660.34');
  });
});

describe('the signed contract', () => {
  it("is the accepted proposal's total plus approved change orders; the budget is its estimate's cost", async () => {
    const { job, estimate, proposal } = await wonJob(w.api, { estimated_value: 217504 });
    const first = await changeOrder(w.api, { job_id: job.id, title: 'Extra lot', amount_delta: 1000.5 });
    expect(first).toMatchObject({
      revised_contract: (cents(proposal.totals.total) + 100050) / 100,
      revised_budget: estimate.totals?.cost,
    });
    await ok(w.api.post(`/v1/change-orders/${first.id}/approve`));
    const second = await changeOrder(w.api, { job_id: job.id, title: 'Less striping', amount_delta: -200 });
    expect(second.revised_contract).toBe((cents(proposal.totals.total) + 100050 - 20000) / 100);
  });

  it('request-payment bills the same revised contract the change orders show', async () => {
    const { job, estimate } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: job.id, title: 'Extra lot', amount_delta: 1000.5 });
    const approved = (await ok(w.api.post(`/v1/change-orders/${co.id}/approve`))).data;
    const requested = await ok(w.api.post(`/v1/estimates/${estimate.id}/request-payment`, { kind: 'full' }));
    expect(requested.data.invoice.amount).toBe(approved.revised_contract);
    // Billing it again is over that very contract.
    const again = await w.api.post(`/v1/estimates/${estimate.id}/request-payment`, { kind: 'itemized' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'over_contract', contract: approved.revised_contract });
  });

  it('what the customer signs is what the record and the page keep afterwards', async () => {
    const { job, proposal } = await wonJob(w.api);
    const co = await changeOrder(w.api, { job_id: job.id, title: 'Extra patching', amount_delta: 1250 });
    const path = await sent(co);
    const page = await getPage(path);
    const total = cents(proposal.totals.total) + 125000;
    expect(page.text).toContain(`New contract total</dt><dd>${money(total)}`);
    const signed = await post(`${path}/approve`, approveForm(page.text));
    expect(signed.status).toBe(303);

    // Another change order approved afterwards moves the job's contract, not the signed one's figures.
    const later = await changeOrder(w.api, { job_id: job.id, title: 'Later', amount_delta: 500 });
    await ok(w.api.post(`/v1/change-orders/${later.id}/approve`));
    expect((await changeOrderOf(co.id)).revised_contract).toBe(total / 100);
    expect((await changeOrderOf(later.id)).revised_contract).toBe((total + 50000) / 100);
    const after = await getPage(path);
    expect(after.text).toContain('Signed by Robin Vega');
    expect(after.text).toContain(`New contract total</dt><dd>${money(total)}`);
  });
});
