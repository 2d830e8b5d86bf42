// What the day's workspaces' customers open, made through the running server as an office would
// make it (so every rule, event and link is the server's own): estimates of three lines on their
// jobs, proposals sent to the customer (their pages), online invoices requested (their pages) and
// check invoices; then every workspace's webhook subscriptions. Seeding is not measured.
import type { Answer, Client } from './client.ts';
import type { WorkspaceSize } from './mix.ts';
import { jobIdsOf, type ProvisionedWorkspace } from './provision.ts';
import { Recorder } from './record.ts';
import { type Receivers, receiversOf } from './receivers.ts';

/** A day workspace's customer pages and what its office bills. */
export interface Pages {
  /** Paths of the sent proposals' customer pages. */
  proposalPaths: string[];
  /** Paths of the online invoices' customer pages. */
  invoicePaths: string[];
  /** Estimates with a sent proposal: the office requests payment on them. */
  billable: number[];
  /** The workspace's office key (request-payment is the office's call). */
  officeKey: string;
}

/** The seeding's calls go through the same client, on a recorder of their own that only counts failures. */
async function post(client: Client, key: string, path: string, json: unknown): Promise<Record<string, any>> {
  const rec = new Recorder();
  const a: Answer | null = await client.call(rec, 'createEstimate', {
    method: 'POST',
    path,
    key,
    json,
    expect: [200, 201],
  });
  if (!a) throw new Error(`seeding: POST ${path} failed: ${rec.kinds(1)[0]?.samples.join(' ')}`);
  return (JSON.parse(a.body) as { data: Record<string, any> }).data;
}

async function seedOne(client: Client, w: ProvisionedWorkspace, size: WorkspaceSize): Promise<Pages> {
  const key = w.officeKey;
  const ids = jobIdsOf(w);
  const job = (i: number) => ids[i]!;
  const estimates: number[] = [];
  for (let i = 0; i < size.estimates; i++) {
    const estimate = (await post(client, key, '/v1/estimates', { job_id: job(i) })).id as number;
    for (const line of [
      { name: 'Crack fill', unit: 'LF', quantity: 400 + i * 10, unit_cost: 1.1 },
      { name: 'Sealcoat, two coats', unit: 'SF', quantity: 12_000 + i * 100, unit_cost: 0.19 },
      { name: 'Restripe stalls', unit: 'EA', quantity: 40, unit_cost: 9.5 },
    ])
      await post(client, key, `/v1/estimates/${estimate}/line-items`, line);
    estimates.push(estimate);
  }
  const proposalPaths: string[] = [];
  for (let i = 0; i < size.proposals; i++) {
    const proposal = await post(client, key, `/v1/estimates/${estimates[i]}/proposal`, {});
    const sent = await post(client, key, `/v1/proposals/${proposal.id}/send`, {});
    proposalPaths.push(new URL(sent.share_url as string).pathname);
  }
  const invoicePaths: string[] = [];
  for (let i = 0; i < size.onlineInvoices; i++) {
    const requested = await post(client, key, `/v1/estimates/${estimates[i]}/request-payment`, {});
    invoicePaths.push(new URL(requested.payment_url as string).pathname);
  }
  for (let i = 0; i < size.checkInvoices; i++) {
    const at = size.proposals + i;
    await post(client, key, '/v1/invoices', {
      job_id: job(at),
      estimate_id: estimates[at],
      line_items: [{ description: 'Sealcoat and restripe', amount: 2_780.5 }],
      remit_to_name: 'Day Paving',
      remit_to_address: '1200 Industrial Pkwy, Columbus, OH 43228',
    });
  }
  return { proposalPaths, invoicePaths, billable: estimates.slice(0, size.proposals), officeKey: key };
}

/** Seeds every day workspace, `parallel` at a time. */
export async function seedPages(
  client: Client,
  workspaces: ProvisionedWorkspace[],
  size: WorkspaceSize,
  parallel = 4,
): Promise<Pages[]> {
  const out: Pages[] = new Array(workspaces.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < workspaces.length; i = next++) out[i] = await seedOne(client, workspaces[i]!, size);
    }),
  );
  return out;
}

/**
 * A workspace's integrations subscribe once its records exist (so seeding queues no deliveries):
 * job and proposal events (`*`) to every receiver the workspace has, business events (`all`) to the
 * fast one; every subscription signed. `of` is how many workspaces share the receivers' roles (the
 * day's), so a sizing step's workspaces get the same share of slow, failing and down ones.
 */
export async function subscribe(
  client: Client,
  workspaces: ProvisionedWorkspace[],
  receivers: Receivers,
  of: number,
): Promise<void> {
  for (const w of workspaces) {
    const hooks = receiversOf(w.index % of, of).map((kind) => ({
      target_url: receivers.url(kind, w.index),
      event_type: '*',
    }));
    hooks.push({ target_url: receivers.url('fast', w.index, true), event_type: 'all' });
    for (const hook of hooks)
      await post(client, w.integratorKey, '/v1/webhooks', { ...hook, secret: `whsec_day_${w.index}` });
  }
}
