// What each actor of the busy day does when its turn comes (bench/day/mix.ts lists them and how
// often): the calls, their bodies, the statuses they expect and the designed 4xx. A flow's first
// call is timed from when the flow was due; the calls after it from when they are sent.
import { randomBytes } from 'node:crypto';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Answer, Call, Client } from './client.ts';
import type { FlowName, Kind } from './mix.ts';
import type { Recorder } from './record.ts';
import { NAMES, type ProvisionedWorkspace, STREETS } from './provision.ts';
import type { Pages } from './seed.ts';

/** A sync client's watermarks, one set per workspace it syncs. */
export interface SyncState {
  lists: Partial<Record<'jobs' | 'estimates' | 'invoices', string>>;
  exports: Partial<Record<string, string>>;
}

/** A workspace as the flows use it: its jobs, with those the integrator makes during the run. */
export interface Workspace extends ProvisionedWorkspace {
  jobIds: number[];
}

export interface FlowContext {
  client: Client;
  rec: Recorder;
  w: Workspace;
  /** The customer pages this workspace's customers open (a day workspace's). */
  pages: Pages;
  sync: SyncState;
  /** When the flow was due (performance.now()). */
  due: number;
  rand: () => number;
  /** A phone photo's bytes (JPEG). */
  photo: Buffer;
  /** Unique across the run: names and external refs the integrator makes. */
  serial: () => string;
}

const pick = <T>(ctx: FlowContext, xs: readonly T[]): T => xs[Math.floor(ctx.rand() * xs.length)]!;
const dataOf = (a: Answer) => (JSON.parse(a.body) as { data: any }).data;
const rowsOf = (a: Answer) => (JSON.parse(a.body) as { data: { updated_at: string }[] }).data;

/** The flow's first call is timed from when the flow was due; `first` says whether this is it. */
function call(ctx: FlowContext, kind: Kind, c: Call, first = false): Promise<Answer | null> {
  return ctx.client.call(ctx.rec, kind, first ? { ...c, since: ctx.due } : c);
}

/** The longest a sync may page before it counts as not converging (a watermark that does not move). */
const MAX_PAGES = 50;

/** The spec's sync recipe: rows changed after the watermark, oldest first, paged until a short page. */
async function syncList(ctx: FlowContext, list: 'jobs' | 'estimates' | 'invoices', kind: Kind, limit: number) {
  let after = ctx.sync.lists[list]!;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) {
      ctx.rec.flowErrors.push(`sync ${list}: ${MAX_PAGES} full pages after updated_after=${after}`);
      break;
    }
    const a = await call(
      ctx,
      kind,
      {
        method: 'GET',
        path: `/v1/${list}?updated_after=${encodeURIComponent(after)}&limit=${limit}`,
        key: ctx.w.integratorKey,
      },
      page === 0,
    );
    if (!a) return;
    const rows = rowsOf(a);
    if (rows.length > 0) after = rows.at(-1)!.updated_at;
    if (rows.length < limit) break;
  }
  ctx.sync.lists[list] = after;
}

const DATASETS = ['jobs', 'customers', 'invoices'] as const;

async function exportIncremental(ctx: FlowContext) {
  const dataset = pick(ctx, DATASETS);
  const since = ctx.sync.exports[dataset] ?? ctx.sync.lists.jobs!;
  const a = await call(
    ctx,
    'exportIncremental',
    {
      method: 'GET',
      path: `/v1/exports/${dataset}.jsonl?updated_after=${encodeURIComponent(since)}`,
      key: ctx.w.integratorKey,
      check: (a) => (a.headers['x-service-export-watermark'] ? null : 'no X-Service-Export-Watermark'),
    },
    true,
  );
  if (a) ctx.sync.exports[dataset] = String(a.headers['x-service-export-watermark']);
}

