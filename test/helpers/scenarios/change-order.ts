// Scenario: a change order on a job with a signed contract. Workspaces with operations on, a job
// whose proposal the customer accepted on the proposal page (the contract change orders revise),
// lines on an estimate, and a change order made through the API; used by the change-order tests
// and by the tests of pages, alerts and links that start from one.
import { expect } from 'vitest';
import type { Client, TestApp, Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';
import type { BodyOf } from '#test/helpers/api-types.ts';

/** A workspace with operations on (document 2: change-order writes need it). */
export const operationsWorkspace = (t: TestApp, body: Record<string, unknown> = {}) =>
  t.workspace({ ...body, settings: { operations_enabled: true, ...((body.settings as object) ?? {}) } });

let serial = 0;

export async function jobWithContact(api: Client, body: Record<string, unknown> = {}) {
  const n = ++serial;
  return (
    await ok(
      api.post('/v1/jobs', {
        name: `Change job ${n}`,
        contact_name: 'Dana Customer',
        contact_email: `dana${n}@customer.test`,
        ...body,
      }),
    )
  ).data;
}

/** A line typed on an estimate (unit costing), in a cost code. */
export async function addLine(api: Client, estimateId: number, line: Record<string, unknown>) {
  const res = await api.post(`/v1/estimates/${estimateId}/line-items`, {
    name: 'Sealcoat',
    unit: 'SF',
    quantity: 10_000,
    unit_cost: 0.25,
    ...line,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/**
 * A job with a signed contract: its estimate issued, its proposal sent and accepted by the customer
 * on the proposal page (the contract change orders revise is the accepted proposal's total), and the
 * estimate marked won. `contract` is that total in dollars.
 */
export async function wonJob(api: Client, body: Record<string, unknown> = {}) {
  const job = await jobWithContact(api, body);
  const estimate = (await ok(api.post('/v1/estimates', { job_id: job.id }))).data;
  await addLine(api, estimate.id, { cost_code: '02-100' });
  await ok(api.post(`/v1/estimates/${estimate.id}/issue`, {}));
  const proposal = (await ok(api.post(`/v1/estimates/${estimate.id}/proposal`))).data;
  const sent = (await ok(api.post(`/v1/proposals/${proposal.id}/send`, {}))).data;
  const accepted = await acceptOnPage(api, sent);
  const won = (await ok(api.post(`/v1/estimates/${estimate.id}/mark-won`, {}))).data;
  return { job, estimate: won, proposal: accepted, contract: accepted.totals.total as number };
}

/** The customer accepts a sent proposal on its page (the page's own form, url-encoded). */
export async function acceptOnPage(api: Client, proposal: { id: number; share_url: string | null }) {
  if (!proposal.share_url) throw new Error('the proposal has no customer link');
  const path = new URL(proposal.share_url).pathname;
  const page = await api.get(path);
  const hash = /name="document_hash" value="([0-9a-f]{64})"/.exec(String(page.body))?.[1];
  if (!hash) throw new Error('the proposal page has no accept form');
  const form = new URLSearchParams({
    document_hash: hash,
    signer_name: 'Dana Customer',
    signer_email: 'dana@customer.test',
    consent: 'yes',
    signature: '',
  });
  const answer = await api.post(`${path}/accept`, form.toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect(answer.status, String(answer.body)).toBe(303);
  const accepted = (await ok(api.get(`/v1/proposals/${proposal.id}`))).data;
  expect(accepted.status).toBe('accepted');
  return accepted;
}

export async function changeOrder(api: Client, body: BodyOf<'/v1/change-orders', 'post'>) {
  const res = await api.post('/v1/change-orders', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function feedOf(w: Workspace, type: string) {
  const events = (await ok(w.api.get('/v1/events?limit=200'))).data as any[];
  return events.filter((e) => e.event_type === type);
}
