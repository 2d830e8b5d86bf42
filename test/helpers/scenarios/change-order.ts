// Scenario: a change order on a won job. Workspaces with operations on, a job with a customer
// contact whose estimate is issued and won (the contract change orders revise), lines on an
// estimate, and a change order made through the API; used by the change-order tests and by the
// tests of pages, alerts and links that start from one.
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

/** A job whose estimate is issued and won: its price is the job's contract value. */
export async function wonJob(api: Client, body: Record<string, unknown> = {}) {
  const job = await jobWithContact(api, body);
  const estimate = (await ok(api.post('/v1/estimates', { job_id: job.id }))).data;
  await addLine(api, estimate.id, { cost_code: '02-100' });
  await ok(api.post(`/v1/estimates/${estimate.id}/issue`, {}));
  const won = (await ok(api.post(`/v1/estimates/${estimate.id}/mark-won`, {}))).data;
  return { job, estimate: won };
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