/** The integrator's connector pushing a new customer from the CRM: customer, site, job, sometimes an estimate. */
async function pushCustomer(ctx: FlowContext) {
  const { w } = ctx;
  const tag = ctx.serial();
  const name = `${pick(ctx, NAMES)} Holdings ${tag}`;
  const address = `${tag.replace(/\D/g, '').slice(-4)} ${pick(ctx, STREETS)}, Columbus, OH 43215`;
  const key = w.integratorKey;
  const customer = await call(
    ctx,
    'createCustomer',
    {
      method: 'POST',
      path: '/v1/client-accounts',
      key,
      json: { name, external_ref: `crm-${tag}`, email: `ap@${tag}.example.com`, phone: '6145550111' },
      expect: [201],
    },
    true,
  );
  if (!customer) return;
  const customerId = dataOf(customer).id as number;
  const site = await call(ctx, 'createSite', {
    method: 'POST',
    path: '/v1/locations',
    key,
    json: { address, client_account_id: customerId, external_ref: `crm-site-${tag}` },
    expect: [201],
  });
  if (!site) return;
  const jobName = `${name} resurfacing`;
  const job = await call(ctx, 'createJob', {
    method: 'POST',
    path: '/v1/jobs',
    key,
    json: {
      name: jobName,
      client_account_id: customerId,
      address,
      contact_name: `Sam ${tag}`,
      contact_email: `sam@${tag}.example.com`,
      job_type: 'Asphalt Paving',
      estimated_value: 18_450,
      source: 'crm',
    },
    expect: [201],
  });
  if (!job) return;
  const jobId = dataOf(job).id as number;
  w.jobIds.push(jobId);
  // One push in ten repeats a name the workspace has: 409 with duplicate_job_id, as designed.
  if (ctx.rand() < 0.1)
    await call(ctx, 'createJob', {
      method: 'POST',
      path: '/v1/jobs',
      key,
      json: { name: w.takenName, client_account_id: customerId },
      expect: [],
      designed: [409],
    });
  if (ctx.rand() < 0.5) {
    const estimate = await call(ctx, 'createEstimate', {
      method: 'POST',
      path: '/v1/estimates',
      key,
      json: { job_id: jobId },
      expect: [201],
    });
    if (!estimate) return;
    const id = dataOf(estimate).id as number;
    for (const line of [
      { name: 'Mill 2 in', unit: 'SY', quantity: 1_800, unit_cost: 4.25 },
      { name: 'Overlay 2 in', unit: 'TON', quantity: 210, unit_cost: 96 },
      { name: 'Restripe', unit: 'EA', quantity: 60, unit_cost: 9.5 },
    ])
      await call(ctx, 'addLine', {
        method: 'POST',
        path: `/v1/estimates/${id}/line-items`,
        key,
        json: line,
        expect: [201],
      });
  }
}

async function updateJob(ctx: FlowContext) {
  const id = pick(ctx, ctx.w.jobIds);
  const json =
    ctx.rand() < 0.25
      ? { status: pick(ctx, ['active', 'won'] as const) }
      : { estimated_value: 1_000 + Math.floor(ctx.rand() * 40_000), notes: `Synced ${new Date().toISOString()}` };
  await call(
    ctx,
    'updateJob',
    { method: 'PATCH', path: `/v1/jobs/${id}`, key: ctx.w.integratorKey, json, expect: [200] },
    true,
  );
}

/** The customer's pay page in test mode: the card form, then a test card (one in ten declined first, 402). */
async function pay(ctx: FlowContext) {
  const { pages } = ctx;
  const requested = await call(
    ctx,
    'requestPayment',
    {
      method: 'POST',
      path: `/v1/estimates/${pick(ctx, pages.billable)}/request-payment`,
      key: pages.officeKey,
      json: { confirm_duplicate: true },
      expect: [201],
    },
    true,
  );
  if (!requested) return;
  const page = new URL(dataOf(requested).payment_url as string).pathname;
  if (!(await call(ctx, 'invoicePage', { method: 'GET', path: page }))) return;
  const form = await call(ctx, 'payForm', { method: 'GET', path: `${page}/pay` });
  const attempt = form && /name="attempt" value="([0-9a-f]{32})"/.exec(form.body)?.[1];
  if (!attempt) return;
  const card = (number: string) =>
    new URLSearchParams({ attempt, number, expiry: '12/40', cvc: '123', name: 'Pat Customer' }).toString();
  const post = (number: string, expect: number[], designed: number[] = []) =>
    call(ctx, 'payCard', {
      method: 'POST',
      path: `${page}/pay`,
      body: card(number),
      contentType: 'application/x-www-form-urlencoded',
      expect,
      designed,
    });
  if (ctx.rand() < 0.1) await post('4000 0000 0000 0002', [], [402]);
  await post('4242 4242 4242 4242', [303]);
}

