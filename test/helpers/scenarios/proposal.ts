// Scenario: a job with a proposal made through the API (a priced estimate with a grouped pair
// and an optional line, its proposal, sent unless asked not to), the proposal page's path, and
// the proposal events recorded for the job. The proposal page tests, and the tests of pages and
// payments that start from a sent proposal, build on it.
import { expect } from 'vitest';
import type { ResponseOf } from '#test/helpers/api-types.ts';
import { eventsOf, type TestApp, type Workspace } from '#test/helpers/harness.ts';
import { ok } from '#test/helpers/records.ts';

let serial = 0;

export interface Made {
  job: ResponseOf<'/v1/jobs/{id}', 'get'>['data'];
  /** Made from an estimate, so it has one. */
  proposal: ResponseOf<'/v1/proposals/{id}', 'get'>['data'] & { estimate_id: number };
  /** The page's path (/share/proposals/<token>). */
  path: string;
  /** The office preview's path and query. */
  previewPath: string;
}

/** A proposal from a priced estimate; sent unless `send` is false (a draft). */
export async function proposalOnJob(
  w: Workspace,
  opts: { send?: boolean; patch?: Record<string, unknown> } = {},
): Promise<Made> {
  const n = ++serial;
  const job = await ok(
    w.api.post('/v1/jobs', {
      name: `Page lot ${n}`,
      company: `Maple HOA ${n}`,
      contact_name: `Robin Vega ${n}`,
      contact_email: `robin${n}@example.com`,
      address: `${n} Elm St, Columbus, OH 43215`,
    }),
  ).then((b) => b.data);
  const estimate = (await ok(w.api.post('/v1/estimates', { job_id: job.id }))).data;
  const line = async (body: Record<string, unknown>) => {
    const r = await w.api.post(`/v1/estimates/${estimate.id}/line-items`, { unit: 'SF', quantity: 1000, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.line_item_id as number;
  };
  await line({ name: 'Sealcoat main lot', unit_cost: 0.2 });
  await line({ name: 'Restripe stalls', unit: 'EA', quantity: 40, unit_cost: 10 });
  const crack = await line({ name: 'Crack fill', unit: 'LF', quantity: 500, unit_cost: 1 });
  await ok(w.api.patch(`/v1/estimates/${estimate.id}/line-items/${crack}`, { is_optional: true }));
  let proposal = (await ok(w.api.post(`/v1/estimates/${estimate.id}/proposal`))).data;
  if (opts.patch) proposal = (await ok(w.api.patch(`/v1/proposals/${proposal.id}`, opts.patch))).data;
  if (opts.send !== false) {
    const sent = await w.api.post(`/v1/proposals/${proposal.id}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    proposal = sent.body.data;
  }
  const path = new URL(proposal.share_url!).pathname;
  const preview = new URL(proposal.link.preview_url);
  return {
    job,
    proposal: { ...proposal, estimate_id: estimate.id },
    path,
    previewPath: `${preview.pathname}${preview.search}`,
  };
}

/** The proposal_* events recorded for the job, oldest first. */
export async function proposalEvents(t: TestApp, jobId: number) {
  return (await eventsOf(t.database, jobId)).filter((e) => e.event_type.startsWith('proposal_'));
}

/** The hidden document hash of a rendered page. */
export function documentHashIn(page: string): string {
  const m = /name="document_hash" value="([0-9a-f]{64})"/.exec(page);
  if (!m) throw new Error('the page has no accept form');
  return m[1];
}