/** A multipart/form-data body: a phone app's photo with its stage and a client_uid. */
function photoForm(photo: Buffer, uid: string): { body: Buffer; contentType: string } {
  const boundary = `----groundwork-day-${randomBytes(8).toString('hex')}`;
  const fields = { stage: 'during', client_uid: uid };
  const head =
    Object.entries(fields)
      .map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="IMG_${uid}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const MCP_HEADERS = {
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

/** An assistant's tool call: mostly reads, one in four a note on a job. */
async function mcp(ctx: FlowContext) {
  const { w } = ctx;
  const r = ctx.rand();
  const [kind, name, args]: [Kind, string, Record<string, unknown>] =
    r < 0.25
      ? [
          'mcpWrite',
          'create_job_note',
          { job_id: pick(ctx, w.jobIds), content: 'Customer called about the start date.' },
        ]
      : r < 0.5
        ? ['mcpRead', 'search_records', { q: pick(ctx, w.terms) }]
        : r < 0.75
          ? ['mcpRead', 'get_job', { id: pick(ctx, w.jobIds) }]
          : ['mcpRead', 'list_jobs', { status: 'active', limit: 20 }];
  await call(
    ctx,
    kind,
    {
      method: 'POST',
      path: '/v1/mcp',
      key: w.officeKey,
      headers: MCP_HEADERS,
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      check: (a) => {
        const answer = JSON.parse(a.body) as { result?: { isError?: boolean }; error?: unknown };
        return answer.error || !answer.result || answer.result.isError ? `${name}: ${a.body.slice(0, 300)}` : null;
      },
    },
    true,
  );
}

export const FLOWS: Record<FlowName, (ctx: FlowContext) => Promise<unknown>> = {
  syncJobs: (ctx) => syncList(ctx, 'jobs', 'syncJobs', 100),
  syncEstimates: (ctx) => syncList(ctx, 'estimates', 'syncEstimates', 100),
  syncInvoices: (ctx) => syncList(ctx, 'invoices', 'syncInvoices', 200),
  exportIncremental,
  exportFull: (ctx) =>
    call(ctx, 'exportFull', { method: 'GET', path: '/v1/exports/jobs.jsonl', key: ctx.w.integratorKey }, true),
  pushCustomer,
  updateJob,
  readJob: (ctx) =>
    call(ctx, 'readJob', { method: 'GET', path: `/v1/jobs/${pick(ctx, ctx.w.jobIds)}`, key: ctx.w.officeKey }, true),
  listJobs: (ctx) => {
    const status = pick(ctx, ['lead', 'active', 'won'] as const);
    const offset = ctx.rand() < 0.25 ? '&offset=50' : '';
    return call(
      ctx,
      'listJobs',
      { method: 'GET', path: `/v1/jobs?status=${status}&limit=50${offset}`, key: ctx.w.officeKey },
      true,
    );
  },
  listCustomers: (ctx) => {
    const q = ctx.rand() < 0.5 ? `&q=${encodeURIComponent(pick(ctx, ctx.w.terms))}` : '';
    return call(
      ctx,
      'listCustomers',
      { method: 'GET', path: `/v1/client-accounts?limit=50${q}`, key: ctx.w.officeKey },
      true,
    );
  },
  search: (ctx) =>
    call(
      ctx,
      'search',
      { method: 'GET', path: `/v1/search?q=${encodeURIComponent(pick(ctx, ctx.w.terms))}`, key: ctx.w.officeKey },
      true,
    ),
  openProposal: (ctx) => call(ctx, 'proposalPage', { method: 'GET', path: pick(ctx, ctx.pages.proposalPaths) }, true),
  openInvoice: (ctx) => call(ctx, 'invoicePage', { method: 'GET', path: pick(ctx, ctx.pages.invoicePaths) }, true),
  pay,
  uploadPhoto: (ctx) => {
    const form = photoForm(ctx.photo, `day-${ctx.serial()}`);
    return call(
      ctx,
      'uploadPhoto',
      {
        method: 'POST',
        path: `/v1/jobs/${pick(ctx, ctx.w.jobIds)}/photos`,
        key: ctx.w.officeKey,
        body: form.body,
        contentType: form.contentType,
        expect: [201],
      },
      true,
    );
  },
  mcp,
};
